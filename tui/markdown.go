package tui

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/clipperhouse/displaywidth"
)

// The outcome document is Markdown that arena writes itself (headings,
// paragraphs, lists, tables, emphasis), with the models' text inside it.
// It is drawn by the small renderer below, not by glamour: glamour links
// in chroma, whose package initialisers parse every lexer and style it
// embeds (XML: 257 lexers and 67 styles in v2.20) before main runs, in every
// arena process, whether or not anything is ever rendered. That was more
// than half of arena's start (GODEBUG=inittrace=1 arena --version:
// chroma/v2/lexers and chroma/v2/styles above everything else), and Go
// cannot defer a linked package's init: the only way not to pay is not to
// link it. What this renderer leaves out is syntax highlighting inside
// code blocks, which an outcome document seldom has; they are shown as
// they are.

// mdStyle is how a document is painted. Every ink only colours or
// weighs; with marks, emphasis keeps its Markdown delimiters, for screens
// without colour, where bold and italics do not show.
type mdStyle struct {
	text, bold, italic, boldItalic, code, link ink
	heading                                    [3]ink // # , ##, ### and deeper
	quote, rule, bullet, dim                   ink
	marks                                      bool
}

// markdownStyle derives the document's style from the screen's theme.
func markdownStyle(r *lipgloss.Renderer, th theme) mdStyle {
	s := func() lipgloss.Style { return r.NewStyle().Foreground(colorText) }
	return mdStyle{
		text:       th.text,
		bold:       inkOf(s().Bold(true)),
		italic:     inkOf(s().Italic(true)),
		boldItalic: inkOf(s().Bold(true).Italic(true)),
		code:       inkOf(r.NewStyle().Foreground(agentColors[3])),
		link:       inkOf(r.NewStyle().Foreground(agentColors[1]).Underline(true)),
		heading: [3]ink{
			inkOf(r.NewStyle().Bold(true).Foreground(agentColors[0])),
			inkOf(r.NewStyle().Bold(true).Foreground(agentColors[1])),
			inkOf(s().Bold(true)),
		},
		quote:  th.dim,
		rule:   th.line,
		bullet: th.dim,
		dim:    th.dim,
		marks:  !th.color,
	}
}

// renderMarkdown draws md in lines of at most width cells (each line
// painted on its own, so no style runs from one line into the next), with
// a margin of two cells on the left.
func renderMarkdown(md string, width int, st mdStyle) string {
	// A blank line first sets the document apart from the banner above.
	r := mdRenderer{st: st, width: max(width-4, 10), out: []string{""}}
	r.blocks(strings.Split(normalizeMarkdown(md), "\n"))
	for len(r.out) > 0 && r.out[len(r.out)-1] == "" {
		r.out = r.out[:len(r.out)-1]
	}
	return strings.Join(r.out, "\n")
}

// normalizeMarkdown unifies line ends, expands tabs (to four columns, as
// CommonMark counts them) so that indentation is a count of spaces, and
// drops control characters and invalid UTF-8: the engine cleans what the
// models write, but a replayed log may hold anything, and none of it may
// reach the terminal as a control sequence.
func normalizeMarkdown(md string) string {
	md = strings.ReplaceAll(md, "\r\n", "\n")
	var b strings.Builder
	b.Grow(len(md))
	col := 0
	for _, c := range strings.ToValidUTF8(md, "\uFFFD") {
		switch {
		case c == '\t':
			n := 4 - col%4
			b.WriteString(strings.Repeat(" ", n))
			col += n
		case c == '\n' || c == '\r':
			b.WriteByte('\n')
			col = 0
		case unicode.IsControl(c):
			// dropped
		default:
			b.WriteRune(c)
			col++
		}
	}
	return b.String()
}

const margin = "  "

type mdRenderer struct {
	st    mdStyle
	width int // of the text, inside the margin
	depth int // of quotes around this renderer
	out   []string
	para  []string // lines of the paragraph being gathered
}

// maxQuoteDepth bounds nested quotes: each level renders its inside
// again, so "> > > ..." a thousand deep would cost a million line copies.
const maxQuoteDepth = 8

// emit adds lines, each behind the margin and its prefix (first for the
// first line, rest for the others).
func (r *mdRenderer) emit(lines []string, first, rest string) {
	for i, l := range lines {
		p := rest
		if i == 0 {
			p = first
		}
		r.out = append(r.out, strings.TrimRight(margin+p+l, " "))
	}
}

// gap leaves one blank line between blocks.
func (r *mdRenderer) gap() {
	if len(r.out) > 0 && r.out[len(r.out)-1] != "" {
		r.out = append(r.out, "")
	}
}

// blocks renders a sequence of lines: headings, rules, fenced code,
// quotes, lists, tables and paragraphs.
func (r *mdRenderer) blocks(lines []string) {
	for i := 0; i < len(lines); i++ {
		ln := lines[i]
		t := strings.TrimSpace(ln)
		indent := len(ln) - len(strings.TrimLeft(ln, " "))
		switch {
		case t == "":
			r.flush()
		case len(r.para) > 0 && isSetextUnderline(t):
			// "Title\n=====" and "Title\n-----" are headings.
			level := 1
			if t[0] == '-' {
				level = 2
			}
			text := strings.Join(r.para, " ")
			r.para = nil
			r.heading(level, text)
		case isRule(t):
			r.flush()
			r.gap()
			r.out = append(r.out, margin+r.st.rule.Render(strings.Repeat("─", r.width)))
			r.gap()
		case indent < 4 && headingLevel(t) > 0:
			r.flush()
			level := headingLevel(t)
			r.heading(level, strings.TrimSpace(strings.TrimRight(strings.TrimSpace(t[level:]), "#")))
		case indent < 4 && isFence(t):
			r.flush()
			i = r.codeBlock(lines, i)
		case indent < 4 && strings.HasPrefix(t, ">") && r.depth < maxQuoteDepth:
			r.flush()
			i = r.quoteBlock(lines, i)
		case indent < 4 && isTableStart(lines, i):
			r.flush()
			i = r.table(lines, i)
		case listMarker(ln) != "" && (len(r.para) == 0 || indent < 4):
			r.flush()
			i = r.list(lines, i)
		default:
			r.para = append(r.para, t)
		}
	}
	r.flush()
}

// flush renders the paragraph gathered so far.
func (r *mdRenderer) flush() {
	if len(r.para) == 0 {
		return
	}
	runs := r.inline(strings.Join(r.para, " "), 0)
	r.para = nil
	if strings.TrimSpace(plainText(runs)) == "" {
		return // nothing but layout tags
	}
	r.gap()
	r.emit(wrapRuns(runs, r.width), "", "")
	r.gap()
}

func (r *mdRenderer) heading(level int, text string) {
	r.gap()
	k := r.st.heading[min(level, 3)-1]
	runs := r.inline(text, 0)
	for i := range runs {
		runs[i].ink = k // one colour for the whole heading
	}
	prefix := strings.Repeat("#", level) + " "
	runs = append([]run{{text: prefix, ink: k}}, runs...)
	r.emit(wrapRuns(runs, r.width), "", "")
	r.gap()
}

// codeBlock renders the fenced block opening at lines[i] and returns the
// index of its closing fence (or of the last line, for a block left open).
func (r *mdRenderer) codeBlock(lines []string, i int) int {
	open := strings.TrimSpace(lines[i])
	fence := open[:3]
	indent := len(lines[i]) - len(strings.TrimLeft(lines[i], " "))
	r.gap()
	j := i + 1
	for ; j < len(lines); j++ {
		if t := strings.TrimSpace(lines[j]); strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
			break
		}
		code := lines[j]
		// The fence's own indentation is not part of the code.
		if n := min(indent, len(code)-len(strings.TrimLeft(code, " "))); n > 0 {
			code = code[n:]
		}
		for _, l := range hardWrap(code, r.width-2) {
			r.out = append(r.out, strings.TrimRight(margin+"  "+r.st.code.Render(l), " "))
		}
	}
	r.gap()
	return min(j, len(lines)-1)
}

// quoteBlock renders the quote starting at lines[i] (its inner lines are
// rendered as blocks of their own, behind a bar) and returns the index of
// its last line.
func (r *mdRenderer) quoteBlock(lines []string, i int) int {
	var inner []string
	j := i
	for ; j < len(lines); j++ {
		t := strings.TrimSpace(lines[j])
		if !strings.HasPrefix(t, ">") {
			break
		}
		t = strings.TrimPrefix(t, ">")
		inner = append(inner, strings.TrimPrefix(t, " "))
	}
	// The bar takes two cells, while the text keeps at least eight; a
	// quote nested deeper than that goes on without a bar of its own.
	bar := r.st.quote.Render("│ ")
	sub := mdRenderer{st: r.st, width: r.width - 2, depth: r.depth + 1}
	if r.width < 10 {
		bar, sub.width = "", r.width
	}
	sub.st.text = r.st.quote
	sub.blocks(inner)
	for len(sub.out) > 0 && sub.out[len(sub.out)-1] == "" {
		sub.out = sub.out[:len(sub.out)-1]
	}
	r.gap()
	for _, l := range sub.out {
		r.out = append(r.out, strings.TrimRight(margin+bar+strings.TrimPrefix(l, margin), " "))
	}
	r.gap()
	return j - 1
}

// list renders the list starting at lines[i] and returns the index of its
// last line. An item's continuation lines (indented, or lazily not) join
// its text; a deeper-indented item nests.
func (r *mdRenderer) list(lines []string, i int) int {
	r.gap()
	base := len(lines[i]) - len(strings.TrimLeft(lines[i], " "))
	j := i
	for j < len(lines) {
		ln := lines[j]
		marker := listMarker(ln)
		if marker == "" {
			break
		}
		indent := len(ln) - len(strings.TrimLeft(ln, " "))
		text := []string{strings.TrimSpace(ln[len(marker):])}
		j++
		for j < len(lines) {
			t := strings.TrimSpace(lines[j])
			if t == "" || listMarker(lines[j]) != "" || isFence(t) || headingLevel(t) > 0 || strings.HasPrefix(t, ">") || isRule(t) || isTableStart(lines, j) {
				break
			}
			text = append(text, t)
			j++
		}
		bullet := "• "
		if m := strings.TrimSpace(marker); m[len(m)-1] == '.' || m[len(m)-1] == ')' {
			bullet = m + " "
		}
		// Nesting indents by two cells a level, as long as the text keeps
		// at least minText cells (r.width is at least 10).
		const minText = 8
		if r.width-cellWidth(bullet) < minText {
			bullet = "• "
		}
		bw := cellWidth(bullet)
		depth := min(max(indent-base, 0)/2, 4, max(r.width-bw-minText, 0)/2)
		pad := strings.Repeat("  ", depth)
		wrapped := wrapRuns(r.inline(strings.Join(text, " "), 0), r.width-len(pad)-bw)
		r.emit(wrapped, pad+r.st.bullet.Render(bullet), pad+strings.Repeat(" ", bw))
		// A blank line inside a list (a loose list) does not end it.
		if j+1 < len(lines) && strings.TrimSpace(lines[j]) == "" && listMarker(lines[j+1]) != "" {
			j++
		}
	}
	r.gap()
	return j - 1
}

// table renders the GFM table starting at lines[i] (header, delimiter
// row, body rows) and returns the index of its last line. Columns share
// the width; a cell too wide for its column wraps within it.
func (r *mdRenderer) table(lines []string, i int) int {
	header := splitRow(lines[i])
	rows := [][]string{header}
	j := i + 2
	for ; j < len(lines); j++ {
		t := strings.TrimSpace(lines[j])
		if t == "" || !strings.Contains(t, "|") {
			break
		}
		rows = append(rows, splitRow(lines[j]))
	}
	cols := len(header)
	if r.width-3*(cols-1) < 2*cols {
		// Too many columns to draw side by side: each row becomes a
		// paragraph of its cells.
		for _, row := range rows {
			r.para = append(r.para, strings.Join(row, " │ "))
			r.flush()
		}
		return j - 1
	}
	cells := make([][][]run, len(rows))
	natural := make([]int, cols)
	for y, row := range rows {
		cells[y] = make([][]run, cols)
		for x := range cols {
			var text string
			if x < len(row) {
				text = row[x]
			}
			flags := 0
			if y == 0 {
				flags = fBold
			}
			cells[y][x] = r.inline(text, flags)
			natural[x] = max(natural[x], runsWidth(cells[y][x]))
		}
	}
	widths := shareWidth(natural, r.width-3*(cols-1))
	sep := r.st.rule.Render(" │ ")
	r.gap()
	for y := range cells {
		wrapped := make([][]string, cols)
		height := 1
		for x := range cols {
			wrapped[x] = wrapRuns(cells[y][x], widths[x])
			height = max(height, len(wrapped[x]))
		}
		for k := range height {
			parts := make([]string, cols)
			for x := range cols {
				var cell string
				if k < len(wrapped[x]) {
					cell = wrapped[x][k]
				}
				parts[x] = cell + strings.Repeat(" ", max(widths[x]-ansi.StringWidth(cell), 0))
			}
			r.out = append(r.out, strings.TrimRight(margin+strings.Join(parts, sep), " "))
		}
		if y == 0 {
			parts := make([]string, cols)
			for x := range cols {
				parts[x] = strings.Repeat("─", widths[x])
			}
			r.out = append(r.out, margin+r.st.rule.Render(strings.Join(parts, "─┼─")))
		}
	}
	r.gap()
	return j - 1
}

// shareWidth gives columns of natural widths at most total cells in all:
// each its natural width if they fit; otherwise the narrow ones keep
// theirs and the wide ones share what is left equally. No column gets
// less than one cell.
func shareWidth(natural []int, total int) []int {
	w := make([]int, len(natural))
	sum := 0
	for i, n := range natural {
		w[i] = max(n, 1)
		sum += w[i]
	}
	if sum <= total {
		return w
	}
	left, open := total, len(w)
	fixed := make([]bool, len(w))
	for changed := true; changed && open > 0; {
		changed = false
		share := max(left/open, 1)
		for i := range w {
			if !fixed[i] && w[i] <= share {
				fixed[i], changed = true, true
				left -= w[i]
				open--
			}
		}
	}
	if open == 0 {
		return w
	}
	share, extra := max(left/open, 1), max(left%open, 0)
	for i := range w {
		if !fixed[i] {
			w[i] = share
			if extra > 0 && left >= open {
				w[i]++
				extra--
			}
		}
	}
	return w
}

// splitRow splits "| a | b \| c |" into its trimmed cells.
func splitRow(ln string) []string {
	t := strings.TrimSpace(ln)
	t = strings.TrimPrefix(t, "|")
	if strings.HasSuffix(t, "|") && !strings.HasSuffix(t, `\|`) {
		t = t[:len(t)-1]
	}
	var cells []string
	var b strings.Builder
	for k := 0; k < len(t); k++ {
		switch {
		case t[k] == '\\' && k+1 < len(t) && t[k+1] == '|':
			b.WriteByte('|')
			k++
		case t[k] == '|':
			cells = append(cells, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(t[k])
		}
	}
	return append(cells, strings.TrimSpace(b.String()))
}

func headingLevel(t string) int {
	n := 0
	for n < len(t) && n < 7 && t[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(t) && t[n] != ' ') {
		return 0
	}
	return n
}

func isFence(t string) bool {
	return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
}

// isRule is a thematic break: three or more of one of - * _, spaces
// between allowed.
func isRule(t string) bool {
	if len(t) < 3 || !strings.ContainsRune("-*_", rune(t[0])) {
		return false
	}
	n := 0
	for _, c := range t {
		switch {
		case c == rune(t[0]):
			n++
		case c != ' ':
			return false
		}
	}
	return n >= 3
}

func isSetextUnderline(t string) bool {
	return len(t) >= 3 && (strings.Trim(t, "=") == "" || strings.Trim(t, "-") == "")
}

// isTableStart: a row with a pipe, followed by a delimiter row of as many
// cells (---, :--, --:, :-:).
func isTableStart(lines []string, i int) bool {
	if i+1 >= len(lines) || !strings.Contains(lines[i], "|") {
		return false
	}
	delim := splitRow(lines[i+1])
	if len(delim) != len(splitRow(lines[i])) {
		return false
	}
	for _, c := range delim {
		c = strings.TrimSuffix(strings.TrimPrefix(c, ":"), ":")
		if c == "" || strings.Trim(c, "-") != "" {
			return false
		}
	}
	return true
}

// listMarker returns the marker that opens a list item, with its
// indentation and the space after it ("- ", "  12. "), or "".
func listMarker(ln string) string {
	t := strings.TrimLeft(ln, " ")
	lead := len(ln) - len(t)
	if lead > 12 {
		return ""
	}
	n := 0
	switch {
	case len(t) >= 2 && strings.ContainsRune("-*+", rune(t[0])) && t[1] == ' ':
		n = 1
	default:
		for n < len(t) && n < 9 && t[n] >= '0' && t[n] <= '9' {
			n++
		}
		if n == 0 || n >= len(t) || (t[n] != '.' && t[n] != ')') || n+1 >= len(t) || t[n+1] != ' ' {
			return ""
		}
		n++
	}
	if isRule(strings.TrimSpace(t)) {
		return "" // "- - -" and "* * *" are rules
	}
	return ln[:lead+n+1]
}

// Inline Markdown: emphasis, code spans, links, escapes.

// run is plain text painted with one ink.
type run struct {
	text string
	ink  ink
}

const (
	fBold = 1 << iota
	fItalic
)

// inline parses s's inline markup into runs. flags are the emphasis
// already in force (a table's header is bold).
func (r *mdRenderer) inline(s string, flags int) []run {
	var out []run
	var b strings.Builder
	cur := flags
	flushText := func() {
		if b.Len() > 0 {
			out = append(out, run{b.String(), r.emphasis(cur)})
			b.Reset()
		}
	}
	mark := func(m string) {
		if r.st.marks {
			b.WriteString(m)
		}
	}
	for k := 0; k < len(s); {
		c := s[k]
		switch {
		case c == '\\' && k+1 < len(s) && strings.IndexByte("\\`*_{}[]()#+-.!|<>~", s[k+1]) >= 0:
			b.WriteByte(s[k+1])
			k += 2
		case c == '`':
			n := runLen(s[k:], '`')
			end := strings.Index(s[k+n:], s[k:k+n])
			if end < 0 {
				b.WriteString(s[k : k+n])
				k += n
				continue
			}
			flushText()
			code := strings.TrimSpace(s[k+n : k+n+end])
			if r.st.marks {
				code = "`" + code + "`"
			}
			out = append(out, run{code, r.st.code})
			k += n + end + n
		case c == '*' || c == '_':
			n := runLen(s[k:], c)
			if n > 3 || !r.canToggle(s, k, n, cur) {
				b.WriteString(s[k : k+n])
				k += n
				continue
			}
			f := emphasisFlag(n)
			flushText()
			if cur&f != 0 {
				mark(s[k : k+n])
				flushText()
				cur &^= f
			} else {
				cur |= f
				mark(s[k : k+n])
			}
			k += n
		case c == '[':
			text, url, n := link(s[k:])
			if n == 0 {
				b.WriteByte(c)
				k++
				continue
			}
			flushText()
			out = append(out, run{text, r.st.link})
			if url != text {
				out = append(out, run{" (" + url + ")", r.st.dim})
			}
			k += n
		case c == '<':
			end := strings.IndexByte(s[k:], '>')
			switch {
			case end > 0 && isAutolink(s[k+1:k+end]):
				flushText()
				out = append(out, run{s[k+1 : k+end], r.st.link})
				k += end + 1
			case end > 0 && isLayoutTag(s[k+1:k+end]):
				// <details> and <summary> (the audit trail is folded in
				// them for Markdown viewers) and the like: their text
				// stays, the tags go.
				b.WriteByte(' ')
				k += end + 1
			default:
				b.WriteByte(c)
				k++
			}
		default:
			b.WriteByte(c)
			k++
		}
	}
	flushText()
	return out
}

// canToggle: a delimiter run opens emphasis when a word follows it and a
// closing run for it comes later; it closes emphasis that is open when a
// word precedes it. An underscore inside a word (snake_case) does
// neither.
func (r *mdRenderer) canToggle(s string, k, n, cur int) bool {
	f := emphasisFlag(n)
	before, after := prevRune(s, k), nextRune(s, k+n)
	if s[k] == '_' && isWordRune(before) && isWordRune(after) {
		return false
	}
	if cur&f == f {
		return before != ' ' && before != 0
	}
	if after == ' ' || after == 0 {
		return false
	}
	close := strings.Index(s[k+n:], s[k:k+n])
	return close > 0 && s[k+n+close-1] != ' '
}

// emphasisFlag is what a run of n asterisks or underscores stands for.
func emphasisFlag(n int) int {
	switch n {
	case 1:
		return fItalic
	case 2:
		return fBold
	}
	return fBold | fItalic
}

func runLen(s string, c byte) int {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	return n
}

func prevRune(s string, k int) rune {
	if k == 0 {
		return 0
	}
	r, _ := utf8.DecodeLastRuneInString(s[:k])
	if unicode.IsSpace(r) {
		return ' '
	}
	return r
}

func nextRune(s string, k int) rune {
	if k >= len(s) {
		return 0
	}
	r, _ := utf8.DecodeRuneInString(s[k:])
	if unicode.IsSpace(r) {
		return ' '
	}
	return r
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// link parses "[text](url)" at the start of s: its text, its URL and its
// length, or n == 0. The text holds no bracket, and the URL ends within
// maxURL bytes, so that a paragraph of unclosed brackets costs no more
// than linear time.
func link(s string) (text, url string, n int) {
	close := strings.IndexAny(s[1:], "[]") + 1
	if close < 1 || s[close] != ']' || !strings.HasPrefix(s[close:], "](") {
		return "", "", 0
	}
	const maxURL = 2048
	rest := s[close+2 : min(len(s), close+2+maxURL)]
	end := strings.IndexByte(rest, ')')
	if end < 0 {
		return "", "", 0
	}
	url = strings.TrimSpace(rest[:end])
	if i := strings.IndexByte(url, ' '); i >= 0 {
		url = url[:i] // a title: [t](url "title")
	}
	return s[1:close], url, close + 2 + end + 1
}

// isLayoutTag: the inside of an HTML tag that only lays text out, such
// as "details", "/summary", "br/". Any other <...> is text ("<T>").
func isLayoutTag(s string) bool {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "/"), "/")
	name, _, _ := strings.Cut(s, " ")
	switch strings.ToLower(name) {
	case "details", "summary", "br", "p", "div", "span", "b", "i", "em", "strong", "sub", "sup", "kbd":
		return true
	}
	return false
}

func isAutolink(s string) bool {
	return !strings.ContainsAny(s, " <>") && (strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "mailto:"))
}

func (r *mdRenderer) emphasis(flags int) ink {
	switch flags {
	case fBold:
		return r.st.bold
	case fItalic:
		return r.st.italic
	case fBold | fItalic:
		return r.st.boldItalic
	}
	return r.st.text
}

// Wrapping.

// word is text with no space in it, possibly in several inks
// ("**bold**," is a bold part and a plain comma).
type word struct {
	parts []run
	width int
	space bool // a space comes before it
}

// wrapRuns breaks runs into lines of at most width cells, at spaces, and
// paints each line on its own; a word wider than a line is cut.
func wrapRuns(runs []run, width int) []string {
	width = max(width, 1)
	var words []word
	space := false
	for _, rn := range runs {
		for k := 0; k < len(rn.text); {
			c, size := utf8.DecodeRuneInString(rn.text[k:])
			if unicode.IsSpace(c) {
				space = true
				k += size
				continue
			}
			end := k
			for end < len(rn.text) {
				c, size := utf8.DecodeRuneInString(rn.text[end:])
				if unicode.IsSpace(c) {
					break
				}
				end += size
			}
			piece := run{rn.text[k:end], rn.ink}
			pw := cellWidth(piece.text)
			if len(words) > 0 && !space && k == 0 {
				last := &words[len(words)-1]
				last.parts = append(last.parts, piece)
				last.width += pw
			} else {
				words = append(words, word{parts: []run{piece}, width: pw, space: space && len(words) > 0})
			}
			space = false
			k = end
		}
	}
	var lines []string
	var cur lineRuns // the open line
	curW := 0
	newLine := func() {
		lines = append(lines, cur.paint())
		cur, curW = nil, 0
	}
	for _, w := range words {
		if curW > 0 && curW+1+w.width > width {
			newLine()
		} else if curW > 0 && w.space {
			// The space between two words of one ink takes it (one
			// piece to paint); between two inks, none (an underlined
			// link must not run on into it).
			var k ink
			if last := cur[len(cur)-1].ink; last == w.parts[0].ink {
				k = last
			}
			cur.add(" ", k)
			curW++
		}
		if w.width <= width-curW {
			for _, p := range w.parts {
				cur.add(p.text, p.ink)
			}
			curW += w.width
			continue
		}
		// Too wide for any line: cut it, rune by rune.
		for _, p := range w.parts {
			for _, c := range p.text {
				cw := displaywidth.Rune(c)
				if curW+cw > width && curW > 0 {
					newLine()
				}
				cur.add(string(c), p.ink)
				curW += cw
			}
		}
	}
	if curW > 0 || len(lines) == 0 {
		newLine()
	}
	return lines
}

// lineRuns is a line being laid out: runs, neighbours of one ink merged so
// that a line is painted in as few pieces as it has colours.
type lineRuns []run

func (l *lineRuns) add(text string, k ink) {
	if n := len(*l); n > 0 && (*l)[n-1].ink == k {
		(*l)[n-1].text += text
		return
	}
	*l = append(*l, run{text, k})
}

func (l lineRuns) paint() string {
	var b strings.Builder
	for _, r := range l {
		b.WriteString(r.ink.Render(r.text))
	}
	return b.String()
}

// hardWrap cuts a line of code into pieces of at most width cells.
func hardWrap(s string, width int) []string {
	width = max(width, 1)
	var out []string
	var b strings.Builder
	w := 0
	for _, c := range s {
		if c < 0x20 || c == 0x7f {
			continue
		}
		cw := displaywidth.Rune(c)
		if w+cw > width && w > 0 {
			out = append(out, b.String())
			b.Reset()
			w = 0
		}
		b.WriteRune(c)
		w += cw
	}
	return append(out, b.String())
}

func cellWidth(s string) int { return displaywidth.String(s) }

func plainText(runs []run) string {
	var b strings.Builder
	for _, r := range runs {
		b.WriteString(r.text)
	}
	return b.String()
}

func runsWidth(runs []run) int {
	n := 0
	for _, r := range runs {
		n += cellWidth(r.text)
	}
	return n
}

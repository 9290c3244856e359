package markdown

import (
	"strings"

	xansi "github.com/charmbracelet/x/ansi"
)

// pieceKind is how the piece being written is laid out.
type pieceKind uint8

const (
	otherPiece     pieceKind = iota // rendered whole every frame, cut when long
	paragraphPiece                  // a wrapped line at a time
	codePiece                       // a line of code at a time
	tablePiece                      // rendered when a row is complete
)

// maxTableRows is how many rows a table being written is rendered with
// at most: past it, the rows so far are laid out for good and the next
// are rendered under their own header (glamour sizes a table's columns
// to all its rows, so each row that comes renders them all again).
const maxTableRows = 32

// writing is the piece of the rest being written: what of it is laid
// out for good (in the tail's segments) and the rendering of the rest.
type writing struct {
	active bool
	md     string // the piece as last laid out
	kind   pieceKind
	head   string // codePiece: the fence line that opens it, without "\n"
	from   int    // md[:from] is in segments
	carry  string // the marks of the emphasis and code spans open at from
	gap    bool   // a blank line before the piece
	split  bool   // a segment holds its start: the rest goes right under
	width  int

	shownMD  string    // the Markdown of the rest as rendered
	lines    []string  // its rendering
	rendered bool      // lines is the rendering of shownMD (else it shows as text)
	asked    []earlier // renderings asked for and not back then, the last asked last
}

// maxAsked is how many renderings asked for a piece keeps track of.
const maxAsked = 8

// earlier is a rendering of the rest asked for while the piece was
// shorter: its Markdown, and how long the piece was.
type earlier struct {
	md  string
	end int
}

// startWriting starts laying out a piece whose first line says its kind.
func startWriting(md string, gap bool, width int) writing {
	w := writing{active: true, gap: gap, width: width}
	first, _, _ := strings.Cut(md, "\n")
	switch t := strings.TrimLeft(first, " "); {
	case len(first)-len(t) < 4 && FenceOf(t) != "" && strings.Contains(md, "\n"):
		w.kind, w.head, w.from = codePiece, first, len(first)+1
	case len(first)-len(t) < 4 && strings.HasPrefix(t, "|"):
		w.kind = tablePiece
	case isParagraph(first):
		w.kind = paragraphPiece
	}
	return w
}

// rows is how much of a table piece md is complete rows, from its start.
func rows(md string) int { return strings.LastIndexByte(md, '\n') + 1 }

// restGap says whether a blank line goes above the rest: above the
// piece's first part only.
func (w *writing) restGap() bool { return w.gap && !w.split }

// restMD is the Markdown the rest of piece md renders from while it is
// written: a paragraph's behind the marks carried to it, and with the
// emphasis and code spans it leaves open closed; a code block's inside
// its fences (the closing one its own, once it came).
func (w *writing) restMD(md string) string {
	switch w.kind {
	case paragraphPiece:
		return closeOpen(w.carry + withoutUnderline(md[w.from:]))
	case tablePiece:
		return w.head + md[w.from:max(rows(md), w.from)] // the row being written shows as text
	case codePiece:
		if done := md[w.from : w.from+rows(md[w.from:])]; done != "" {
			return piece(w.head, done, w.head) // the line being written shows as text
		}
		return ""
	}
	return w.finalMD(md)
}

// withoutUnderline is a paragraph being written without its last line
// while that line is dashes or equals signs alone: "-" is as likely the
// start of a list item as a setext underline, and read as one it turned
// the paragraph above into a heading for a frame.
func withoutUnderline(md string) string {
	i := strings.LastIndexByte(md, '\n')
	if i < 0 {
		return md
	}
	if ln := strings.TrimSpace(md[i+1:]); ln != "" && strings.Trim(ln, "-") == "" || ln != "" && strings.Trim(ln, "=") == "" {
		return md[:i+1]
	}
	return md
}

// finalMD is the Markdown of the rest of piece md once it is complete:
// nothing closed that the text does not close.
func (w *writing) finalMD(md string) string {
	rest := md[w.from:]
	switch {
	case w.kind == paragraphPiece:
		return w.carry + rest
	case w.kind == tablePiece:
		return w.head + rest
	case w.kind != codePiece:
		return w.carry + rest // a quote's marks, when it was cut inside a line
	case closesFence(lastLine(rest), FenceOf(strings.TrimLeft(w.head, " "))):
		return w.head + "\n" + rest
	}
	return piece(w.head, rest, w.head)
}

// shown is what the rest shows: its rendering, or until that comes, its
// text.
func (w *writing) shown() []string {
	switch {
	case !w.active:
		return nil
	case w.kind == tablePiece || w.kind == codePiece:
		lines := w.lines
		if !w.rendered {
			lines = plainLines(w.shownMD, w.width)
		}
		return append(lines[:len(lines):len(lines)], w.writtenLine()...)
	case w.rendered:
		return w.lines
	}
	return plainLines(w.shownMD, w.width)
}

// writtenLine is how a table's row or a code block's line shows while it
// is written: as text (code behind the block's margin), rendered once it
// is complete. A line of code is highlighted once, not at every frame
// while it grows: that halved what code costs a frame.
func (w *writing) writtenLine() []string {
	ln := w.md[max(w.from+rows(w.md[w.from:]), w.from):]
	if strings.TrimSpace(ln) == "" {
		return nil
	}
	if w.kind == codePiece {
		return strings.Split(xansi.Wrap(codeMargin+Clean(ln), w.width, ""), "\n")
	}
	return plainLines(ln, w.width)
}

// codeMargin is the margin glamour draws code blocks behind, in every
// style arena uses (TestCodeMargin).
const codeMargin = "  "

// lastLine is the last line of s that holds something.
func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	return s[strings.LastIndexByte(s, '\n')+1:]
}

// write lays out md, the piece being written: what can no longer change
// goes into segments once, the rest is rendered.
func (s *Stream) write(md string) {
	w := &s.t.w
	grown := w.active && w.width == s.width && strings.HasPrefix(md, w.md)
	if !grown || !w.split {
		asked := w.asked
		*w = startWriting(md, s.t.nextGap, s.width) // nothing of it laid out for good yet
		if grown {
			w.asked = asked
		}
	}
	w.md = md
	for range 3 { // a second round renders the rest after a commit, from the cache
		if strings.TrimSpace(md[w.from:]) == "" {
			w.shownMD, w.lines, w.rendered = "", nil, false
			return
		}
		w.shownMD = w.restMD(md)
		w.lines, w.rendered = nil, true // nothing to render but the line being written
		if w.shownMD != "" {
			w.lines, w.rendered = s.render(w.shownMD)
		}
		switch {
		case w.rendered:
			w.lines = w.codeBlanks(w.lines, md)
			w.asked = w.asked[:0]
			if !s.commit(w) {
				return
			}
		case !s.commitEarlier(w):
			if len(w.asked) == maxAsked {
				w.asked = append(w.asked[:0], w.asked[1:]...)
			}
			w.asked = append(w.asked, earlier{md: w.shownMD, end: len(md)})
			return
		}
	}
}

// codeBlanks puts back, in a code block's rest's rendering, the blank
// lines the rest starts with.
func (w *writing) codeBlanks(lines []string, md string) []string {
	if w.kind != codePiece {
		return lines
	}
	return blankLines(lines, leadingBlanks(md[w.from:]))
}

// commitEarlier lays out for good what a rendering of the rest asked for
// while the piece was shorter, and back since, shows can no longer
// change: the text has only grown since. Where renders lag (a pane whose
// render takes longer than a frame), what is laid out for good keeps up
// with the text, and the rest each render is asked for stays short.
func (s *Stream) commitEarlier(w *writing) bool {
	for j := len(w.asked) - 1; j >= 0; j-- {
		a := w.asked[j]
		lines, ok := s.cache.get(a.md, false)
		if !ok || a.end > len(w.md) {
			continue
		}
		then := *w
		then.md, then.shownMD, then.rendered = w.md[:a.end], a.md, true
		then.lines = then.codeBlanks(lines, then.md)
		w.asked = w.asked[:0] // those asked before it are no use now, nor it
		if !s.commit(&then) {
			return false
		}
		w.from, w.carry, w.split, w.head = then.from, then.carry, then.split, then.head
		return true
	}
	return false
}

// commit lays out for good what of the rest can no longer change,
// reporting whether it did.
func (s *Stream) commit(w *writing) bool {
	switch w.kind {
	case paragraphPiece:
		if s.commitLines(w) {
			return true
		}
	case codePiece:
		if s.commitCode(w) {
			return true
		}
	case tablePiece:
		return s.commitRows(w)
	}
	return s.cutLong(w)
}

// commitLines lays out for good a paragraph's lines but the last (or the
// last two): those whose words are the paragraph's first. The rest
// renders from the word that opens the next line, as the paragraph does,
// behind the marks of the emphasis and code spans still open there.
func (s *Stream) commitLines(w *writing) bool {
	text := w.carry + w.md[w.from:]
	for k := len(w.lines) - 1; k >= 1 && k >= len(w.lines)-2; k-- {
		at, ok := lineStart(text, w.lines, k)
		if !ok || at < len(w.carry) || !startsLine(text[at:]) {
			continue
		}
		carry, ok := carried(text[:at])
		if !ok {
			continue
		}
		s.fixPart(w, seg{lines: w.lines[:k:k], ready: true}, at-len(w.carry))
		w.carry = carry
		s.cache.prefill(w.restMD(w.md), w.lines[k:])
		return true
	}
	return false
}

// commitCode lays out for good a code block's completed lines, unless
// they leave a comment or a string open (the lines after it are then
// highlighted with them, until it closes or the lines grow past
// maxPiece). Where each line of code renders to one line, those lines
// are taken from the rest's rendering; else the lines are rendered on
// their own.
func (s *Stream) commitCode(w *writing) bool {
	rest := w.md[w.from:]
	end := strings.LastIndexByte(strings.TrimRight(rest[:strings.LastIndexByte(rest, '\n')+1], "\n"), '\n') + 1
	if line := strings.IndexByte(rest[end:], '\n'); line >= 0 && strings.TrimSpace(rest[end:end+line]) != "" {
		end += line + 1 // the last completed line holds something
	}
	if end == 0 || codeOpen(rest[:end]) && end <= maxPiece {
		return false
	}
	done := rest[:end]
	if n, ok := codeRows(done, w.lines); ok && n <= len(w.lines) {
		s.fixPart(w, seg{lines: w.lines[:n:n], ready: true}, end)
		s.cache.prefill(w.restMD(w.md), w.lines[min(n+leadingBlanks(rest[end:]), len(w.lines)):])
		return true
	}
	s.fixPart(w, seg{md: piece(w.head, done, w.head), blanks: leadingBlanks(done)}, end)
	return true
}

// commitRows lays out for good a table's rows once there are more than
// maxTableRows: the rows after them render under the table's header.
func (s *Stream) commitRows(w *writing) bool {
	end := rows(w.md)
	if end <= w.from || strings.Count(w.md[w.from:end], "\n") <= maxTableRows {
		return false
	}
	if w.head == "" {
		header, delim, _ := strings.Cut(w.md, "\n")
		delim, _, _ = strings.Cut(delim, "\n")
		w.head = header + "\n" + delim + "\n"
	}
	s.fixPart(w, seg{md: w.shownMD, lines: w.lines, ready: w.rendered}, end-w.from)
	return true
}

// codeRows is how many of lines, a code block's rendering, code's lines
// take: a line too wide for the pane takes more than one (glamour breaks
// it at a space or a punctuation mark, then it is cut at the width). ok
// is false when the lines do not read as code's (compared without white
// space, which the breaks take).
func codeRows(code string, lines []string) (rows int, ok bool) {
	for ln := range strings.Lines(Clean(code)) {
		want := noSpace(ln)
		if want == "" {
			if rows >= len(lines) || strings.TrimSpace(xansi.Strip(lines[rows])) != "" {
				return 0, false
			}
			rows++
			continue
		}
		got := ""
		for got != want {
			if rows >= len(lines) {
				return 0, false
			}
			got += noSpace(xansi.Strip(lines[rows]))
			rows++
			if !strings.HasPrefix(want, got) {
				return 0, false
			}
		}
	}
	return rows, true
}

// noSpace is s without its white space.
func noSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\n' {
			return -1
		}
		return r
	}, s)
}

// cutLong cuts a rest grown past maxPiece that could not be laid out a
// line at a time: at its last line break, or its last space. What comes
// before is rendered on its own: an early line break, until the block is
// rendered whole.
func (s *Stream) cutLong(w *writing) bool {
	text := w.carry + w.md[w.from:]
	if len(text) <= maxPiece {
		return false
	}
	at := strings.LastIndexByte(text[:len(text)-1], '\n') + 1
	if at <= maxPiece/2 {
		at = strings.LastIndexByte(text[:len(text)-1], ' ') + 1
	}
	if at <= len(w.carry) {
		at = runeStart(text, maxPiece)
	}
	md := text[:at]
	switch w.kind {
	case paragraphPiece:
		md = closeOpen(md)
	case codePiece:
		md = piece(w.head, md, w.head)
	}
	s.fixPart(w, seg{md: md}, at-len(w.carry))
	switch w.kind {
	case paragraphPiece:
		w.carry, _ = carried(text[:at])
	case otherPiece:
		w.carry = ""
		if text[at-1] != '\n' || !strings.HasPrefix(strings.TrimLeft(text[at:], " "), ">") {
			w.carry = quoteMarks(w.md) // the rest of a quote's line reads as the quote
		}
	default:
		w.carry = ""
	}
	return true
}

// quoteMarks are the quote markers that open md's first line ("> > "),
// or "".
func quoteMarks(md string) string {
	i := 0
	for i < len(md) && (md[i] == '>' || md[i] == ' ') {
		i++
	}
	if !strings.Contains(md[:i], ">") {
		return ""
	}
	return md[:i]
}

// fixPart puts a part of the piece being written into the segments: the
// next n bytes of its rest.
func (s *Stream) fixPart(w *writing, sg seg, n int) {
	sg.gap = w.restGap()
	s.t.add(sg)
	w.from += n
	w.split = true
}

// runeStart is i, or the start of the rune i falls in.
func runeStart(s string, i int) int {
	for i > 0 && i < len(s) && s[i]&0xC0 == 0x80 {
		i--
	}
	return i
}

// leadingBlanks is how many blank lines code starts with.
func leadingBlanks(code string) int {
	n := 0
	for ln := range strings.Lines(code) {
		if strings.TrimSpace(ln) != "" || !strings.HasSuffix(ln, "\n") {
			break
		}
		n++
	}
	return n
}

// blankLines puts back the n blank lines a code block's rendering starts
// with, which the renderer drops with the blank lines around a document.
func blankLines(lines []string, n int) []string {
	if n == 0 || len(lines) == 0 {
		return lines
	}
	return append(make([]string, n, n+len(lines)), lines...)
}

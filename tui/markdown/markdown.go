// Package markdown draws Markdown for the terminal with glamour: the
// outcome document on the screen and after a headless run, and the
// models' replies in the panes, code blocks highlighted (by chroma,
// through glamour).
//
// What it adds to glamour is what a screen that redraws fifteen times a
// second needs: a glamour renderer kept per width (making one compiles
// its styles), text from models cleaned before glamour sees it, lines
// that fit the width and carry their own style (glamour pads every line
// to the width, paints each padding cell apart and lets a style run on
// into the next line: a line here starts from no style and ends with a
// reset, so it can be drawn anywhere, beside a border), and Stream, which
// renders a reply while it streams without rendering it all again on
// every chunk.
package markdown

import (
	"iter"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/charmbracelet/glamour"
	"github.com/charmbracelet/glamour/ansi"
	"github.com/charmbracelet/glamour/styles"
	xansi "github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/cellbuf"
	"github.com/mattn/go-runewidth"
	"github.com/muesli/termenv"

	"github.com/arenadebate/arena/challengers/trust"
)

// Glamour measures text with go-runewidth, whose default follows the
// locale: under LANG=ja_JP.UTF-8 it counts "│" and "·" two cells wide,
// where the screen (and x/ansi, which lipgloss and the panes use) counts
// one. Measured the screen's way, a table lines up whatever the locale.
func init() { runewidth.DefaultCondition.EastAsianWidth = false }

// Options say how a document is painted.
type Options struct {
	// Profile is the terminal's colour profile; termenv.Ascii (NO_COLOR,
	// or no colour at all) draws without colour or any other attribute:
	// emphasis reads as its words, without the marks ("**", "*") that
	// would show raw; struck text keeps its tildes, whose meaning would
	// go with them.
	Profile termenv.Profile
	// Light is a light background: another palette for highlighted code
	// and for the text.
	Light bool
	// Text is the colour of plain text ("#E5E7EB"); "" leaves it to the
	// terminal, and costs glamour half as much: it paints every cell of
	// its padding in the text's colour.
	Text string
}

// The document's hues, those of the screen's first seats (tui/theme.go),
// bright enough for dark and light backgrounds alike.
const (
	Violet  = "#A78BFA" // top-level headings
	Sky     = "#38BDF8" // second-level headings, links
	Emerald = "#34D399" // code spans
)

// Style is the glamour style for o: glamour's dark or light style (their
// code highlighting, lists, tables and quotes) with arena's headings,
// code spans and links, and no margin of its own; without colour,
// glamour's notty style, also without margin.
func Style(o Options) ansi.StyleConfig {
	zero := uint(0)
	var st ansi.StyleConfig
	switch {
	case o.Profile == termenv.Ascii:
		st = styles.NoTTYStyleConfig
	case o.Light:
		st = styles.LightStyleConfig
	default:
		st = styles.DarkStyleConfig
	}
	st.Document.Margin = &zero
	st.Document.BlockPrefix, st.Document.BlockSuffix = "", ""
	if o.Profile == termenv.Ascii {
		st.Emph.BlockPrefix, st.Emph.BlockSuffix = "", ""
		st.Strong.BlockPrefix, st.Strong.BlockSuffix = "", ""
		return st
	}
	str := func(s string) *string { return &s }
	yes := true
	st.Document.Color = nil
	if o.Text != "" {
		st.Document.Color = str(o.Text)
	}
	heading := func(prefix, color string) ansi.StyleBlock {
		b := ansi.StyleBlock{}
		b.Prefix, b.Bold = prefix, &yes
		if color != "" {
			b.Color = str(color)
		}
		return b
	}
	st.Heading.Color = nil
	st.H1 = heading("# ", Violet)
	st.H2 = heading("## ", Sky)
	st.H3 = heading("### ", "")
	st.H4 = heading("#### ", "")
	st.H5 = heading("##### ", "")
	st.H6 = heading("###### ", "")
	st.Code = ansi.StyleBlock{}
	st.Code.Color = str(Emerald)
	st.Link = ansi.StylePrimitive{Color: str(Sky), Underline: &yes}
	st.LinkText = ansi.StylePrimitive{Color: str(Sky), Bold: &yes}
	return st
}

// maxRenderers bounds the glamour renderers kept: a person dragging the
// window's edge makes a width a frame.
const maxRenderers = 8

// Renderer renders Markdown at any width, keeping a glamour renderer per
// width. It is not safe for concurrent use.
type Renderer struct {
	opts    Options
	style   ansi.StyleConfig
	byWidth map[int]*glamour.TermRenderer
	parser  *xansi.Parser   // tidy's, kept: a new one allocates 4 KiB
	observe func(md string) // tests: sees every document rendered
}

// New returns a Renderer painting as o says.
func New(o Options) *Renderer {
	return &Renderer{opts: o, style: Style(o), byWidth: map[int]*glamour.TermRenderer{}}
}

// minWidth is the narrowest a document is laid out: narrower, it is laid
// out at this width and its lines are then broken to fit.
const minWidth = 8

func (r *Renderer) at(width int) *glamour.TermRenderer {
	if tr, ok := r.byWidth[width]; ok {
		return tr
	}
	tr, err := glamour.NewTermRenderer(
		glamour.WithStyles(r.style),
		glamour.WithColorProfile(r.opts.Profile),
		glamour.WithChromaFormatter(chromaFormatter(r.opts.Profile)),
		glamour.WithWordWrap(max(width, minWidth)),
	)
	if err != nil { // only a style that does not compile: ours do
		return nil
	}
	if len(r.byWidth) >= maxRenderers {
		clear(r.byWidth)
	}
	r.byWidth[width] = tr
	return tr
}

// chromaFormatter is the highlighter's output for a profile. Glamour
// asks for 256 colours whatever the terminal has; on a true-colour one
// the code's own colours are exact (and the same every time: chroma picks
// the nearest of 256 colours by walking a map, so a colour halfway
// between two came out as either).
func chromaFormatter(p termenv.Profile) string {
	switch p {
	case termenv.TrueColor:
		return "terminal16m"
	case termenv.ANSI:
		return "terminal16"
	}
	return "terminal256"
}

// Render draws md in lines of at most width cells, each starting from no
// style and ending with none, without the blank lines glamour puts around
// a document.
func (r *Renderer) Render(md string, width int) []string {
	width = max(width, 1)
	md = Clean(md)
	if strings.TrimSpace(md) == "" {
		return nil
	}
	if r.observe != nil {
		r.observe(md)
	}
	md = prepare(md)
	tr := r.at(width)
	if depth, word := shape(md); depth > maxNesting || word > maxWord {
		tr = nil // shown as text: see maxNesting and maxWord
	}
	var out string
	var err error
	if tr != nil {
		out, err = tr.Render(md)
	}
	if tr == nil || err != nil {
		// Glamour refused the document (it does not, on any input the
		// fuzzer found), or it nests too deep: show it as text rather
		// than nothing.
		out = md
	}
	if r.parser == nil {
		r.parser = xansi.NewParser()
	}
	return tidy(r.parser, out, width)
}

// maxNesting is the deepest nesting of block quotes and lists glamour is
// given. Its time grows steeply with the depth: a reply of 64 nested
// "> - " took a minute to draw, 500 nested ">" longer, on a screen that
// redraws fifteen times a second (a model can write either, by mistake or
// on purpose). At 20 the worst mix takes tens of milliseconds; a document
// nested deeper is shown as text, wrapped, every word of it kept.
const maxNesting = 20

// maxWord is the longest word, in bytes, glamour is given: its word
// wrapper measures the word so far at every character, so its time grows
// with the square of a word's length (a 200 KB base64 blob took two
// minutes, 20,000 "[" fifteen seconds). Outside fenced code, a document
// with a longer word is shown as text, wrapped, every character kept.
const maxWord = 400

// shape is the deepest nesting of block quotes and list items on any
// line of md outside fenced code (the quote markers and list markers that
// open the line, and the indentation before each list marker, two
// columns a level, which is how lists nest), and its longest word there.
func shape(md string) (deepest, longest int) {
	for ln, kind := range Fenced(md) {
		if kind != Prose {
			continue
		}
		deepest = max(deepest, lineNesting(ln))
		for _, w := range strings.Fields(ln) {
			longest = max(longest, len(w))
		}
	}
	return deepest, longest
}

// LineKind is what a line of a document is to Fenced.
type LineKind uint8

const (
	Prose   LineKind = iota // outside fenced code
	Opening                 // the line that opens a fenced code block
	Code                    // inside one, its closing fence included
)

// Fenced yields md's lines (each with its "\n") and what each is: the one
// rule for where fenced code starts and ends, that of CommonMark, which
// glamour follows.
func Fenced(md string) iter.Seq2[string, LineKind] {
	return func(yield func(string, LineKind) bool) {
		fence := ""
		for ln := range strings.Lines(md) {
			kind := Prose
			t := strings.TrimLeft(ln, " ")
			switch {
			case fence != "":
				kind = Code
				if closesFence(ln, fence) {
					fence = ""
				}
			case len(ln)-len(t) < 4 && FenceOf(t) != "":
				fence, kind = FenceOf(t), Opening
			}
			if !yield(ln, kind) {
				return
			}
		}
	}
}

// lineNesting is shape's depth of one line.
func lineNesting(ln string) int {
	depth, spaces := 0, 0
	for i := 0; i < len(ln); {
		switch c := ln[i]; {
		case c == ' ':
			spaces++
			i++
			continue
		case c == '>':
			depth++
			i++
		case (c == '-' || c == '*' || c == '+') && i+1 < len(ln) && ln[i+1] == ' ':
			depth += 1 + spaces/2
			i += 2
		case c >= '0' && c <= '9':
			j := i
			for j < len(ln) && j-i < 9 && ln[j] >= '0' && ln[j] <= '9' {
				j++
			}
			if j+1 >= len(ln) || (ln[j] != '.' && ln[j] != ')') || ln[j+1] != ' ' {
				return depth
			}
			depth += 1 + spaces/2
			i = j + 2
		default:
			return depth
		}
		spaces = 0
	}
	return depth
}

// Clean makes text from a model safe to render (the one cleaner,
// challengers/trust, then what glamour needs): escape sequences and
// control characters go (glamour passes text through as it is, and must
// never pass an ESC a model wrote), tabs become spaces to the next
// multiple of four columns (glamour would pass a tab to the terminal,
// whose width no one knows), line ends become "\n", and invalid UTF-8
// becomes U+FFFD. Clean text is returned as it is.
func Clean(s string) string {
	s = trust.Text(s)
	if !strings.ContainsAny(s, "\t\r") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	col := 0
	for _, c := range s {
		switch {
		case c == '\t':
			n := 4 - col%4
			b.WriteString("    "[:n])
			col += n
		case c == '\n':
			b.WriteByte('\n')
			col = 0
		case c == '\r' || unicode.IsControl(c):
		default:
			b.WriteRune(c)
			col++
		}
	}
	return b.String()
}

// nbHyphen stands in for the hyphens of prose while glamour lays it out.
// Glamour wraps paragraphs with muesli/reflow's wordwrap, which breaks
// lines after a hyphen but does not count the hyphen: every hyphen on a
// line made it a cell wider than the width ("steady-state writes," ran
// one cell over, and the comma landed alone on the next line). A
// non-breaking hyphen is a letter to it; tidy puts the hyphens back.
const nbHyphen = "\u2011"

// prepare makes md ready for glamour: the hyphens of its prose held
// (holdLineHyphens), and a fence's language dropped when it is longer
// than maxLanguage.
func prepare(md string) string {
	var b strings.Builder
	changed := false
	off := 0 // where ln starts in md
	for ln, kind := range Fenced(md) {
		out := ln
		switch kind {
		case Prose:
			out = holdLineHyphens(ln)
		case Opening:
			out = plainLanguage(ln)
		}
		if out != ln && !changed {
			changed = true
			b.Grow(len(md) + 64)
			b.WriteString(md[:off])
		}
		if changed {
			b.WriteString(out)
		}
		off += len(ln)
	}
	if !changed {
		return md
	}
	return b.String()
}

// maxLanguage is the longest language name, in bytes, a code block keeps.
// Glamour hands the name to chroma, which, not knowing it, matches it
// against every lexer's file-name patterns: a time that grows with the
// square of its length (a 6,000-byte name took 1.5 seconds, a 6,000-byte
// one of invalid UTF-8 4.4, on a screen that redraws fifteen times a
// second). No language's name comes near 40 bytes.
const maxLanguage = 40

// plainLanguage is a fence's opening line naming "text" as its language
// where it names none, one longer than maxLanguage, or one chroma does
// not know: such a block is drawn as plain code. Chroma would otherwise
// guess the language, running every lexer's analyser over the code (3 ms
// a render, every frame while the block streams), and could guess anew
// as each line arrives, so that the block changed colours as it grew.
// The info string is never shown.
func plainLanguage(ln string) string {
	t := strings.TrimLeft(ln, " ")
	f := FenceOf(t)
	lang, _, _ := strings.Cut(strings.TrimSpace(t[len(f):]), " ")
	if lang != "" && len(lang) <= maxLanguage && knownLanguage(lang) {
		return ln
	}
	end := ""
	if strings.HasSuffix(ln, "\n") {
		end = "\n"
	}
	return ln[:len(ln)-len(t)] + f + "text" + end
}

// languages caches what chroma says of a language's name (looking an
// unknown one up matches it against every lexer's file patterns).
var languages = struct {
	sync.Mutex
	known map[string]bool
}{known: map[string]bool{}}

// knownLanguage says whether chroma has a lexer for lang.
func knownLanguage(lang string) bool {
	languages.Lock()
	defer languages.Unlock()
	known, ok := languages.known[lang]
	if !ok {
		if len(languages.known) >= 256 {
			clear(languages.known)
		}
		known = lexers.Get(lang) != nil
		languages.known[lang] = known
	}
	return known
}

// holdLineHyphens replaces the hyphens that follow a letter or a digit
// and are not followed by another hyphen: those of words ("steady-state",
// "re-", "2026-11-23"), never those of Markdown's syntax (a list's "- ",
// a table's "|---|", a rule).
func holdLineHyphens(ln string) string {
	var b strings.Builder
	last := 0
	prev := rune(-1)
	for i, c := range ln {
		if c == '-' && (unicode.IsLetter(prev) || unicode.IsDigit(prev)) && (i+1 >= len(ln) || ln[i+1] != '-') {
			if b.Len() == 0 {
				b.Grow(len(ln) + 8)
			}
			b.WriteString(ln[last:i])
			b.WriteString(nbHyphen)
			last = i + 1
		}
		prev = c
	}
	if last == 0 {
		return ln
	}
	b.WriteString(ln[last:])
	return b.String()
}

// run is text drawn in one style.
type run struct {
	st   cellbuf.Style
	text strings.Builder
}

// tidy splits glamour's output into lines that each carry their whole
// style: it reads the SGR sequences as a terminal would (the style at the
// end of a line is the style at the start of the next), then writes each
// line as runs of text, each run behind the sequence of its style and
// followed by a reset. Trailing padding goes (unless painted with a
// background), lines wider than width are broken, and other escape
// sequences and control characters are dropped. Blank lines at the start
// and the end go.
func tidy(p *xansi.Parser, out string, width int) []string {
	var pen cellbuf.Style
	lines := strings.Split(out, "\n")
	res := make([]string, 0, len(lines))
	var runs []*run
	for _, ln := range lines {
		runs = runs[:0]
		var state byte
		for len(ln) > 0 {
			seq, w, n, next := xansi.DecodeSequence(ln, state, p)
			state = next
			ln = ln[n:]
			switch {
			case w > 0:
				if len(runs) == 0 || !runs[len(runs)-1].st.Equal(&pen) {
					runs = append(runs, &run{st: pen})
				}
				if seq == nbHyphen {
					seq = "-"
				}
				runs[len(runs)-1].text.WriteString(seq)
			case xansi.HasCsiPrefix(seq) && xansi.Cmd(p.Command()).Final() == 'm' && xansi.Cmd(p.Command()).Prefix() == 0 && xansi.Cmd(p.Command()).Intermediate() == 0:
				cellbuf.ReadStyle(p.Params(), &pen)
			}
		}
		trimRuns(&runs)
		res = append(res, fit(runs, width)...)
	}
	for len(res) > 0 && res[len(res)-1] == "" {
		res = res[:len(res)-1]
	}
	i := 0
	for i < len(res) && res[i] == "" {
		i++
	}
	return res[i:]
}

// trimRuns drops the spaces at the end of a line, but those painted with
// a background (a code block's box), which show.
func trimRuns(runs *[]*run) {
	rs := *runs
	for len(rs) > 0 {
		last := rs[len(rs)-1]
		if last.st.Bg != nil || last.st.Attrs&cellbuf.ReverseAttr != 0 {
			break
		}
		t := strings.TrimRight(last.text.String(), " ")
		if t != "" {
			last.text.Reset()
			last.text.WriteString(t)
			break
		}
		rs = rs[:len(rs)-1]
	}
	*runs = rs
}

// fit writes runs as lines of at most width cells: one line, or several
// when the line is too wide (a long line of code, a wide table), broken
// at a cell, every part painted on its own.
func fit(runs []*run, width int) []string {
	var lines []string
	var b strings.Builder
	w := 0
	for _, r := range runs {
		text := r.text.String()
		for text != "" {
			room := width - w
			part := window(text, room)
			if xansi.StringWidth(part) > room {
				part = xansi.Truncate(part, room, "")
				if part == "" && w == 0 { // a grapheme wider than a line
					_, _, n, _ := xansi.DecodeSequence(text, 0, nil)
					text = wideStandIn + text[n:]
					continue
				}
			}
			if part != "" {
				paint(&b, r.st, part)
				w += xansi.StringWidth(part)
				text = text[len(part):]
			}
			if text != "" {
				lines = append(lines, b.String())
				b.Reset()
				w = 0
				text = strings.TrimLeft(text, " ")
			}
		}
	}
	return append(lines, b.String())
}

// wideStandIn is what a grapheme wider than a whole line (a character two
// cells wide, on a line of one) is drawn as: the replacement character,
// one cell wide, which Clean also puts where the text was not UTF-8.
// Drawn as it is, the line would push a pane's border out of line; cut
// at the width, it would be lost without a trace.
const wideStandIn = "\uFFFD"

// window is as much of text as can fill room cells: a cell takes at most
// four bytes of text but for marks that join a character, so the window
// ends a little further, on a character's first byte. Measuring only it
// keeps fit linear in a long line (the width of all the rest, measured
// for every piece, made a 200 KB word take seconds).
func window(text string, room int) string {
	n := 4*room + 64
	if n >= len(text) {
		return text
	}
	for n > 0 && !utf8.RuneStart(text[n]) {
		n--
	}
	return text[:n]
}

func paint(b *strings.Builder, st cellbuf.Style, text string) {
	if st.Empty() {
		b.WriteString(text)
		return
	}
	b.WriteString(st.Sequence())
	b.WriteString(text)
	b.WriteString(xansi.ResetStyle)
}

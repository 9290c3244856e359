package plain

import (
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/muesli/termenv"
	"golang.org/x/term"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/doc"
	"github.com/arenadebate/arena/tui/markdown"
)

// Style says how the outcome document is printed on a terminal: drawn
// by glamour at Width with Markdown's colours. A Printer without one (the
// output is a pipe or a file) prints the document as Markdown.
type Style struct {
	Width    int
	Markdown markdown.Options
}

// maxDocWidth is the widest the document is drawn: lines longer than
// that are hard to read, whatever the terminal.
const maxDocWidth = 100

// terminalStyle is the Style for w when w is a terminal, or nil. Colour
// follows the environment (NO_COLOR, CLICOLOR, TERM, COLORTERM), and the
// background is taken from COLORFGBG when the terminal sets it, dark
// otherwise: asking the terminal would read its answer from stdin, which
// a headless run leaves to the person.
func terminalStyle(w io.Writer) *Style {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	width, _, err := term.GetSize(int(f.Fd()))
	if err != nil || width <= 0 {
		width = 80
	}
	return &Style{
		Width:    min(width, maxDocWidth),
		Markdown: markdown.Options{Profile: termenv.NewOutput(f).EnvColorProfile(), Light: lightBackground(os.Getenv("COLORFGBG"))},
	}
}

// lightBackground reads COLORFGBG ("15;0": the foreground and background
// colour numbers): 7 and 15 are light backgrounds.
func lightBackground(fgbg string) bool {
	i := strings.LastIndexByte(fgbg, ';')
	bg, err := strconv.Atoi(fgbg[i+1:])
	return err == nil && (bg == 7 || bg == 15)
}

// shownAbove is what the printed run has shown before its outcome: the
// titles of its tables, the seats whose replies streamed, and whether it
// printed notes.
type shownAbove struct {
	start  bool // the banner: the topic and the settings
	tables []string
	seats  []string
	notes  bool
}

func (s *shownAbove) seat(name string) {
	if !slices.Contains(s.seats, name) {
		s.seats = append(s.seats, name)
	}
}

// restated says whether a document's section says nothing the printed
// run did not just show: every table it names was printed (a title
// beginning with the name), every seat's reply it names streamed, the
// notes and the start it repeats were printed.
func (s *shownAbove) restated(sec doc.Section) bool {
	return s.shows(sec.Restates)
}

// shows says whether the printed run showed all of r.
func (s *shownAbove) shows(r *doc.Restates) bool {
	if r == nil || r.Notes && !s.notes || r.Start && !s.start {
		return false
	}
	for _, t := range r.Tables {
		if !slices.ContainsFunc(s.tables, func(shown string) bool { return strings.HasPrefix(shown, t) }) {
			return false
		}
	}
	for _, seat := range r.Seats {
		if !slices.Contains(s.seats, seat) {
			return false
		}
	}
	return true
}

// printDocument prints the outcome's document without what the printed
// run has shown: the summary (the last line says it) and the sections
// that restate the stream, named in one line after it. It is Markdown
// through the cleaner, or drawn for the terminal straight to it
// (markdown.Render cleaned its text first; what it adds is SGR). A log
// written before documents were data has its Markdown printed whole.
func (p *Printer) printDocument(o engine.Outcome) {
	md, left := o.Markdown, []string(nil)
	if d := o.Document; d != nil {
		md = doc.MarkdownWith(*d, doc.MarkdownOptions{NoSummary: true,
			Skip: func(sec doc.Section) bool {
				if !p.shown.restated(sec) {
					return false
				}
				left = append(left, sec.Heading)
				return true
			},
			SkipFact: func(f doc.Fact) bool { return p.shown.shows(f.Restates) }})
	}
	md = strings.TrimRight(md, "\n")
	switch {
	case p.style == nil:
		p.printf("\n%s\n", md)
	case p.err == nil:
		lines := markdown.New(p.style.Markdown).Render(md, p.style.Width)
		_, p.err = io.WriteString(p.raw, "\n"+strings.Join(lines, "\n")+"\n")
	}
	if len(left) > 0 {
		p.printf("\n%s\n", leftOutWords(left))
	}
}

// leftOutWords say which sections the printed document left out, as the
// run above showed them: "Shown above (the saved document keeps them
// too): Debate ledger, Audit trail."
func leftOutWords(headings []string) string {
	return "Shown above (the saved document keeps them too): " + strings.Join(headings, ", ") + "."
}

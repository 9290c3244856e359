package plain

import (
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/muesli/termenv"
	"golang.org/x/term"

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

// trailNote stands in for the audit trail in what the printer prints.
const trailNote = "*The full history streamed above; the saved document and the debate log keep it whole.*"

// shownNote stands in for a section that repeats what the printed run
// has just shown.
const shownNote = "*Shown above; the saved document keeps it whole.*"

// foldTrail leaves the body of the document's audit trail out (a section
// headed "Audit trail", at any level, to the next heading of its level or
// above, a folded <details> block inside it to its end): the stream
// printed above has just shown all of it, and a compare's trail alone was
// some 170 of 450 lines. The heading stays, with trailNote under it.
// Headings inside fenced code blocks are text, not sections.
func foldTrail(md string) string {
	return foldSections(md, func(string) string { return "" })
}

// foldSections folds the audit trail, and each section for which fold
// returns a note: its heading stays, with the note under it.
func foldSections(md string, fold func(heading string) string) string {
	var b strings.Builder
	skip := 0 // inside a folded section: its heading's level
	details := false
	for ln, kind := range markdown.Fenced(md) {
		t := strings.TrimSpace(ln)
		switch {
		case kind != markdown.Prose:
		case details:
			details = t != "</details>"
			continue
		default:
			level := headingLevel(t)
			if skip > 0 && level > 0 && level <= skip {
				skip = 0
			}
			if skip > 0 {
				details = t == "<details>"
				continue
			}
			heading := strings.TrimSpace(strings.Trim(t, "# "))
			note := fold(heading)
			if level > 0 && strings.EqualFold(heading, "audit trail") {
				note = trailNote
			}
			if level > 0 && note != "" {
				b.WriteString(ln)
				b.WriteString("\n" + note + "\n\n")
				skip = level
				continue
			}
		}
		if skip == 0 {
			b.WriteString(ln)
		}
	}
	return b.String()
}

// headingLevel is the level of an ATX heading line ("## x": 2), or 0.
func headingLevel(t string) int {
	n := 0
	for n < len(t) && t[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n < len(t) && t[n] != ' ' {
		return 0
	}
	return n
}

// printDocument prints the outcome's document: the audit trail folded,
// as Markdown through the cleaner, or drawn for the terminal straight to
// it (markdown.Render cleaned its text first; what it adds is SGR).
func (p *Printer) printDocument(md string) {
	md = strings.TrimRight(foldSections(md, func(h string) string {
		if p.shown.repeats(h) {
			return shownNote
		}
		return ""
	}), "\n")
	if p.style == nil {
		p.printf("\n%s\n", md)
		return
	}
	if p.err != nil {
		return
	}
	lines := markdown.New(p.style.Markdown).Render(md, p.style.Width)
	_, p.err = io.WriteString(p.raw, "\n"+strings.Join(lines, "\n")+"\n")
}

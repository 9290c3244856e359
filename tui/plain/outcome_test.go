package plain

import (
	"bytes"
	"os"
	"strings"
	"testing"

	xansi "github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"
	"github.com/muesli/termenv"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/doc"
	"github.com/arenadebate/arena/tui/markdown"
	"github.com/arenadebate/arena/tui/tuitest"
)

// The printed document leaves out what the printed run showed (the
// sections that restate its tables, its seats' replies, its notes) and
// the summary its last line says, and names what it left out; a section
// that restates something not shown stays. A log written before
// documents were data has its Markdown printed whole.
func TestPrintedDocumentLeavesOutWhatWasShown(t *testing.T) {
	d := doc.Document{Title: "Debate outcome", Result: "consensus", Summary: "Consensus in round 1"}
	d.Sections = []doc.Section{
		{Heading: "Debate ledger", Restates: &doc.Restates{Tables: []string{"Debate ledger"}}, Blocks: []doc.Block{doc.Para("the ledger")}},
		{Heading: "Audit trail", Restates: &doc.Restates{Seats: []string{"claude", "gemini"}}},
		{Heading: "Round 1", Depth: 1, Blocks: []doc.Block{doc.Para("claude's opening")}},
		{Heading: "Flags", Restates: &doc.Restates{Notes: true}, Blocks: []doc.Block{doc.Para("a flag")}},
		{Heading: "What each agent cost", Blocks: []doc.Block{doc.Para("the costs")}},
	}
	var b bytes.Buffer
	p := New(&b)
	p.Handle(engine.Event{Payload: engine.Table{Title: "Debate ledger: what a plain vote said"}})
	for _, seat := range []string{"claude", "gemini"} {
		p.Handle(engine.Event{Payload: engine.Chunk{Seat: seat, Text: "said\n"}})
	}
	p.Handle(engine.Event{Payload: engine.Outcome{Result: "consensus", Summary: d.Summary, Document: &d}})
	out := b.String()
	for _, gone := range []string{"the ledger", "Round 1", "claude's opening", "**Consensus in round 1"} {
		if strings.Contains(out, gone) {
			t.Errorf("%q is printed again:\n%s", gone, out)
		}
	}
	for _, want := range []string{"# Debate outcome: consensus", "a flag", "the costs", "Shown above (the saved document keeps them too): Debate ledger, Audit trail.", "\nConsensus in round 1\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}

	b.Reset()
	p = New(&b)
	old := "# Debate outcome: consensus\n\n## Audit trail\n\nall of it\n"
	p.Handle(engine.Event{Payload: engine.Outcome{Result: "consensus", Summary: "s", Markdown: old}})
	if !strings.Contains(b.String(), old) {
		t.Fatalf("an old log's document is not printed whole:\n%s", b.String())
	}
}

func outcomeOf(t *testing.T) engine.Outcome {
	for _, e := range tuitest.Debate() {
		if o, ok := e.Payload.(engine.Outcome); ok {
			return o
		}
	}
	t.Fatal("no outcome")
	return engine.Outcome{}
}

// To a pipe the outcome is Markdown, without the audit trail the stream
// has just shown; on a terminal it is drawn, in colour unless NO_COLOR.
func TestPrinterOutcome(t *testing.T) {
	o := outcomeOf(t)
	if !strings.Contains(o.Markdown, "<details>") {
		t.Fatal("the demo's outcome has no folded trail to test")
	}
	var b bytes.Buffer
	p := New(&b)
	for _, e := range tuitest.Debate() {
		if _, ok := e.Payload.(engine.Chunk); ok {
			p.Handle(e) // the replies streamed
		}
	}
	b.Reset()
	p.Handle(engine.Event{Payload: o})
	out := b.String()
	if !strings.Contains(out, "# Debate outcome: tradeoff identified") || !strings.Contains(out, "**Rounds:**") || !strings.Contains(out, "Audit trail.") {
		t.Errorf("not the Markdown document:\n%s", out)
	}
	if strings.Contains(out, "<details>") || strings.Contains(out, "Full debate history") || strings.Count(out, "\n") > strings.Count(o.Markdown, "\n")/2 {
		t.Errorf("the audit trail is printed (%d lines, the document has %d):\n%s", strings.Count(out, "\n"), strings.Count(o.Markdown, "\n"), out)
	}

	b.Reset()
	p = NewStyled(&b, &Style{Width: 60, Markdown: markdown.Options{Profile: termenv.TrueColor}})
	p.Handle(engine.Event{Payload: o})
	drawn := b.String()
	if !strings.Contains(drawn, "\x1b[") || strings.Contains(drawn, "**Rounds:**") || !strings.Contains(xansi.Strip(drawn), "Rounds: 3") {
		t.Errorf("not drawn for a terminal:\n%s", drawn)
	}
	for _, l := range strings.Split(xansi.Strip(drawn), "\n") {
		if xansi.StringWidth(l) > 66 { // the summary rule is 66 wide
			t.Errorf("a line of %d cells: %q", xansi.StringWidth(l), l)
		}
	}
}

// New finds a terminal by itself: a pty gets the drawn document, without
// colour under NO_COLOR.
func TestNewDrawsOnATerminal(t *testing.T) {
	master, slave, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer master.Close()
	defer slave.Close()
	if err := pty.Setsize(master, &pty.Winsize{Cols: 70, Rows: 20}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("NO_COLOR", "1")
	s := terminalStyle(slave)
	if s == nil || s.Width != 70 || s.Markdown.Profile != termenv.Ascii {
		t.Fatalf("style %+v", s)
	}
	if terminalStyle(&bytes.Buffer{}) != nil || terminalStyle(os.NewFile(^uintptr(0), "bad")) != nil {
		t.Fatal("a buffer or a bad file is taken for a terminal")
	}
	for fgbg, light := range map[string]bool{"15;0": false, "0;15": true, "0;7": true, "": false, "x": false, "12;default;0": false} {
		if lightBackground(fgbg) != light {
			t.Errorf("COLORFGBG=%q: light %v", fgbg, !light)
		}
	}
}

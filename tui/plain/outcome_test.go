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
	"github.com/arenadebate/arena/tui/markdown"
	"github.com/arenadebate/arena/tui/tuitest"
)

func TestFoldTrail(t *testing.T) {
	md := strings.Join([]string{
		"# Comparison", "", "## Recommendation", "", "Kafka.", "",
		"## Audit trail", "", "### Opening · gemini (gemini)", "", "a reply with", "```", "## not a heading", "```", "",
		"### Rebuttal · codex (codex)", "", "another", "",
		"## What each agent cost", "", "| a | b |", "",
	}, "\n")
	got := foldTrail(md)
	for _, want := range []string{"## Recommendation\n\nKafka.", "## Audit trail\n\n" + trailNote + "\n\n## What each agent cost", "| a | b |"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	for _, gone := range []string{"Opening · gemini", "a reply with", "not a heading", "another"} {
		if strings.Contains(got, gone) {
			t.Errorf("%q is printed again:\n%s", gone, got)
		}
	}
	// The debate's trail: a level-3 heading and a folded <details> block,
	// whose replies may hold headings of any level.
	md = "## Options\n\nx\n\n---\n\n### Audit trail\n\n<details>\n<summary>Full debate history</summary>\n\n## a model's heading\n\nsaid\n\n</details>\n\n## What each agent cost\n\ny\n"
	got = foldTrail(md)
	if strings.Contains(got, "Full debate history") || strings.Contains(got, "said") || strings.Contains(got, "<details>") ||
		!strings.Contains(got, "### Audit trail\n\n"+trailNote) || !strings.Contains(got, "## What each agent cost\n\ny") {
		t.Fatalf("%s", got)
	}
	if md := "no trail here\n"; foldTrail(md) != md {
		t.Fatal("a document without a trail changed")
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
	p.Handle(engine.Event{Payload: o})
	out := b.String()
	if !strings.Contains(out, "# Debate outcome: tradeoff identified") || !strings.Contains(out, "**Rounds:**") || !strings.Contains(out, trailNote) {
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

package tui

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/tui/tuitest"
)

// plainMD renders without colour and without Markdown marks: the layout
// alone.
func plainMD(md string, width int) string {
	return renderMarkdown(md, width, mdStyle{})
}

func TestRenderMarkdownBlocks(t *testing.T) {
	md := strings.Join([]string{
		"# Debate outcome: consensus",
		"",
		"**Topic:** should we move *sessions* to `Postgres`?",
		"A soft break joins lines.",
		"",
		"## What claude learned",
		"- **From gemini:** throttle the",
		"  last_seen writes",
		"- From codex: snake_case_stays whole",
		"  1. nested and numbered",
		"",
		"| Party | If true → |",
		"|---|:--:|",
		"| claude | a \\| b |",
		"",
		"```go",
		"x := 1",
		"```",
		"> quoted [docs](https://example.com) and <https://go.dev>",
		"",
		"---",
		"",
		"<details>",
		"<summary>History</summary>",
		"",
		"Setext",
		"======",
		"</details>",
	}, "\n")
	want := strings.Join([]string{
		"",
		"  # Debate outcome: consensus",
		"",
		"  Topic: should we move sessions to Postgres? A soft break joins",
		"  lines.",
		"",
		"  ## What claude learned",
		"",
		"  • From gemini: throttle the last_seen writes",
		"  • From codex: snake_case_stays whole",
		"    1. nested and numbered",
		"",
		"  Party  │ If true →",
		"  ───────┼──────────",
		"  claude │ a | b",
		"",
		"    x := 1",
		"",
		"  │ quoted docs (https://example.com) and https://go.dev",
		"",
		"  ──────────────────────────────────────────────────────────────",
		"",
		"  History",
		"",
		"  # Setext",
	}, "\n")
	if got := plainMD(md, 66); got != want {
		t.Fatalf("got:\n%s\n\nwant:\n%s", got, want)
	}
}

// TestRenderMarkdownMarksWithoutColour: where bold and italics cannot
// show, their delimiters stay, as in the saved document.
func TestRenderMarkdownMarksWithoutColour(t *testing.T) {
	got := renderMarkdown("**Topic:** use *this* and `that`", 80, mdStyle{marks: true})
	if want := "\n  **Topic:** use *this* and `that`"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// TestRenderMarkdownLiteralAsterisks: delimiters that open nothing are
// text.
func TestRenderMarkdownLiteralAsterisks(t *testing.T) {
	for md, want := range map[string]string{
		"2 * 3 * 4":         "2 * 3 * 4",
		"**unclosed":        "**unclosed",
		"a <T> generic":     "a <T> generic",
		"\\*not italic\\*":  "*not italic*",
		"[not a link] here": "[not a link] here",
	} {
		if got := strings.TrimSpace(plainMD(md, 80)); got != want {
			t.Errorf("%q: got %q, want %q", md, got, want)
		}
	}
}

// TestRenderMarkdownWraps: paragraphs, list items and table cells wrap at
// spaces within the width; a word wider than the line is cut.
func TestRenderMarkdownWraps(t *testing.T) {
	got := plainMD("- one two three four five six seven eight nine ten\n\n"+strings.Repeat("x", 30), 26)
	want := "\n  • one two three four\n    five six seven eight\n    nine ten\n\n  xxxxxxxxxxxxxxxxxxxxxx\n  xxxxxxxx"
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	table := "| a | b |\n|---|---|\n| short | a cell much too long for its column |\n"
	for _, l := range strings.Split(plainMD(table, 30), "\n") {
		if ansi.StringWidth(l) > 30 {
			t.Fatalf("table line %q is wider than 30", l)
		}
	}
}

// outcomeDocuments are real outcome documents: the demo's, and the ones
// the golden tests show.
func outcomeDocuments(t testing.TB) []string {
	var docs []string
	for _, e := range tuitest.Debate() {
		if o, ok := e.Payload.(engine.Outcome); ok {
			docs = append(docs, o.Markdown)
		}
	}
	return docs
}

// colourStyle is the document style of a true-colour screen.
func colourStyle() mdStyle {
	r := lipgloss.NewRenderer(os.Stdout)
	r.SetColorProfile(termenv.TrueColor)
	r.SetHasDarkBackground(true)
	return newTheme(r).md
}

// TestRenderMarkdownFitsAndKeepsEveryWord: at every width, no line is
// wider than the screen, every line is painted on its own (it ends with
// the reset of what it starts), and no word of the document is lost.
func TestRenderMarkdownFitsAndKeepsEveryWord(t *testing.T) {
	st := colourStyle()
	word := regexp.MustCompile(`[\p{L}\p{N}]+`)
	for _, md := range outcomeDocuments(t) {
		for width := 14; width <= 160; width += 7 {
			out := renderMarkdown(md, width, st)
			for _, l := range strings.Split(out, "\n") {
				if w := ansi.StringWidth(l); w > width {
					t.Fatalf("width %d: a line of %d cells: %q", width, w, l)
				}
				if strings.Contains(l, "\x1b[") && !strings.HasSuffix(l, "\x1b[0m") {
					t.Fatalf("width %d: a style runs on past the line: %q", width, l)
				}
			}
			if width != 77 {
				continue
			}
			// Words may be cut at narrow widths; at 77 none is.
			seen := map[string]bool{}
			for _, w := range word.FindAllString(ansi.Strip(out), -1) {
				seen[w] = true
			}
			for _, w := range word.FindAllString(md, -1) {
				if !seen[w] && !strings.EqualFold(w, "details") && !strings.EqualFold(w, "summary") {
					t.Fatalf("width %d: %q is missing from the rendering", width, w)
				}
			}
		}
	}
}

func FuzzRenderMarkdown(f *testing.F) {
	for _, md := range outcomeDocuments(f) {
		f.Add(md, 80)
	}
	f.Add("- a\n  - b\n    - c\n| x | y |\n|---|---|\n| 1 |\n```\ncode", 14)
	f.Add("> > > > > > deep\n**a *b* c**", 20)
	st := colourStyle()
	f.Fuzz(func(t *testing.T, md string, width int) {
		width = 14 + abs(width)%200
		out := renderMarkdown(md, width, st)
		for _, l := range strings.Split(out, "\n") {
			if w := ansi.StringWidth(l); w > width {
				t.Fatalf("width %d: a line of %d cells: %q", width, w, l)
			}
			for _, r := range ansi.Strip(l) {
				if unicode.IsControl(r) {
					t.Fatalf("a control character in %q", l)
				}
			}
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

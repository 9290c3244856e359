package markdown

import (
	"flag"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	xansi "github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/cellbuf"
	"github.com/muesli/termenv"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/tui/tuitest"
)

var (
	plain  = Options{Profile: termenv.Ascii}
	colour = Options{Profile: termenv.TrueColor, Text: "#E5E7EB"}
)

func render(o Options, md string, width int) string {
	return strings.Join(New(o).Render(md, width), "\n")
}

// Without colour the document keeps its headings' hashes, and its
// emphasis and code read as their words, never as raw asterisks (issue
// 40, item 5); lists, tables, quotes and code blocks are laid out.
func TestRenderWithoutColour(t *testing.T) {
	md := strings.Join([]string{
		"# Debate outcome: consensus",
		"",
		"**Topic:** should we move sessions to Postgres?",
		"A soft break joins lines, *this one* with `code`.",
		"",
		"## What claude learned",
		"- throttle the last_seen writes",
		"- keep the pool",
		"",
		"| Party | If true |",
		"|---|---|",
		"| claude | right |",
		"",
		"```go",
		"x := 1",
		"```",
		"",
		"> quoted",
		"",
		"<details>",
		"<summary>History</summary>",
		"",
		"folded text",
		"</details>",
	}, "\n")
	got := render(plain, md, 60)
	for _, want := range []string{
		"# Debate outcome: consensus\n",
		"\nTopic: should we move sessions to Postgres? A soft break\njoins lines, this one with code.\n",
		"\n## What claude learned\n",
		"\n• throttle the last_seen writes\n• keep the pool\n",
		"claude",
		"\n  x := 1\n",
		"| quoted",
		"History",
		"folded text",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "\x1b") || strings.Contains(got, "<details>") || strings.Contains(got, "<summary>") || strings.Contains(got, "*") {
		t.Errorf("an escape sequence, a tag or an emphasis mark in\n%q", got)
	}
}

// Code blocks are highlighted: a Go block gets several colours.
func TestRenderHighlightsCode(t *testing.T) {
	lines := New(colour).Render("```go\nfunc add(a, b int) int { return a + b } // sum\n```", 80)
	sgr := regexp.MustCompile(`\x1b\[[0-9;]*m`)
	colours := map[string]bool{}
	for _, l := range lines {
		for _, s := range sgr.FindAllString(l, -1) {
			colours[s] = true
		}
	}
	if len(colours) < 4 {
		t.Fatalf("%d styles in the code block: %q", len(colours), lines)
	}
}

// outcomeDocuments are real outcome documents: the demo's.
func outcomeDocuments(t testing.TB) []string {
	var docs []string
	for _, e := range tuitest.Debate() {
		if o, ok := e.Payload.(engine.Outcome); ok {
			docs = append(docs, o.Markdown)
		}
	}
	if len(docs) == 0 {
		t.Fatal("no outcome in the demo")
	}
	return docs
}

// checkLines fails unless every line fits width, starts from no style
// and ends with none, and holds no escape sequence but SGR and no control
// character: what a model wrote can reach the terminal only as text.
func checkLines(t testing.TB, lines []string, width int) {
	t.Helper()
	p := xansi.NewParser()
	for _, l := range lines {
		if w := xansi.StringWidth(l); w > width {
			t.Fatalf("width %d: a line of %d cells: %q", width, w, l)
		}
		var pen cellbuf.Style
		var state byte
		for s := l; len(s) > 0; {
			seq, w, n, next := xansi.DecodeSequence(s, state, p)
			state, s = next, s[n:]
			if w > 0 {
				for _, r := range seq {
					if unicode.IsControl(r) {
						t.Fatalf("a control character in %q", l)
					}
				}
				continue
			}
			if !xansi.HasCsiPrefix(seq) || xansi.Cmd(p.Command()).Final() != 'm' {
				t.Fatalf("%q is not a style, in %q", seq, l)
			}
			cellbuf.ReadStyle(p.Params(), &pen)
		}
		if !pen.Empty() {
			t.Fatalf("a style runs on past the line: %q", l)
		}
	}
}

// At every width, every line fits and is painted on its own, and no word
// of the document is lost where its tables have room. (Narrower, glamour's
// tables, drawn by lipgloss, shorten what does not fit: a header to
// "C…", a cell to its first line.)
func TestRenderFitsAndKeepsEveryWord(t *testing.T) {
	word := regexp.MustCompile(`[\p{L}\p{N}]+`)
	r := New(colour)
	for _, md := range outcomeDocuments(t) {
		for _, width := range []int{14, 23, 40, 57, 80, 119, 160} {
			lines := r.Render(md, width)
			checkLines(t, lines, width)
			if width < 119 {
				continue
			}
			seen := map[string]bool{}
			for _, w := range word.FindAllString(xansi.Strip(strings.Join(lines, " ")), -1) {
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

// What a model wrote never reaches the terminal as a control sequence:
// not as an escape, an OSC title or hyperlink, a C1 control or a bell,
// in text, code or a table.
func TestRenderCleansModelText(t *testing.T) {
	evil := "\x1b[2J\x1b]0;pwned\x07\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ \u009b31m \a\x00 \x1bPq#0\x1b\\"
	md := "text " + evil + "\n\n```\ncode " + evil + "\n```\n\n| a |\n|---|\n| " + evil + " |\n\n`" + evil + "`"
	for _, o := range []Options{plain, colour} {
		lines := New(o).Render(md, 60)
		checkLines(t, lines, 60)
		if got := xansi.Strip(strings.Join(lines, "\n")); strings.Contains(got, "pwned") || strings.Contains(got, "2J") {
			t.Errorf("the payload of a sequence shows: %q", got)
		}
	}
}

func TestCleanExpandsTabs(t *testing.T) {
	if got := Clean("a\tb\r\n\tc\x1b[31m"); got != "a   b\n    c" {
		t.Fatalf("%q", got)
	}
}

// FuzzRenderMarkdown renders what the fuzzer makes up at widths 1 to 200:
// every line fits, carries its own style and lets no escape sequence
// through (checkLines), and no render is slow. A reply a model writes is
// rendered on the screen's update loop's behalf every frame; an input
// that takes a render seconds, a model can write too. The time is
// checked only while fuzzing (-fuzz), where the bound is generous
// (slowRender, a hundred times the slowest seed) and a find is kept in
// testdata/fuzz with its fix: as a plain test, the corpus checks what
// does not depend on the machine's speed.
//
// What made fuzzing crawl (issue 30: 20,000 executions in 213 to 290 s,
// a minute at a time at 0 a second) was not a slow render: no render of
// 360,000 made up inputs, 10 minutes of fuzzing, took half a second.
// It was go's minimisation of each new input that widens coverage, up to
// -fuzzminimizetime (60 s by default) each, of inputs grown from the
// seeds, outcome documents of kilobytes whose renders take milliseconds
// under coverage: with -fuzzminimizetime 20s the stalls took 20 s, with 0
// the fuzzer ran 500 to 1,000 executions a second throughout.
// scripts/fuzz minimises for FUZZMINIMIZETIME (2,000 executions by
// default).
func FuzzRenderMarkdown(f *testing.F) {
	for _, md := range outcomeDocuments(f) {
		f.Add(md, 80)
	}
	f.Add("- a\n  - b\n    - c\n| x | y |\n|---|---|\n| 1 |\n```\ncode", 14)
	f.Add("> > > > > > deep\n**a *b* c**", 20)
	f.Add("```go\nfunc f() {\x1b[31m}\n```\n\x1b]8;;x\x07y", 30)
	r := New(colour)
	fuzzing := flag.Lookup("test.fuzz").Value.String() != ""
	f.Fuzz(func(t *testing.T, md string, width int) {
		width = 1 + abs(width)%200
		start := time.Now()
		lines := r.Render(md, width)
		if took := time.Since(start); fuzzing && took > slowRender {
			t.Fatalf("%d bytes at width %d took %v to render", len(md), width, took)
		}
		checkLines(t, lines, width)
	})
}

// slowRender is how long a render may take while fuzzing: the seeds take
// at most 23 ms on a quiet machine, two orders of magnitude less.
const slowRender = 2 * time.Second

// A character two cells wide cannot be drawn on a line of one: it is
// drawn as the replacement character, so that no line is wider than the
// width (a pane's border would move), what checkLines holds every line
// to. (The fuzzer's find: 錌 at width 1.)
func TestTooWideIsReplaced(t *testing.T) {
	for _, o := range []Options{plain, colour} {
		lines := New(o).Render("錌 a 😀", 1)
		checkLines(t, lines, 1)
		if got := xansi.Strip(strings.Join(lines, "|")); got != "\ufffd|a|\ufffd" {
			t.Errorf("%q", got)
		}
		if got := strings.ReplaceAll(xansi.Strip(strings.Join(New(o).Render("錌 a 😀", 2), "|")), " ", ""); got != "錌|a|😀" {
			t.Errorf("at width 2: %q", got)
		}
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// Prose wraps greedily, hyphens or not: no line ends while the next
// line's first word would still have fitted on it, and none is too wide.
// (reflow's wordwrap, under glamour, did not count a hyphen, so a line
// with one ran a cell over and was broken again before its last word.)
func TestRenderWrapsHyphenatedProse(t *testing.T) {
	md := "**MAINTAIN:** Throttling last_seen fixes steady-state writes, not login storms after a deploy; an incident that forces re-login is 100%, and that is when well-known, long-lived, hand-written things break."
	for _, o := range []Options{plain, colour} {
		for width := 20; width <= 70; width++ {
			lines := New(o).Render(md, width)
			checkLines(t, lines, width)
			for i := 0; i+1 < len(lines); i++ {
				cur, next := xansi.Strip(lines[i]), xansi.Strip(lines[i+1])
				first, _, _ := strings.Cut(next, " ")
				if xansi.StringWidth(cur)+1+xansi.StringWidth(first) <= width && !strings.HasSuffix(cur, "-") {
					t.Fatalf("width %d: %q ends early (next: %q)", width, cur, next)
				}
			}
		}
	}
}

// Glamour's time grows steeply with nesting (64 nested "> - " took a
// minute) and with the length of a word (a 200 KB blob, two minutes): a
// reply nested deeper than maxNesting, or with a word longer than
// maxWord, is shown as text, wrapped, every character kept; one within
// both is drawn as Markdown.
func TestDeepNestingIsShownAsText(t *testing.T) {
	var lists strings.Builder
	for i := range 300 {
		lists.WriteString(strings.Repeat("  ", i) + "- item" + strconv.Itoa(i) + "\n")
	}
	for name, md := range map[string]string{
		"quotes": strings.Repeat(">", 500) + " deep",
		"mixed":  strings.Repeat("> - ", 64) + "deep",
		"lists":  lists.String(),
	} {
		lines := New(colour).Render(md, 40)
		checkLines(t, lines, 40)
		text := xansi.Strip(strings.Join(lines, "\n"))
		if !strings.Contains(text, ">>>>") && !strings.Contains(text, "> - > -") && !strings.Contains(text, "- item299") {
			t.Errorf("%s: drawn as Markdown, not shown as text:\n%s", name, text)
		}
	}
	shallow := strings.Repeat(">", 5) + " shallow"
	if text := xansi.Strip(strings.Join(New(colour).Render(shallow, 40), "\n")); strings.Contains(text, ">>") || !strings.Contains(text, "shallow") {
		t.Errorf("a quote nested 5 deep is not drawn as Markdown:\n%s", text)
	}
}

// A blob or a run of brackets looks the same drawn or shown as text, but
// drawing it would take minutes: shape measures it for Render to decide.
func TestLongWordsAreMeasured(t *testing.T) {
	for md, want := range map[string]int{
		"a few words": 5,
		"the key: " + strings.Repeat("QUJD", 50000):   200000,
		strings.Repeat("[", 20000):                    20000,
		"```\n" + strings.Repeat("x", 5000) + "\n```": 0,
		// A backtick in a backtick fence's info string makes it inline
		// code, and what follows prose, measured as such.
		"```x`\n" + strings.Repeat("QUJD", 5000): 20000,
	} {
		if _, got := shape(md); got != want {
			t.Errorf("longest word of %.20q… = %d, want %d", md, got, want)
		}
	}
	blob := "the key: " + strings.Repeat("QUJD", 50000)
	lines := New(colour).Render(blob, 40)
	checkLines(t, lines, 40)
	if got := strings.Count(xansi.Strip(strings.Join(lines, "")), "QUJD"); got != 50000 {
		t.Errorf("the blob shown as text keeps %d of its 50000 pieces", got)
	}
}

// Chroma matches a language it does not know against every lexer's
// file-name patterns, in a time that grows with the square of the name's
// length (a 6,000-byte name took seconds a frame), and guesses the
// language of a block that names none or one it does not know by running
// every lexer's analyser over the code (3 ms a render): prepare names
// "text" instead, so the block is drawn as plain code, and keeps every
// other line as it was.
func TestUnknownLanguageIsPlainText(t *testing.T) {
	long := strings.Repeat("\ufffd", 2000)
	for md, want := range map[string]string{
		"```" + long + "\ncode-x\n```":           "```text\ncode-x\n```",
		"  ~~~~ " + long + " more\ncode\n~~~~\n": "  ~~~~text\ncode\n~~~~\n",
		"a-b\n```" + long + "\na-b\n```\na-b":    "a" + nbHyphen + "b\n```text\na-b\n```\na" + nbHyphen + "b",
		"```go\nx-y\n```":                        "```go\nx-y\n```",
		"```\nx\n```":                            "```text\nx\n```",
		"```klingon\nx\n```":                     "```text\nx\n```",
		"```" + strings.Repeat("a", maxLanguage): "```text",
		"```" + long + "`x`\ncode":               "```" + long + "`x`\ncode", // opens no block
		"    ```" + long + "\nindented code":     "    ```" + long + "\nindented code",
		"```go\n```" + long + "\n```":            "```go\n```" + long + "\n```", // inside a block
	} {
		if got := prepare(md); got != want {
			t.Errorf("prepare(%.40q…) = %.60q…, want %.60q…", md, got, want)
		}
	}
	r := New(colour)
	for _, lang := range []string{long, strings.Repeat("x", 6000), "", "klingon"} {
		got := r.Render("```"+lang+"\nfunc f() {}\n```", 40)
		if want := r.Render("```text\nfunc f() {}\n```", 40); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("a block whose language is %q is drawn\n%q\nnot as plain text\n%q", lang[:min(len(lang), 9)], got, want)
		}
	}
}

func TestNestingCounts(t *testing.T) {
	for md, want := range map[string]int{
		"plain text":            0,
		"> quote":               1,
		">> > quote":            3,
		"- a":                   1,
		"    - a":               3,
		"> - > 1. x":            4,
		"        indented code": 0,
		"```\n" + strings.Repeat(">", 50) + "\n```": 0,
		// An info string does not close a fence (as Stream cuts it), and
		// a fence indented four columns is code, not a fence.
		"```\n```go\n" + strings.Repeat(">", 50) + "\n```": 0,
		"    ```\n>>>>> x":        5,
		"- a\n  - b\n    - c":     3,
		"12345678901. not a list": 0,
	} {
		if got, _ := shape(md); got != want {
			t.Errorf("depth of %q = %d, want %d", md, got, want)
		}
	}
}

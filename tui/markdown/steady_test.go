package markdown

import (
	"fmt"
	"strings"
	"testing"

	xansi "github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/judge"
	"github.com/arenadebate/arena/engine/layout"
	"github.com/arenadebate/arena/tui/tuitest"
)

// steadyDocs are documents to stream: the five shapes of reply the
// screen's benchmarks stream, as their layout renders them, the replies
// and outcomes of the recorded debate, and what models write that is
// hard to lay out a line at a time.
func steadyDocs(t testing.TB) map[string]string {
	docs := map[string]string{
		"bold across lines": "The plan is sized for the average day; **sessions must survive the worst one, which is a deploy that logs every user out at once** and then the pool fills.",
		"code spans":        "Throttle `last_seen` writes with `UPDATE ... WHERE last_seen < now() - interval '5 minutes'`, not in the application, or every node races the others for the same row.",
		"underscores":       "The snake_case_names and _emphasis_ and __strong__ read the same way, as do 2*3*4 and a stray * star.",
		"hyphens":           "Steady-state writes are well-known, long-lived and hand-written: re-login storms after a deploy are what break 2026-11-23's plan.",
		"comment in code":   "```go\nfunc f() {\n\t/* a comment\n\tthat spans lines */\n\tx := `raw\nstring`\n\treturn\n}\n```",
		"code then prose":   "```python\ndef f():\n    '''doc\n    string'''\n    return 1\n```\nand then prose after it, a paragraph long enough to wrap at the narrowest width here.",
		"list":              "**Evidence:**\n- 1,800 requests/s of primary-key reads\n- a pool of 400 that is not the bottleneck, as the load test at twice today's peak showed last week\n- 3",
	}
	for _, shape := range tuitest.Shapes {
		docs["shape "+shape] = shapeMarkdown(shape, 3000)
	}
	for i, e := range tuitest.Debate() {
		switch p := e.Payload.(type) {
		case engine.AgentFinished:
			if i%3 == 0 {
				docs[fmt.Sprintf("reply %d", i)] = p.Display
			}
		case engine.Outcome:
			docs["outcome"] = p.Markdown
		}
	}
	return docs
}

// shapeMarkdown is the Markdown the judge's analysis layout renders a
// reply of n bytes in shape to.
func shapeMarkdown(shape string, n int) string {
	return layout.Render(tuitest.Shape(shape, n), judge.Layouts[judge.ShapeAnalysis])
}

// What a person reads while a reply streams is what stays: at every
// frame, every line but the last is the line the finished document has
// there, rendered whole by glamour. Streamed a few bytes a frame at the
// widths of a pane, for documents whose every paragraph and code block
// can be laid out a line at a time.
//
// Two things may change besides: a table's columns, which glamour sizes to
// the widest cell of every row (each row arriving may widen one), and the
// colour of the lines of a comment or string that spans lines of code,
// which a highlighter cannot tell from code until it closes ("colour
// settles" compares their text only).
func TestStreamedLinesStay(t *testing.T) {
	r := New(colour)
	for name, md := range steadyDocs(t) {
		for _, width := range []int{36, 57, 80} {
			t.Run(fmt.Sprintf("%s/%d", name, width), func(t *testing.T) {
				checkSteady(t, r, md, width, strings.Contains(name, "in code"))
			})
		}
	}
}

// checkSteady streams md into a Stream a few bytes a frame and compares
// each frame with the whole rendering: all its lines but the line being
// written (those of the last line of a code block, which may take more
// than one), and a table being written; with textOnly, their text only.
func checkSteady(t *testing.T, r *Renderer, md string, width int, textOnly bool) {
	t.Helper()
	whole := r.Render(md, width)
	s := NewStream(r)
	step := max(len(md)/300, 3)
	for i := step; i < len(md)+step; i += step {
		s.SetTail(md[:min(i, len(md))])
		s.Layout(width)
		got := lines(s)
		g := strings.Split(got, "\n")
		for j := 0; j < len(g)-writtenRows(md[:min(i, len(md))], width) && !tableRow(g[j]); j++ {
			if j < len(whole) && textOnly && xansi.Strip(g[j]) == xansi.Strip(whole[j]) {
				continue
			}
			if j >= len(whole) || g[j] != whole[j] {
				t.Fatalf("at %d of %d bytes, line %d is\n%q\nwhere the whole has\n%q\nframe:\n%s\nwhole:\n%s",
					i, len(md), j, xansi.Strip(g[j]), strip(whole, j), xansi.Strip(got), xansi.Strip(strings.Join(whole, "\n")))
			}
		}
	}
	s.Add(md)
	s.SetTail("")
	s.Layout(width)
	if got := lines(s); got != strings.Join(whole, "\n") {
		t.Fatalf("finished, the stream shows\n%s\nnot\n%s", got, strings.Join(whole, "\n"))
	}
}

func strip(lines []string, j int) string {
	if j < len(lines) {
		return xansi.Strip(lines[j])
	}
	return "(none)"
}

// writtenRows is how many rows at the end of a frame show the line being
// written: the last line of md, wrapped at width (a code block's behind
// its margin).
func writtenRows(md string, width int) int {
	last := md[strings.LastIndexByte(md, '\n')+1:]
	plain := strings.Count(xansi.Wrap(codeMargin+Clean(last), width, ""), "\n") + 1
	return max(1, plain, (xansi.StringWidth(Clean(last))+2+width-1)/width)
}

// What a Stream holds follows what it shows, not the frames drawn: after
// thousands of frames of one paragraph and one code block, it holds the
// lines (its scrollback), a segment or two waiting to be fixed and the
// renders of the frame, nothing a frame added.
func TestStreamHoldsLinesNotFrames(t *testing.T) {
	r := New(plain)
	for _, shape := range []string{"paragraph", "code", "list"} {
		md := shapeMarkdown(shape, 60000)
		s := NewAsyncStream()
		for i := 1; i <= len(md); i += 20 {
			s.SetTail(md[:i])
			s.Layout(36)
			for _, want := range s.Wants() {
				s.Rendered(want, 36, r.Render(want, 36))
			}
			s.Layout(36)
		}
		if n := len(s.t.segs); n > 2 {
			t.Errorf("%s: %d segments wait to be fixed", shape, n)
		}
		if n := len(s.cache.ready) + len(s.cache.asked); n > 4 {
			t.Errorf("%s: %d renders kept", shape, n)
		}
		if n, lines := cap(s.t.open), s.Len(); n > 64 || lines < 1000 {
			t.Errorf("%s: %d lines shown, %d open lines kept", shape, lines, n)
		}
	}
}

// What cannot be laid out a line at a time is cut once it grows past
// maxPiece, so no frame renders more than a piece: a paragraph with a
// link (whose address renders as another word), a bold mark never
// closed, a quote, a list's long item, a code line that never ends, a
// comment that never closes, a word longer than a line.
func TestStreamRendersAPieceAtMost(t *testing.T) {
	sentence := "the write path holds the row lock while it publishes, and a crash loses the event "
	for name, md := range map[string]string{
		"link":         "See [the runbook](https://example.com/runbook) first: " + strings.Repeat(sentence, 60),
		"stray bold":   "**" + strings.Repeat(sentence, 60),
		"quote":        "> " + strings.Repeat(sentence, 60),
		"item":         "- " + strings.Repeat(sentence, 60),
		"code line":    "```js\n" + strings.Repeat("var a=f(b,c);", 400),
		"open comment": "```go\n/* " + strings.Repeat(sentence+"\n", 60),
		"long word":    strings.Repeat("QUJD", 1000) + " " + sentence,
		// A table is rendered whole when a row is complete, up to
		// maxTableRows rows: glamour sizes its columns to all of them.
		"table": "| seat | verdict |\n|---|---|\n" + strings.Repeat("| claude | the write path holds the lock |\n", 200),
	} {
		r := New(plain)
		biggest, renders := 0, 0
		r.observe = func(md string) { biggest, renders = max(biggest, len(md)), renders+1 }
		s := NewStream(r)
		for i := 1; i <= len(md); i += 7 {
			s.SetTail(md[:i])
			s.Layout(36)
		}
		limit := 2 * maxPiece
		if name == "table" {
			limit = (maxTableRows + 2) * 45
			if frames := len(md) / 7; renders > frames/2 {
				t.Errorf("table: %d renders in %d frames: rendered when no row was complete", renders, frames)
			}
		}
		if biggest > limit {
			t.Errorf("%s: a render of %d bytes", name, biggest)
		}
	}
}

// tableRow says whether a line is a table's: drawn, or its text before
// it can be (a header without its delimiter row, the row being written).
func tableRow(ln string) bool {
	return strings.Contains(ln, "│") || strings.HasPrefix(xansi.Strip(ln), "|")
}

func TestStartsLine(t *testing.T) {
	for w, want := range map[string]bool{
		"word": true, "Ünïcode": true, "42": true, "3.": false, "12)": false, "3.5%": false,
		"**Point": true, "_x_": true, "`code`": true, "```go": false, "- ": false, "#": false,
		"> ": false, "|": false, "(aside)": false, "": false, "**": false,
	} {
		if got := startsLine(w); got != want {
			t.Errorf("startsLine(%q) = %v", w, got)
		}
	}
}

// When renders come back a frame or more late (a pane whose renders take
// longer than a frame), what is laid out for good keeps up with the text
// from the renders that did come back, so what each render is asked for
// stays short, and the finished piece reads as it does rendered whole.
func TestStreamKeepsUpWithLateRenders(t *testing.T) {
	r := New(plain)
	for _, shape := range []string{"paragraph", "code", "list"} {
		md := shapeMarkdown(shape, 20000)
		s := NewAsyncStream()
		var late [][]string // the wants of the frames before, oldest first
		biggest := 0
		for i := 1; i <= len(md); i += 97 {
			s.SetTail(md[:i])
			s.Layout(36)
			late = append(late, s.Wants())
			if len(late) > 3 { // back three frames later
				for _, want := range late[0] {
					biggest = max(biggest, len(want))
					s.Rendered(want, 36, r.Render(want, 36))
				}
				late = late[1:]
			}
		}
		if biggest > 3*maxPiece {
			t.Errorf("%s: a render of %d bytes was asked for", shape, biggest)
		}
	}
}

// Code being written shows behind the margin glamour draws code blocks
// behind, in every style.
func TestCodeMargin(t *testing.T) {
	for _, o := range []Options{plain, colour, {Profile: termenv.TrueColor, Light: true}} {
		if m := Style(o).CodeBlock.Margin; m == nil || *m != uint(len(codeMargin)) {
			t.Errorf("%+v: glamour's code margin is %v, not %d", o, m, len(codeMargin))
		}
	}
}

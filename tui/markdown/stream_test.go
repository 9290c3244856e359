package markdown

import (
	"slices"
	"strings"
	"testing"
)

// pieces is md cut as cuts cuts it, "|" between pieces after a blank
// line, "+" between items.
func pieces(md string) string {
	var b strings.Builder
	off := 0
	for _, c := range cuts(md) {
		b.WriteString(md[off:c.end])
		if c.gap {
			b.WriteString("|")
		} else {
			b.WriteString("+")
		}
		off = c.next
	}
	b.WriteString(md[off:])
	return b.String()
}

func TestCuts(t *testing.T) {
	for md, want := range map[string]string{
		"one paragraph":                  "one paragraph",
		"first\n\nsecond":                "first\n|second",
		"a\n\nb\n\n\nc\nd":               "a\n|b\n|c\nd",
		"a\n\n```\ncode\n\nmore code":    "a\n|```\ncode\n\nmore code",
		"a\n\n```\ncode\n\n```\n\nafter": "a\n|```\ncode\n\n```\n||after",
		"~~~~\nx\n\n~~~\ny\n\n~~~~\n\nz": "~~~~\nx\n\n~~~\ny\n\n~~~~\n||z",
		// A code block is a piece of its own, set apart by a blank line
		// as glamour sets it apart.
		"text\n```go\ncode\n```\nafter": "text\n|```go\ncode\n```\n|after",
		"\n\nleading":                   "|leading",
		// A list is set apart from the paragraph above it, as glamour
		// sets it apart; its items are not.
		"**Points:**\n- one\n  more\n- two\n  - sub\n3. three": "**Points:**\n|- one\n  more\n+- two\n  - sub\n+3. three",
		"- 5 - 3 is 2\n-not an item":                           "- 5 - 3 is 2\n-not an item",
	} {
		if got := pieces(md); got != want {
			t.Errorf("%q: %q, want %q", md, got, want)
		}
	}
}

// A reply streamed a byte at a time: what each frame renders is the
// paragraph being written, not the reply; the finished blocks are
// rendered once each; and once all is final the stream shows what
// rendering the blocks one by one shows.
func TestStreamRendersOnlyWhatChanged(t *testing.T) {
	blocks := []string{
		"**Critique:** the plan is sized for the average day; sessions must survive the worst one.",
		"**Evidence:**\n- 1,800 requests/s of primary-key reads\n- a pool of 400",
		"**Alternative:** gate the switch on a load test at twice today's peak.\n\nA second paragraph, then a third:\n\n```go\nfunc f() {}\n\nfunc g() {}\n```",
	}
	r := New(colour)
	var renders []string
	r.observe = func(md string) { renders = append(renders, md) }
	s := NewStream(r)
	width := 40
	for _, b := range blocks {
		for i := 1; i <= len(b); i++ {
			s.SetTail(b[:i])
			s.Layout(width)
			if got := s.Len(); got == 0 {
				t.Fatalf("nothing shown of %q", b[:i])
			}
		}
		s.Add(b) // as a pane feeds it: the finished blocks, then the rest
		s.SetTail("")
		s.Layout(width)
	}
	// Every render is of one paragraph in progress, of the paragraphs
	// before it in the block (only when they changed), or of a finished
	// block: none is of more than one block.
	biggest := 0
	for _, md := range renders {
		biggest = max(biggest, len(md))
	}
	if longest := len(blocks[2]); biggest > longest {
		t.Errorf("a render of %d bytes: more than one block", biggest)
	}
	for _, b := range blocks {
		n := 0
		for _, md := range renders {
			if md == b {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%q rendered whole %d times, want once", b, n)
		}
	}
	var want []string
	for _, b := range blocks {
		want = stack(want, r.Render(b, width))
	}
	var got []string
	for i := range s.Len() {
		got = append(got, s.Line(i))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A pane zoomed and back: the finished blocks are not rendered again at
// the width they were rendered at just before.
func TestStreamKeepsTheWidthBefore(t *testing.T) {
	r := New(plain)
	n := 0
	r.observe = func(string) { n++ }
	s := NewStream(r)
	s.Add("a finished block that wraps at forty columns but not at eighty", "another")
	s.Layout(40)
	at40 := s.Len()
	s.Layout(80)
	s.Layout(40)
	if n != 4 || s.Len() != at40 {
		t.Fatalf("%d renders, %d lines (want 4, %d)", n, s.Len(), at40)
	}
	s.Add("a third")
	s.Layout(40)
	if n != 5 || s.Line(s.Len()-1) != "a third" || s.Line(s.Len()-2) != "" {
		t.Fatalf("%d renders; last lines %q %q", n, s.Line(s.Len()-2), s.Line(s.Len()-1))
	}
}

func lines(s *Stream) string {
	var out []string
	for i := range s.Len() {
		out = append(out, s.Line(i))
	}
	return strings.Join(out, "\n")
}

// Laid out frame by frame, a stream shows at every frame what a stream
// given the same blocks and rest at once shows; and a list streaming item
// by item renders each item once it is followed, and the item being
// written, not the list.
func TestStreamFrameByFrameMatchesAtOnce(t *testing.T) {
	long := strings.Repeat("a line of prose that a model broke with a single newline\n", 12)
	code := "```go\n" + strings.Repeat("x := f(1, 2) // a line of a long code block\n", 16) + "```\nafter the code"
	blocks := []string{
		long + "\nand its last line",
		code,
		"**Verdict:** DISAGREE · strong objection",
		"**Evidence:**\n- 1,800 requests/s of primary-key reads\n- a pool of 400\n  that is not the bottleneck\n- 3\n\n  a loose item's paragraph",
		"Prose first.\n\n```go\nfunc f() {}\n\nfunc g() {}\n```\n\n1. one\n2. two",
	}
	r := New(colour)
	var renders []string
	r.observe = func(md string) { renders = append(renders, md) }
	s := NewStream(r)
	for k, b := range blocks {
		for i := 1; i <= len(b); i = min(i+5, len(b)+1) {
			s.SetTail(b[:i])
			s.Layout(44)
			if i%4 != 1 && i != len(b) {
				continue
			}
			fresh := NewStream(New(colour))
			fresh.Add(blocks[:k]...)
			fresh.SetTail(b[:i])
			fresh.Layout(44)
			if got, want := lines(s), lines(fresh); got != want {
				g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
				for j := range min(len(g), len(w)) {
					if g[j] != w[j] {
						t.Fatalf("block %d, %d bytes: line %d of %d/%d: frame by frame %q, at once %q", k, i, j, len(g), len(w), g[j], w[j])
					}
				}
				t.Fatalf("block %d, %d bytes: %d lines frame by frame, %d at once", k, i, len(g), len(w))
			}
		}
		s.Add(b)
		s.SetTail("")
		s.Layout(44)
	}
	for _, md := range renders {
		if slices.Contains(blocks, md) {
			continue
		}
		if strings.Count(md, "\n- ") > 1 {
			t.Fatalf("a render of several items: %q", md)
		}
		if len(md) > 2*maxPiece {
			t.Fatalf("a render of %d bytes of a piece being written", len(md))
		}
	}
}

// A Stream made to ask for its renders shows what it has no rendering of
// as plain text, asks for each rendering once, draws it once handed back,
// and drops what was rendered at a width it is no longer laid out at.
func TestAsyncStreamShowsTextUntilRendered(t *testing.T) {
	r := New(colour)
	s := NewAsyncStream()
	s.SetTail("the **bold** claim")
	s.Layout(40)
	if got := lines(s); got != "the **bold** claim" {
		t.Fatalf("before its rendering: %q", got)
	}
	wants := s.Wants()
	if len(wants) != 1 {
		t.Fatalf("asked for %q", wants)
	}
	s.Layout(40)
	if again := s.Wants(); len(again) != 0 {
		t.Fatalf("asked again for %q", again)
	}
	s.Rendered(wants[0], 80, r.Render(wants[0], 80)) // a width it is not laid out at
	s.Layout(40)
	if got := lines(s); got != "the **bold** claim" {
		t.Fatalf("drew a rendering of another width: %q", got)
	}
	s.Rendered(wants[0], 40, r.Render(wants[0], 40))
	s.Layout(40)
	if got, want := lines(s), strings.Join(r.Render("the **bold** claim", 40), "\n"); got != want {
		t.Fatalf("once rendered: %q, want %q", got, want)
	}
}

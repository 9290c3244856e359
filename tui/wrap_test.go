package tui

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func wrapAll(width int, parts ...string) []string {
	var w wrapper
	w.reset(width)
	for _, p := range parts {
		w.write(p)
	}
	out := make([]string, w.count())
	for i := range out {
		out[i] = w.at(i).text
	}
	return out
}

func TestWrapBreaksAtWords(t *testing.T) {
	got := wrapAll(10, "the quick brown fox jumps\nover  averyveryverylongword end")
	want := []string{"the quick", "brown fox", "jumps", "over", "averyveryv", "erylongwor", "d end"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

func TestWrapKeepsIndentAndWideRunes(t *testing.T) {
	got := wrapAll(8, "    {\n  \"k\": 1\n日本語のテキスト")
	want := []string{"    {", "  \"k\": 1", "日本語の", "テキスト"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

// TestWrapIsIncremental: text cut anywhere wraps as the whole text does,
// and no line is wider than the width.
func TestWrapIsIncremental(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"a", "relay", "exactly-once", "{\"verdict\":", "\"disagree\",", "\n", "  ", "Kafka", "naïve", "日本", "supercalifragilisticexpialidocious"}
	for range 300 {
		var b strings.Builder
		for range 60 {
			b.WriteString(words[r.IntN(len(words))])
			if r.IntN(3) > 0 {
				b.WriteByte(' ')
			}
		}
		text := b.String()
		width := 4 + r.IntN(40)
		var parts []string
		for rest := text; rest != ""; {
			n := min(1+r.IntN(12), len(rest))
			for n < len(rest) && rest[n]&0xC0 == 0x80 { // whole runes, as chunks are
				n++
			}
			parts = append(parts, rest[:n])
			rest = rest[n:]
		}
		whole, cut := wrapAll(width, text), wrapAll(width, parts...)
		if strings.Join(whole, "\n") != strings.Join(cut, "\n") {
			t.Fatalf("width %d: cut text wraps differently\nwhole %q\ncut   %q", width, whole, cut)
		}
		for _, l := range whole {
			if ansi.StringWidth(l) > width {
				t.Fatalf("width %d: line %q is %d wide", width, l, ansi.StringWidth(l))
			}
		}
		if strings.Join(strings.Fields(strings.Join(whole, "")), "") != strings.Join(strings.Fields(text), "") {
			t.Fatalf("width %d: text lost", width)
		}
	}
}

func TestLayoutFillsTheArea(t *testing.T) {
	for n := 1; n <= 7; n++ {
		for _, wh := range [][2]int{{200, 50}, {120, 36}, {80, 20}, {60, 16}, {40, 8}} {
			for focus := range n {
				rows := computeLayout(n, wh[0], wh[1], focus)
				seen, height := map[int]bool{}, 0
				for _, r := range rows {
					height += r.height
					width := 0
					for i, p := range r.panes {
						width += r.widths[i]
						seen[p] = true
					}
					if width != wh[0] {
						t.Fatalf("n=%d %v: a row is %d wide", n, wh, width)
					}
				}
				if height != wh[1] {
					t.Fatalf("n=%d %v: rows are %d high", n, wh, height)
				}
				if !seen[focus] {
					t.Fatalf("n=%d %v: the focused pane is not shown", n, wh)
				}
			}
		}
	}
}

// Panes side by side too narrow to read well give way to a grid when the
// screen has the room for one (issue 40, item 8), and stay side by side
// when it has not.
func TestLayoutUsesABigScreen(t *testing.T) {
	for _, c := range []struct {
		n, w, h int
		want    []int // panes in each row
	}{
		{4, 160, 38, []int{2, 2}},   // 160×48: a 2×2 of 80, not four columns of 40
		{4, 240, 38, []int{4}},      // four of 60 read well side by side
		{4, 120, 30, []int{2, 2}},   // four of 30 do not fit
		{4, 80, 17, []int{2, 2}},    // 80×24
		{3, 120, 36, []int{3}},      // a 2+1 grid would draw one pane 120 wide
		{5, 160, 38, []int{3, 2}},   // five of 32, or rows of 53 and 80
		{2, 160, 10, []int{2}},      // no height for a grid
		{4, 160, 20, []int{4}},      // rows of 10 are too short to read in
		{2, 80, 40, []int{1, 1}},    // two of 40, or stacked at 80×20
		{7, 200, 40, []int{4, 3}},   // seven of 28 do not fit
		{1, 300, 50, []int{1}},      // one pane takes the screen
		{6, 160, 38, []int{3, 3}},   // six of 26 do not fit
		{4, 160, 12, []int{4}},      // two rows of 6 are too short
		{3, 60, 12, []int{1, 1, 1}}, // 60 columns: stacked, a row each
	} {
		var got []int
		for _, r := range computeLayout(c.n, c.w, c.h, 0) {
			got = append(got, len(r.panes))
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%d panes in %d×%d: rows of %v, want %v", c.n, c.w, c.h, got, c.want)
		}
	}
}

package tui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/arenadebate/arena/tui/tuitest"
)

// boxEdges are the panes' top and bottom borders in a view, each alone.
var (
	topEdge    = regexp.MustCompile(`[┏╭][^┓╮]*[┓╮]`)
	bottomEdge = regexp.MustCompile(`[┗╰][^┛╯]*[┛╯]`)
)

// paneBox is a pane's top and bottom border as drawn, by the order of
// the boxes on the screen.
type paneBox struct{ top, bottom string }

func paneBoxes(view string) []paneBox {
	var tops, bottoms []string
	for _, l := range strings.Split(plain(view), "\n") {
		tops = append(tops, topEdge.FindAllString(l, -1)...)
		bottoms = append(bottoms, bottomEdge.FindAllString(l, -1)...)
	}
	out := make([]paneBox, len(tops))
	for i := range tops {
		out[i].top = tops[i]
		if i < len(bottoms) {
			out[i].bottom = bottoms[i]
		}
	}
	return out
}

// At 80 columns the debate's four panes keep their roles in their
// titles, and their badges whole: the defender's "1 partial · 1 reject"
// goes below its reply when the title leaves it no room. (The titles
// were "claude", "gemini", "codex" and "qwen": the role went first.)
func TestPaneTitlesKeepTheirRoles(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		h := newHarness(t, Options{}, round2(t), size[0], size[1])
		boxes := paneBoxes(h.view())
		if len(boxes) != 4 {
			t.Fatalf("%dx%d: %d panes drawn, want 4", size[0], size[1], len(boxes))
		}
		for i, want := range []string{"claude · defender", "gemini · challenger", "codex · challenger", "qwen · challenger"} {
			if !strings.Contains(boxes[i].top, " "+want+" ") {
				t.Errorf("%dx%d: pane %d's title is %q, want %q", size[0], size[1], i, boxes[i].top, want)
			}
		}
		if b := boxes[0]; !strings.Contains(b.top+b.bottom, "1 partial · 1 reject") {
			t.Errorf("%dx%d: the defender's badge is not whole in %q / %q", size[0], size[1], b.top, b.bottom)
		}
	}
}

// Seats of one kind are titled alike: both advocates by their role, or
// both by their seat's name ("advocate for Kafka" beside "for Postgres
// LISTEN/NOTIFY" read as two kinds of seat).
func TestPaneTitlesReadAlike(t *testing.T) {
	ev := tuitest.Run("compare")
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 50}} {
		h := newHarness(t, Options{}, ev[:len(ev)/2], size[0], size[1])
		boxes := paneBoxes(h.view())
		if len(boxes) < 2 {
			t.Fatalf("%dx%d: %d panes drawn", size[0], size[1], len(boxes))
		}
		kafka := strings.Contains(boxes[0].top, "advocate for Kafka")
		postgres := strings.Contains(boxes[1].top, "advocate for Postgres")
		if kafka != postgres || !strings.Contains(boxes[0].top, "for Kafka") || !strings.Contains(boxes[1].top, "for Postgres LISTEN/NOTIFY") {
			t.Errorf("%dx%d: the advocates are titled %q and %q", size[0], size[1], boxes[0].top, boxes[1].top)
		}
	}
}

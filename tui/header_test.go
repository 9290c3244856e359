package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// The header keeps the mark and the start of the topic at any width: the
// facts on the right give way, least needed first (issue 40, item 14: at
// 60×20 the header lost both).
func TestHeaderKeepsTheMarkAndTheTopic(t *testing.T) {
	for _, w := range []int{40, 50, 60, 80, 100, 120, 160} {
		h := newHarness(t, Options{}, round2(t), w, 20)
		line := strings.Split(h.view(), "\n")[0]
		p := plain(line)
		if !strings.Contains(p, "ARENA") || !strings.Contains(p, "Should we") || ansi.StringWidth(line) != w {
			t.Errorf("at %d columns the header reads %q", w, p)
		}
		if w >= 60 && !strings.Contains(p, "round 2 of 3") {
			t.Errorf("at %d columns the header lost the round: %q", w, p)
		}
		if w >= 120 && !strings.Contains(p, "4.0k in") {
			t.Errorf("at %d columns the header lost the tokens: %q", w, p)
		}
	}
	h := newHarness(t, Options{Replay: true, Speed: 2}, round2(t), 60, 20)
	for h.m.round < 2 {
		h.keys("n")
	}
	h.keys("space")
	if p := plain(strings.Split(h.view(), "\n")[0]); !strings.Contains(p, "ARENA") || !strings.Contains(p, "Should") || !strings.Contains(p, "paused") {
		t.Errorf("a paused replay's header at 60 columns reads %q", p)
	}
}

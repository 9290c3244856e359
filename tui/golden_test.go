package tui

import (
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/tui/tuitest"
)

// round2 is the recorded debate in round 2's rebuttals, gemini and codex
// both streaming.
func round2(t *testing.T) []engine.Event {
	t.Helper()
	ev := tuitest.Debate()
	i := tuitest.Index(ev, func(e engine.Event) bool {
		f, ok := e.Payload.(engine.AgentFinished)
		return ok && f.Seat == "gemini" && f.Round == 2
	})
	if i < 0 {
		t.Fatal("no gemini reply in round 2")
	}
	return ev[:i-6]
}

// codexTimedOut is the recorded debate just after codex timed out in
// round 2, with the note saying so.
func codexTimedOut(t *testing.T) []engine.Event {
	t.Helper()
	ev := tuitest.Debate()
	i := tuitest.Index(ev, func(e engine.Event) bool {
		f, ok := e.Payload.(engine.AgentFailed)
		return ok && f.Seat == "codex" && f.Round == 2
	})
	if i < 0 {
		t.Fatal("no codex failure in round 2")
	}
	return ev[:i+2] // and the note that says so
}

func TestGolden(t *testing.T) {
	t.Run("running_round2_120x40", func(t *testing.T) {
		h := newHarness(t, Options{}, round2(t), 120, 40)
		golden.RequireEqual(t, []byte(h.view()))
	})
	t.Run("zoomed_80x24", func(t *testing.T) {
		h := newHarness(t, Options{}, round2(t), 80, 24)
		h.keys("tab", "enter")
		golden.RequireEqual(t, []byte(h.view()))
	})
	t.Run("outcome_tradeoff_100x40", func(t *testing.T) {
		h := newHarness(t, Options{}, tuitest.Debate(), 100, 40)
		golden.RequireEqual(t, []byte(h.view()))
	})
	t.Run("timed_out_120x40", func(t *testing.T) {
		h := newHarness(t, Options{}, codexTimedOut(t), 120, 40)
		golden.RequireEqual(t, []byte(h.view()))
	})
	t.Run("narrow_60x20", func(t *testing.T) {
		h := newHarness(t, Options{}, round2(t), 60, 20)
		golden.RequireEqual(t, []byte(h.view()))
	})
	t.Run("wide_160x48", func(t *testing.T) { // four panes in a 2×2, not four columns of 40
		h := newHarness(t, Options{}, round2(t), 160, 48)
		golden.RequireEqual(t, []byte(h.view()))
	})
	t.Run("standard_80x24", func(t *testing.T) {
		h := newHarness(t, Options{}, round2(t), 80, 24)
		golden.RequireEqual(t, []byte(h.view()))
	})
	t.Run("quit_confirm_100x30", func(t *testing.T) {
		h := newHarness(t, Options{Cancel: func() {}}, round2(t), 100, 30)
		h.keys("q")
		golden.RequireEqual(t, []byte(h.view()))
	})
	t.Run("replay_paused_scrolled_100x30", func(t *testing.T) {
		h := newHarness(t, Options{Replay: true, Speed: 2}, tuitest.Debate(), 100, 30)
		for h.m.round < 2 || h.m.phase != "rebuttal" {
			h.keys("n")
		}
		h.keys("space", "tab", "k", "k", "k")
		h.fire(isReplayTick) // stale: the replay is paused
		h.keys("n")          // text arrives below the scrolled pane
		golden.RequireEqual(t, []byte(h.view()))
	})
	t.Run("full_help_80x24", func(t *testing.T) {
		h := newHarness(t, Options{}, round2(t), 80, 24)
		h.keys("?")
		golden.RequireEqual(t, []byte(h.view()))
	})
	t.Run("full_help_outcome_80x24", func(t *testing.T) {
		h := newHarness(t, Options{FollowUp: func(string) bool { return true }}, tuitest.Debate(), 80, 24)
		h.send(eventsMsg{done: true})
		h.keys("?")
		golden.RequireEqual(t, []byte(h.view()))
	})
	t.Run("no_color_100x30", func(t *testing.T) {
		t.Setenv("NO_COLOR", "1")
		h := newHarness(t, Options{}, round2(t), 100, 30, keepColors)
		golden.RequireEqual(t, []byte(h.view()))
	})
	t.Run("no_color_outcome_100x30", func(t *testing.T) {
		t.Setenv("NO_COLOR", "1")
		h := newHarness(t, Options{}, tuitest.Debate(), 100, 30, keepColors)
		golden.RequireEqual(t, []byte(h.view()))
	})
	goldenMatrix(t)
}

// goldenMatrix draws every protocol's recorded demo, halfway through and
// at its outcome, at 80×24 and 120×40 in colour and at 100×30 without,
// and halfway through at 160×48 (the panes laid out for a big screen):
// the screen knows no protocol, and these show it draws each one all the
// same. A protocol with a demo gets its screens here without a line
// changed (go test ./tui -update writes them).
func goldenMatrix(t *testing.T) {
	for _, protocol := range tuitest.Protocols() {
		ev := tuitest.Run(protocol)
		for _, at := range []struct {
			name   string
			events []engine.Event
		}{{"running", ev[:len(ev)/2]}, {"outcome", ev}} {
			for _, size := range []struct {
				name    string
				w, h    int
				noColor bool
			}{{"80x24", 80, 24, false}, {"120x40", 120, 40, false}, {"160x48", 160, 48, false}, {"no_color_100x30", 100, 30, true}} {
				if size.w == 160 && at.name != "running" {
					continue
				}
				t.Run(protocol+"_"+at.name+"_"+size.name, func(t *testing.T) {
					var opts []harnessOpt
					if size.noColor {
						t.Setenv("NO_COLOR", "1")
						opts = append(opts, keepColors)
					}
					h := newHarness(t, Options{}, at.events, size.w, size.h, opts...)
					golden.RequireEqual(t, []byte(h.view()))
				})
			}
		}
	}
}

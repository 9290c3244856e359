package tui

import (
	"slices"
	"testing"

	"github.com/charmbracelet/bubbles/key"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/tui/tuitest"
)

// helpStates are the screen's states a person presses ? in, each made
// afresh for every key tried.
func helpStates(t *testing.T) map[string]func() *harness {
	t.Helper()
	live := Options{
		Cancel:   func() {},
		Moderate: func(string) bool { return true },
		FollowUp: func(string) bool { return true },
	}
	ended := func() *harness {
		h := newHarness(t, live, tuitest.Debate(), 100, 30)
		h.send(eventsMsg{done: true})
		return h
	}
	return map[string]func() *harness{
		"running": func() *harness { return newHarness(t, live, round2(t), 100, 30) },
		"running, zoomed": func() *harness {
			h := newHarness(t, live, round2(t), 100, 30)
			h.keys("enter")
			return h
		},
		"outcome":          ended,
		"outcome, help up": func() *harness { h := ended(); h.keys("?"); return h },
		"running, zoomed, help up": func() *harness {
			h := newHarness(t, live, round2(t), 100, 30)
			h.keys("enter", "?")
			return h
		},
		"panes after the outcome": func() *harness { h := ended(); h.keys("o"); return h },
		"following up": func() *harness {
			h := ended()
			h.keys("f", "w", "h", "y", "enter")
			h.events(engine.Event{Payload: engine.FollowUp{Seat: "claude", Agent: "claude", Question: "why"}})
			return h
		},
		"replay, paused": func() *harness {
			h := newHarness(t, Options{Replay: true, Speed: 1}, tuitest.Debate(), 100, 30)
			h.fire(isReplayTick)
			h.keys("space")
			return h
		},
		"replay, at its outcome": func() *harness { return newHarness(t, Options{Replay: true}, tuitest.Debate(), 100, 30) },
	}
}

// screenKeys are the screen's keys, but the quit prompt's own.
func screenKeys(k keyMap) []key.Binding {
	return []key.Binding{k.Next, k.Prev, k.Zoom, k.Back, k.Up, k.Down, k.PageUp, k.PageDown,
		k.Top, k.Bottom, k.Outcome, k.Pause, k.NextPhase, k.Faster, k.Slower, k.Help, k.Quit,
		k.Moderate, k.FollowUp}
}

// listed says whether the help lists a binding answering to name.
func listed(help [][]key.Binding, name string) bool {
	for _, col := range help {
		for _, b := range col {
			if slices.Contains(b.Keys(), name) {
				return true
			}
		}
	}
	return false
}

// ? lists every key that does something now: each key is pressed in each
// state, and one that changes the screen (or quits) must be in the help.
// The help left out f after the outcome (the follow-up) and listed esc
// with nothing to unzoom.
func TestHelpListsEveryKeyThatWorks(t *testing.T) {
	for state, make := range helpStates(t) {
		h := make()
		help := h.m.helpKeys().FullHelp()
		for _, b := range screenKeys(h.m.keys) {
			name := b.Keys()[0]
			if name == " " {
				name = "space"
			}
			h := make()
			before := h.view()
			h.keys(name)
			works := h.quit || h.view() != before
			if works && !listed(help, b.Keys()[0]) {
				t.Errorf("%s: %s works (%s) but ? does not list it", state, name, b.Help().Desc)
			}
			if !works && slices.Contains(b.Keys(), "esc") && listed(help, "esc") {
				t.Errorf("%s: ? lists esc, which does nothing here", state)
			}
		}
	}
}

// esc closes the help before it does anything else: on the outcome it
// went back to the panes, the help still up (issue 40, item 14).
func TestEscClosesTheHelpFirst(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup []string
		stays func(*Model) bool
	}{
		{"the outcome", nil, func(m *Model) bool { return m.showOutcome }},
		{"a zoomed pane", []string{"o", "enter"}, func(m *Model) bool { return m.zoomed }},
	} {
		h := newHarness(t, Options{}, tuitest.Debate(), 100, 30)
		h.keys(c.setup...)
		h.keys("?")
		if !h.m.help.ShowAll {
			t.Fatalf("%s: ? does not open the help", c.name)
		}
		h.keys("esc")
		if h.m.help.ShowAll || !c.stays(h.m) {
			t.Errorf("%s: esc left the help up (%v) or left the view", c.name, h.m.help.ShowAll)
		}
		h.keys("esc")
		if c.stays(h.m) {
			t.Errorf("%s: esc, the help closed, does not go back", c.name)
		}
	}
}

package tui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/tui/tuitest"
)

// timelineOfView is the timeline as the screen shows it: the view's
// second line, without styles or padding.
func timelineOfView(h *harness) string {
	return strings.TrimSpace(strings.Split(plain(h.view()), "\n")[1])
}

// bareMark is a phase's mark with no word after it: a tick, or a
// circle, that says nothing of what it stands for.
var bareMark = regexp.MustCompile(`[✓–○●] *(›? *[✓–○●]|$)`)

// At every width, every mark on the timeline says which phase (or how
// many) it stands for, and the current phase is named (at the narrowest,
// its name may be cut): at 80 columns the adversarial debate's passed phases were five
// bare ticks ("✓ ✓ ✓ ✓ ✓ Confrontation ● Challenger rebuttal ○ Iteration
// ○ Assumption ○").
func TestTimelineNamesWhatItMarks(t *testing.T) {
	for _, protocol := range tuitest.Protocols() {
		ev := tuitest.Run(protocol)
		for _, events := range [][]engine.Event{ev[:len(ev)/2], ev} {
			for _, w := range []int{minWidth, 60, 80, 100, 120} {
				h := newHarness(t, Options{}, events, w, 24)
				line := timelineOfView(h)
				if bareMark.MatchString(line) || (w > minWidth && strings.Contains(line, "…")) {
					t.Errorf("%s at %d columns: the timeline %q has a mark without its words, or is cut", protocol, w, line)
				}
				if h.m.outcome == nil && !strings.Contains(line, "● "+phaseName(h.m)) {
					t.Errorf("%s at %d columns: the timeline %q does not name the current phase %q", protocol, w, line, phaseName(h.m))
				}
			}
		}
	}
}

// phaseName is the current phase's name as the start event gives it.
func phaseName(m *Model) string {
	for _, p := range m.phases {
		if p.Phase == m.phase {
			return p.Title
		}
	}
	return string(m.phase)
}

// withoutPhase is a run's events without the start of one phase and the
// calls made in it: the run as it is when the protocol skips that phase.
func withoutPhase(events []engine.Event, skip engine.Phase) []engine.Event {
	var out []engine.Event
	for _, e := range events {
		switch p := e.Payload.(type) {
		case engine.PhaseStarted:
			if p.Phase == skip {
				continue
			}
		case engine.AgentStarted:
			if p.Phase == skip {
				continue
			}
		}
		out = append(out, e)
	}
	return out
}

// A phase the run went past without starting it (the verdict's
// tiebreaker, when the two judges agree) is shown skipped, not ticked as
// done: by name where names fit, counted where they do not.
func TestTimelineSkipsPhasesThatNeverRan(t *testing.T) {
	ev := withoutPhase(tuitest.Run("verdict"), "tiebreak")
	h := newHarness(t, Options{}, ev, 120, 30)
	line := timelineOfView(h)
	if !strings.Contains(line, "– Tiebreaker") || strings.Contains(line, "✓ Tiebreaker") {
		t.Fatalf("the timeline %q ticks a phase that never ran; want – Tiebreaker", line)
	}
	if !strings.Contains(line, "✓ Quick and deep judges") {
		t.Fatalf("the timeline %q does not tick the phase that ran", line)
	}

	h = newHarness(t, Options{}, withoutPhase(tuitest.Debate(), "preflight"), 80, 24)
	if line := timelineOfView(h); !strings.Contains(line, "– 1 skipped") || !strings.Contains(line, "✓ 4 done") {
		t.Fatalf("at 80 columns, the timeline %q does not count the skipped phase apart from those done", line)
	}
}

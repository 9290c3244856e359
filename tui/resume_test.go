package tui

import (
	"strings"
	"testing"

	"github.com/arenadebate/arena/engine"
)

// A resumed run cuts off the calls the earlier run left streaming: what
// they wrote still reads as it did while streaming, never as raw JSON
// (issue 40, item 6).
func TestACutOffReplyReadsAsItStreamed(t *testing.T) {
	ev := round2(t) // gemini and codex streaming their rebuttals
	before := newHarness(t, Options{}, ev, 120, 40)
	if v := plain(before.view()); !strings.Contains(v, "MAINTAIN: Under 1%") {
		t.Fatalf("gemini's rebuttal does not read as prose while it streams:\n%s", v)
	}
	at := ev[len(ev)-1].Time
	ev = append(ev, engine.Event{Time: at, Payload: engine.Resumed{
		From: "Challenger rebuttal (round 2)", Phase: "rebuttal", Round: 2, Reusable: 5,
	}})
	h := newHarness(t, Options{}, ev, 120, 40)
	v := plain(h.view())
	for _, want := range []string{"MAINTAIN: Under 1%", "✗ cut off: asked again", "↻ resumed from"} {
		if !strings.Contains(v, want) {
			t.Errorf("the resumed screen has no %q", want)
		}
	}
	for _, raw := range []string{"```json", `"choice"`, `"explanation"`, "{"} {
		if strings.Contains(v, raw) {
			t.Errorf("the resumed screen shows raw JSON (%q)", raw)
		}
	}
	if t.Failed() {
		t.Log(v)
	}
}

package tui

import (
	"strings"
	"testing"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/tui/tuitest"
)

// TestQuitPromptSaysHowToCarryOn: the quit prompt says the run can be
// carried on with arena resume (issue 32, point 3); the interrupted
// outcome's summary, which the account after the screen prints, names the
// log (engine.Run adds it).
func TestQuitPromptSaysHowToCarryOn(t *testing.T) {
	ev := tuitest.Run("adversarial")
	running := ev[:tuitest.Index(ev, func(e engine.Event) bool { _, ok := e.Payload.(engine.AgentFinished); return ok })]
	h := newHarness(t, Options{Cancel: func() {}}, running, 100, 30)
	h.keys("q")
	if v := strings.Join(strings.Fields(plain(h.view())), " "); !strings.Contains(v, "arena resume carries the run on") {
		t.Fatalf("the quit prompt does not say how to carry on:\n%s", plain(h.view()))
	}
}

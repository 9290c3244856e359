package benchkit

import (
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine/adversarial"
	"github.com/arenadebate/arena/engine/enginetest"
	"github.com/arenadebate/arena/engine/runlog"
)

// Baseline is the orchestration benchmarks' yardstick for a debate that
// ran with TradeoffScript: every call the fakes recorded, replayed alone
// and one after another. It checks the debate really went five rounds to a
// tradeoff, and that each replay was the same call, then returns the
// replays' summed wall time, the critical path (the slowest call of each
// parallel step, summed) and the number of calls.
func Baseline(tb testing.TB, sb *enginetest.Sandbox, lc runlog.Contents) (sum, crit time.Duration, calls int) {
	tb.Helper()
	if o := enginetest.Outcome(tb, lc); o.Result != adversarial.OutcomeTradeoff || o.Rounds != 5 {
		tb.Fatalf("the debate ended in %s after %d rounds, not a tradeoff after 5", o.Result, o.Rounds)
	}
	recorded := sb.Fakes.Calls()
	steps, err := Steps(lc, recorded)
	if err != nil {
		tb.Fatal(err)
	}
	r := NewReplayer(tb, sb.Fakes, sb.Env())
	took := make([]time.Duration, len(recorded))
	for i, c := range recorded {
		if took[i], err = r.Time(c); err != nil {
			tb.Fatal(err)
		}
		sum += took[i]
	}
	sameCalls(tb, recorded, r)
	return sum, CriticalPath(recorded, steps, took), len(recorded)
}

// sameCalls fails unless every replay got the same script step, prompt
// and terminal as the call it replays.
func sameCalls(tb testing.TB, recorded []clitest.Call, r *Replayer) {
	tb.Helper()
	replayed, err := r.Calls()
	if err != nil {
		tb.Fatal(err)
	}
	if len(replayed) != len(recorded) {
		tb.Fatalf("replayed %d calls of %d", len(replayed), len(recorded))
	}
	for i, c := range recorded {
		rc := replayed[i]
		if rc.Agent != c.Agent || rc.Kind != c.Kind || rc.Index != c.Index || rc.Mode != c.Mode || rc.PromptSHA256 != c.PromptSHA256 || rc.StdoutIsTTY != c.StdoutIsTTY {
			tb.Fatalf("call %d was %s %s #%d (%s, tty %v); its replay was %s %s #%d (%s, tty %v)",
				i, c.Agent, c.Kind, c.Index, c.Mode, c.StdoutIsTTY, rc.Agent, rc.Kind, rc.Index, rc.Mode, rc.StdoutIsTTY)
		}
	}
}

//go:build unix

package compare_test

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/arenadebate/arena/bench/benchkit"
	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/compare"
	"github.com/arenadebate/arena/engine/enginetest"
	"github.com/arenadebate/arena/engine/runlog"
	"github.com/arenadebate/arena/tui/plain"
)

// BenchmarkQuickComparison: a --quick comparison in which each of three
// seats (two advocates, the judge) takes 2 s a call (5 chunks, 400 ms
// apart), run in process with the real runner and fakes. The openings run
// in parallel and so do the judge's two readings, so the comparison should
// cost about two steps, not the three seats' worth or the four calls'
// sum. Baselines from the same run: every call the fakes recorded,
// replayed alone. Reported (medians):
//
//	wall-s   the comparison, engine.Run start to return
//	crit-s   the critical path: the slowest call of each step, summed
//	sum-s    the calls replayed one after another
//	ratio    wall-s / crit-s (1.0: no overhead over two parallel steps)
//	steps    wall-s / the slowest single call (about 2)
func BenchmarkQuickComparison(b *testing.B) {
	slow := clitest.AgentScript{DelayMS: 400, Chunks: 5}
	script := &clitest.Script{Agents: map[string]clitest.AgentScript{"claude": slow, "gemini": slow, "codex": slow}}
	agent := func(name string) challengers.Agent {
		a, ok := challengers.Builtin(name)
		if !ok {
			b.Fatalf("no built-in %s", name)
		}
		a.Timeout = time.Minute
		return a
	}
	var wall, crit, sum, single []time.Duration
	for b.Loop() {
		sb := enginetest.NewSandbox(b)
		sb.Fakes.SetScript(script)
		logw, err := runlog.Create(b.TempDir(), "bench.jsonl")
		if err != nil {
			b.Fatal(err)
		}
		bus := engine.NewBus(logw, plain.New(io.Discard))
		cfg := compare.Config{
			ID: "bench", Decision: "which queue for order events?", Options: []string{"Kafka", "NATS"},
			Criteria:  []compare.Criterion{{Name: "throughput", Weight: "high"}, {Name: "ops cost", Weight: "medium"}},
			Advocates: []challengers.Agent{agent("gemini"), agent("codex")}, Judge: agent("claude"), Quick: true,
		}
		start := time.Now()
		out := engine.Run(context.Background(), compare.New(cfg), bus, engine.Options{Env: sb.Env()})
		took := time.Since(start)
		bus.Close()
		if err := logw.Close(); err != nil {
			b.Fatal(err)
		}
		if out.Result != compare.OutcomeRecommendation {
			b.Fatalf("%s: %s", out.Result, out.Summary)
		}
		lc, err := runlog.ReadFile(logw.Path())
		if err != nil {
			b.Fatal(err)
		}
		calls := sb.Fakes.Calls()
		steps, err := benchkit.Steps(lc, calls)
		if err != nil {
			b.Fatal(err)
		}
		if len(calls) != 4 {
			b.Fatalf("%d calls, want 4 (two openings, two judge readings)", len(calls))
		}
		each, s, mx := replayEach(b, sb, calls)
		c := benchkit.CriticalPath(calls, steps, each)
		wall, crit, sum, single = append(wall, took), append(crit, c), append(sum, s), append(single, mx)
		b.Logf("comparison %v  critical path %v  sum %v", took.Round(time.Millisecond), c.Round(time.Millisecond), s.Round(time.Millisecond))
	}
	mw, mc, ms, m1 := benchkit.Median(wall), benchkit.Median(crit), benchkit.Median(sum), benchkit.Median(single)
	b.ReportMetric(0, "ns/op") // suppressed: an iteration times arena and its baselines together
	b.ReportMetric(mw.Seconds(), "wall-s")
	b.ReportMetric(mc.Seconds(), "crit-s")
	b.ReportMetric(ms.Seconds(), "sum-s")
	b.ReportMetric(mw.Seconds()/mc.Seconds(), "ratio")
	b.ReportMetric(mw.Seconds()/m1.Seconds(), "steps")
}

// replayEach replays every call alone, and returns each one's time, their
// sum and the slowest.
func replayEach(b *testing.B, sb *enginetest.Sandbox, calls []clitest.Call) (each []time.Duration, sum, slowest time.Duration) {
	b.Helper()
	r := benchkit.NewReplayer(b, sb.Fakes, sb.Env())
	each = make([]time.Duration, len(calls))
	for i, c := range calls {
		r.Reset()
		var err error
		if each[i], err = r.Time(c); err != nil {
			b.Fatal(err)
		}
		sum += each[i]
		slowest = max(slowest, each[i])
	}
	return each, sum, slowest
}

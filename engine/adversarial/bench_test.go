//go:build unix

package adversarial_test

import (
	"context"
	"io"
	"os/exec"
	"testing"
	"time"

	"github.com/arenadebate/arena/bench/benchkit"
	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/adversarial"
	"github.com/arenadebate/arena/engine/enginetest"
	"github.com/arenadebate/arena/engine/runlog"
	"github.com/arenadebate/arena/tui/plain"
)

// Benchmarks of the engine driving the real runner and fake CLIs, in
// process, against baselines measured in the same run. They report figures
// and assert nothing about time; bench/run prints them as a table. Every
// reported figure is the median over the iterations.
//
//	go test ./engine -run '^$' -bench . -benchtime 3x

// benchRun runs one debate in process, as the arena command does (the
// real runner; the log writer and the headless printer on the bus), and
// returns the log, the fakes and when each phase first started.
func benchRun(b *testing.B, script *clitest.Script) (*enginetest.Sandbox, runlog.Contents, map[engine.Phase]time.Time, time.Duration) {
	b.Helper()
	sb := enginetest.NewSandbox(b)
	sb.Fakes.SetScript(script)
	agent := func(name string) challengers.Agent {
		a, ok := challengers.Builtin(name)
		if !ok {
			b.Fatalf("no built-in %s", name)
		}
		a.Timeout = time.Minute
		return a
	}
	dir := b.TempDir()
	logw, err := runlog.Create(dir, "bench.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	started := map[engine.Phase]time.Time{}
	// Each sink handles its events one at a time, so the map needs no
	// lock until the bus is closed; the times are the bus's stamps, taken
	// as the engine emitted them.
	phases := engine.SinkFunc(func(e engine.Event) {
		if p, ok := e.Payload.(engine.PhaseStarted); ok {
			if _, seen := started[p.Phase]; !seen {
				started[p.Phase] = e.Time
			}
		}
	})
	bus := engine.NewBus(logw, plain.New(io.Discard), phases)
	cfg := adversarial.Config{
		ID: "bench", Topic: "should we move sessions from Redis to Postgres?",
		Defender:    agent("claude"),
		Challengers: []challengers.Agent{agent("gemini"), agent("codex"), agent("qwen")},
		MaxRounds:   5, Timeout: time.Minute, Skeptical: true,
	}
	start := time.Now()
	engine.Run(context.Background(), adversarial.New(cfg), bus, engine.Options{Env: sb.Env()})
	took := time.Since(start)
	bus.Close()
	if err := logw.Close(); err != nil {
		b.Fatal(err)
	}
	lc, err := runlog.ReadFile(logw.Path())
	if err != nil {
		b.Fatal(err)
	}
	return sb, lc, started, took
}

// BenchmarkParallelChallenge: one challenge phase in which each of the
// three challengers streams its critique for 2 s (5 chunks, 400 ms apart),
// timed from the challenge's PhaseStarted to the consensus check's, against
// (a) the slowest of the three critique calls replayed on its own, and
// (b) a bash script that starts the same three fake commands with `&` and
// waits for them. Reported:
//
//	phase-s      the challenge phase, Run with the real runner
//	slowest-s    the slowest single call
//	shell-s      the shell script
//	ratio        phase-s / slowest-s
//	ratio-shell  phase-s / shell-s
func BenchmarkParallelChallenge(b *testing.B) {
	slow := clitest.AgentScript{Steps: map[string][]clitest.Step{
		string(clitest.KindCritique): {{DelayMS: 400, Chunks: 5}},
	}}
	script := &clitest.Script{Agents: map[string]clitest.AgentScript{
		"claude": {DelayMS: -1}, "gemini": slow, "codex": slow, "qwen": slow,
	}}
	var phase, slowest, shell []time.Duration
	for b.Loop() {
		sb, _, started, _ := benchRun(b, script)
		p := started[adversarial.PhaseConsensusCheck].Sub(started[adversarial.PhaseChallenge])
		var critiques []clitest.Call
		for _, c := range sb.Fakes.Calls() {
			if c.Kind == clitest.KindCritique {
				critiques = append(critiques, c)
			}
		}
		if len(critiques) != 3 || started[adversarial.PhaseConsensusCheck].IsZero() {
			b.Fatalf("%d critiques; phases %v", len(critiques), started)
		}
		r := benchkit.NewReplayer(b, sb.Fakes, sb.Env())
		var mx time.Duration
		for _, c := range critiques {
			r.Reset()
			d, err := r.Time(c)
			if err != nil {
				b.Fatal(err)
			}
			mx = max(mx, d)
		}
		r.Reset()
		path, env, err := r.Shell(critiques)
		if err != nil {
			b.Fatal(err)
		}
		cmd := exec.Command("bash", path)
		cmd.Env = env
		sh, err := benchkit.Run(cmd, false)
		if err != nil || sh.Code != 0 {
			b.Fatalf("the shell baseline: exit %d, %v", sh.Code, err)
		}
		phase, slowest, shell = append(phase, p), append(slowest, mx), append(shell, sh.Wall)
		b.Logf("challenge phase %v  slowest single %v  shell & wait %v", p.Round(time.Millisecond), mx.Round(time.Millisecond), sh.Wall.Round(time.Millisecond))
	}
	mp, ms, mh := benchkit.Median(phase), benchkit.Median(slowest), benchkit.Median(shell)
	b.ReportMetric(0, "ns/op") // suppressed: an iteration times arena and its baseline together
	b.ReportMetric(mp.Seconds(), "phase-s")
	b.ReportMetric(ms.Seconds(), "slowest-s")
	b.ReportMetric(mh.Seconds(), "shell-s")
	b.ReportMetric(mp.Seconds()/ms.Seconds(), "ratio")
	b.ReportMetric(mp.Seconds()/mh.Seconds(), "ratio-shell")
}

// BenchmarkDebateInProcess is cmd/arena's BenchmarkDebateOverhead without
// the arena process: the five-round debate of benchkit.TradeoffScript run
// by Run in this process, against the critical path and the sum of
// the same calls replayed one by one. The difference between the two
// benchmarks is what starting the arena binary costs. Reported:
//
//	engine-s    Run, start to return
//	crit-s      the critical path of the replayed calls
//	sum-s       their sum
//	ratio-crit  engine-s / crit-s
//	ratio-sum   engine-s / sum-s
func BenchmarkDebateInProcess(b *testing.B) {
	once := func() (took, sum, crit time.Duration) {
		sb, lc, _, took := benchRun(b, benchkit.TradeoffScript())
		sum, crit, _ = benchkit.Baseline(b, sb, lc)
		return took, sum, crit
	}
	once()
	var took, sum, crit []time.Duration
	for b.Loop() {
		t, s, c := once()
		took, sum, crit = append(took, t), append(sum, s), append(crit, c)
	}
	mt, ms, mc := benchkit.Median(took), benchkit.Median(sum), benchkit.Median(crit)
	b.ReportMetric(0, "ns/op") // suppressed: an iteration times arena and its baseline together
	b.ReportMetric(mt.Seconds(), "engine-s")
	b.ReportMetric(mc.Seconds(), "crit-s")
	b.ReportMetric(ms.Seconds(), "sum-s")
	b.ReportMetric(mt.Seconds()/mc.Seconds(), "ratio-crit")
	b.ReportMetric(mt.Seconds()/ms.Seconds(), "ratio-sum")
}

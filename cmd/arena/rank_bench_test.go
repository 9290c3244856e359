package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/arenadebate/arena/bench/benchkit"
	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/enginetest"
	"github.com/arenadebate/arena/engine/rank"
)

// BenchmarkRankOverhead: arena rank's wall time over three repositories
// with fakes that take 1–2 s a call, against the two calls a ranking must
// wait for in turn: the slowest fact call and the slowest judge call (the
// verdict call comes after them, and is reported on its own). Call times
// are those the log records. Reported (medians):
//
//	arena-s      arena's wall time, start to exit
//	crit-s       slowest fact call + slowest judge call
//	verdict-s    the verdict call
//	ratio        arena-s / crit-s
//	ratio-all    arena-s / (crit-s + verdict-s)
//
//	go test ./cmd/arena -run '^$' -bench RankOverhead -benchtime 3x
func BenchmarkRankOverhead(b *testing.B) {
	// 20 chunks at 50–100 ms: calls of 1 to 2 s, each agent its own pace.
	script := &clitest.Script{Agents: map[string]clitest.AgentScript{
		"claude": {DelayMS: 50, Chunks: 20}, "gemini": {DelayMS: 75, Chunks: 20},
		"codex": {DelayMS: 100, Chunks: 20}, "qwen": {DelayMS: 60, Chunks: 20},
	}}
	root := b.TempDir()
	var repos []string
	for _, n := range []string{"alpha", "beta", "gamma"} {
		repos = append(repos, rankRepo(b, root, n, passingTests))
	}
	once := func() (arena, crit, verdict time.Duration) {
		sb := enginetest.NewSandbox(b)
		sb.Fakes.SetScript(script)
		if err := os.WriteFile(filepath.Join(sb.Dir, "spec.md"), []byte("# Spec\n\nAdd(a, b int) int.\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		cmd := exec.Command(benchkit.Arena(b), append([]string{"rank", "--no-tui", "spec.md"}, repos...)...)
		cmd.Dir, cmd.Env = sb.Dir, sb.Env()
		var stderr bytes.Buffer
		null := benchDevNull(b)
		defer null.Close()
		cmd.Stdout, cmd.Stderr = null, &stderr
		p, err := benchkit.Run(cmd, false)
		if err != nil || p.Code != exitOK {
			b.Fatalf("arena rank: exit %d %v\n%s", p.Code, err, stderr.String())
		}
		slowest := map[engine.Phase]time.Duration{}
		for _, e := range sb.OnlyLog(b).Events {
			if f, ok := e.Payload.(engine.AgentFinished); ok && f.Duration.D() > slowest[f.Phase] {
				slowest[f.Phase] = f.Duration.D()
			}
		}
		return p.Wall, slowest[rank.PhaseFacts] + slowest[rank.PhaseJudging], slowest[rank.PhaseVerdict]
	}
	once() // warm the page cache and the fakes' binary
	var arena, crit, verdict []time.Duration
	var ratios, all []float64
	for b.Loop() {
		a, c, v := once()
		arena, crit, verdict = append(arena, a), append(crit, c), append(verdict, v)
		ratios, all = append(ratios, a.Seconds()/c.Seconds()), append(all, a.Seconds()/(c+v).Seconds())
		b.Logf("arena %v  fact+judge %v  verdict %v", a.Round(time.Millisecond), c.Round(time.Millisecond), v.Round(time.Millisecond))
	}
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(benchkit.Median(arena).Seconds(), "arena-s")
	b.ReportMetric(benchkit.Median(crit).Seconds(), "crit-s")
	b.ReportMetric(benchkit.Median(verdict).Seconds(), "verdict-s")
	b.ReportMetric(benchkit.MedianF(ratios), "ratio")
	b.ReportMetric(benchkit.MedianF(all), "ratio-all")
}

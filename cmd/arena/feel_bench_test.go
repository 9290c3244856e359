//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/arenadebate/arena/bench/benchkit"
	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine/enginetest"
	"github.com/arenadebate/arena/tui/tuitest"
)

// BenchmarkFeel measures what a person feels while models stream: arena's
// own processor time while four seats each stream a reply at a model's
// pace (100 and 1,000 tokens a second), on the live screen and headless,
// and on the live screen how long text takes from leaving an agent to
// being drawn; early in the replies and late, so that a cost growing with
// the reply shows (issue 30).
//
// The run is an `arena judge` of four judges (claude, gemini, qwen and
// claude again: the formats that stream deltas) whose fake CLIs stream
// at the rate (fakeapi's tokens_per_sec: a token is 4 bytes, at most 100
// pieces a second). Each judge's analysis is a reply in one of the five
// shapes models write (tuitest.Shapes: prose in paragraphs; one paragraph
// that never ends; one code block that never ends; a list of 200 items;
// a reply that stopped being valid JSON, shown as text), streaming for a
// minute. The live screen is a 160×48 pseudo-terminal that arena draws on
// in colour (TERM=xterm-256color, COLORTERM=truecolor), read as fast as
// it writes; headless is --no-tui into a pipe read the same way.
//
// Processor time is the scheduler's own count (benchkit.ProcCPU) for
// arena and the child processes running arena's binary (its supervisor),
// over two windows counted from when the four fake CLIs are running:
// seconds 4 to 14 (early: each reply a few hundred bytes to a few
// kilobytes) and 50 to 60 (late: ten times that). The baseline is the
// four fake CLIs' own time over the early window, producing what arena
// consumes. Time to screen: every tenth piece the fakes write carries the
// time it was written at; the screen notes when each stamp is first
// drawn. Reported (medians over the iterations):
//
//	early-pct, late-pct  arena's processor time in each window, % of one core
//	late-x-early         late-pct / early-pct: 1 when a frame costs what it
//	                     did when the reply was short
//	agents-pct           the four fakes' together, early, % of one core
//	ratio                early-pct / agents-pct
//	p50-early-ms, p95-early-ms, p50-late-ms, p95-late-ms
//	                     time to screen in each window (screen only)
func BenchmarkFeel(b *testing.B) {
	for _, mode := range []string{"screen", "headless"} {
		for _, shape := range tuitest.Shapes {
			for _, rate := range []int{100, 1000} {
				b.Run(fmt.Sprintf("%s/%s/%d", mode, shape, rate), func(b *testing.B) {
					feelShape(b, mode == "screen", shape, rate)
				})
			}
		}
	}
}

// feelShape runs one sub-benchmark's iterations and reports their medians.
func feelShape(b *testing.B, screen bool, shape string, rate int) {
	fig := map[string][]float64{}
	for b.Loop() {
		r := feelRun(b, screen, shape, rate)
		for k, v := range r.figures() {
			fig[k] = append(fig[k], v)
		}
		b.Logf("%s %d tok/s: arena %.2f%% of a core early, %.2f%% late (agents %.2f%%); p95 %.0f ms early, %.0f ms late",
			shape, rate, r.early.cpuPct, r.late.cpuPct, r.agentsPct, ms(at(r.early.lat, 95)), ms(at(r.late.lat, 95)))
	}
	b.ReportMetric(0, "ns/op")
	for k, v := range fig {
		if !screen && (k[0] == 'p') {
			continue // headless output is printed a block at a time
		}
		b.ReportMetric(benchkit.MedianF(v), k)
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func at(ds []time.Duration, pct int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	return ds[len(ds)*pct/100]
}

// The windows processor time and time to screen are measured over,
// counted from when the fakes are streaming.
const (
	feelEarlyFrom, feelEarlyTo = 4 * time.Second, 14 * time.Second
	feelLateFrom, feelLateTo   = 50 * time.Second, 60 * time.Second
	feelStream                 = feelLateTo + 2*time.Second // how long each reply streams
)

// feelResult is one run's figures.
type feelResult struct {
	early, late feelWindow
	agentsPct   float64 // the fakes' processor time, early
}

// feelWindow is one window's figures.
type feelWindow struct {
	cpuPct float64
	lat    []time.Duration // time to screen, sorted
}

func (r feelResult) figures() map[string]float64 {
	f := map[string]float64{
		"early-pct": r.early.cpuPct, "late-pct": r.late.cpuPct,
		"late-x-early": r.late.cpuPct / max(r.early.cpuPct, 0.01),
		"agents-pct":   r.agentsPct, "ratio": r.early.cpuPct / max(r.agentsPct, 0.01),
	}
	if len(r.early.lat) > 0 && len(r.late.lat) > 0 {
		f["p50-early-ms"], f["p95-early-ms"] = ms(at(r.early.lat, 50)), ms(at(r.early.lat, 95))
		f["p50-late-ms"], f["p95-late-ms"] = ms(at(r.late.lat, 50)), ms(at(r.late.lat, 95))
	}
	return f
}

// feelRun runs arena with the four judges streaming shape at rate, and
// measures the two windows.
func feelRun(b *testing.B, screen bool, shape string, rate int) feelResult {
	b.Helper()
	arena, cmd := feelCommand(b, screen, shape, rate)
	var scr *benchkit.Screen
	if screen {
		var err error
		if scr, err = benchkit.StartScreen(cmd, 160, 48); err != nil {
			b.Fatal(err)
		}
		defer scr.Stop(15 * time.Second)
	} else {
		out, err := cmd.StdoutPipe()
		if err != nil {
			b.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		go func() { _, _ = readAll(out) }()
		defer benchkit.Stop(cmd, 15*time.Second)
	}
	pid := cmd.Process.Pid
	t0, fakes := waitForFakes(b, pid, arena)
	var r feelResult
	r.early, r.agentsPct = feelMeasure(b, scr, pid, arena, fakes, t0.Add(feelEarlyFrom), t0.Add(feelEarlyTo))
	r.late, _ = feelMeasure(b, scr, pid, arena, fakes, t0.Add(feelLateFrom), t0.Add(feelLateTo))
	return r
}

// feelCommand is arena judging a small Go file with four judges whose
// analyses stream shape at rate.
func feelCommand(b *testing.B, screen bool, shape string, rate int) (arena string, cmd *exec.Cmd) {
	sb := enginetest.NewSandbox(b)
	reply := tuitest.Shape(shape, rate*4*int(feelStream/time.Second))
	seat := clitest.AgentScript{TokensPerSec: rate, Stamp: true,
		Steps: map[string][]clitest.Step{"judge.analysis": {{Prose: reply}}}}
	sb.Fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"claude": seat, "gemini": seat, "qwen": seat}})
	if err := os.WriteFile(filepath.Join(sb.Dir, "add.go"), []byte("package add\n\nfunc Add(a, b int) int { return a + b }\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	arena = benchkit.Arena(b)
	args := []string{"judge", "--task", "add two ints", "--judges", "claude,gemini,qwen,claude", "add.go"}
	if !screen {
		args = append([]string{"--no-tui"}, args...)
	}
	cmd = exec.Command(arena, args...)
	cmd.Dir = sb.Dir
	cmd.Env = sb.Env("NO_COLOR=", "TERM=xterm-256color", "COLORTERM=truecolor")
	return arena, cmd
}

// waitForFakes waits until the four fake CLIs run, and returns when and
// which.
func waitForFakes(b *testing.B, pid int, arena string) (time.Time, []int) {
	b.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if _, _, fakes := feelCPU(pid, arena, nil); len(fakes) >= 4 {
			return time.Now(), fakes
		}
	}
	b.Fatal("the four fake CLIs never ran")
	return time.Time{}, nil
}

// feelMeasure measures the window [from, to): arena's processor time, the
// fakes', and the time to screen of the stamps written in it but its
// last second (for the last to arrive).
func feelMeasure(b *testing.B, scr *benchkit.Screen, pid int, arena string, fakes []int, from, to time.Time) (feelWindow, float64) {
	b.Helper()
	time.Sleep(time.Until(from))
	own0, agents0, _ := feelCPU(pid, arena, fakes)
	t0 := time.Now()
	time.Sleep(time.Until(to))
	own1, agents1, _ := feelCPU(pid, arena, fakes)
	wall := time.Since(t0)
	if own1 == 0 {
		b.Fatal("arena is gone")
	}
	w := feelWindow{cpuPct: 100 * float64(own1-own0) / float64(wall)}
	if scr != nil {
		w.lat = scr.Latencies(from, to.Add(-time.Second))
		if len(w.lat) == 0 {
			b.Fatal("no stamp reached the screen")
		}
	}
	return w, 100 * float64(agents1-agents0) / float64(wall)
}

// feelCPU is the processor time of arena (pid and the processes under it
// running arena's binary: the run's supervisor, under which the agents
// run) and of the fake CLIs under them: those listed in fakes,
// or, when fakes is nil, those running now (returned, so the window ends
// with the processes it started with).
func feelCPU(pid int, arena string, fakes []int) (own, agents time.Duration, running []int) {
	arenaExe := benchkit.Exe(pid)
	var walk func(p int)
	walk = func(p int) {
		own += benchkit.ProcCPU(p)
		for _, c := range benchkit.Children(p) {
			if benchkit.Exe(c) == arenaExe {
				walk(c)
			} else if fakes == nil {
				running = append(running, c)
			}
		}
	}
	walk(pid)
	if fakes == nil {
		fakes = running
	}
	for _, c := range fakes {
		agents += benchkit.ProcCPU(c)
	}
	return own, agents, running
}

func readAll(r interface{ Read([]byte) (int, error) }) (int64, error) {
	buf := make([]byte, 64<<10)
	var n int64
	for {
		k, err := r.Read(buf)
		n += int64(k)
		if err != nil {
			return n, err
		}
	}
}

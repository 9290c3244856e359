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
// being drawn.
//
// The run is an `arena judge` of four judges (claude, gemini, qwen and
// claude again: the formats that stream deltas) whose fake CLIs stream
// at the rate (fakeapi's tokens_per_sec: a token is 4 bytes, at most 100
// pieces a second). Each judge's analysis opens with about 8 seconds of
// Markdown prose (paragraphs, bold, code spans, a list, a code block),
// then the canned JSON. The live screen is a 120×40 pseudo-terminal that
// arena draws on in colour (TERM=xterm-256color, COLORTERM=truecolor),
// read as fast as it writes; headless is --no-tui into a pipe read the
// same way.
//
// Processor time is read from /proc/PID/stat (user and system, every
// thread, 10 ms ticks) for arena and the child processes running arena's
// binary (its reaper), over a 4-second window from 2 s after the start,
// when the four analyses are streaming; the baseline is the four fake
// CLIs' own time over the same window, producing what arena consumes.
// Time to screen: every tenth piece of the prose carries the time the
// fake wrote it; the screen notes when each stamp is first drawn.
// Reported (medians over the iterations):
//
//	arena-cpu-pct   arena's processor time over the window, % of one core
//	agents-cpu-pct  the four fakes' together, % of one core
//	ratio           arena-cpu-pct / agents-cpu-pct
//	p50-ms, p95-ms  time to screen, median and 95th percentile (screen only)
//	drawn-KiB/s     what arena wrote to its terminal (screen only)
func BenchmarkFeel(b *testing.B) {
	for _, mode := range []string{"screen", "headless"} {
		for _, rate := range []int{100, 1000} {
			b.Run(fmt.Sprintf("%s/%d", mode, rate), func(b *testing.B) {
				var cpu, agents, ratio, p50, p95, drawn []float64
				for b.Loop() {
					r := feelRun(b, mode == "screen", rate)
					cpu, agents = append(cpu, r.cpuPct), append(agents, r.agentsPct)
					ratio = append(ratio, r.cpuPct/max(r.agentsPct, 0.01))
					if len(r.lat) > 0 {
						p50 = append(p50, ms(r.lat[len(r.lat)/2]))
						p95 = append(p95, ms(r.lat[len(r.lat)*95/100]))
					}
					drawn = append(drawn, r.drawn)
					b.Logf("%s %d tok/s: arena %.2f%% of a core, agents %.2f%%; %d stamps drawn, p50 %.1f ms; %.0f KiB/s drawn",
						mode, rate, r.cpuPct, r.agentsPct, len(r.lat), ms(at(r.lat, 50)), r.drawn)
				}
				b.ReportMetric(0, "ns/op")
				b.ReportMetric(benchkit.MedianF(cpu), "arena-cpu-pct")
				b.ReportMetric(benchkit.MedianF(agents), "agents-cpu-pct")
				b.ReportMetric(benchkit.MedianF(ratio), "ratio")
				if mode == "screen" {
					if len(p50) == 0 {
						b.Fatal("no stamp reached the screen")
					}
					b.ReportMetric(benchkit.MedianF(p50), "p50-ms")
					b.ReportMetric(benchkit.MedianF(p95), "p95-ms")
					b.ReportMetric(benchkit.MedianF(drawn), "drawn-KiB/s")
				}
			})
		}
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func at(ds []time.Duration, pct int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	return ds[len(ds)*pct/100]
}

// feelResult is one run's figures.
type feelResult struct {
	cpuPct, agentsPct float64
	lat               []time.Duration // time to screen, sorted
	drawn             float64         // KiB/s written to the terminal
}

// The window processor time is measured over.
const (
	feelWarm   = 2 * time.Second
	feelWindow = 4 * time.Second
	feelProse  = 8 * time.Second // how long each analysis's prose streams
)

func feelRun(b *testing.B, screen bool, rate int) feelResult {
	b.Helper()
	sb := enginetest.NewSandbox(b)
	prose := tuitest.Prose(rate * 4 * int(feelProse/time.Second))
	seat := clitest.AgentScript{TokensPerSec: rate, Stamp: true,
		Steps: map[string][]clitest.Step{"judge.analysis": {{Prose: prose}}}}
	sb.Fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"claude": seat, "gemini": seat, "qwen": seat}})
	if err := os.WriteFile(filepath.Join(sb.Dir, "add.go"), []byte("package add\n\nfunc Add(a, b int) int { return a + b }\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	arena := benchkit.Arena(b)
	args := []string{"judge", "--task", "add two ints", "--judges", "claude,gemini,qwen,claude", "add.go"}
	if !screen {
		args = append([]string{"--no-tui"}, args...)
	}
	cmd := exec.Command(arena, args...)
	cmd.Dir = sb.Dir
	cmd.Env = sb.Env("NO_COLOR=", "TERM=xterm-256color", "COLORTERM=truecolor")

	var scr *benchkit.Screen
	start := time.Now()
	if screen {
		var err error
		if scr, err = benchkit.StartScreen(cmd, 120, 40); err != nil {
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

	time.Sleep(time.Until(start.Add(feelWarm)))
	own0, agents0, fakes := feelCPU(pid, arena, nil)
	drawn0 := int64(0)
	if scr != nil {
		drawn0 = scr.Bytes()
	}
	t0 := time.Now()
	time.Sleep(feelWindow)
	own1, agents1, _ := feelCPU(pid, arena, fakes)
	t1 := time.Now()
	wall := t1.Sub(t0)
	if len(fakes) < 4 {
		b.Fatalf("%d fake CLIs running in the window, want the four judges'", len(fakes))
	}
	r := feelResult{
		cpuPct:    100 * float64(own1-own0) / float64(wall),
		agentsPct: 100 * float64(agents1-agents0) / float64(wall),
	}
	if scr != nil {
		r.lat = scr.Latencies(t0, t1.Add(-time.Second)) // a second for the last ones to arrive
		r.drawn = float64(scr.Bytes()-drawn0) / 1024 / wall.Seconds()
	}
	return r
}

// feelCPU is the processor time of arena (pid and its children running
// arena's binary) and of the fake CLIs among its children: those listed
// in fakes, or, when fakes is nil, those running now (returned, so the
// window ends with the processes it started with).
func feelCPU(pid int, arena string, fakes []int) (own, agents time.Duration, running []int) {
	own = benchkit.ProcCPU(pid)
	arenaExe := benchkit.Exe(pid)
	for _, c := range benchkit.Children(pid) {
		if benchkit.Exe(c) == arenaExe {
			own += benchkit.ProcCPU(c)
		} else if fakes == nil {
			running = append(running, c)
		}
	}
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

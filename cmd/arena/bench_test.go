//go:build unix

package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/bench/benchkit"
	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/enginetest"
	"github.com/arenadebate/arena/engine/runlog"
)

// Benchmarks of the arena binary (built without the race detector), each
// against a baseline measured in the same run, iteration by iteration.
// They report figures and assert nothing about time; bench/run prints them
// as a table. Every reported figure is the median over the iterations.
//
//	go test ./cmd/arena -run '^$' -bench . -benchtime 5x

const benchTopic = "should we move sessions from Redis to Postgres?"

// benchDebate runs the arena binary once in a fresh sandbox and returns
// the sandbox and how the run went. stdout goes to /dev/null.
func benchDebate(b *testing.B, script *clitest.Script, watchRSS bool, args ...string) (*enginetest.Sandbox, benchkit.Proc) {
	b.Helper()
	sb := enginetest.NewSandbox(b)
	sb.Fakes.SetScript(script)
	cmd := exec.Command(benchkit.Arena(b), args...)
	cmd.Dir, cmd.Env = sb.Dir, sb.Env()
	var stderr bytes.Buffer
	null := benchDevNull(b)
	defer null.Close()
	cmd.Stdout, cmd.Stderr = null, &stderr
	p, err := benchkit.Run(cmd, watchRSS)
	if err != nil {
		b.Fatalf("arena %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	if p.Code != exitConsensus && p.Code != exitTradeoff {
		b.Fatalf("arena %s: exit %d\n%s", strings.Join(args, " "), p.Code, stderr.String())
	}
	return sb, p
}

// benchDevNull opens /dev/null for a child's stdout: an *os.File, so the
// child writes to it directly, with no copying goroutine in between.
func benchDevNull(b *testing.B) *os.File {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	return f
}

// BenchmarkDebateOverhead: arena's wall time for a whole five-round
// debate with instant fakes, against the fakes' own run times. Those are
// measured by replaying every recorded call (same argv, prompt,
// environment, script and call-counter state, a pty as stdout) on its own
// with os/exec, one after another, right after the debate. Reported:
//
//	arena-s     arena's wall time, start to exit
//	sum-s       the sum of the replayed calls' wall times
//	crit-s      the critical path: the sum over the debate's steps of the
//	            slowest call in the step (the challengers, the rebuttals and
//	            the final questions run in parallel, so this is the fairer
//	            baseline)
//	ratio-sum   arena-s / sum-s
//	ratio-crit  arena-s / crit-s
//	calls       calls per debate
func BenchmarkDebateOverhead(b *testing.B) {
	once := func() (arena, sum, crit time.Duration, calls int) {
		sb, p := benchDebate(b, benchkit.TradeoffScript(), false, "--no-tui", benchTopic)
		sum, crit, calls = benchkit.Baseline(b, sb, sb.OnlyLog(b))
		return p.Wall, sum, crit, calls
	}
	once() // warm the page cache and the fakes' binary
	var arena, sum, crit []time.Duration
	calls := 0
	for b.Loop() {
		a, s, c, n := once()
		arena, sum, crit = append(arena, a), append(sum, s), append(crit, c)
		calls = n
		b.Logf("arena %v  sum %v  critical path %v  (%d calls)", a.Round(time.Millisecond), s.Round(time.Millisecond), c.Round(time.Millisecond), n)
	}
	ma, ms, mc := benchkit.Median(arena), benchkit.Median(sum), benchkit.Median(crit)
	b.ReportMetric(0, "ns/op") // suppressed: an iteration times arena and its baseline together
	b.ReportMetric(ma.Seconds(), "arena-s")
	b.ReportMetric(ms.Seconds(), "sum-s")
	b.ReportMetric(mc.Seconds(), "crit-s")
	b.ReportMetric(ma.Seconds()/ms.Seconds(), "ratio-sum")
	b.ReportMetric(ma.Seconds()/mc.Seconds(), "ratio-crit")
	b.ReportMetric(float64(calls), "calls")
}

// BenchmarkPeakRSS: arena's own peak resident memory during a debate in
// which gemini floods 100 MiB of reply under the default 8 MiB output cap
// (it is stopped and dropped; the others answer), against its peak during
// a tiny debate (canned replies, instant). Peak RSS is VmHWM from
// /proc/PID/status, polled until arena exits. Reported:
//
//	peak-RSS-MiB       flood
//	base-peak-RSS-MiB  tiny debate
//	ratio              peak-RSS-MiB / base-peak-RSS-MiB
//	wait4-*-MiB        ru_maxrss from wait4 for both: on Linux the kernel
//	                   folds the largest reaped child into it, so it shows
//	                   the flooding fake (which builds its 100 MiB in
//	                   memory), not arena
func BenchmarkPeakRSS(b *testing.B) {
	instant := clitest.AgentScript{DelayMS: -1}
	tiny := &clitest.Script{Agents: map[string]clitest.AgentScript{"claude": instant, "gemini": instant, "codex": instant, "qwen": instant}}
	flood := &clitest.Script{Agents: map[string]clitest.AgentScript{
		"claude": instant, "codex": instant, "qwen": instant,
		"gemini": {DelayMS: -1, Steps: map[string][]clitest.Step{
			string(clitest.KindCritique): {{Mode: clitest.ModeFlood, FloodBytes: 100 << 20}},
		}},
	}}
	once := func(s *clitest.Script, wantCap bool) benchkit.Proc {
		sb, p := benchDebate(b, s, true, "--no-tui", benchTopic)
		if p.HWMKiB == 0 {
			b.Fatal("never read arena's VmHWM")
		}
		capped := false
		for _, e := range sb.OnlyLog(b).Events {
			if f, ok := e.Payload.(engine.AgentFailed); ok && f.Reason == challengers.ReasonOutputLimit {
				capped = true
			}
		}
		if capped != wantCap {
			b.Fatalf("output cap hit: %v, want %v", capped, wantCap)
		}
		return p
	}
	once(tiny, false)
	var peak, base, wPeak, wBase []float64
	for b.Loop() {
		t, f := once(tiny, false), once(flood, true)
		base, peak = append(base, float64(t.HWMKiB)/1024), append(peak, float64(f.HWMKiB)/1024)
		wBase, wPeak = append(wBase, float64(t.MaxRSSKiB)/1024), append(wPeak, float64(f.MaxRSSKiB)/1024)
		b.Logf("VmHWM flood %.1f MiB, tiny %.1f MiB; wait4 maxrss flood %.1f MiB, tiny %.1f MiB",
			float64(f.HWMKiB)/1024, float64(t.HWMKiB)/1024, float64(f.MaxRSSKiB)/1024, float64(t.MaxRSSKiB)/1024)
	}
	mp, mb := benchkit.MedianF(peak), benchkit.MedianF(base)
	b.ReportMetric(0, "ns/op") // suppressed: an iteration times arena and its baseline together
	b.ReportMetric(mp, "peak-RSS-MiB")
	b.ReportMetric(mb, "base-peak-RSS-MiB")
	b.ReportMetric(mp/mb, "ratio")
	b.ReportMetric(benchkit.MedianF(wPeak), "wait4-peak-MiB")
	b.ReportMetric(benchkit.MedianF(wBase), "wait4-base-MiB")
}

// benchVersionDelays are how long each fake takes to answer --version in
// BenchmarkDoctor.
var benchVersionDelays = map[string]string{"claude": "1.0", "gemini": "0.8", "codex": "0.6", "qwen": "0.4"}

// BenchmarkDoctor: `arena doctor`'s wall time when each CLI's --version
// is slow (bench/slow-version sleeps, then runs the fake: claude 1.0 s,
// gemini 0.8 s, codex 0.6 s, qwen 0.4 s), against the slowest single
// `X --version` run on its own. doctor checks the agents in parallel, so
// it should cost about one check, not the sum. Reported:
//
//	doctor-s    doctor's wall time
//	slowest-s   the slowest single version check
//	sum-s       all four, one after another (what a serial doctor costs)
//	ratio       doctor-s / slowest-s
func BenchmarkDoctor(b *testing.B) {
	root, err := benchkit.Root()
	if err != nil {
		b.Fatal(err)
	}
	wrapper := filepath.Join(root, "bench", "slow-version")
	sb := enginetest.NewSandbox(b)
	slow := b.TempDir()
	extra := []string{"ARENA_BENCH_FAKES=" + sb.Fakes.Dir}
	for _, n := range clitest.DefaultNames {
		if err := os.Symlink(wrapper, filepath.Join(slow, n)); err != nil {
			b.Fatal(err)
		}
		extra = append(extra, "ARENA_BENCH_VERSION_DELAY_"+n+"="+benchVersionDelays[n])
	}
	env := sb.Env(extra...)
	env = append(env, "PATH="+slow+string(os.PathListSeparator)+benchEnvValue(env, "PATH"))
	run := func(name string, args ...string) time.Duration {
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = sb.Dir, env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		p, err := benchkit.Run(cmd, false)
		if err != nil || p.Code != 0 {
			b.Fatalf("%s %s: exit %d, %v\n%s", name, strings.Join(args, " "), p.Code, err, out.String())
		}
		return p.Wall
	}
	bin := benchkit.Arena(b)
	run(bin, "doctor")
	var doctor, slowest, sum []time.Duration
	for b.Loop() {
		d := run(bin, "doctor")
		var mx, total time.Duration
		for _, n := range clitest.DefaultNames {
			t := run(filepath.Join(slow, n), "--version")
			mx, total = max(mx, t), total+t
		}
		doctor, slowest, sum = append(doctor, d), append(slowest, mx), append(sum, total)
		b.Logf("doctor %v  slowest --version %v  all four in a row %v", d.Round(time.Millisecond), mx.Round(time.Millisecond), total.Round(time.Millisecond))
	}
	md, mx := benchkit.Median(doctor), benchkit.Median(slowest)
	b.ReportMetric(0, "ns/op") // suppressed: an iteration times arena and its baseline together
	b.ReportMetric(md.Seconds(), "doctor-s")
	b.ReportMetric(mx.Seconds(), "slowest-s")
	b.ReportMetric(benchkit.Median(sum).Seconds(), "sum-s")
	b.ReportMetric(md.Seconds()/mx.Seconds(), "ratio")
}

func benchEnvValue(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

// benchLog writes the synthetic 10 MiB debate log once per benchmark.
func benchLog(b *testing.B) (string, int64) {
	b.Helper()
	path, err := benchkit.WriteLog(b.TempDir(), 10<<20)
	if err != nil {
		b.Fatal(err)
	}
	lc, err := runlog.ReadFile(path)
	if err != nil || !lc.Complete || lc.Problem != "" {
		b.Fatalf("the synthetic log does not read back whole: %v %s", err, lc.Problem)
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	return path, st.Size()
}

// BenchmarkReplay: `arena replay --no-tui` of a 10 MiB debate log (see
// benchkit.WriteLog) with stdout on /dev/null, against `cat` of the same
// file to /dev/null. Reported:
//
//	MiB/s      arena's throughput (file size / wall time, start to exit)
//	cat-MiB/s  cat's
//	ratio      arena's wall time / cat's
//	log-MiB    the log's size
func BenchmarkReplay(b *testing.B) {
	path, size := benchLog(b)
	sb := enginetest.NewSandbox(b)
	run := func(name string, args ...string) time.Duration {
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = sb.Dir, sb.Env()
		var stderr bytes.Buffer
		null := benchDevNull(b)
		defer null.Close()
		cmd.Stdout, cmd.Stderr = null, &stderr
		p, err := benchkit.Run(cmd, false)
		if err != nil || p.Code != 0 {
			b.Fatalf("%s %s: exit %d, %v\n%s", name, strings.Join(args, " "), p.Code, err, stderr.String())
		}
		return p.Wall
	}
	bin := benchkit.Arena(b)
	run(bin, "replay", "--no-tui", path)
	run("cat", path)
	var arena, cat []time.Duration
	for b.Loop() {
		a, c := run(bin, "replay", "--no-tui", path), run("cat", path)
		arena, cat = append(arena, a), append(cat, c)
	}
	ma, mc := benchkit.Median(arena), benchkit.Median(cat)
	mib := benchkit.MiB(size)
	b.ReportMetric(0, "ns/op") // suppressed: an iteration times arena and its baseline together
	b.ReportMetric(mib/ma.Seconds(), "MiB/s")
	b.ReportMetric(mib/mc.Seconds(), "cat-MiB/s")
	b.ReportMetric(ma.Seconds()/mc.Seconds(), "ratio")
	b.ReportMetric(mib, "log-MiB")
}

// BenchmarkReplayInProcess is BenchmarkReplay's arena side without the
// process: the log read and printed by the replay command's code, for a
// CPU profile (-cpuprofile) of where replay spends its time.
func BenchmarkReplayInProcess(b *testing.B) {
	path, size := benchLog(b)
	var walls []time.Duration
	for b.Loop() {
		start := time.Now()
		a := newApp(strings.NewReader(""), io.Discard, io.Discard)
		if code := a.execute([]string{"replay", "--no-tui", path}); code != 0 {
			b.Fatalf("replay exited %d", code)
		}
		walls = append(walls, time.Since(start))
	}
	b.ReportMetric(0, "ns/op") // suppressed: an iteration times arena and its baseline together
	b.ReportMetric(benchkit.MiB(size)/benchkit.Median(walls).Seconds(), "MiB/s")
}

// BenchmarkStart: how long arena takes to be of use, against /bin/true
// (the cost of starting any process at all), each iteration running all
// three in turn. Measured from just before the start:
//
//	version-ms      `arena --version` to its exit
//	first-event-ms  `arena --json TOPIC` with instant fakes to its first
//	                line of output (the debate_started event; the debate
//	                then runs to its end, untimed)
//	true-ms         /bin/true to its exit
//	ratio-version, ratio-first-event  over true-ms
//
// Most of what arena costs here is package initialisation before main
// (GODEBUG=inittrace=1 arena --version shows it package by package).
func BenchmarkStart(b *testing.B) {
	instant := clitest.AgentScript{DelayMS: -1}
	sb := enginetest.NewSandbox(b)
	sb.Fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"claude": instant, "gemini": instant, "codex": instant, "qwen": instant}})
	bin := benchkit.Arena(b)
	run := func(name string, args ...string) time.Duration {
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = sb.Dir, sb.Env()
		null := benchDevNull(b)
		defer null.Close()
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = null, &stderr
		p, err := benchkit.Run(cmd, false)
		if err != nil || p.Code != 0 {
			b.Fatalf("%s %s: exit %d, %v\n%s", name, strings.Join(args, " "), p.Code, err, stderr.String())
		}
		return p.Wall
	}
	logs := b.TempDir()
	n := 0
	firstEvent := func() time.Duration {
		// A log directory per run, so that an arena from before log
		// names carried the millisecond can be measured too.
		n++
		cmd := exec.Command(bin, "--json", "--log-dir", filepath.Join(logs, strconv.Itoa(n)), benchTopic)
		cmd.Dir, cmd.Env = sb.Dir, sb.Env()
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		first, p, err := benchkit.RunFirstLine(cmd)
		if err != nil || p.Code != exitConsensus {
			b.Fatalf("arena --json: exit %d, %v\n%s", p.Code, err, stderr.String())
		}
		return first
	}
	run(bin, "--version")
	run("/bin/true")
	firstEvent()
	var version, first, truth []time.Duration
	for b.Loop() {
		v, f, t := run(bin, "--version"), firstEvent(), run("/bin/true")
		version, first, truth = append(version, v), append(first, f), append(truth, t)
	}
	mv, mf, mt := benchkit.Median(version), benchkit.Median(first), benchkit.Median(truth)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(0, "ns/op") // suppressed: an iteration times arena and its baseline together
	b.ReportMetric(ms(mv), "version-ms")
	b.ReportMetric(ms(mf), "first-event-ms")
	b.ReportMetric(ms(mt), "true-ms")
	b.ReportMetric(ms(mv)/ms(mt), "ratio-version")
	b.ReportMetric(ms(mf)/ms(mt), "ratio-first-event")
}

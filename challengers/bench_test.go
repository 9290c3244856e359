//go:build unix

package challengers_test

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/bench/benchkit"
	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/tui/plain"
)

// Benchmarks of the runner against baselines measured in the same run.
// They report figures and assert nothing about time; bench/run prints them
// as a table. Every reported figure is the median over the iterations.
//
//	go test ./challengers -run '^$' -bench . -benchtime 20x

// benchFloodBytes is how much the flooding fake prints in
// BenchmarkRunnerFakeFlood, and about how much each streaming shape of
// BenchmarkRunnerStreaming prints.
const benchFloodBytes = 4 << 20

// streamShapes are the shapes of output BenchmarkRunnerStreaming streams:
// the size of each piece of reply, one line of text that is one event of
// the JSON formats. Token-sized deltas (claude and qwen send a few tokens
// an event), lines of prose, and single events of 64 KiB and 1 MiB.
var streamShapes = []struct {
	name  string
	piece int
}{
	{"tiny-16B", 16},
	{"lines-80B", 80},
	{"long-64KiB", 64 << 10},
	{"long-1MiB", 1 << 20},
}

// streamAgents are the agents BenchmarkRunnerStreaming runs, one per
// format: the built-ins, and for text a configured agent running the fake
// gemini with -o text.
func streamAgents(b *testing.B) []challengers.Agent {
	text, ok := challengers.Builtin("gemini")
	if !ok {
		b.Fatal("no built-in gemini")
	}
	text.Name = "flood"
	text.Command = []string{"gemini", "-p", challengers.PromptPlaceholder, "-o", "text"}
	text.StdinCommand = nil
	text.Format = challengers.FormatText
	agents := []challengers.Agent{text}
	for _, name := range []string{"claude", "gemini", "codex", "qwen"} {
		a, _ := challengers.Builtin(name)
		agents = append(agents, a)
	}
	return agents
}

// BenchmarkRunnerStreaming: about 4 MiB of a fake CLI's flood, in each
// format and each of streamShapes, streamed through the runner (a pty,
// the cleaner, the decoder) to an OnChunk that takes each piece of text
// and counts it, against `cat` of the same bytes through a
// pseudo-terminal set up and read the same way (benchkit.RunPTY).
//
// The fake's output is captured to a file once, and the agent the runner
// runs is `cat FILE` with the format and pty of the real agent: the
// producer is then the same program writing the same bytes on both sides,
// and the ratio is the runner's own cost. (The fakes encode their JSON as
// they go and are slower than cat: 17-35 MiB/s through a pty, measured
// as fake-MiB/s in BenchmarkRunnerFakeFlood, so with a fake as producer
// the figure would be the fake's.) What a consumer does with the text is
// its own cost, measured apart: BenchmarkRunnerStreamingPrinter.
// Reported, per format/shape:
//
//	MiB/s       runner -> OnChunk (the bytes read / wall time)
//	cat-MiB/s   cat -> pty -> read loop
//	ratio       cat-MiB/s / MiB/s (how many times slower than cat), the
//	            median of the iterations' ratios
//	cpu-ratio   the processor time (user and system, this process and its
//	            children) of a runner call over cat's, the median of the
//	            iterations' ratios: what arena costs whatever else the
//	            machine is doing
//	out-MiB     the size of the output
func BenchmarkRunnerStreaming(b *testing.B) {
	for _, a := range streamAgents(b) {
		for _, sh := range streamShapes {
			b.Run(string(a.Format)+"/"+sh.name, func(b *testing.B) { benchStreaming(b, a, sh.piece, false) })
		}
	}
}

// BenchmarkRunnerStreamingPrinter: BenchmarkRunnerStreaming's text agent
// with the headless printer (tui/plain writing to io.Discard, fed a chunk
// event per OnChunk, as --no-tui is) as the consumer: the printer's cost
// on top of the runner's, for each shape.
func BenchmarkRunnerStreamingPrinter(b *testing.B) {
	a := streamAgents(b)[0]
	for _, sh := range streamShapes {
		b.Run(string(a.Format)+"/"+sh.name, func(b *testing.B) { benchStreaming(b, a, sh.piece, true) })
	}
}

func benchStreaming(b *testing.B, a challengers.Agent, piece int, printer bool) {
	f := clitest.New(b)
	env := f.Env()
	path, size, reply := captureFlood(b, f, env, a, piece)

	cat := a
	cat.Command = []string{"cat", path}
	cat.StdinCommand, cat.Args, cat.Env = nil, nil, nil
	cat.Prompt = challengers.PromptStdin
	cat.Timeout = time.Minute
	cat.OutputCap = 1 << 30
	var runner, base, ratio, cpu []float64 // MiB/s, their ratio, and the ratio of processor time
	arena := func() (mibs float64, used time.Duration) {
		var streamed int
		onChunk := func(s string) { streamed += len(s) }
		if printer {
			p := plain.New(io.Discard)
			onChunk = func(s string) {
				streamed += len(s)
				p.Handle(engine.Event{Payload: engine.Chunk{Seat: a.Name, Text: s}})
			}
		}
		cpu0, start := benchkit.CPU(), time.Now()
		res := challengers.Run(context.Background(), challengers.Request{Agent: cat, Prompt: "hi", Env: env, OnChunk: onChunk})
		mibs, used = benchkit.MiB(res.Bytes)/time.Since(start).Seconds(), benchkit.CPU()-cpu0
		// Whitespace at the ends of a reply is trimmed from res.Text.
		if !res.OK() || res.Bytes != size || streamed < reply-1 || len(res.Text) < reply-8 {
			b.Fatalf("%s: %s; read %d of %d bytes, streamed %d and returned %d of a %d-byte reply",
				a.Name, res.Describe(), res.Bytes, size, streamed, len(res.Text), reply)
		}
		return mibs, used
	}
	baseline := func() (mibs float64, used time.Duration) {
		cpu0 := benchkit.CPU()
		wall, n, err := benchkit.RunPTY(exec.Command("cat", path))
		if err != nil || n != size {
			b.Fatalf("cat: %d bytes, %v", n, err)
		}
		return benchkit.MiB(n) / wall.Seconds(), benchkit.CPU() - cpu0
	}
	// The two take turns going first, and no collection is forced between
	// them: what garbage one leaves, the other may pay for, as often one
	// way as the other. (A runtime.GC() before each run let the runtime
	// hand its free memory back to the kernel, and every page arena then
	// touched afresh cost 13-54 µs in page faults: that measured the
	// harness, 1,000-3,000 faults a run against cat's 110.)
	for i := 0; b.Loop(); i++ {
		var ma, mc float64
		var ua, uc time.Duration
		if i%2 == 0 {
			ma, ua = arena()
			mc, uc = baseline()
		} else {
			mc, uc = baseline()
			ma, ua = arena()
		}
		runner, base = append(runner, ma), append(base, mc)
		ratio, cpu = append(ratio, mc/ma), append(cpu, ua.Seconds()/uc.Seconds())
	}
	b.ReportMetric(0, "ns/op") // suppressed: an iteration times arena and its baseline together
	b.ReportMetric(benchkit.MedianF(runner), "MiB/s")
	b.ReportMetric(benchkit.MedianF(base), "cat-MiB/s")
	// The median of each iteration's ratio, not the ratio of the medians:
	// the two runs of an iteration see the same load on the machine.
	b.ReportMetric(benchkit.MedianF(ratio), "ratio")
	b.ReportMetric(benchkit.MedianF(cpu), "cpu-ratio")
	b.ReportMetric(benchkit.MiB(size), "out-MiB")
}

// captureFlood has the fake behind agent a flood in pieces of piece bytes
// (one call through the runner, which must succeed), replays that call
// with its stdout in a file, and returns the file, its size and the size
// of the reply in it. The reply is sized for an output of about
// benchFloodBytes, from a first, smaller capture: the JSON formats' events
// carry from ~40 (gemini) to ~300 (claude) bytes around each piece, and
// claude and qwen repeat the whole reply at the end.
func captureFlood(b *testing.B, f *clitest.Fakes, env []string, a challengers.Agent, piece int) (path string, size int64, reply int) {
	b.Helper()
	a.Timeout, a.OutputCap = time.Minute, 1<<30
	fake := a.Command[0]
	capture := func(n int) (string, int64) {
		f.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
			fake: {Mode: clitest.ModeFlood, FloodBytes: int64(n), FloodPiece: piece},
		}})
		res := challengers.Run(context.Background(), challengers.Request{Agent: a, Prompt: "Reply with the single word OK.", Env: env})
		if !res.OK() {
			b.Fatalf("%s: %s", a.Name, res.Describe())
		}
		calls := f.CallsTo(fake)
		cmd, err := benchkit.NewReplayer(b, f, env).Command(calls[len(calls)-1])
		if err != nil {
			b.Fatal(err)
		}
		path := filepath.Join(b.TempDir(), "flood.out")
		out, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		defer out.Close()
		cmd.Stdout = out
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		st, err := out.Stat()
		if err != nil {
			b.Fatal(err)
		}
		if st.Size() < res.Bytes-1024 || st.Size() > res.Bytes+1024 {
			b.Fatalf("the fake printed %d bytes to a file, %d through the runner", st.Size(), res.Bytes)
		}
		return path, st.Size()
	}
	probe := max(256<<10, 4*piece)
	_, n := capture(probe)
	pieces := max(int(int64(probe)*benchFloodBytes/n)/piece, 2)
	path, size = capture(pieces * piece)
	return path, size, pieces * piece
}

// BenchmarkRunnerFakeFlood: the gemini fake flooding 4 MiB of reply in
// events of 64 KiB (the fault tests' flood, at a smaller size), through
// the runner (to an OnChunk that counts the text), against the same fake
// call replayed through a pty into a read loop: what the runner costs with
// the real producer, which encodes JSON as it goes and is slower than cat.
// Reported:
//
//	MiB/s       fake -> runner -> OnChunk
//	fake-MiB/s  fake -> pty -> read loop
//	ratio       fake-MiB/s / MiB/s
func BenchmarkRunnerFakeFlood(b *testing.B) {
	a, _ := challengers.Builtin("gemini")
	a.Timeout = time.Minute
	f := clitest.New(b)
	f.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
		"gemini": {Mode: clitest.ModeFlood, FloodBytes: benchFloodBytes},
	}})
	env := f.Env()
	run := func(onChunk func(string)) challengers.Result {
		res := challengers.Run(context.Background(), challengers.Request{Agent: a, Prompt: "Reply with the single word OK.", Env: env, OnChunk: onChunk})
		if !res.OK() {
			b.Fatalf("%s: %s", a.Name, res.Describe())
		}
		return res
	}
	run(nil)
	calls := f.Calls()
	r := benchkit.NewReplayer(b, f, env)
	var runner, fake, ratio []float64 // MiB/s, and their ratio
	arena := func() (float64, int64) {
		var streamed int
		start := time.Now()
		res := run(func(s string) { streamed += len(s) })
		if streamed < benchFloodBytes {
			b.Fatalf("streamed %d bytes of a %d-byte reply", streamed, benchFloodBytes)
		}
		return benchkit.MiB(res.Bytes) / time.Since(start).Seconds(), res.Bytes
	}
	alone := func() (float64, int64) {
		r.Reset()
		cmd, err := r.Command(calls[len(calls)-1])
		if err != nil {
			b.Fatal(err)
		}
		wall, n, err := benchkit.RunPTY(cmd)
		if err != nil {
			b.Fatalf("fake: %v", err)
		}
		return benchkit.MiB(n) / wall.Seconds(), n
	}
	for i := 0; b.Loop(); i++ { // turns, as in benchStreaming
		var ma, mf float64
		var na, nf int64
		if i%2 == 0 {
			ma, na = arena()
			mf, nf = alone()
		} else {
			mf, nf = alone()
			ma, na = arena()
		}
		if nf < na-1024 || nf > na+1024 {
			b.Fatalf("the fake printed %d bytes alone, %d through the runner", nf, na)
		}
		runner, fake, ratio = append(runner, ma), append(fake, mf), append(ratio, mf/ma)
	}
	b.ReportMetric(0, "ns/op") // suppressed: an iteration times arena and its baseline together
	b.ReportMetric(benchkit.MedianF(runner), "MiB/s")
	b.ReportMetric(benchkit.MedianF(fake), "fake-MiB/s")
	b.ReportMetric(benchkit.MedianF(ratio), "ratio")
}

// BenchmarkRunnerCall: one call of an instant fake (claude, canned reply)
// through the runner, against the same invocation started directly with
// os/exec on a pty (benchkit.RunPTY). The difference is the runner's fixed
// cost per call. Reported:
//
//	call-ms    challengers.Run, start to return
//	direct-ms  the replayed invocation
//	ratio      call-ms / direct-ms
func BenchmarkRunnerCall(b *testing.B) {
	a, _ := challengers.Builtin("claude")
	a.Timeout = time.Minute
	f := clitest.New(b)
	f.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"claude": {DelayMS: -1}}})
	env := f.Env()
	req := challengers.Request{Agent: a, Prompt: "Reply with the single word OK.", Env: env}
	if res := challengers.Run(context.Background(), req); !res.OK() {
		b.Fatal(res.Describe())
	}
	calls := f.Calls()
	r := benchkit.NewReplayer(b, f, env)
	var call, direct []time.Duration
	for b.Loop() {
		start := time.Now()
		if res := challengers.Run(context.Background(), req); !res.OK() {
			b.Fatal(res.Describe())
		}
		call = append(call, time.Since(start))
		d, err := r.Time(calls[0])
		if err != nil {
			b.Fatal(err)
		}
		direct = append(direct, d)
	}
	mc, md := benchkit.Median(call), benchkit.Median(direct)
	b.ReportMetric(0, "ns/op") // suppressed: an iteration times arena and its baseline together
	b.ReportMetric(float64(mc.Microseconds())/1000, "call-ms")
	b.ReportMetric(float64(md.Microseconds())/1000, "direct-ms")
	b.ReportMetric(mc.Seconds()/md.Seconds(), "ratio")
}

// BenchmarkCleanText: the text cleaner (escape sequences, control
// characters, invalid UTF-8) over 4 MiB of the flood text, which has
// nothing to remove, against copying the same bytes once (strings.Clone).
// Clean text is checked eight bytes at a time and handed back uncopied,
// which is what the runner's two cleanings of every piece cost. Reported:
//
//	MiB/s       challengers.CleanText
//	copy-MiB/s  strings.Clone
//	ratio       copy-MiB/s / MiB/s
func BenchmarkCleanText(b *testing.B) {
	unit := "gemini floods: the quick brown fox jumps over the lazy dog.\n"
	text := strings.Repeat(unit, benchFloodBytes/len(unit))
	var clean, clone []time.Duration
	for b.Loop() {
		start := time.Now()
		if trust.Text(text) != text {
			b.Fatal("CleanText changed clean text")
		}
		clean = append(clean, time.Since(start))
		start = time.Now()
		if strings.Clone(text) != text {
			b.Fatal("strings.Clone changed the text")
		}
		clone = append(clone, time.Since(start))
	}
	mib := benchkit.MiB(int64(len(text)))
	mc, mk := mib/benchkit.Median(clean).Seconds(), mib/benchkit.Median(clone).Seconds()
	b.ReportMetric(0, "ns/op") // suppressed: an iteration times arena and its baseline together
	b.ReportMetric(mc, "MiB/s")
	b.ReportMetric(mk, "copy-MiB/s")
	b.ReportMetric(mk/mc, "ratio")
}

// BenchmarkSupervisedCall: BenchmarkRunnerCall's call of an instant fake
// under the run's supervisor, against the same call started by arena
// itself (no supervisor), in turn. The difference is what the supervisor
// costs a call: a message each way over its socket, its fork of the
// agent, and its look at /proc when the call ends. Reported:
//
//	supervised-ms  challengers.Run under a supervisor, start to return
//	direct-ms      challengers.Run without one
//	ratio          supervised-ms / direct-ms
func BenchmarkSupervisedCall(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("the supervisor starts calls on Linux only")
	}
	a, _ := challengers.Builtin("claude")
	a.Timeout = time.Minute
	f := clitest.New(b)
	f.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"claude": {DelayMS: -1}}})
	req := challengers.Request{Agent: a, Prompt: "Reply with the single word OK.", Env: f.Env()}
	call := func() time.Duration {
		start := time.Now()
		if res := challengers.Run(context.Background(), req); !res.OK() {
			b.Fatal(res.Describe())
		}
		return time.Since(start)
	}
	rp, err := challengers.StartReaper([]string{os.Args[0], "__reaper"})
	if err != nil {
		b.Fatal(err)
	}
	defer rp.Close()
	call() // the supervisor's first look at /proc reads every process
	var supervised, direct []time.Duration
	for b.Loop() {
		supervised = append(supervised, call())
		direct = append(direct, challengers.WithoutReaper(rp, call))
	}
	ms, md := benchkit.Median(supervised), benchkit.Median(direct)
	b.ReportMetric(0, "ns/op") // suppressed: an iteration times both
	b.ReportMetric(float64(ms.Microseconds())/1000, "supervised-ms")
	b.ReportMetric(float64(md.Microseconds())/1000, "direct-ms")
	b.ReportMetric(ms.Seconds()/md.Seconds(), "ratio")
}

//go:build unix

package challengers_test

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/bench/benchkit"
	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/tui/plain"
)

// Benchmarks of the runner against baselines measured in the same run.
// They report figures and assert nothing about time; bench/run prints them
// as a table. Every reported figure is the median over the iterations.
//
//	go test ./challengers -run '^$' -bench . -benchtime 20x

// benchFloodBytes is how much the flooding fake prints.
const benchFloodBytes = 4 << 20

// BenchmarkRunnerStreaming: a fake printing 4 MiB of reply as fast as it
// can (mode flood), through the runner (a pty, the cleaner, the decoder)
// into the headless printer (tui/plain writing to io.Discard, fed a chunk
// event per OnChunk), against `cat` of the very bytes the fake prints,
// through a pseudo-terminal set up the same way and read the same way.
// Sub-benchmarks: text (a configured agent whose command is the fake
// gemini with -o text: the purest stream) and gemini-stream-json (the
// built-in agent: one JSON event per 64 KiB delta). Reported:
//
//	MiB/s       runner → printer (the fake's stdout bytes / wall time)
//	cat-MiB/s   cat → pty → read loop
//	fake-MiB/s  the fake itself → pty → read loop (no runner): what the
//	            runner could reach with this producer
//	ratio       cat-MiB/s / MiB/s (how many times slower than cat)
func BenchmarkRunnerStreaming(b *testing.B) {
	text, ok := challengers.Builtin("gemini")
	if !ok {
		b.Fatal("no built-in gemini")
	}
	text.Name = "flood"
	text.Command = []string{"gemini", "-p", challengers.PromptPlaceholder, "-o", "text"}
	text.StdinCommand = nil
	text.Format = challengers.FormatText
	streamJSON, _ := challengers.Builtin("gemini")
	for _, a := range []challengers.Agent{text, streamJSON} {
		b.Run(string(a.Format), func(b *testing.B) { benchStreaming(b, a) })
	}
}

func benchStreaming(b *testing.B, a challengers.Agent) {
	a.Timeout = time.Minute
	f := clitest.New(b)
	f.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
		"gemini": {Mode: clitest.ModeFlood, FloodBytes: benchFloodBytes},
	}})
	env := f.Env()
	const prompt = "Reply with the single word OK."

	// The bytes the fake prints, captured once for cat.
	run := func(onChunk func(string)) challengers.Result {
		res := challengers.Run(context.Background(), challengers.Request{Agent: a, Prompt: prompt, Env: env, OnChunk: onChunk})
		if !res.OK() {
			b.Fatalf("%s: %s", a.Name, res.Describe())
		}
		return res
	}
	res := run(nil)
	calls := f.Calls()
	last := calls[len(calls)-1]
	r := benchkit.NewReplayer(b, f, env)
	fakeCmd := func() *exec.Cmd {
		cmd, err := r.Command(last)
		if err != nil {
			b.Fatal(err)
		}
		return cmd
	}
	capture := fakeCmd()
	same := filepath.Join(b.TempDir(), "flood.out")
	out, err := os.Create(same)
	if err != nil {
		b.Fatal(err)
	}
	capture.Stdout = out
	if err := capture.Run(); err != nil {
		b.Fatal(err)
	}
	out.Close()
	st, _ := os.Stat(same)
	size := st.Size()
	// The stream-json formats carry timestamps and durations, so two runs
	// can differ by a byte or two; each run's throughput uses its own count.
	near := func(n int64) bool { return n > size-1024 && n < size+1024 }
	if !near(res.Bytes) {
		b.Fatalf("the fake printed %d bytes to a file, %d through the runner", size, res.Bytes)
	}

	var runner, cat, fake []float64 // MiB/s
	for b.Loop() {
		p := plain.New(io.Discard)
		start := time.Now()
		res := run(func(s string) { p.Handle(engine.Event{Payload: engine.Chunk{Agent: a.Name, Text: s}}) })
		runner = append(runner, benchkit.MiB(res.Bytes)/time.Since(start).Seconds())
		if !near(res.Bytes) {
			b.Fatalf("read %d bytes, want about %d", res.Bytes, size)
		}
		wall, n, err := benchkit.RunPTY(exec.Command("cat", same))
		if err != nil || n != size {
			b.Fatalf("cat: %d bytes, %v", n, err)
		}
		cat = append(cat, benchkit.MiB(n)/wall.Seconds())
		r.Reset()
		wall, n, err = benchkit.RunPTY(fakeCmd())
		if err != nil || !near(n) {
			b.Fatalf("fake: %d bytes, %v", n, err)
		}
		fake = append(fake, benchkit.MiB(n)/wall.Seconds())
	}
	mr, mc := benchkit.MedianF(runner), benchkit.MedianF(cat)
	b.ReportMetric(0, "ns/op") // suppressed: an iteration times arena and its baseline together
	b.ReportMetric(mr, "MiB/s")
	b.ReportMetric(mc, "cat-MiB/s")
	b.ReportMetric(benchkit.MedianF(fake), "fake-MiB/s")
	b.ReportMetric(mc/mr, "ratio")
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
// The runner cleans every byte twice (the raw stream, then the decoded
// text), so this bounds its throughput. Reported:
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
		if challengers.CleanText(text) != text {
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

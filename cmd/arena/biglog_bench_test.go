//go:build unix

package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/arenadebate/arena/bench/benchkit"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/enginetest"
)

// BenchmarkBigLogs (issue 29 item 4): what reading logs costs arena, on
// logs the benchmark makes itself. Each command's own peak resident set
// (VmHWM) on a 500 MB log (benchkit.WriteLog: a five-round debate whose
// replies stream in deltas of a few bytes to a few dozen, as in a real log,
// most of the file chunk events; resume's is a debate interrupted in its
// first confrontation, 500 MB because a challenger flooded its output in
// tokens of 2 to 4 bytes, benchkit.WriteFloodedLog), against the same
// command on a 10 KB log of the same shape; and how long listing a
// directory of 10,000 small logs takes, against a directory of 100:
//
//	replay-MiB, json-MiB, logs-MiB, stats-MiB, ask-MiB, resume-MiB, mcp-MiB
//	        peak RSS on the 500 MB log: replay --no-tui, replay --json,
//	        logs, stats, ask (a follow-up, a fake answering), resume (the
//	        replies the log holds reused, the flooded call and the rest of
//	        the debate asked of the fakes), and
//	        arena mcp after list_runs and read_outcome of the log
//	*-base-MiB  the same on the 10 KB log
//	list3-s, list3-base-s   list_runs {"limit": 3}, arena mcp's first call,
//	        over 10,000 logs and over 100
//	head-s, head-base-s     arena logs | head: its first 10 lines
//	log-MiB                 the big log's size
//
// Targets (the issue's): each peak at most 100 MiB; list3-s and head-s at
// most 2 s. Run it alone: it writes about 1.3 GB in TMPDIR.
//
//	go test ./cmd/arena -run '^$' -bench BigLogs -benchtime 1x
func BenchmarkBigLogs(b *testing.B) {
	bl := bigLogs(b)
	sb := enginetest.NewSandbox(b)
	peaks := map[string][]float64{}
	var list3, list3Base, head, headBase []time.Duration
	for b.Loop() {
		for _, c := range bigLogCommands {
			peaks[c.name] = append(peaks[c.name], c.peak(b, sb, bl, false))
			peaks[c.name+"-base"] = append(peaks[c.name+"-base"], c.peak(b, sb, bl, true))
		}
		list3 = append(list3, listRuns(b, sb, bl.many))
		list3Base = append(list3Base, listRuns(b, sb, bl.few))
		head = append(head, logsHead(b, sb, bl.many))
		headBase = append(headBase, logsHead(b, sb, bl.few))
	}
	b.ReportMetric(0, "ns/op") // suppressed: an iteration times many commands
	for name, ps := range peaks {
		b.ReportMetric(benchkit.MedianF(ps), name+"-MiB")
	}
	b.ReportMetric(benchkit.Median(list3).Seconds(), "list3-s")
	b.ReportMetric(benchkit.Median(list3Base).Seconds(), "list3-base-s")
	b.ReportMetric(benchkit.Median(head).Seconds(), "head-s")
	b.ReportMetric(benchkit.Median(headBase).Seconds(), "head-base-s")
	b.ReportMetric(benchkit.MiB(bl.bigSize), "log-MiB")
}

// bigLogSet is what BenchmarkBigLogs reads.
type bigLogSet struct {
	big, tiny             string // finished logs
	bigStop, tinyStop     string // interrupted ones, copied for each resume
	many, few             string // directories of 10,000 and 100 small logs
	bigDir, tinyDir, work string // log directories holding big and tiny; resume's directory
	bigSize               int64
}

func bigLogs(b *testing.B) bigLogSet {
	b.Helper()
	s, err := makeBigLogs(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// bigLogSize is the big log's size: 500 MB, or ARENA_BENCH_BIGLOG_MIB MiB
// for a quicker look.
func bigLogSize() int64 {
	if n, err := strconv.Atoi(os.Getenv("ARENA_BENCH_BIGLOG_MIB")); err == nil && n > 0 {
		return int64(n) << 20
	}
	return 500 << 20
}

func makeBigLogs(root string) (bigLogSet, error) {
	s := bigLogSet{bigDir: filepath.Join(root, "big"), tinyDir: filepath.Join(root, "tiny"), work: filepath.Join(root, "work"),
		many: filepath.Join(root, "many"), few: filepath.Join(root, "few")}
	inv := engine.Invocation{Args: []string{benchkitTopic}, Dir: s.work}
	steps := []func() error{
		func() error { return os.MkdirAll(s.work, 0o700) },
		func() (err error) { s.big, err = benchkit.WriteLog(s.bigDir, bigLogSize()); return },
		func() (err error) { s.tiny, err = benchkit.WriteLog(s.tinyDir, 10<<10); return },
		func() (err error) {
			s.bigStop, err = benchkit.WriteFloodedLog(filepath.Join(root, "stop-big"), bigLogSize(), inv)
			return
		},
		func() (err error) {
			s.tinyStop, err = benchkit.WriteFloodedLog(filepath.Join(root, "stop-tiny"), 10<<10, inv)
			return
		},
		func() error { return benchkit.CopyLogs(s.tiny, s.many, 10_000) },
		func() error { return benchkit.CopyLogs(s.tiny, s.few, 100) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return s, err
		}
	}
	st, err := os.Stat(s.big)
	if err == nil {
		s.bigSize = st.Size()
	}
	return s, err
}

// benchkitTopic is the synthetic debate's topic (benchkit.WriteLog).
const benchkitTopic = "Should we move user sessions from Redis to Postgres, given a write-heavy login path?"

// bigLogCommand is a command whose peak RSS is measured on both logs.
type bigLogCommand struct {
	name string
	args func(bl bigLogSet, log, dir string) []string
	// stop: run on a fresh copy of the interrupted log (resume)
	stop bool
}

var bigLogCommands = []bigLogCommand{
	{name: "replay", args: func(_ bigLogSet, log, _ string) []string { return []string{"replay", "--no-tui", log} }},
	{name: "json", args: func(_ bigLogSet, log, _ string) []string { return []string{"replay", "--json", log} }},
	{name: "logs", args: func(_ bigLogSet, _, dir string) []string { return []string{"logs", "--log-dir", dir} }},
	{name: "stats", args: func(_ bigLogSet, log, _ string) []string { return []string{"stats", log} }},
	{name: "ask", args: func(_ bigLogSet, log, _ string) []string {
		return []string{"ask", log, "What would change your mind?"}
	}},
	{name: "resume", stop: true, args: func(_ bigLogSet, log, _ string) []string {
		return []string{"resume", "--yes", "--no-tui", log}
	}},
	{name: "mcp"},
}

// peak runs the command on the big log (or the tiny one) and returns its
// own peak resident set in MiB.
func (c bigLogCommand) peak(b *testing.B, sb *enginetest.Sandbox, bl bigLogSet, tiny bool) float64 {
	b.Helper()
	log, dir := bl.big, bl.bigDir
	if tiny {
		log, dir = bl.tiny, bl.tinyDir
	}
	if c.name == "mcp" {
		return mcpPeak(b, sb, dir, log)
	}
	if c.stop {
		src := bl.bigStop
		if tiny {
			src = bl.tinyStop
		}
		log = filepath.Join(bl.work, "resumed.jsonl")
		if out, err := exec.Command("cp", src, log).CombinedOutput(); err != nil {
			b.Fatalf("cp: %v %s", err, out)
		}
		defer os.Remove(log)
	}
	cmd := exec.Command(benchkit.Arena(b), c.args(bl, log, dir)...)
	cmd.Dir, cmd.Env = bl.work, sb.Env()
	var stderr strings.Builder
	null := benchDevNull(b)
	defer null.Close()
	cmd.Stdout, cmd.Stderr = null, &stderr
	var last lastBytes // what a run that goes wrong said last
	if c.name == "ask" || c.name == "resume" {
		cmd.Stdout = &last
	}
	p, err := benchkit.Run(cmd, true)
	if err != nil || (p.Code != exitOK && p.Code != exitTradeoff) {
		b.Fatalf("arena %s: exit %d, %v\n%s\n%s", strings.Join(cmd.Args[1:], " "), p.Code, err, last.b, tail(stderr.String(), 3000))
	}
	return float64(p.HWMKiB) / 1024
}

// mcpSessionFor starts arena mcp on the log directory dir.
func mcpSessionFor(b *testing.B, sb *enginetest.Sandbox, dir string) (*mcp.ClientSession, *exec.Cmd) {
	b.Helper()
	cmd := exec.Command(benchkit.Arena(b), "mcp", "--log-dir", dir)
	cmd.Dir, cmd.Env = sb.Dir, sb.Env()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "arena-bench", Version: "1.0"}, nil)
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 10 * time.Second}, nil)
	if err != nil {
		b.Fatalf("connect to arena mcp: %v", err)
	}
	return cs, cmd
}

func callTool(b *testing.B, cs *mcp.ClientSession, name string, args map[string]any) {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil || res.IsError {
		b.Fatalf("%s %v: %v %+v", name, args, err, res)
	}
}

// mcpPeak is arena mcp's peak RSS in MiB once it has listed the runs of
// dir and read the outcome of log, from the log.
func mcpPeak(b *testing.B, sb *enginetest.Sandbox, dir, log string) float64 {
	b.Helper()
	cs, cmd := mcpSessionFor(b, sb, dir)
	defer cs.Close()
	callTool(b, cs, "list_runs", map[string]any{"limit": 3})
	callTool(b, cs, "read_outcome", map[string]any{"log": log})
	return float64(vmHWMOf(cmd.Process.Pid)) / 1024
}

// vmHWMOf is a live process's own peak resident set, in KiB.
func vmHWMOf(pid int) int64 {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	_, rest, _ := strings.Cut(string(b), "VmHWM:")
	f := strings.Fields(rest)
	if len(f) == 0 {
		return 0
	}
	n, _ := strconv.ParseInt(f[0], 10, 64)
	return n
}

// listRuns is how long arena mcp's first list_runs {"limit": 3} takes
// over the logs of dir.
func listRuns(b *testing.B, sb *enginetest.Sandbox, dir string) time.Duration {
	b.Helper()
	cs, _ := mcpSessionFor(b, sb, dir)
	defer cs.Close()
	start := time.Now()
	callTool(b, cs, "list_runs", map[string]any{"limit": 3})
	return time.Since(start)
}

// logsHead is how long `arena logs | head` takes to its tenth line over
// the logs of dir; the pipe is closed then, as head closes it.
func logsHead(b *testing.B, sb *enginetest.Sandbox, dir string) time.Duration {
	b.Helper()
	cmd := exec.Command(benchkit.Arena(b), "logs", "--log-dir", dir)
	cmd.Dir, cmd.Env = sb.Dir, sb.Env()
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	br := bufio.NewReader(out)
	for i := range 10 {
		if _, err := br.ReadString('\n'); err != nil {
			b.Fatalf("arena logs: line %d: %v", i+1, err)
		}
	}
	took := time.Since(start)
	out.Close()
	_, _ = io.Copy(io.Discard, br)
	_ = cmd.Wait()
	return took
}

// lastBytes keeps the last 4 KiB written to it.
type lastBytes struct{ b []byte }

func (l *lastBytes) Write(p []byte) (int, error) {
	l.b = append(l.b, p...)
	if len(l.b) > 4<<10 {
		l.b = append([]byte(nil), l.b[len(l.b)-4<<10:]...)
	}
	return len(p), nil
}

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/challengers/fakecli/fakeapi"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/enginetest"
	"github.com/arenadebate/arena/engine/runlog"
)

// End-to-end tests: the built arena binary, with fake CLIs on PATH.

// loadedMachine is time enough for a run's own work, beside the timeouts
// it waits out, on a loaded 2-core machine with the race detector (load
// averages of 15-20 were seen while several suites ran at once). The
// faults these bounds guard against — waiting forever for a hanging agent
// or after a signal — exceed any bound, so a generous one loses nothing.
const loadedMachine = 90 * time.Second

// arenaBinary is arena built once per test run, with the race detector
// when the tests have it (go test -race). Under -short it skips the test.
func arenaBinary(t *testing.T) string {
	t.Helper()
	return clitest.Build(t, "./cmd/arena", clitest.WithRace()...)
}

// sandbox is an enginetest.Sandbox with the test's own helpers.
type sandbox struct {
	*enginetest.Sandbox
	t     *testing.T
	fakes *clitest.Fakes
	home  string
	dir   string
	// extraEnv is more environment for the commands run (runEnv).
	extraEnv []string
}

// newSandbox makes a sandbox for t, skipping t under -short: a sandbox is
// for running the built binary, and its helpers call arenaBinary with the
// sandbox's t, which may not be the test that calls them (a subtest), so
// the skip must come here, in the test that made it.
func newSandbox(t *testing.T, names ...string) *sandbox {
	t.Helper()
	clitest.SkipShort(t)
	sb := enginetest.NewSandbox(t, names...)
	return &sandbox{Sandbox: sb, t: t, fakes: sb.Fakes, home: sb.Home, dir: sb.Dir}
}

func (s *sandbox) env(extra ...string) []string {
	return s.Env(append(append([]string{}, s.extraEnv...), extra...)...)
}

type result struct {
	stdout, stderr string
	code           int
	took           time.Duration
}

func (s *sandbox) run(args ...string) result {
	s.t.Helper()
	return s.runIn(nil, args...)
}

func (s *sandbox) runIn(stdin []byte, args ...string) result {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*loadedMachine) // a hang, not slowness
	defer cancel()
	cmd := exec.CommandContext(ctx, arenaBinary(s.t), args...)
	cmd.Dir, cmd.Env = s.dir, s.env()
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String(), took: time.Since(start)}
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		r.code = ee.ExitCode()
	} else if err != nil {
		s.t.Fatalf("run arena: %v", err)
	}
	return r
}

func (s *sandbox) logs() []string { return s.Logs() }

func (s *sandbox) onlyLog() runlog.Contents { return s.OnlyLog(s.t) }

func outcomeOf(t *testing.T, lc runlog.Contents) engine.Outcome { return enginetest.Outcome(t, lc) }

func TestConsensusDebateEndToEnd(t *testing.T) {
	s := newSandbox(t)
	r := s.run("--no-tui", "should we move sessions from Redis to Postgres?")
	if r.code != exitConsensus {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"(DEBATE)", "Topic: should we move sessions from Redis to Postgres?", "Seats: claude (defender), gemini (challenger), codex (challenger),\n         qwen (challenger)",
		"Max rounds: 5", "── Opening position", "gemini │", "codex  │", "qwen   │", "# Debate outcome: consensus",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	lc := s.onlyLog()
	o := outcomeOf(t, lc)
	if o.Result != engine.OutcomeKind("consensus") || !lc.Complete || lc.Problem != "" {
		t.Fatalf("outcome %+v, problem %q", o.Result, lc.Problem)
	}
	doc := enginetest.Document(lc)
	md, err := os.ReadFile(filepath.Join(s.dir, doc))
	if err != nil || string(md) != o.Markdown {
		t.Fatalf("report file %q: %v", doc, err)
	}
	st, _ := os.Stat(filepath.Join(s.dir, doc))
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("report mode %v", st.Mode().Perm())
	}
	// Every agent's chunks reached the log.
	streamed := map[string]bool{}
	for _, e := range lc.Events {
		if c, ok := e.Payload.(engine.Chunk); ok {
			streamed[c.Seat] = true
		}
	}
	if len(streamed) != 4 {
		t.Fatalf("chunks from %v", streamed)
	}
}

// fiveRoundScript: gemini disagrees and maintains every round; codex and
// qwen are satisfied in round 1.
func fiveRoundScript() *clitest.Script {
	resp := func(name, decision string) map[string]string {
		return map[string]string{"challenger": name, "decision": decision, "explanation": decision + "ed: the numbers say otherwise"}
	}
	answer := func(rs ...map[string]string) clitest.Step {
		list := make([]any, len(rs))
		for i, r := range rs {
			list[i] = r
		}
		return clitest.Step{Reply: map[string]any{"responses": list, "updated_position": "Move sessions to Postgres; keep Redis for rate limits."}, Fence: true}
	}
	critique := func(v, s string) []clitest.Step {
		return []clitest.Step{{Reply: map[string]any{
			"verdict": v, "critique": "Session writes are hot: " + v, "evidence": "every request touches a session",
			"alternative": "keep Redis", "confidence": "high", "objection_strength": s, "assumptions_challenged": []string{"low write rate"},
		}}}
	}
	return &clitest.Script{Agents: map[string]clitest.AgentScript{
		"claude": {Steps: map[string][]clitest.Step{
			"answer": {answer(resp("gemini", "reject"), resp("codex", "accept"), resp("qwen", "partial")), answer(resp("gemini", "reject"))},
		}},
		"gemini": {Steps: map[string][]clitest.Step{
			"critique": critique("disagree", "strong"),
			"rebuttal": {{Reply: map[string]string{"choice": "maintain", "explanation": "Postgres will melt under session writes."}}},
		}},
		"codex": {Steps: map[string][]clitest.Step{"critique": critique("partial", "moderate")}},
		"qwen":  {Steps: map[string][]clitest.Step{"critique": critique("agree", "minor")}},
	}}
}

func TestFiveRoundTradeoffEndToEnd(t *testing.T) {
	s := newSandbox(t)
	s.fakes.SetScript(fiveRoundScript())
	r := s.run("--no-tui", "should we move sessions from Redis to Postgres?")
	if r.code != exitTradeoff {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	o := outcomeOf(t, s.onlyLog())
	if o.Result != engine.OutcomeKind("tradeoff") || o.Rounds != 5 {
		t.Fatalf("%s after %d rounds", o.Result, o.Rounds)
	}
	for _, want := range []string{"# Debate outcome: tradeoff identified", "## Assumption extraction", "| gemini |", "## Recommendation"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if n := len(s.fakes.CallsTo("gemini")); n != 1+5+1 {
		t.Errorf("gemini was called %d times, want critique + 5 rebuttals + final", n)
	}
}

func TestHangingChallengerIsNamedAndTimeBounded(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"codex": {Mode: clitest.ModeHang}}})
	s.writeConfig(agentTimeout("codex", "2s")) // the others: the default, however loaded the machine
	r := s.run("--no-tui", "is this a good idea?")
	if r.code != exitConsensus {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "codex timed out in round 1") {
		t.Fatalf("the outcome does not name the hanging challenger:\n%s", r.stdout)
	}
	// The timeout, and time for the rest on a loaded machine with the
	// race detector (as the fault tests allow).
	if r.took > 2*time.Second+loadedMachine {
		t.Fatalf("took %v with a 2s timeout", r.took)
	}
	assertNoSurvivors(t, s)
}

func assertNoSurvivors(t *testing.T, s *sandbox) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for _, c := range s.fakes.Calls() {
		for time.Now().Before(deadline) && processAlive(c.PID) {
			time.Sleep(20 * time.Millisecond)
		}
		if processAlive(c.PID) {
			syscall.Kill(c.PID, syscall.SIGKILL)
			t.Errorf("%s (pid %d) survived", c.Agent, c.PID)
		}
	}
}

func processAlive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || len(b) < i+3 || b[i+2] != 'Z'
}

func TestSignalsInterruptCleanly(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			s := newSandbox(t)
			s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
				// qwen holds its reply, never released: the signal finds it
				// and its grandchild at work.
				"gemini": {Mode: clitest.ModeIgnoreTerm}, "codex": {Mode: clitest.ModeHang}, "qwen": {Mode: clitest.ModeGrandchild, DelayMS: 2000, Hold: "never"},
			}})
			cmd, out := s.start("--no-tui", "a topic")
			waitForCalls(t, s, 4) // the defender's opening and the three challengers
			cmd.Process.Signal(sig)
			err := cmd.Wait()
			code := exitCodeOf(err)
			if code != exitInterrupted {
				t.Fatalf("exit %d after %s\n%s", code, sig, out.String())
			}
			o := outcomeOf(t, s.onlyLog())
			if o.Result != engine.OutcomeInterrupted {
				t.Fatalf("outcome %s", o.Result)
			}
			assertNoSurvivors(t, s)
			pid, ok := s.fakes.GrandchildPID("qwen")
			if !ok {
				t.Fatal("qwen never started its grandchild; the test would prove nothing about it")
			}
			if processAlive(pid) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Fatal("qwen's grandchild survived")
			}
		})
	}
}

func TestSIGKILLMidDebateLeavesAReplayableLog(t *testing.T) {
	s := newSandbox(t)
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
		"gemini": {Mode: clitest.ModeSlow, DelayMS: 200, Chunks: 50},
		"codex":  {Mode: clitest.ModeIgnoreTerm},
		// A grandchild that ignores TERM, alive while its parent streams;
		// the parent holds before its last piece, never released, so both
		// are alive when arena is killed.
		"qwen": {Mode: clitest.ModeGrandchild, DelayMS: 2000, Chunks: 20, Hold: "never"},
	}})
	cmd, _ := s.start("--no-tui", "a topic")
	waitForCalls(t, s, 4)
	waitUntil(t, 20*time.Second, "five events in the log", func() bool {
		logs := s.logs()
		if len(logs) != 1 {
			return false
		}
		lc, err := runlog.ReadFile(logs[0])
		return err == nil && len(lc.Events) >= 5
	})
	grandchild, ok := s.fakes.GrandchildPID("qwen")
	if !ok || !processAlive(grandchild) {
		t.Fatal("qwen's grandchild is not running; the test would prove nothing")
	}
	cmd.Process.Kill()
	cmd.Wait()
	lc := s.onlyLog()
	if len(lc.Events) < 5 || lc.Complete {
		t.Fatalf("%d events, complete %v", len(lc.Events), lc.Complete)
	}
	// The children notice their parent died (parent-death signal), and the
	// reaper takes down what they started.
	assertNoSurvivors(t, s)
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) && processAlive(grandchild) {
		time.Sleep(20 * time.Millisecond)
	}
	if processAlive(grandchild) {
		syscall.Kill(grandchild, syscall.SIGKILL)
		t.Fatal("qwen's grandchild survived arena's SIGKILL")
	}
	r := s.run("replay", "--no-tui", s.logs()[0])
	if r.code != 0 || !strings.Contains(r.stdout, "(DEBATE)") || !strings.Contains(r.stderr, "the log ends") {
		t.Fatalf("replay: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

func (s *sandbox) start(args ...string) (*exec.Cmd, *bytes.Buffer) {
	s.t.Helper()
	cmd := exec.Command(arenaBinary(s.t), args...)
	cmd.Dir, cmd.Env = s.dir, s.env()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(func() { cmd.Process.Kill() })
	return cmd, &out
}

// waitForCalls waits until n agents have been called and each of those
// calls has done what its mode does before it answers: a fake that
// ignores SIGTERM has it ignored (SigIgn in /proc), one that leaves a
// grandchild has recorded the grandchild's pid (once that one ignores
// SIGTERM too). A signal sent then meets every agent in the state the
// test means to exercise; a fixed pause used to hope so.
func waitForCalls(t *testing.T, s *sandbox, n int) {
	t.Helper()
	var calls []clitest.Call
	waitUntil(t, 20*time.Second, fmt.Sprintf("%d agent calls", n), func() bool {
		calls = completeCalls(t, s)
		return len(calls) >= n
	})
	for _, c := range calls {
		switch c.Mode {
		case clitest.ModeIgnoreTerm:
			waitUntil(t, 10*time.Second, c.Agent+" to ignore SIGTERM", func() bool {
				return !processAlive(c.PID) || ignoresSIGTERM(c.PID)
			})
		case clitest.ModeGrandchild:
			waitUntil(t, 10*time.Second, c.Agent+" to start its grandchild", func() bool {
				_, ok := s.fakes.GrandchildPID(c.Agent)
				return ok || !processAlive(c.PID)
			})
		}
	}
}

// completeCalls is the fakes' call log as far as it is written. A fake
// logs a call in one write(2), but a reader polling the file meanwhile can
// see a prefix of that line (clitest's Calls then fails on it), so only
// lines that end in a newline are read.
func completeCalls(t *testing.T, s *sandbox) []clitest.Call {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(s.fakes.Log, fakeapi.CallLogFile))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var calls []clitest.Call
	for len(b) > 0 {
		line, rest, complete := bytes.Cut(b, []byte("\n"))
		if !complete {
			break
		}
		var c clitest.Call
		if err := json.Unmarshal(line, &c); err != nil {
			t.Fatalf("call log line %q: %v", line, err)
		}
		calls, b = append(calls, c), rest
	}
	return calls
}

// waitUntil polls cond until it holds, and fails the test if it does not
// within d.
func waitUntil(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(d); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", d, what)
		}
	}
}

// ignoresSIGTERM reports whether process pid ignores SIGTERM, from the
// SigIgn mask in /proc/PID/status (bit 15-1).
func ignoresSIGTERM(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return false
	}
	_, rest, ok := bytes.Cut(b, []byte("\nSigIgn:"))
	if !ok {
		return false
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	mask, err := strconv.ParseUint(string(bytes.TrimSpace(line)), 16, 64)
	return err == nil && mask&(1<<(syscall.SIGTERM-1)) != 0
}

func exitCodeOf(err error) int {
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

func (s *sandbox) runWithEnv(extra []string, args ...string) result {
	s.t.Helper()
	cmd := exec.Command(arenaBinary(s.t), args...)
	cmd.Dir, cmd.Env = s.dir, append(s.env(), extra...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return result{stdout: out.String(), stderr: errb.String(), code: exitCodeOf(err)}
}

// arena --no-tui topic | head -1: the reader goes away; arena stops the
// debate cleanly instead of dying of SIGPIPE with its log cut short.
func TestStdoutClosedByItsReaderInterruptsCleanly(t *testing.T) {
	s := newSandbox(t)
	// gemini holds its critique until the reader has gone: the run still
	// has its printing to do then, on a machine of any speed.
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"gemini": {DelayMS: 200, Chunks: 40, Hold: "reader-gone"}}})
	cmd := exec.Command(arenaBinary(t), "--no-tui", "a topic")
	cmd.Dir, cmd.Env = s.dir, s.env()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if !strings.Contains(line, "(DEBATE)") {
		t.Fatalf("first line %q", line)
	}
	out.Close()
	s.fakes.Release("reader-gone")
	if code := exitCodeOf(cmd.Wait()); code != exitInterrupted {
		t.Fatalf("exit %d, want %d", code, exitInterrupted)
	}
	lc := s.onlyLog()
	if o := outcomeOf(t, lc); o.Result != engine.OutcomeInterrupted || enginetest.Document(lc) == "" {
		t.Fatalf("outcome %+v, document %q", o, enginetest.Document(lc))
	}
	assertNoSurvivors(t, s)
}

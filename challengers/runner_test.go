package challengers_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/clitest"
)

// These tests run the runner against the fake CLIs: real executables with
// the real CLIs' flags and output formats.

func builtin(t *testing.T, name string, timeout time.Duration) challengers.Agent {
	t.Helper()
	a, ok := challengers.Builtin(name)
	if !ok {
		t.Fatalf("no built-in %s", name)
	}
	a.Timeout = timeout
	return a
}

func run(t *testing.T, f *clitest.Fakes, a challengers.Agent, prompt string, onChunk func(string)) challengers.Result {
	t.Helper()
	return challengers.Run(context.Background(), challengers.Request{Agent: a, Prompt: prompt, Env: f.Env(), OnChunk: onChunk})
}

func TestEveryBuiltinAnswersThroughItsRealFormat(t *testing.T) {
	f := clitest.New(t)
	for _, name := range challengers.BuiltinNames() {
		for _, pty := range []bool{true, false} {
			a := builtin(t, name, 10*time.Second)
			a.PTY = pty
			var streamed strings.Builder
			res := run(t, f, a, "Reply with the single word OK.", func(s string) { streamed.WriteString(s) })
			if !res.OK() || res.Text != "OK" {
				t.Fatalf("%s (pty %v): %s, text %q, stderr %q", name, pty, res.Describe(), res.Text, res.Stderr)
			}
			if strings.TrimSpace(streamed.String()) != "OK" {
				t.Errorf("%s (pty %v) streamed %q", name, pty, streamed.String())
			}
			if res.Usage == nil && name != "claude" {
				t.Errorf("%s reported no usage", name)
			}
		}
	}
	for _, c := range f.Calls() {
		if c.Error != "" {
			t.Errorf("%s rejected its invocation %q: %s", c.Agent, c.Argv, c.Error)
		}
		if c.StdinIsTTY {
			t.Errorf("%s got a terminal as stdin", c.Agent)
		}
	}
}

// The first chunk reaches OnChunk while the agent is still running: the
// agent (mode hang) prints it and then sleeps for ever, and the call is
// cancelled from OnChunk itself, so only a chunk streamed before the exit
// can end the call. (Measuring when the first chunk came against the
// whole call's length, as this did, depended on how fast the machine
// started the fake.)
func TestFirstChunkArrivesBeforeTheProcessExits(t *testing.T) {
	const reply = "The answer streams in several chunks from the model. It ends here."
	f := clitest.New(t)
	f.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
		"gemini": {Mode: clitest.ModeHang, Chunks: 6, Steps: map[string][]clitest.Step{
			string(clitest.KindOther): {{Reply: reply}},
		}},
	}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var first string
	var once sync.Once
	res := challengers.Run(ctx, challengers.Request{Agent: builtin(t, "gemini", time.Minute), Prompt: "Reply with OK", Env: f.Env(),
		OnChunk: func(s string) { once.Do(func() { first = s; cancel() }) }})
	if res.Reason != challengers.ReasonCancelled || first == "" || !strings.HasPrefix(reply, first) {
		t.Fatalf("%s, first chunk %q: not streamed before the exit", res.Describe(), first)
	}
	assertGone(t, f.CallsTo("gemini")[0].PID)
}

// waitUntil waits, in real time, for cond; the bound only catches a hang.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 30 s for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// driveKill moves the runner's fake clock through the killing of a
// process group, a group poll at a time, whenever the runner waits on it,
// and returns the call's result. While a SIGTERM the process ignores is
// meant to hold (termKills false, less than KillGrace since the kill
// began), the process must stay alive; once it is meant to die, the clock
// waits for it in real time, so no fake time passes while the kernel
// takes its time on a loaded machine.
func driveKill(t *testing.T, c *challengers.FakeClock, done <-chan challengers.Result, pid func() int, termKills bool) challengers.Result {
	t.Helper()
	var waited time.Duration
	for c.WaitSleeping(func() bool { return len(done) > 0 }) {
		if termKills || waited >= challengers.KillGrace {
			waitUntil(t, "the group to be gone", func() bool { return !alive(pid()) })
		} else if !alive(pid()) {
			t.Fatalf("the process died %v into the %v grace, though it ignores SIGTERM", waited, challengers.KillGrace)
		}
		c.Advance(challengers.GroupPoll)
		waited += challengers.GroupPoll
	}
	return <-done
}

// A timeout kills the whole group at the deadline, and a process that
// ignores SIGTERM is killed KillGrace later: on the runner's own clock,
// moved by the test, the call lasts the timeout (plus at most one poll of
// the group), or the timeout and the grace.
func TestTimeoutKillsTheWholeTree(t *testing.T) {
	for _, mode := range []clitest.Mode{clitest.ModeHang, clitest.ModeIgnoreTerm} {
		t.Run(string(mode), func(t *testing.T) {
			f := clitest.New(t)
			f.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"gemini": {Mode: mode}}})
			c := challengers.UseFakeClock(t)
			const timeout = 700 * time.Millisecond
			up := make(chan struct{})
			var once sync.Once
			done := make(chan challengers.Result, 1)
			go func() {
				done <- run(t, f, builtin(t, "gemini", timeout), "hello", func(string) { once.Do(func() { close(up) }) })
			}()
			select { // the first chunk: the fake is up, and past ignoring SIGTERM
			case <-up:
			case res := <-done:
				t.Fatalf("%s before any output", res.Describe())
			case <-time.After(30 * time.Second):
				t.Fatal("no output in 30 s")
			}
			pid := func() int { return f.CallsTo("gemini")[0].PID }
			c.Advance(timeout - time.Millisecond)
			if len(done) > 0 || !alive(pid()) {
				t.Fatal("the call ended before its deadline")
			}
			c.Advance(time.Millisecond)
			res := driveKill(t, c, done, pid, mode == clitest.ModeHang)
			if res.Reason != challengers.ReasonTimeout || res.Describe() != "timed out after 1s" {
				t.Fatalf("reason %s (%s)", res.Reason, res.Describe())
			}
			least := timeout
			if mode == clitest.ModeIgnoreTerm {
				least += challengers.KillGrace
			}
			if res.Duration < least || res.Duration > least+challengers.GroupPoll {
				t.Fatalf("the call lasted %v on the runner's clock, want %v (at most a poll more)", res.Duration, least)
			}
			assertGone(t, pid())
		})
	}
}

// A grandchild holding stdout open does not hold the call: once the agent
// exits, what is left of its group is killed (SIGTERM, which the
// grandchild ignores, then SIGKILL KillGrace later), and the reply is
// taken. On the runner's clock the call lasts the grace, not the 20 s
// timeout.
func TestGrandchildHoldingStdoutIsKilled(t *testing.T) {
	f := clitest.New(t)
	f.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"qwen": {Mode: clitest.ModeGrandchild}}})
	c := challengers.UseFakeClock(t)
	done := make(chan challengers.Result, 1)
	go func() { done <- run(t, f, builtin(t, "qwen", 20*time.Second), "hi", nil) }()
	grandchild := func() int {
		pid, ok := f.GrandchildPID("qwen")
		if !ok {
			t.Fatal("the fake did not record its grandchild")
		}
		return pid
	}
	res := driveKill(t, c, done, grandchild, false)
	if !res.OK() {
		t.Fatalf("%s", res.Describe())
	}
	if res.Duration < challengers.KillGrace || res.Duration > challengers.KillGrace+challengers.GroupPoll {
		t.Fatalf("the call lasted %v on the runner's clock, want the %v grace", res.Duration, challengers.KillGrace)
	}
	assertGone(t, grandchild())
}

// assertGone fails unless pid has exited (a zombie waiting for init to
// reap it has exited).
func assertGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		if !alive(pid) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	syscall.Kill(pid, syscall.SIGKILL)
	t.Fatalf("process %d survived", pid)
}

func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	i := strings.LastIndexByte(string(b), ')')
	return i < 0 || len(b) < i+3 || b[i+2] != 'Z'
}

func TestOutputCapStopsAFlood(t *testing.T) {
	f := clitest.New(t)
	f.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"gemini": {Mode: clitest.ModeFlood, FloodBytes: 64 << 20}}})
	a := builtin(t, "gemini", 30*time.Second)
	a.OutputCap = 1 << 20
	res := run(t, f, a, "hi", nil)
	if res.Reason != challengers.ReasonOutputLimit || !strings.Contains(res.Describe(), "1 MiB") {
		t.Fatalf("%s: %s", res.Reason, res.Describe())
	}
	if res.Bytes > 2<<20 {
		t.Fatalf("read %d bytes past a 1 MiB cap", res.Bytes)
	}
	assertGone(t, f.CallsTo("gemini")[0].PID)
}

func TestPromptArrivesByteForByte(t *testing.T) {
	f := clitest.New(t)
	nasty := "Is $(rm -rf ~) `whoami` safe? 'single' \"double\" \\ back\\slash\nnew line; semi | pipe & amp > redirect * glob ~ tilde\t$HOME %s"
	for _, name := range challengers.BuiltinNames() {
		res := run(t, f, builtin(t, name, 10*time.Second), nasty, nil)
		if !res.OK() {
			t.Fatalf("%s: %s", name, res.Describe())
		}
		calls := f.CallsTo(name)
		if got := calls[len(calls)-1].Prompt; got != nasty {
			t.Errorf("%s received %q", name, got)
		}
	}
	if _, err := os.Stat(filepath.Join(os.Getenv("HOME"), "whoami")); err == nil {
		t.Fatal("something ran the topic")
	}
}

func TestHugePromptGoesByStdin(t *testing.T) {
	f := clitest.New(t)
	prompt := strings.Repeat("All work and no play. ", (1<<20)/22)
	sum := sha256.Sum256([]byte(prompt))
	for _, name := range challengers.BuiltinNames() {
		res := run(t, f, builtin(t, name, 20*time.Second), prompt, nil)
		if !res.OK() {
			t.Fatalf("%s: %s (stderr %q)", name, res.Describe(), res.Stderr)
		}
		c := f.CallsTo(name)[0]
		if c.PromptLen != len(prompt) || c.PromptSHA256 != hex.EncodeToString(sum[:]) {
			t.Errorf("%s got %d bytes (want %d) or a different prompt", name, c.PromptLen, len(prompt))
		}
		for _, arg := range c.Argv {
			if len(arg) > challengers.MaxArgBytes {
				t.Errorf("%s got a %d-byte argument", name, len(arg))
			}
		}
	}
}

func TestErrorInsideTheStreamFailsDespiteExitZero(t *testing.T) {
	f := clitest.New(t)
	script := &clitest.Script{Agents: map[string]clitest.AgentScript{}}
	for _, n := range challengers.BuiltinNames() {
		script.Agents[n] = clitest.AgentScript{Mode: clitest.ModeErrorInStream}
	}
	f.SetScript(script)
	for _, name := range challengers.BuiltinNames() {
		res := run(t, f, builtin(t, name, 10*time.Second), "hi", nil)
		if res.Reason != challengers.ReasonStreamError || res.ExitCode != 0 || !strings.Contains(res.Detail, "401") {
			t.Errorf("%s: reason %s exit %d detail %q", name, res.Reason, res.ExitCode, res.Detail)
		}
	}
}

func TestFailuresHaveReasons(t *testing.T) {
	f := clitest.New(t)
	f.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
		"gemini": {Mode: clitest.ModeAuthError},
		"codex":  {Mode: clitest.ModeCrash},
		"qwen":   {Mode: clitest.ModeGarbage},
		"claude": {Mode: clitest.ModeBinary},
	}})
	cases := map[string]challengers.Reason{
		"gemini": challengers.ReasonStreamError, // exit 145, but the stream says why
		"codex":  challengers.ReasonExit,
		"qwen":   challengers.ReasonEmpty,
		"claude": challengers.ReasonEmpty,
	}
	for name, want := range cases {
		res := run(t, f, builtin(t, name, 10*time.Second), "hi", nil)
		if res.Reason != want {
			t.Errorf("%s: reason %s (%s), want %s", name, res.Reason, res.Describe(), want)
		}
	}
	a := builtin(t, "gemini", time.Second)
	a.Command[0] = "no-such-cli-arena-test"
	if res := run(t, f, a, "hi", nil); res.Reason != challengers.ReasonNotFound || !strings.Contains(res.Describe(), "not on PATH") {
		t.Errorf("missing CLI: %s", res.Describe())
	}
}

func TestScratchDirectoryIsPrivateAndRemoved(t *testing.T) {
	f := clitest.New(t)
	res := run(t, f, builtin(t, "codex", 10*time.Second), "hi", nil)
	if !res.OK() {
		t.Fatal(res.Describe())
	}
	cwd := f.CallsTo("codex")[0].Cwd
	wd, _ := os.Getwd()
	if cwd == wd || !strings.Contains(filepath.Base(cwd), "arena-codex-") {
		t.Fatalf("ran in %s", cwd)
	}
	if _, err := os.Stat(cwd); err == nil {
		t.Fatalf("scratch directory %s was left behind", cwd)
	}
}

func TestOwnProcessGroupAndSession(t *testing.T) {
	f := clitest.New(t)
	run(t, f, builtin(t, "claude", 10*time.Second), "hi", nil)
	c := f.CallsTo("claude")[0]
	if c.PGID != c.PID || c.PGID == syscall.Getpgrp() {
		t.Fatalf("pid %d pgid %d (ours %d): not its own group", c.PID, c.PGID, syscall.Getpgrp())
	}
	if !c.StdoutIsTTY {
		t.Fatal("a built-in ran without its pseudo-terminal")
	}
}

// Cancelling the context stops a call that would otherwise run for its
// minute: the call is cancelled once the agent has printed its first
// chunk (so it is surely running), and ends cancelled, its process gone.
func TestCancelStopsTheCall(t *testing.T) {
	f := clitest.New(t)
	f.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"gemini": {Mode: clitest.ModeHang}}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res := challengers.Run(ctx, challengers.Request{Agent: builtin(t, "gemini", time.Minute), Prompt: "hi", Env: f.Env(),
		OnChunk: func(string) { cancel() }})
	if res.Reason != challengers.ReasonCancelled {
		t.Fatalf("%s after %v", res.Describe(), res.Duration)
	}
	assertGone(t, f.CallsTo("gemini")[0].PID)
}

func TestStdinPromptModeUsesStdinCommand(t *testing.T) {
	f := clitest.New(t)
	a := builtin(t, "gemini", 10*time.Second)
	a.Prompt = challengers.PromptStdin
	if err := a.Validate(); err != nil {
		t.Fatal(err)
	}
	res := run(t, f, a, "Reply with the single word OK.", nil)
	if !res.OK() || f.CallsTo("gemini")[0].Prompt != "Reply with the single word OK." {
		t.Fatalf("%s: %+v", res.Describe(), f.CallsTo("gemini")[0])
	}
}

func TestCustomTextAgentOverPipes(t *testing.T) {
	f := clitest.New(t)
	a := challengers.Agent{
		Name: "plainclaude", Command: []string{"claude", "-p", challengers.PromptFilePlaceholder},
		Prompt: challengers.PromptFile, Format: challengers.FormatText, Timeout: 10 * time.Second,
	}
	// The file mode hands claude a path; it answers about the path, which
	// is enough to see the path was a real, readable file.
	res := run(t, f, a, "hi", nil)
	if !res.OK() {
		t.Fatal(res.Describe())
	}
	got := f.CallsTo("claude")[0].Argv
	if len(got) != 2 || !strings.Contains(got[1], "arena-prompt-") {
		t.Fatalf("argv %q", got)
	}
	if _, err := os.Stat(got[1]); err == nil {
		t.Fatal("the prompt file was left behind")
	}
}

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

func TestFirstChunkArrivesBeforeTheProcessExits(t *testing.T) {
	f := clitest.New(t)
	f.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
		"gemini": {DelayMS: 300, Chunks: 6, Steps: map[string][]clitest.Step{
			string(clitest.KindOther): {{Reply: "The answer streams in several chunks from the model. It ends here."}},
		}},
	}})
	start := time.Now()
	var first time.Duration
	var once sync.Once
	res := run(t, f, builtin(t, "gemini", 10*time.Second), "Reply with OK", func(string) {
		once.Do(func() { first = time.Since(start) })
	})
	if !res.OK() {
		t.Fatal(res.Describe())
	}
	if first == 0 || first > res.Duration/2 {
		t.Fatalf("first chunk after %v of a %v call: not streamed", first, res.Duration)
	}
}

func TestTimeoutKillsTheWholeTree(t *testing.T) {
	for _, mode := range []clitest.Mode{clitest.ModeHang, clitest.ModeIgnoreTerm} {
		t.Run(string(mode), func(t *testing.T) {
			f := clitest.New(t)
			f.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"codex": {Mode: mode}}})
			deadline := 700 * time.Millisecond
			res := run(t, f, builtin(t, "codex", deadline), "hello", nil)
			if res.Reason != challengers.ReasonTimeout || res.Describe() != "timed out after 1s" {
				t.Fatalf("reason %s (%s)", res.Reason, res.Describe())
			}
			// The answer comes within about a second of the deadline.
			if res.Duration > deadline+1200*time.Millisecond {
				t.Fatalf("took %v for a %v timeout", res.Duration, deadline)
			}
			assertGone(t, f.CallsTo("codex")[0].PID)
		})
	}
}

func TestGrandchildHoldingStdoutIsKilled(t *testing.T) {
	f := clitest.New(t)
	f.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"qwen": {Mode: clitest.ModeGrandchild}}})
	res := run(t, f, builtin(t, "qwen", 20*time.Second), "hi", nil)
	if !res.OK() {
		t.Fatalf("%s", res.Describe())
	}
	if res.Duration > 3*time.Second {
		t.Fatalf("a grandchild holding stdout delayed the answer: %v", res.Duration)
	}
	pid, ok := f.GrandchildPID("qwen")
	if !ok {
		t.Fatal("the fake did not record its grandchild")
	}
	assertGone(t, pid)
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

func TestCancelStopsTheCall(t *testing.T) {
	f := clitest.New(t)
	f.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"gemini": {Mode: clitest.ModeHang}}})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(300 * time.Millisecond); cancel() }()
	res := challengers.Run(ctx, challengers.Request{Agent: builtin(t, "gemini", time.Minute), Prompt: "hi", Env: f.Env()})
	if res.Reason != challengers.ReasonCancelled || res.Duration > 2*time.Second {
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

//go:build linux

package challengers_test

import (
	"context"
	"io"
	"os"
	"os/exec"
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

// The test binary is arena's supervisor too when run as one, so that the
// runner's tests can run agents under a run's supervisor, as arena does.
func TestMain(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == "__reaper" {
		os.Exit(challengers.ServeReaper(os.Stdin))
	}
	if os.Getenv("ARENA_TEST_SUPERVISED") == "1" {
		// Every test's calls under one supervisor, as in arena's runs
		// (the tests that start their own are not meant for this).
		rp, err := challengers.StartReaper([]string{os.Args[0], "__reaper"})
		if err != nil {
			panic(err)
		}
		code := m.Run()
		rp.Close()
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// withReaper starts this test binary as the run's supervisor until the
// test ends: from then on every call runs under it. It returns the
// supervisor's pid.
func withReaper(t *testing.T) *challengers.Reaper {
	t.Helper()
	rp, err := challengers.StartReaper([]string{os.Args[0], "__reaper"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rp.Close() })
	return rp
}

// TestTheRunnersTestsUnderASupervisor runs this package's tests again
// with every call under one supervisor, as in arena's runs: all but the
// supervisor's own, TempDir's without one, and those that time the
// runner's kill of a group on its own clock (under a supervisor, the
// grace before SIGKILL is the supervisor's, on the wall clock:
// TestSupervisorStopsTheWholeTree instead).
func TestTheRunnersTestsUnderASupervisor(t *testing.T) {
	clitest.SkipShort(t)
	if os.Getenv("ARENA_TEST_SUPERVISED") == "1" {
		t.Skip("under one already")
	}
	cmd := exec.Command(os.Args[0], "-test.count=1", "-test.timeout=5m",
		"-test.skip=^(TestTheRunnersTestsUnderASupervisor|TestSupervisor|TestAnAgent|TestOneCalls|TestRunGroup|TestTheReaper|"+
			"TestTempDirWithoutAReaper|TestTimeoutKillsTheWholeTree|TestGrandchildHoldingStdoutIsKilled|TestDoctorChecksConcurrently)")
	cmd.Env = append(os.Environ(), "ARENA_TEST_SUPERVISED=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

// TestSupervisorEndsWhatTheAgentLeaves: a helper the agent leaves behind
// in a session of its own, double-forked or in a group of its own (and
// deaf to SIGTERM) is gone when the call returns, which answers as it
// would without a supervisor, in both of the runner's stdouts; and every
// call's parent is the one supervisor.
func TestSupervisorEndsWhatTheAgentLeaves(t *testing.T) {
	withReaper(t)
	f := clitest.New(t)
	for _, how := range []string{clitest.LeaveSetsid, clitest.LeaveDoubleFork, clitest.LeaveNewGroup} {
		for _, pty := range []bool{true, false} {
			f.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"gemini": {Leave: how}}})
			before := len(f.DaemonPIDs("gemini"))
			a := builtin(t, "gemini", 20*time.Second)
			a.PTY = pty
			res := run(t, f, a, "Reply with the single word OK.", nil)
			if !res.OK() || res.Text != "OK" {
				t.Fatalf("%s (pty %v): %s, text %q, stderr %q", how, pty, res.Describe(), res.Text, res.Stderr)
			}
			pids := f.DaemonPIDs("gemini")
			if len(pids) != before+1 {
				t.Fatalf("%s: helpers %v", how, pids)
			}
			for _, pid := range pids {
				if alive(pid) {
					syscall.Kill(pid, syscall.SIGKILL)
					t.Errorf("%s (pty %v): the helper (pid %d) outlived its call", how, pty, pid)
				}
			}
		}
	}
	parents := map[int]bool{}
	for _, c := range f.Calls() {
		parents[c.PPID] = true
	}
	if len(parents) != 1 || parents[os.Getpid()] {
		t.Errorf("the calls' parents: %v, want the one supervisor", parents)
	}
}

// TestSupervisorKeepsTheExitStatus: a supervised call ends as its agent
// did, and a command that cannot be started is still a start failure.
func TestSupervisorKeepsTheExitStatus(t *testing.T) {
	withReaper(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "agent")
	os.WriteFile(script, []byte("#!/bin/sh\necho \"$@\"\nexit 3\n"), 0o700)
	a := challengers.Agent{Name: "x", Command: []string{script, "{prompt}"}, Prompt: challengers.PromptArgv, Format: challengers.FormatText, Timeout: 20 * time.Second}
	res := challengers.Run(context.Background(), challengers.Request{Agent: a, Prompt: "hello"})
	if res.ExitCode != 3 || res.Text != "hello" {
		t.Errorf("exit %d, text %q: %s", res.ExitCode, res.Text, res.Describe())
	}
	os.WriteFile(script, []byte("#!/bin/sh\nkill -TERM $$\n"), 0o700)
	if res := challengers.Run(context.Background(), challengers.Request{Agent: a, Prompt: "hello"}); res.ExitCode != -1 || res.Reason != challengers.ReasonExit {
		t.Errorf("a call killed by a signal: exit %d, %s", res.ExitCode, res.Describe())
	}
	os.WriteFile(script, []byte("#!/nonexistent/interpreter\n"), 0o700)
	if res := challengers.Run(context.Background(), challengers.Request{Agent: a, Prompt: "hello"}); res.Reason != challengers.ReasonStartFailed ||
		!strings.Contains(res.Detail, "fork/exec "+script) {
		t.Errorf("a command that cannot start: %s", res.Describe())
	}
}

// TestSupervisorStopsTheWholeTree: a call stopped (cancelled, as at its
// timeout) has its whole tree ended by the supervisor, the agent deaf to
// SIGTERM too (SIGKILL after the grace); a call that answers and leaves a
// grandchild deaf to SIGTERM holding stdout answers, and the grandchild
// is ended.
func TestSupervisorStopsTheWholeTree(t *testing.T) {
	withReaper(t)
	f := clitest.New(t)
	for _, mode := range []clitest.Mode{clitest.ModeHang, clitest.ModeIgnoreTerm} {
		f.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"gemini": {Mode: mode}}})
		ctx, cancel := context.WithCancel(context.Background())
		var once sync.Once
		// Cancelled at the first chunk: the fake is up, past ignoring
		// SIGTERM.
		res := challengers.Run(ctx, challengers.Request{Agent: builtin(t, "gemini", time.Minute), Prompt: "hello", Env: f.Env(),
			OnChunk: func(string) { once.Do(cancel) }})
		cancel()
		if res.Reason != challengers.ReasonCancelled {
			t.Errorf("%s: %s", mode, res.Describe())
		}
		calls := f.CallsTo("gemini")
		assertGone(t, calls[len(calls)-1].PID)
	}
	f.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"gemini": {Mode: clitest.ModeGrandchild}}})
	if res := run(t, f, builtin(t, "gemini", time.Minute), "hello", nil); !res.OK() {
		t.Errorf("grandchild: %s", res.Describe())
	}
	pid, ok := f.GrandchildPID("gemini")
	if !ok {
		t.Fatal("the fake did not record its grandchild")
	}
	assertGone(t, pid)
}

// TestRunGroupEndsWhatTheCommandLeaves: a test command (RunGroup) that
// leaves a sleeper in a session of its own has it ended by the time
// RunGroup returns.
func TestRunGroupEndsWhatTheCommandLeaves(t *testing.T) {
	withReaper(t)
	pidFile := filepath.Join(t.TempDir(), "pid")
	run := challengers.RunGroup(context.Background(), []string{"sh", "-c", "setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $! >" + pidFile}, "", nil, io.Discard)
	if !run.Started || run.ExitCode != 0 {
		t.Fatalf("%+v", run)
	}
	pid := readPID(t, pidFile)
	if alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatal("the sleeper in a session of its own outlived its command")
	}
}

// hostileAgent writes a text agent that starts a helper in a session of
// its own by a double fork, deaf to SIGTERM, SIGHUP and SIGINT (the
// helper writes its pid to pidFile, renamed into place), then runs then,
// then prints its reply.
func hostileAgent(t *testing.T, pidFile, then string) challengers.Agent {
	t.Helper()
	script := filepath.Join(t.TempDir(), "agent")
	body := "#!/bin/sh\n" +
		"( setsid sh -c 'trap \"\" TERM HUP INT; echo $$ >" + pidFile + ".tmp; mv " + pidFile + ".tmp " + pidFile + "; exec sleep 300' </dev/null >/dev/null 2>&1 & )\n" +
		"while [ ! -s " + pidFile + " ]; do sleep 0.01; done\n" +
		then + "\n" +
		"echo OK\n"
	if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
		t.Fatal(err)
	}
	return challengers.Agent{Name: "hostile", Command: []string{script}, Prompt: challengers.PromptStdin, Format: challengers.FormatText, Timeout: 20 * time.Second}
}

func readPID(t *testing.T, path string) int {
	t.Helper()
	b, _ := os.ReadFile(path)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("pid file %s: %q", path, b)
	}
	return pid
}

// TestAnAgentThatKillsItsSupervisor: an agent leaves a daemon, then
// SIGKILLs its supervisor (its parent). What the supervisor watched comes
// to arena, a subreaper, which ends it before the call returns; the next
// call gets a supervisor again, and its helpers end with it.
func TestAnAgentThatKillsItsSupervisor(t *testing.T) {
	withReaper(t)
	pidFile := filepath.Join(t.TempDir(), "daemon")
	a := hostileAgent(t, pidFile, "kill -KILL $PPID; sleep 300")
	res := challengers.Run(context.Background(), challengers.Request{Agent: a, Prompt: "hi"})
	if res.Reason != challengers.ReasonExit || res.ExitCode != -1 || !strings.Contains(res.Detail, "supervisor was killed") {
		t.Errorf("the call whose supervisor died: %s", res.Describe())
	}
	if pid := readPID(t, pidFile); alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatal("the daemon outlived the supervisor its agent killed")
	}
	os.Remove(pidFile)
	a = hostileAgent(t, pidFile, "")
	if res := challengers.Run(context.Background(), challengers.Request{Agent: a, Prompt: "hi"}); !res.OK() || res.Text != "OK" {
		t.Fatalf("the next call: %s", res.Describe())
	}
	if pid := readPID(t, pidFile); alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatal("the next call's daemon outlived its call")
	}
}

// TestAnAgentThatStopsItsSupervisor: an agent leaves a daemon and
// SIGSTOPs its supervisor; arena sends it SIGCONT, the call answers, and
// its daemon ends with it.
func TestAnAgentThatStopsItsSupervisor(t *testing.T) {
	withReaper(t)
	pidFile := filepath.Join(t.TempDir(), "daemon")
	a := hostileAgent(t, pidFile, "kill -STOP $PPID")
	res := challengers.Run(context.Background(), challengers.Request{Agent: a, Prompt: "hi"})
	if !res.OK() || res.Text != "OK" {
		t.Errorf("the call that stopped its supervisor: %s", res.Describe())
	}
	if pid := readPID(t, pidFile); alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatal("the daemon outlived the call that stopped its supervisor")
	}
}

// TestOneCallsEndLeavesAnotherCallsHelper: two calls run at once under one
// supervisor, each leaving a helper in a session of its own; when the
// first ends, the second's helper (still running, its call going on) is
// left alone, and it ends with its own call.
func TestOneCallsEndLeavesAnotherCallsHelper(t *testing.T) {
	withReaper(t)
	dir := t.TempDir()
	first, second := filepath.Join(dir, "first"), filepath.Join(dir, "second")
	release := filepath.Join(dir, "release")
	slow := hostileAgent(t, second, "while [ ! -e "+release+" ]; do sleep 0.01; done")
	done := make(chan challengers.Result, 1)
	go func() { done <- challengers.Run(context.Background(), challengers.Request{Agent: slow, Prompt: "hi"}) }()
	waitUntil(t, "the second call's helper", func() bool { _, err := os.Stat(second); return err == nil })
	if res := challengers.Run(context.Background(), challengers.Request{Agent: hostileAgent(t, first, ""), Prompt: "hi"}); !res.OK() {
		t.Fatalf("the first call: %s", res.Describe())
	}
	if alive(readPID(t, first)) {
		t.Error("the first call's helper outlived its call")
	}
	if !alive(readPID(t, second)) {
		t.Error("the end of the first call ended the helper of the second, still running")
	}
	os.WriteFile(release, nil, 0o600)
	if res := <-done; !res.OK() {
		t.Fatalf("the second call: %s", res.Describe())
	}
	if pid := readPID(t, second); alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatal("the second call's helper outlived its call")
	}
}

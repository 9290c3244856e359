//go:build linux

package challengers_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/clitest"
)

// The test binary is arena's reaper too when run as one, so that the
// runner's tests can run agents under calls' reapers, as arena does.
func TestMain(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == "__reaper" {
		challengers.ServeReaper(os.Stdin)
		os.Exit(0)
	}
	if len(os.Args) > 2 && os.Args[1] == "__reaper" && os.Args[2] == challengers.CallReaperArg {
		os.Exit(challengers.ServeCall(os.Args[3:]))
	}
	os.Exit(m.Run())
}

// withReaper starts this test binary as the run's reaper until the test
// ends: from then on every call runs under a call's reaper.
func withReaper(t *testing.T) {
	t.Helper()
	rp, err := challengers.StartReaper([]string{os.Args[0], "__reaper"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rp.Close() })
}

// TestCallReaperEndsWhatTheAgentLeaves: a helper the agent leaves behind
// in a session of its own, double-forked or in a group of its own (and
// deaf to SIGTERM) is gone when the call returns, which answers as it
// would without a call's reaper, in both of the runner's stdouts.
func TestCallReaperEndsWhatTheAgentLeaves(t *testing.T) {
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
}

// TestCallReaperKeepsTheExitStatus: a call's reaper exits as its agent
// did, and a command that cannot be started is still a start failure.
func TestCallReaperKeepsTheExitStatus(t *testing.T) {
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
	if res := challengers.Run(context.Background(), challengers.Request{Agent: a, Prompt: "hello"}); res.Reason != challengers.ReasonStartFailed {
		t.Errorf("a command that cannot start: %s", res.Describe())
	}
}

// TestStartGroupEndsWhatTheCommandLeaves: a test command (StartGroup)
// that leaves a sleeper in a session of its own has it ended by the time
// it has been waited for.
func TestStartGroupEndsWhatTheCommandLeaves(t *testing.T) {
	withReaper(t)
	pidFile := filepath.Join(t.TempDir(), "pid")
	cmd := exec.Command("sh", "-c", "setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $! >"+pidFile)
	finish, err := challengers.StartGroup(cmd)
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	finish()
	b, _ := os.ReadFile(pidFile)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("pid file %q", b)
	}
	if alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatal("the sleeper in a session of its own outlived its command")
	}
}

//go:build linux

package challengers

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startTestReaper starts this test binary as the run's supervisor
// (TestMain in supervisor_test.go).
func startTestReaper(t *testing.T) *Reaper {
	t.Helper()
	rp, err := StartReaper([]string{os.Args[0], "__reaper"})
	if err != nil {
		t.Fatal(err)
	}
	return rp
}

func TestTheReaperKillsWhatIsStillRegistered(t *testing.T) {
	start := func() *exec.Cmd {
		c := exec.Command("sleep", "60")
		c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		return c
	}
	kept, released := start(), start()
	defer released.Process.Kill()
	rp := startTestReaper(t)
	track(kept.Process.Pid)
	track(released.Process.Pid)()
	rp.register("group", "garbage")
	rp.register("group", "1")
	rp.Close()
	done := make(chan error, 1)
	go func() { done <- kept.Wait() }()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		kept.Process.Kill()
		t.Fatal("the registered group was not killed")
	}
	if err := released.Process.Signal(syscall.Signal(0)); err != nil {
		t.Fatal("an unregistered group was killed")
	}
}

func TestTheReaperRemovesWhatIsStillRegistered(t *testing.T) {
	root := t.TempDir()
	kept, released := filepath.Join(root, "kept\nwith a newline"), filepath.Join(root, "released")
	for _, d := range []string{kept, released} {
		if err := os.MkdirAll(filepath.Join(d, "sub"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	rp := startTestReaper(t)
	run := rp.runDir
	rp.register("dir", kept)
	rp.register("dir", released)
	rp.register("undir", released)
	rp.register("dir", "relative")
	rp.Close()
	for _, d := range []string{kept, run} {
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Fatalf("the registered directory %s is still there: %v", d, err)
		}
	}
	if _, err := os.Stat(released); err != nil {
		t.Fatal("an unregistered directory was removed")
	}
}

// TestRunGroupKillsWhatTheCommandLeftBehind: a command that exits
// leaving a sleeper in its group has the sleeper killed by the time
// RunGroup returns, with or without a supervisor.
func TestRunGroupKillsWhatTheCommandLeftBehind(t *testing.T) {
	for _, supervised := range []bool{false, true} {
		if supervised {
			rp := startTestReaper(t)
			defer rp.Close()
		}
		pidFile := filepath.Join(t.TempDir(), "pid")
		run := RunGroup(context.Background(), []string{"sh", "-c", "echo out; sleep 300 >/dev/null 2>&1 & echo $! >" + pidFile}, "", nil, io.Discard)
		if !run.Started || run.ExitCode != 0 || run.Err != nil {
			t.Fatalf("supervised %v: %+v", supervised, run)
		}
		b, _ := os.ReadFile(pidFile)
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			t.Fatalf("pid file %q", b)
		}
		if p, ok := readProcInfo(pid); ok && p.living() {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("supervised %v: the sleeper outlived RunGroup", supervised)
		}
	}
}

func TestTempDirWithoutAReaperIsInTMPDIR(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir, remove, err := TempDir("arena-x-")
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(dir) != tmp || !strings.HasPrefix(filepath.Base(dir), "arena-x-") {
		t.Fatalf("made %s", dir)
	}
	if st, err := os.Stat(dir); err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("%v %v", st.Mode(), err)
	}
	remove()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatal("remove left it")
	}
}

// TestASupervisorStartsNoSupervisor: a binary started as the supervisor
// that runs arena's code instead (a test binary that does not serve
// __reaper) cannot start supervisors of its own, without end.
func TestASupervisorStartsNoSupervisor(t *testing.T) {
	t.Setenv(supervisorVar, "1")
	if rp, err := StartReaper([]string{os.Args[0], "__reaper"}); err == nil {
		rp.Close()
		t.Fatal("a supervisor started another")
	}
}

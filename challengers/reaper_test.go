package challengers

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestServeReaperKillsWhatIsStillRegistered(t *testing.T) {
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
	in := "+" + strconv.Itoa(kept.Process.Pid) + "\n+" + strconv.Itoa(released.Process.Pid) + "\n-" + strconv.Itoa(released.Process.Pid) + "\ngarbage\n+1\n"
	ServeReaper(strings.NewReader(in))
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

func TestServeReaperRemovesWhatIsStillRegistered(t *testing.T) {
	root := t.TempDir()
	kept, released := filepath.Join(root, "kept\nwith a newline"), filepath.Join(root, "released")
	for _, d := range []string{kept, released} {
		if err := os.MkdirAll(filepath.Join(d, "sub"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	in := "D" + strconv.Quote(kept) + "\nD" + strconv.Quote(released) + "\nd" + strconv.Quote(released) + "\nD\"relative\"\nDnot-quoted\n"
	ServeReaper(strings.NewReader(in))
	if _, err := os.Stat(kept); !os.IsNotExist(err) {
		t.Fatalf("the registered directory is still there: %v", err)
	}
	if _, err := os.Stat(released); err != nil {
		t.Fatal("an unregistered directory was removed")
	}
}

// TestStartGroupKillsWhatTheCommandLeftBehind: a command that exits
// leaving a sleeper in its group has the sleeper killed by finish.
func TestStartGroupKillsWhatTheCommandLeftBehind(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	cmd := exec.Command("sh", "-c", "sleep 300 >/dev/null 2>&1 & echo $! >"+pidFile)
	finish, err := StartGroup(cmd)
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(pidFile)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("pid file %q", b)
	}
	finish()
	if groupAlive(cmd.Process.Pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatal("the sleeper outlived finish")
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

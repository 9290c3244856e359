package challengers

import (
	"os/exec"
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

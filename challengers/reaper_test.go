package challengers

import (
	"os/exec"
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
	in := "+" + itoa(kept.Process.Pid) + "\n+" + itoa(released.Process.Pid) + "\n-" + itoa(released.Process.Pid) + "\ngarbage\n+1\n"
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

func itoa(n int) string {
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

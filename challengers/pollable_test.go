//go:build linux

package challengers

import (
	"os"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// nonblocking reports whether f's descriptor is in non-blocking mode,
// without asking for it through Fd() (which would make it blocking).
func nonblocking(t *testing.T, f *os.File) bool {
	t.Helper()
	rc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var flags int
	if err := rc.Control(func(fd uintptr) { flags, err = unix.FcntlInt(fd, unix.F_GETFL, 0) }); err != nil {
		t.Fatal(err)
	}
	return flags&unix.O_NONBLOCK != 0
}

// The runner's pseudo-terminal master is waited on by Go's poller, not
// read in blocking mode: creack/pty leaves it blocking (its ioctls go
// through Fd()), so that each read would hold an OS thread until the
// agent writes. With pollable, a read waits without a thread, and a read
// deadline interrupts it.
func TestPTYMasterIsPollable(t *testing.T) {
	master, slave, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer slave.Close()
	if nonblocking(t, master) {
		t.Log("creack/pty's master is non-blocking as opened: pollable is no longer needed")
	}
	m, err := pollable(master)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if !nonblocking(t, m) {
		t.Fatal("the master is in blocking mode")
	}
	if err := m.SetReadDeadline(time.Now().Add(50 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Read(make([]byte, 16)); err == nil {
		t.Fatal("a read with nothing written returned data")
	}
	m.SetReadDeadline(time.Time{})
	if _, err := slave.Write([]byte("hi\n")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	if n, err := m.Read(buf); err != nil || string(buf[:n]) != "hi\r\n" && string(buf[:n]) != "hi\n" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
}

// Past a read deadline, Read fails even with bytes waiting; readBuffered
// still reads them, and says EOF once none is left, without waiting.
func TestReadBufferedAfterTheDeadline(t *testing.T) {
	master, slave, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer slave.Close()
	rawOutput(slave)
	m, err := pollable(master)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if _, err := slave.Write([]byte("the last event\n")); err != nil {
		t.Fatal(err)
	}
	// Wait (generously) for the line discipline to hand it over.
	rc, _ := m.SyscallConn()
	rc.Control(func(fd uintptr) {
		_, _ = unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, 30_000)
	})
	m.SetReadDeadline(time.Now().Add(-time.Second))
	buf := make([]byte, 64)
	if n, err := m.Read(buf); n != 0 || err == nil {
		t.Fatalf("Read past the deadline: %d, %v", n, err)
	}
	var got []byte
	for {
		n, err := readBuffered(m, buf)
		got = append(got, buf[:n]...)
		if err != nil {
			break
		}
	}
	if string(got) != "the last event\n" {
		t.Fatalf("read %q", got)
	}
}

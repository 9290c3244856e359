package challengers

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// procAttr puts the agent in a session of its own (so it is the leader of a
// new process group that a timeout can kill whole, and cannot take over
// arena's terminal) and asks the kernel to kill it if arena dies without a
// chance to clean up (SIGKILL of arena itself).
//
// Pdeathsig fires when the *thread* that started the child exits; the Go
// runtime only retires threads locked with LockOSThread, which arena never
// does around a start.
func procAttr(ctty bool) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{
		Setsid:    true,
		Setctty:   ctty,
		Ctty:      1, // the pty is the child's stdout (fd 1); stdin is not a terminal
		Pdeathsig: syscall.SIGKILL,
	}
}

// rawOutput turns off output processing on a pty (no LF → CRLF), so the
// bytes an agent writes arrive as written.
func rawOutput(tty *os.File) {
	t, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		return
	}
	t.Oflag &^= unix.OPOST
	_ = unix.IoctlSetTermios(int(tty.Fd()), unix.TCSETS, t)
}

// groupAlive reports whether a live (not zombie) process is left in the
// group. kill(-pgid, 0) alone is not enough: an orphan that died waits as
// a zombie until init reaps it, and in a container init may never do so.
func groupAlive(pgid int) bool {
	if pgid <= 0 || syscall.Kill(-pgid, 0) != nil {
		return false
	}
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		return true
	}
	want := []byte(strconv.Itoa(pgid))
	for _, path := range stats {
		if livingMember(path, want) {
			return true
		}
	}
	return false
}

// livingMember reads /proc/PID/stat: "pid (comm) state ppid pgrp ...".
// comm may contain spaces and parentheses, so fields are counted from the
// last ')'.
func livingMember(statPath string, pgid []byte) bool {
	b, err := os.ReadFile(statPath)
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 3 || !bytes.Equal(f[2], pgid) {
		return false
	}
	return f[0][0] != 'Z' && f[0][0] != 'X'
}

// groupAttr makes a child the leader of a process group of its own, so
// that a timeout or the reaper can kill it with all it started, and asks
// the kernel to kill it if arena dies without a chance to clean up.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

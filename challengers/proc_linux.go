package challengers

import (
	"os"
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
	d, err := os.Open("/proc")
	if err != nil {
		return true
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	for _, name := range names {
		if pid, err := strconv.Atoi(name); err == nil {
			if p, ok := readProcInfo(pid); ok && p.pgid == pgid && p.living() {
				return true
			}
		}
	}
	return false
}

// groupAttr makes a child the leader of a process group of its own, so
// that a timeout or the reaper can kill it with all it started, and asks
// the kernel to kill it if arena dies without a chance to clean up.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

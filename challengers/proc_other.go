//go:build unix && !linux

package challengers

import (
	"os"
	"syscall"
)

// procAttr: see proc_linux.go. Without Pdeathsig, children of an arena
// killed by SIGKILL notice when their pty or pipes close.
func procAttr(ctty bool) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Setctty: ctty, Ctty: 1}
}

func rawOutput(*os.File) {}

func groupAlive(pgid int) bool {
	return pgid > 0 && syscall.Kill(-pgid, 0) == nil
}

// groupAttr: see proc_linux.go.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

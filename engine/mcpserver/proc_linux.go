package mcpserver

import "syscall"

// childAttr puts a run in a process group of its own (a signal meant for
// the server, such as the host's Ctrl+C, does not reach it: the server
// stops its runs itself), and has the kernel interrupt it if the server
// dies without a chance to (SIGKILL): it then closes its log as after
// Ctrl+C, resumable.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGINT}
}

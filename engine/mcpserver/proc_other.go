//go:build !linux

package mcpserver

import "syscall"

// childAttr puts a run in a process group of its own, so that a signal
// meant for the server does not reach it: the server stops its runs.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

package mcpserver

import "syscall"

// childAttr puts a run in a process group of its own, so that a signal
// meant for the server (the host's Ctrl+C) does not reach it: the server
// stops its runs itself. A server killed outright cannot: its runs learn
// it from their lifeline (EnvLifelineFD), not from a parent-death signal,
// which Linux sends again each time one of the dying server's threads
// goes, and a second SIGINT kills a run before it writes its outcome.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

package main

import (
	"syscall"
	"unsafe"
)

// isTerminal reports whether fd is a terminal, as isatty(3) does. (A
// character-device check would take /dev/null for a terminal, and the real
// CLIs treat </dev/null as piped input.)
func isTerminal(fd uintptr) bool {
	var t syscall.Termios
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TCGETS, uintptr(unsafe.Pointer(&t)))
	return errno == 0
}

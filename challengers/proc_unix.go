//go:build unix

package challengers

import (
	"errors"
	"syscall"
)

// signalGroup sends sig to every process in the group led by pgid.
func signalGroup(pgid int, sig syscall.Signal) error {
	if pgid <= 0 {
		return errors.New("no process group")
	}
	return syscall.Kill(-pgid, sig)
}

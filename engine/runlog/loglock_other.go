//go:build unix && !linux

package runlog

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// Where open file description locks are not to be had, the writer's lock
// is flock(2)'s, which also belongs to the open file and not the process;
// it does not say who holds it.

func lockFile(f *os.File) error {
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		if errors.Is(err, unix.EWOULDBLOCK) {
			return errLockHeld
		}
		return err
	}
	return nil
}

func lockHolder(f *os.File) (held bool, pid int, err error) {
	err = unix.Flock(int(f.Fd()), unix.LOCK_SH|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return true, 0, nil
	}
	if err != nil {
		return false, 0, err
	}
	return false, 0, unix.Flock(int(f.Fd()), unix.LOCK_UN)
}

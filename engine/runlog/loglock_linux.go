package runlog

import (
	"errors"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// The writer's lock on a log is an open file description lock (Linux's
// F_OFD_SETLK): unlike a POSIX record lock it belongs to the open file,
// not to the process, so no other open and close of the log in this
// process (a reader, a test) drops it, and it conflicts with another
// writer in this very process too. It goes when the writer closes the
// file or its process dies: a lock is never left behind.
//
// An open file description lock does not say which process holds it
// (F_OFD_GETLK reports pid -1), so the writer records its PID in the lock
// itself: besides the byte it locks to exclude other writers, it locks
// the byte at lockPIDBase+PID, far beyond any log's end. A reader asks for
// the first lock in that range and reads the PID off its offset.

const (
	lockByte    = 0
	lockPIDBase = 1 << 40
	lockPIDSpan = 1 << 32
)

func ofdLock(f *os.File, typ int16, start, n int64, cmd int) (unix.Flock_t, error) {
	lk := unix.Flock_t{Type: typ, Whence: io.SeekStart, Start: start, Len: n}
	err := unix.FcntlFlock(f.Fd(), cmd, &lk)
	return lk, err
}

// lockFile takes the writer's lock on f, which is open for writing. It
// returns errLockHeld when another writer holds it.
func lockFile(f *os.File) error {
	if _, err := ofdLock(f, unix.F_WRLCK, lockByte, 1, unix.F_OFD_SETLK); err != nil {
		if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EACCES) {
			return errLockHeld
		}
		return err
	}
	// The PID marker only names the holder; without it the lock still
	// excludes.
	_, _ = ofdLock(f, unix.F_WRLCK, lockPIDBase+int64(os.Getpid()), 1, unix.F_OFD_SETLK)
	return nil
}

// lockHolder says whether a writer holds the lock of the log open as f
// (for reading will do), and its PID when it recorded one (0 otherwise).
func lockHolder(f *os.File) (held bool, pid int, err error) {
	lk, err := ofdLock(f, unix.F_WRLCK, lockByte, 1, unix.F_OFD_GETLK)
	if err != nil || lk.Type == unix.F_UNLCK {
		return false, 0, err
	}
	lk, err = ofdLock(f, unix.F_WRLCK, lockPIDBase, lockPIDSpan, unix.F_OFD_GETLK)
	if err == nil && lk.Type != unix.F_UNLCK && lk.Start >= lockPIDBase {
		pid = int(lk.Start - lockPIDBase)
	}
	return true, pid, nil
}

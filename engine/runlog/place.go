package runlog

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/arenadebate/arena/challengers/trust"
)

// A log deleted while its run goes on (rm -rf debate-logs, or the .jsonl
// unlinked) used to be lost without a word: arena went on writing to the
// unlinked file, and at the end pointed at a path holding nothing (issue
// 29). After every flush the writer checks that the file at its path is
// still its own (the path's inode against the open file's, and the
// file's link count), and when it is not, writes the log again at its
// path (its directory made again if need be; beside it, name-2, if
// another file took the name meanwhile), every byte of it copied from the
// open file, and goes on writing there. Rewritten says where.

// inPlace says whether the file at the log's path is the one the writer
// has open. What cannot be told (a stat that fails for another reason
// than the file's absence) counts as in place.
func (l *Writer) inPlace() bool {
	var open, at unix.Stat_t
	if unix.Fstat(int(l.f.Fd()), &open) != nil {
		return true
	}
	if open.Nlink == 0 {
		return false
	}
	err := unix.Lstat(l.path, &at)
	if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
		return false
	}
	return err != nil || (at.Ino == open.Ino && at.Dev == open.Dev)
}

// stayInPlace writes the log again at its path when it has vanished from
// it; if that fails, writing stops with an error saying so, and Rescue
// saves the whole log elsewhere.
func (l *Writer) stayInPlace() {
	if l.inPlace() {
		return
	}
	if err := l.rewrite(); err != nil {
		l.err = fmt.Errorf("the log %s was deleted during the run and could not be written again: %w", l.path, err)
		if l.orphan == nil {
			l.orphan, _ = reopen(l.f)
		}
	}
}

// rewrite makes a new file at the log's path holding what the open file
// holds, and makes it the log.
func (l *Writer) rewrite() error {
	src, err := reopen(l.f)
	if err != nil {
		return err
	}
	defer src.Close()
	d, err := trust.OpenDir(filepath.Dir(l.path), true)
	if err != nil {
		return err
	}
	defer d.Close()
	f, path, err := d.CreateNew(filepath.Base(l.path))
	if err != nil {
		return err
	}
	if err := l.adopt(f, src); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	l.path = path
	l.rewritten = append(l.rewritten, path)
	return nil
}

// adopt copies the log's whole events from src into f, locks f and makes
// it the file the writer writes (the buffer is empty: this follows a
// flush).
func (l *Writer) adopt(f, src *os.File) error {
	if err := appendOnly(f); err != nil {
		return err
	}
	if err := lockFile(f); err != nil {
		return err
	}
	n, err := io.Copy(f, io.NewSectionReader(src, 0, l.size))
	if err == nil && n != l.size {
		err = fmt.Errorf("copied %d of its %d bytes", n, l.size)
	}
	if err != nil {
		return err
	}
	old := l.f
	l.f, l.out.f = f, f
	return old.Close()
}

// reopen opens the file f has open, to read it, even when it has no name
// left: through /proc/self/fd (Linux).
func reopen(f *os.File) (*os.File, error) {
	r, err := os.Open(fmt.Sprintf("/proc/self/fd/%d", f.Fd()))
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOENT) {
		return nil, errors.New("the file cannot be read back on this system")
	}
	return r, err
}

// Package runlog reads and writes a run's log: the JSON Lines file of its
// events (the event types are package engine's), with its writer's lock,
// the upgrade of logs an older arena wrote, and the summaries arena logs
// lists. One writer per log, each event a whole line, and a damaged line
// costs only itself.
package runlog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"time"

	"golang.org/x/sys/unix"

	"github.com/arenadebate/arena/challengers/trust"

	"github.com/arenadebate/arena/engine"
)

// The log is JSON Lines, one event a line, written as events happen. A
// process killed at any moment leaves a file whose complete lines replay:
// each event is one write of a whole line, the buffer is flushed at every
// event other than a chunk (agent finished, phase change, ...), and chunks
// are flushed at least every flushEvery.

const flushEvery = 500 * time.Millisecond

// ErrLocked says a log is being written by another arena.
var ErrLocked = errors.New("the log is being written by another arena")

// errLockHeld is what lockFile says when another writer holds the lock.
var errLockHeld = errors.New("lock held")

// LockedError names the process writing a log.
type LockedError struct {
	Path string
	PID  int // 0 when the holder is not known
}

func (e *LockedError) Error() string {
	who := "another arena"
	if e.PID > 0 {
		who = "another arena (process " + strconv.Itoa(e.PID) + ")"
	}
	return e.Path + " is being written by " + who + " right now"
}

func (e *LockedError) Unwrap() error { return ErrLocked }

// Create creates a new log file in dir (made 0700 if missing); the file
// is readable only by the user. It never opens an existing file: when
// name is taken (two debates of one topic started in the same
// millisecond) it takes the first free of name-2, name-3, ... (before the
// extension). Path says which it got. The file is opened to append and
// locked before anything is written.
//
// A directory Create makes gets a .gitignore of "*" (IgnoreFile), as
// pytest, uv and Python's venv do for theirs: a log holds the code and the
// models' replies, and ./debate-logs sat untracked in every work tree a
// debate ran in, one `git add .` from a commit (issue 32, point 2). A
// directory that was there already is the person's: nothing is added to it.
func Create(dir, name string) (*Writer, error) {
	_, err := os.Lstat(dir)
	made := errors.Is(err, fs.ErrNotExist)
	// The directory is often inside a repository: no link in it is
	// followed (trust.OpenDir), and what is made of it is 0700.
	d, err := trust.OpenDir(dir, true)
	if err != nil {
		return nil, fmt.Errorf("create log directory: %w", err)
	}
	defer d.Close()
	if made {
		if err := writeIgnore(d, dir); err != nil {
			return nil, err
		}
	}
	// O_EXCL makes taking a name atomic: of several processes trying one
	// name at once, exactly one gets it and the others move on.
	f, path, err := d.CreateNew(name)
	if err != nil {
		return nil, fmt.Errorf("create log: %w", err)
	}
	if err := appendOnly(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("create log: %s: %w", path, err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		if errors.Is(err, errLockHeld) {
			return nil, fmt.Errorf("create log: %w", &LockedError{Path: path})
		}
		return nil, fmt.Errorf("create log: lock %s: %w", path, err)
	}
	w := newWriter(f, path, false)
	w.dir, w.madeDir = dir, made
	return w, nil
}

// appendOnly makes every write to f land at its end (O_APPEND), whatever
// else writes the file: no write can overwrite another's.
func appendOnly(f *os.File) error {
	fl, err := unix.FcntlInt(f.Fd(), unix.F_GETFL, 0)
	if err != nil {
		return err
	}
	_, err = unix.FcntlInt(f.Fd(), unix.F_SETFL, fl|unix.O_APPEND)
	return err
}

// Name names a log by time, to the millisecond, and topic:
// 20261121-153000.042-should-we-move.jsonl. Names sort by time. With only
// the second in the name, two debates of one topic started together (a
// script, a CI matrix) asked for the same file and one of them failed;
// Create now also steps around the rare same-millisecond clash.
func Name(t time.Time, topic string) string {
	return t.Format("20060102-150405.000") + "-" + engine.Slug(topic, 40) + ".jsonl"
}

// Append opens an existing log to append to it (a resumed run, a
// follow-up question), taking its writer's lock first: a log another arena
// is writing is refused with a *LockedError naming that process. Nothing
// of the log is changed: a damaged line stays as it is, whole, and when
// the file's last line was cut short, what is appended starts on a line
// of its own. Only a regular file of the user's, not reached through a
// symbolic link, is opened.
func Append(path string) (*Writer, error) {
	f, err := trust.OpenAppend(path, false)
	if err != nil {
		return nil, fmt.Errorf("open log: %w", err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		if errors.Is(err, errLockHeld) {
			return nil, &LockedError{Path: path, PID: WriterPID(path)}
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	newline, err := endsUnfinished(path)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open log: %w", err)
	}
	return newWriter(f, path, newline), nil
}

// OpenError says the file at a path could not be opened to be read as a
// log (there is none, it is a FIFO or a device): Reopen found it so
// before anything opened it to write.
type OpenError struct{ Err error }

func (e *OpenError) Error() string { return e.Err.Error() }
func (e *OpenError) Unwrap() error { return e.Err }

// Reopen takes the writer's lock of the existing log at path, then reads
// it (a resumed run, a follow-up question): what is read is what anything
// written through the writer follows, as no other arena can write the log
// in between. A file that cannot be read as a log is refused with an
// *OpenError before anything opens it to write; a log another arena is
// writing with a *LockedError naming that process; a file without a
// single event with ErrNotALog.
func Reopen(path string) (*Writer, Contents, error) {
	var events []engine.Event
	w, lc, err := ReopenScan(path, func(e engine.Event, _ int64) { events = append(events, e) })
	lc.Events = events
	return w, lc, err
}

// ReopenScan is Reopen reading the log as ScanFileAt does: each event
// handed to fn with the offset of its line, none kept (a follow-up needs
// a transcript, a resumed run the replies as it reuses them: not every
// chunk of a 500 MB log at once).
func ReopenScan(path string, fn func(engine.Event, int64)) (*Writer, Contents, error) {
	var lc Contents
	f, err := trust.Open(path)
	if err != nil {
		return nil, lc, &OpenError{Err: err}
	}
	f.Close()
	w, err := Append(path)
	if err != nil {
		return nil, lc, err
	}
	lc, err = ScanFileAt(path, fn)
	switch {
	case err != nil:
		w.Close()
		return nil, lc, err
	case lc.Count == 0:
		w.Close()
		return nil, lc, fmt.Errorf("%w: the file is empty", ErrNotALog)
	}
	return w, lc, nil
}

// WriterPID is the process writing the log at path (0 when none is, or
// it is not known).
func WriterPID(path string) int {
	f, err := trust.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	_, pid, _ := lockHolder(f)
	return pid
}

// endsUnfinished says whether the file's last byte is not a newline.
func endsUnfinished(path string) (bool, error) {
	r, err := trust.Open(path)
	if err != nil {
		return false, err
	}
	defer r.Close()
	st, err := r.Stat()
	if err != nil || st.Size() == 0 {
		return false, err
	}
	var b [1]byte
	if _, err := r.ReadAt(b[:], st.Size()-1); err != nil {
		return false, err
	}
	return b[0] != '\n', nil
}

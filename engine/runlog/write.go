package runlog

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/arenadebate/arena/challengers/trust"

	"github.com/arenadebate/arena/engine"
)

// Writer is a Sink writing the event log. It holds the log's writer
// lock (loglock_*.go) from the moment it opens the file until Close: one
// writer per log, whoever else tries.
//
// Every write is whole or absent: a write that fails (a full disk, a
// file-size limit) is cut back to the log's last whole event, and what it
// held is kept for Rescue; the file is then as it was before the write,
// byte for byte (issue 29: arena label on a full disk left half a line,
// and every later label refused the log). After each flush the writer
// checks that the log is still at its path, and writes it again there if
// it is not (place.go).
type Writer struct {
	mu        sync.Mutex
	f         *os.File
	out       countingFile // what w writes to: the file, counted
	w         *bufio.Writer
	path      string
	err       error
	lastFlush time.Time
	// size is the file's length up to its last whole event: what a failed
	// write is cut back to.
	size int64
	// newline says the file does not end with one (its last line was cut
	// short): the first write starts a line of its own, so the damaged
	// line stays as it is, whole, and nothing is glued to it.
	newline bool
	// kept holds the events that could not be written after a write
	// failed (a full disk, say), so the debate is not lost.
	kept []engine.Event
	// pending are the events handed to w since its last successful flush,
	// with the length of their lines. A failed write may have written any
	// part of them: the file is cut back to the last whole line, and the
	// rest kept, so the buffer's contents do not vanish with it.
	pending []pendingLine
	// batch is the first pending line of a Write's events, which are
	// written all or none (-1 outside a Write).
	batch int
	// rewritten lists where the log was written again, having vanished
	// from its path during the run (place.go).
	rewritten []string
	// orphan reads the log's own file once it has vanished from its path
	// and could not be written again: what Rescue saves first.
	orphan *os.File
	// dir is the directory Create put the log in, and madeDir says it
	// made it (Discard removes it again when the log was all it held).
	dir     string
	madeDir bool
}

// pendingLine is an event handed to the buffer, and the length of its
// line.
type pendingLine struct {
	e engine.Event
	n int64
}

// countingFile counts what is written to f.
type countingFile struct {
	f *os.File
	n int64
}

func (c *countingFile) Write(p []byte) (int, error) {
	n, err := c.f.Write(p)
	c.n += int64(n)
	return n, err
}

func newWriter(f *os.File, path string, newline bool) *Writer {
	l := &Writer{f: f, path: path, lastFlush: time.Now(), newline: newline, batch: -1}
	if st, err := f.Stat(); err == nil {
		l.size = st.Size()
	}
	l.out.f = f
	l.w = bufio.NewWriterSize(&l.out, 64<<10)
	return l
}

// Path is the log file's path (where it was written again, if it vanished
// from its first one and that name was taken meanwhile).
func (l *Writer) Path() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.path
}

// Settle writes what is buffered, and returns where the log is now: at
// its path, or where it was written again once it vanished from there
// (place.go). What the outcome names as the run's log.
func (l *Writer) Settle() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil {
		l.flush()
	}
	return l.path
}

// Handle writes one event.
func (l *Writer) Handle(e engine.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		l.kept = append(l.kept, e)
		return
	}
	if !l.buffer(e) {
		return
	}
	if e.Kind() != engine.KindChunk || time.Since(l.lastFlush) >= flushEvery {
		l.flush()
	}
}

// Write appends events in one write, and returns its error: all of them
// are written or, on a failure, none, the file left as it was (a label and
// its note).
func (l *Writer) Write(events ...engine.Event) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil && len(l.pending) > 0 {
		l.flush()
	}
	if l.err != nil {
		l.kept = append(l.kept, events...)
		return l.err
	}
	l.batch = 0
	defer func() { l.batch = -1 }()
	for i, e := range events {
		if !l.buffer(e) {
			l.kept = append(l.kept, events[i+1:]...)
			return l.err
		}
	}
	l.flush()
	return l.err
}

// buffer hands e's line to the buffer, and reports whether that went
// well (a failure is recorded, and e kept).
func (l *Writer) buffer(e engine.Event) bool {
	line, err := trust.JSON(e)
	if err != nil {
		l.fail(fmt.Errorf("encode event %d: %w", e.Seq, err))
		l.kept = append(l.kept, e)
		return false
	}
	line = append(line, '\n')
	if l.newline {
		line = append([]byte{'\n'}, line...)
		l.newline = false
	}
	l.pending = append(l.pending, pendingLine{e: e, n: int64(len(line))})
	if _, err := l.w.Write(line); err != nil {
		l.fail(err)
		return false
	}
	return true
}

// flush writes what is buffered, then checks the log is still in place.
func (l *Writer) flush() {
	if err := l.w.Flush(); err != nil {
		l.fail(err)
		return
	}
	l.size += l.out.n
	l.out.n = 0
	// Zero the entries, not just the length: the backing array would
	// otherwise keep every chunk text alive (measured: +30 MiB peak under
	// a flood).
	clear(l.pending)
	l.pending = l.pending[:0]
	l.lastFlush = time.Now()
	l.stayInPlace()
}

// fail records the first error, cuts the file back to its last whole
// line (a Write's lines all go, unless all of them were written), and
// keeps every event that is not in the file.
func (l *Writer) fail(err error) {
	if pe := (*os.PathError)(nil); errors.As(err, &pe) {
		err = pe.Err // the path is said once, below
	}
	l.err = fmt.Errorf("write %s: %w", l.path, err)
	n, whole := 0, int64(0)
	for n < len(l.pending) && whole+l.pending[n].n <= l.out.n {
		whole += l.pending[n].n
		n++
	}
	if l.batch >= 0 && n < len(l.pending) {
		for ; n > l.batch; n-- {
			whole -= l.pending[n-1].n
		}
	}
	if whole != l.out.n {
		if terr := l.f.Truncate(l.size + whole); terr != nil {
			l.err = errors.Join(l.err, fmt.Errorf("cut %s back to its last whole event: %w", l.path, terr))
		}
	}
	l.size += whole
	l.out.n = 0
	for _, p := range l.pending[n:] {
		l.kept = append(l.kept, p.e)
	}
	l.pending = nil
}

// Err reports the first write error, if any.
func (l *Writer) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// Kept returns the events that could not be written after a failure.
func (l *Writer) Kept() []engine.Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]engine.Event(nil), l.kept...)
}

// Rewritten lists where the log was written again, every event in it,
// after it vanished from its path during the run (it was deleted, or its
// directory was): say so to the person, who may not expect it back.
func (l *Writer) Rewritten() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.rewritten...)
}

// Close flushes and closes the file.
func (l *Writer) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil {
		l.flush()
	}
	if l.err != nil && l.orphan == nil && !l.inPlace() {
		// Rescue still needs what the vanished file holds.
		l.orphan, _ = reopen(l.f)
	}
	return errors.Join(l.err, l.f.Close())
}

// Trouble is a write error in plain words: a full disk, a quota or a
// file-size limit named as such, the system's own words after it.
func Trouble(err error) error {
	switch {
	case errors.Is(err, syscall.ENOSPC):
		return &trouble{"the disk is full", err}
	case errors.Is(err, syscall.EDQUOT):
		return &trouble{"the disk quota is used up", err}
	case errors.Is(err, syscall.EFBIG):
		return &trouble{"the file reached the size limit", err}
	}
	return err
}

type trouble struct {
	words string
	err   error
}

func (t *trouble) Error() string { return t.words + " (" + t.err.Error() + ")" }
func (t *trouble) Unwrap() error { return t.err }

// Attach subscribes the log to bus, and after it the writer of the
// outcome document beside it (the log's name, .md, as the outcome names
// the log: where it is at the end); earlier are a resumed run's events
// before the resume (nil for a new run), whose document the run's final
// one replaces.
func (l *Writer) Attach(bus *engine.Bus, earlier []engine.Event) {
	bus.Subscribe(l)
	bus.Subscribe(&engine.DocumentWriter{Bus: bus, Earlier: earlier})
}

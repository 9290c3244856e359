// Package runlog reads and writes a run's log: the JSON Lines file of its
// events (the event types are package engine's), with its writer's lock,
// the upgrade of logs an older arena wrote, and the summaries arena logs
// lists. One writer per log, each event a whole line, and a damaged line
// costs only itself.
package runlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
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

// Writer is a Sink writing the event log. It holds the log's writer
// lock (loglock_*.go) from the moment it opens the file until Close: one
// writer per log, whoever else tries.
type Writer struct {
	mu        sync.Mutex
	f         *os.File
	w         *bufio.Writer
	path      string
	err       error
	lastFlush time.Time
	// newline says the file does not end with one (its last line was cut
	// short): the first write starts a line of its own, so the damaged
	// line stays as it is, whole, and nothing is glued to it.
	newline bool
	// kept holds the events that could not be written after a write
	// failed (a full disk, say), so the debate is not lost.
	kept []engine.Event
	// pending are the events handed to w since its last successful flush.
	// A failed flush may have written any part of them, so on a failure
	// they are kept too: the buffer's contents must not vanish with it.
	pending []engine.Event
	// dir is the directory Create put the log in, and madeDir says it
	// made it (Discard removes it again when the log was all it held).
	dir     string
	madeDir bool
}

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
		// O_EXCL: a .gitignore someone put there in the meantime stays.
		if f, err := d.Create(IgnoreFile, 0o600); err == nil {
			_, werr := f.WriteString(ignoreText)
			if err := errors.Join(werr, f.Close()); err != nil {
				return nil, fmt.Errorf("create log directory: %s: %w", filepath.Join(dir, IgnoreFile), err)
			}
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

// IgnoreFile is the .gitignore Create writes in a log directory it makes.
const IgnoreFile = ".gitignore"

// ignoreText ignores everything, itself included, so the directory never
// shows in git status.
const ignoreText = "# Written by arena when it made this directory: the logs hold your code\n" +
	"# and the models' replies, so git ignores all of them (this file too).\n*\n"

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

func newWriter(f *os.File, path string, newline bool) *Writer {
	return &Writer{f: f, w: bufio.NewWriterSize(f, 64<<10), path: path, lastFlush: time.Now(), newline: newline}
}

// Path is the log file's path.
func (l *Writer) Path() string { return l.path }

// Handle writes one event.
func (l *Writer) Handle(e engine.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		l.kept = append(l.kept, e)
		return
	}
	l.pending = append(l.pending, e)
	line, err := trust.JSON(e)
	if err != nil {
		l.fail(fmt.Errorf("encode event %d: %w", e.Seq, err))
		return
	}
	line = append(line, '\n')
	if l.newline {
		line = append([]byte{'\n'}, line...)
		l.newline = false
	}
	if _, err := l.w.Write(line); err != nil {
		l.fail(err)
		return
	}
	if e.Kind() != engine.KindChunk || time.Since(l.lastFlush) >= flushEvery {
		if err := l.w.Flush(); err != nil {
			l.fail(err)
			return
		}
		// Zero the entries, not just the length: the backing array
		// would otherwise keep every chunk text alive (measured: +30 MiB
		// peak under a flood).
		clear(l.pending)
		l.pending = l.pending[:0]
		l.lastFlush = time.Now()
	}
}

// fail records the first error and keeps every event that may not have
// reached the file: the pending ones, the current one last among them.
// Some of them may have been written whole before the error; the caller
// can tell by their sequence numbers.
func (l *Writer) fail(err error) {
	if pe := (*os.PathError)(nil); errors.As(err, &pe) {
		err = pe.Err // the path is said once, below
	}
	l.err = fmt.Errorf("write %s: %w", l.path, err)
	l.kept = append(l.kept, l.pending...)
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

// Close flushes and closes the file.
func (l *Writer) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil {
		if err := l.w.Flush(); err != nil {
			l.fail(err)
		}
	}
	return errors.Join(l.err, l.f.Close())
}

// Discard closes the log and removes it: a run that asked no model has
// nothing to replay or resume, and leaves nothing behind (issue 32,
// point 2: a debate that aborted because no CLI was installed left a log
// in the work tree). A directory Create made for it goes too, when the
// log and its .gitignore were all it held.
func (l *Writer) Discard() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.err = errors.New("discarded") // nothing more is written
	err := errors.Join(l.f.Close(), os.Remove(l.path))
	if l.madeDir && onlyIgnoreFile(l.dir) {
		_ = os.Remove(filepath.Join(l.dir, IgnoreFile))
		_ = os.Remove(l.dir) // fails, as it should, when anything came in meanwhile
	}
	return err
}

// onlyIgnoreFile says dir holds nothing but the .gitignore Create wrote.
func onlyIgnoreFile(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 1 || entries[0].Name() != IgnoreFile {
		return false
	}
	b, err := os.ReadFile(filepath.Join(dir, IgnoreFile))
	return err == nil && string(b) == ignoreText
}

// Name names a log by time, to the millisecond, and topic:
// 20261121-153000.042-should-we-move.jsonl. Names sort by time. With only
// the second in the name, two debates of one topic started together (a
// script, a CI matrix) asked for the same file and one of them failed;
// Create now also steps around the rare same-millisecond clash.
func Name(t time.Time, topic string) string {
	return t.Format("20060102-150405.000") + "-" + engine.Slug(topic, 40) + ".jsonl"
}

// MaxLine bounds one line of a log; a longer one is damage, skipped
// without being held in memory whole.
const MaxLine = 64 << 20

// Contents is what Read found.
type Contents struct {
	Events []engine.Event
	// Complete is true when the log ends with an Outcome event.
	Complete bool
	// Problem sums up what is wrong with the log ("" when nothing is),
	// naming the damaged lines: the first, and how many more.
	Problem string
	// Damage lists every line that could not be read as an event. Reading
	// goes on after each: what follows a damaged line is still read.
	Damage []LineDamage
	// Sequence lists the gaps and repeats in the events' sequence
	// numbers: events lost, or two writers on one log.
	Sequence []string
	// Lines is the number of lines read.
	Lines int
	// Skipped counts events of unknown kinds.
	Skipped int
	// Version is the format version the log was written in; older ones
	// are upgraded to LogVersion's events as they are read.
	Version int
	// LastSeq is the highest sequence number read.
	LastSeq int64
	// Writing says another arena is writing the log right now (it holds
	// the writer's lock), WriterPID which process when known (ReadFile
	// only).
	Writing   bool
	WriterPID int

	v1Defender string // the defender of a version 1 log, whose positions it records
	lastLine   int    // the line of the latest sequence number read
}

// LineDamage is one line of a log that is not an event.
type LineDamage struct {
	Line    int
	Problem string // "is cut short", "is longer than 64 MiB", "is not a valid event: ..."
}

func (d LineDamage) String() string { return lineProblem(d.Line, d.Problem) }

// Damaged says whether any line could not be read.
func (lc Contents) Damaged() bool { return len(lc.Damage) > 0 }

// DamagedEnd says whether the only damage is the last line, cut short: a
// writer stopped in the middle of it.
func (lc Contents) DamagedEnd() bool {
	return len(lc.Damage) == 1 && lc.Damage[0].Line == lc.Lines && lc.Damage[0].Problem == cutShort
}

const cutShort = "is cut short"

// ErrNotALog is returned for files that are not arena logs at all.
var ErrNotALog = errors.New("not an arena debate log")

// ErrNewerLog is returned for logs written by a newer arena.
var ErrNewerLog = errors.New("log written by a newer arena")

// Read reads every event a log holds. A damaged line (a killed
// arena's last line, a NUL byte, a line over MaxLine) is listed in
// Damage and reading goes on after it: damage anywhere costs only its own
// line. A file that does not start with a debate_started event, or whose
// version is newer than LogVersion, is refused with an error.
func Read(r io.Reader) (Contents, error) {
	br := bufio.NewReaderSize(r, 256<<10)
	var lc Contents
	for {
		line, state, err := readLine(br)
		if len(line) == 0 && state == lineWhole && err != nil {
			if !errors.Is(err, io.EOF) {
				lc.damage(lc.Lines+1, "cannot be read: "+err.Error())
			}
			break
		}
		lc.Lines++
		if state == lineTooLong {
			lc.damage(lc.Lines, fmt.Sprintf("is longer than %d MiB", MaxLine>>20))
			if ferr := lc.needStart(); ferr != nil {
				lc.sumUp()
				return lc, ferr
			}
		} else if len(bytes.TrimSpace(line)) > 0 {
			if ferr := lc.add(line, state == lineWhole); ferr != nil {
				lc.sumUp()
				return lc, ferr
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				lc.damage(lc.Lines+1, "cannot be read: "+err.Error())
			}
			break
		}
	}
	lc.sumUp()
	return lc, nil
}

func (lc *Contents) damage(line int, problem string) {
	lc.Damage = append(lc.Damage, LineDamage{Line: line, Problem: problem})
}

// sumUp words Problem from the damage found.
func (lc *Contents) sumUp() {
	switch n := len(lc.Damage); {
	case n == 0:
		lc.Problem = ""
	case n == 1:
		lc.Problem = lc.Damage[0].String()
	default:
		lc.Problem = fmt.Sprintf("%s, and %d more damaged lines", lc.Damage[0], n-1)
	}
}

// add decodes one line.
func (lc *Contents) add(line []byte, complete bool) error {
	events, derr := lc.decode(line)
	if derr != nil {
		problem := "is not a valid event: " + derr.Error()
		if !complete {
			// The last line without its newline: the writer was stopped
			// in the middle of it.
			problem = cutShort
		}
		lc.damage(lc.Lines, problem)
		return lc.needStart()
	}
	for i, e := range events {
		if len(lc.Events) == 0 && lc.Skipped == 0 {
			if err := checkStart(e); err != nil {
				return err
			}
		}
		if i == 0 {
			lc.sequence(e.Seq)
		}
		if _, unknown := e.Payload.(engine.Unknown); unknown {
			lc.Skipped++
			continue
		}
		lc.Events = append(lc.Events, e)
		if e.Kind() == engine.KindOutcome {
			lc.Complete = true
		}
	}
	return nil
}

// sequence checks a line's sequence number against the one before: each
// event's is one more than the last's. A version 1 line holds several
// events of one number; it is checked once.
func (lc *Contents) sequence(seq int64) {
	prev, prevLine := lc.LastSeq, lc.lastLine
	if seq > lc.LastSeq {
		lc.LastSeq = seq
	}
	lc.lastLine = lc.Lines
	if prevLine == 0 {
		return
	}
	switch {
	case seq == prev:
		lc.Sequence = append(lc.Sequence, fmt.Sprintf("line %d repeats event number %d (of line %d)", lc.Lines, seq, prevLine))
	case seq < prev:
		lc.Sequence = append(lc.Sequence, fmt.Sprintf("line %d goes back to event number %d after %d (line %d)", lc.Lines, seq, prev, prevLine))
	case seq > prev+1:
		missing := fmt.Sprintf("events %d to %d are", prev+1, seq-1)
		if seq == prev+2 {
			missing = fmt.Sprintf("event %d is", prev+1)
		}
		lc.Sequence = append(lc.Sequence, fmt.Sprintf("%s missing between lines %d and %d", missing, prevLine, lc.Lines))
	}
}

// decode reads one line as the events it holds, in the format version the
// log's first line declares (an older one is upgraded as it is read).
func (lc *Contents) decode(line []byte) ([]engine.Event, error) {
	var w engine.WireEvent
	if err := json.Unmarshal(line, &w); err != nil {
		return nil, err
	}
	if w.Type == "" {
		return nil, fmt.Errorf("event has no \"type\"")
	}
	if lc.Version == 0 && w.Type == engine.KindDebateStarted {
		var v struct {
			Version int `json:"version"`
		}
		_ = json.Unmarshal(w.Data, &v)
		lc.Version = v.Version
	}
	var ps []engine.Payload
	if lc.Version == 1 {
		var err error
		if ps, err = decodeV1(w); err != nil {
			return nil, err
		}
		for i, p := range ps {
			switch v := p.(type) {
			case engine.DebateStarted:
				if len(v.Seats) > 0 {
					lc.v1Defender = v.Seats[0].Name
				}
			case engine.PositionUpdated:
				v.Seat = lc.v1Defender // version 1's positions were the defender's
				ps[i] = v
			}
		}
	} else {
		p, err := engine.DecodePayload(w)
		if err != nil {
			return nil, err
		}
		ps = []engine.Payload{p}
	}
	events := make([]engine.Event, len(ps))
	for i, p := range ps {
		events[i] = engine.Event{Seq: w.Seq, Time: w.Time, Payload: p}
	}
	return events, nil
}

// needStart refuses a file whose first line is damaged: it cannot be
// told to be a log at all.
func (lc *Contents) needStart() error {
	if len(lc.Events) == 0 && lc.Skipped == 0 && len(lc.Damage) > 0 {
		return fmt.Errorf("%w: %s", ErrNotALog, lc.Damage[len(lc.Damage)-1])
	}
	return nil
}

func lineProblem(n int, what string) string {
	return fmt.Sprintf("line %d %s", n, what)
}

func checkStart(e engine.Event) error {
	ds, ok := e.Payload.(engine.DebateStarted)
	if !ok {
		return fmt.Errorf("%w: it starts with a %q event, not debate_started", ErrNotALog, e.Kind())
	}
	if ds.Version > engine.LogVersion {
		return fmt.Errorf("%w: format version %d, this arena reads up to version %d; upgrade arena to replay it", ErrNewerLog, ds.Version, engine.LogVersion)
	}
	if ds.Version < 1 || ds.Protocol == "" {
		return fmt.Errorf("%w: no format version", ErrNotALog)
	}
	return nil
}

// How readLine found a line.
const (
	lineWhole   = iota // ended by a newline (or nothing at the end)
	lineCut            // the last line, without its newline
	lineTooLong        // over MaxLine: read through to its newline, not kept
)

// readLine reads one line, without its newline. A line over MaxLine is
// read through to its end without being kept: memory stays bounded, and
// the next line is read as it should be.
func readLine(br *bufio.Reader) (line []byte, state int, err error) {
	for {
		frag, ferr := br.ReadSlice('\n')
		if state != lineTooLong {
			if len(line)+len(frag) > MaxLine+1 {
				state, line = lineTooLong, nil
			} else {
				line = append(line, frag...)
			}
		}
		if ferr == nil {
			if state == lineTooLong {
				return nil, state, nil
			}
			return line[:len(line)-1], lineWhole, nil
		}
		if errors.Is(ferr, bufio.ErrBufferFull) {
			continue
		}
		if state != lineTooLong && len(line) > 0 {
			state = lineCut
		}
		return line, state, ferr
	}
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
	lc, err = ReadFile(path)
	switch {
	case err != nil:
		w.Close()
		return nil, lc, err
	case len(lc.Events) == 0:
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

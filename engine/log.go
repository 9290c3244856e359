package engine

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/arenadebate/arena/engine/trust"
)

// The log is JSON Lines, one event a line, written as events happen. A
// process killed at any moment leaves a file whose complete lines replay:
// each event is one write of a whole line, the buffer is flushed at every
// event other than a chunk (agent finished, phase change, ...), and chunks
// are flushed at least every flushEvery.

const flushEvery = 500 * time.Millisecond

// LogWriter is a Sink writing the event log.
type LogWriter struct {
	mu        sync.Mutex
	f         *os.File
	w         *bufio.Writer
	path      string
	err       error
	lastFlush time.Time
	// kept holds the events that could not be written after a write
	// failed (a full disk, say), so the debate is not lost.
	kept []Event
	// pending are the events handed to w since its last successful flush.
	// A failed flush may have written any part of them, so on a failure
	// they are kept too: the buffer's contents must not vanish with it.
	pending []Event
}

// CreateLog creates a new log file in dir (made 0700 if missing); the file
// is readable only by the user. It never opens an existing file: when
// name is taken (two debates of one topic started in the same
// millisecond) it takes the first free of name-2, name-3, ... (before the
// extension). Path says which it got.
func CreateLog(dir, name string) (*LogWriter, error) {
	// The directory is often inside a repository: no link in it is
	// followed (trust.OpenDir), and what is made of it is 0700.
	d, err := trust.OpenDir(dir, true)
	if err != nil {
		return nil, fmt.Errorf("create log directory: %w", err)
	}
	defer d.Close()
	// O_EXCL makes taking a name atomic: of several processes trying one
	// name at once, exactly one gets it and the others move on.
	f, path, err := d.CreateNew(name)
	if err != nil {
		return nil, fmt.Errorf("create log: %w", err)
	}
	return &LogWriter{f: f, w: bufio.NewWriterSize(f, 64<<10), path: path, lastFlush: time.Now()}, nil
}

// Path is the log file's path.
func (l *LogWriter) Path() string { return l.path }

// Handle writes one event.
func (l *LogWriter) Handle(e Event) {
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
	if _, err := l.w.Write(line); err != nil {
		l.fail(err)
		return
	}
	if e.Kind() != KindChunk || time.Since(l.lastFlush) >= flushEvery {
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
func (l *LogWriter) fail(err error) {
	if pe := (*os.PathError)(nil); errors.As(err, &pe) {
		err = pe.Err // the path is said once, below
	}
	l.err = fmt.Errorf("write %s: %w", l.path, err)
	l.kept = append(l.kept, l.pending...)
	l.pending = nil
}

// Err reports the first write error, if any.
func (l *LogWriter) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// Kept returns the events that could not be written after a failure.
func (l *LogWriter) Kept() []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Event(nil), l.kept...)
}

// Close flushes and closes the file.
func (l *LogWriter) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil {
		if err := l.w.Flush(); err != nil {
			l.fail(err)
		}
	}
	return errors.Join(l.err, l.f.Close())
}

// LogName names a log by time, to the millisecond, and topic:
// 20261121-153000.042-should-we-move.jsonl. Names sort by time. With only
// the second in the name, two debates of one topic started together (a
// script, a CI matrix) asked for the same file and one of them failed;
// CreateLog now also steps around the rare same-millisecond clash.
func LogName(t time.Time, topic string) string {
	return t.Format("20060102-150405.000") + "-" + Slug(topic, 40) + ".jsonl"
}

// Slug is a file-name-safe summary of a topic.
func Slug(topic string, n int) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(topic) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if r > unicode.MaxASCII {
				continue
			}
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			if b.Len() >= n {
				break
			}
			continue
		}
		dash = true
	}
	if b.Len() == 0 {
		return "debate"
	}
	return b.String()
}

// MaxLogLine bounds one line of a log; a longer one is treated as damage.
const MaxLogLine = 64 << 20

// LogContents is what ReadLog found.
type LogContents struct {
	Events []Event
	// Complete is true when the log ends with an Outcome event.
	Complete bool
	// Problem says why reading stopped early ("" when the whole file was
	// read), naming the line.
	Problem string
	// Lines is the number of lines read (the line where reading stopped,
	// when there is a Problem).
	Lines int
	// Skipped counts events of unknown kinds.
	Skipped int
	// Version is the format version the log was written in; older ones
	// are upgraded to LogVersion's events as they are read.
	Version int

	v1Defender string // the defender of a version 1 log, whose positions it records
}

// ErrNotALog is returned for files that are not arena logs at all.
var ErrNotALog = errors.New("not an arena debate log")

// ErrNewerLog is returned for logs written by a newer arena.
var ErrNewerLog = errors.New("log written by a newer arena")

// ReadLog reads events until the end or the first damaged line. A log cut
// short (a killed arena, a full disk) yields everything up to its last
// complete line, with Problem saying where it ends. A file that does not
// start with a debate_started event, or whose version is newer than
// LogVersion, is refused with an error.
func ReadLog(r io.Reader) (LogContents, error) {
	br := bufio.NewReaderSize(r, 256<<10)
	var lc LogContents
	for {
		line, complete, err := readLine(br)
		if len(line) == 0 && err != nil {
			if !errors.Is(err, io.EOF) {
				lc.Problem = fmt.Sprintf("read error after line %d: %v", lc.Lines, err)
			}
			break
		}
		lc.Lines++
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if stop, ferr := lc.add(line, complete); ferr != nil {
			return lc, ferr
		} else if stop {
			break
		}
	}
	return lc, nil
}

// add decodes one line; stop says reading must end here.
func (lc *LogContents) add(line []byte, complete bool) (stop bool, err error) {
	if len(line) > MaxLogLine {
		lc.Problem = lineProblem(lc.Lines, fmt.Sprintf("is longer than %d MiB", MaxLogLine>>20))
		return true, lc.needStart()
	}
	events, derr := lc.decode(line)
	if derr != nil {
		lc.Problem = lineProblem(lc.Lines, "is not a valid event: "+derr.Error())
		if !complete {
			// The last line without its newline: the writer was stopped
			// in the middle of it.
			lc.Problem = lineProblem(lc.Lines, "is cut short")
		}
		return true, lc.needStart()
	}
	for _, e := range events {
		if len(lc.Events) == 0 {
			if err := checkStart(e); err != nil {
				return true, err
			}
		}
		if _, unknown := e.Payload.(Unknown); unknown {
			lc.Skipped++
			continue
		}
		lc.Events = append(lc.Events, e)
		if e.Kind() == KindOutcome {
			lc.Complete = true
		}
	}
	return false, nil
}

// decode reads one line as the events it holds, in the format version the
// log's first line declares (an older one is upgraded as it is read).
func (lc *LogContents) decode(line []byte) ([]Event, error) {
	var w wireEvent
	if err := json.Unmarshal(line, &w); err != nil {
		return nil, err
	}
	if w.Type == "" {
		return nil, fmt.Errorf("event has no \"type\"")
	}
	if lc.Version == 0 && w.Type == KindDebateStarted {
		var v struct {
			Version int `json:"version"`
		}
		_ = json.Unmarshal(w.Data, &v)
		lc.Version = v.Version
	}
	var ps []Payload
	if lc.Version == 1 {
		var err error
		if ps, err = decodeV1(w); err != nil {
			return nil, err
		}
		for i, p := range ps {
			switch v := p.(type) {
			case DebateStarted:
				if len(v.Seats) > 0 {
					lc.v1Defender = v.Seats[0].Name
				}
			case PositionUpdated:
				v.Seat = lc.v1Defender // version 1's positions were the defender's
				ps[i] = v
			}
		}
	} else {
		p, err := decodePayload(w)
		if err != nil {
			return nil, err
		}
		ps = []Payload{p}
	}
	events := make([]Event, len(ps))
	for i, p := range ps {
		events[i] = Event{Seq: w.Seq, Time: w.Time, Payload: p}
	}
	return events, nil
}

func (lc *LogContents) needStart() error {
	if len(lc.Events) == 0 {
		return fmt.Errorf("%w: %s", ErrNotALog, lc.Problem)
	}
	return nil
}

func lineProblem(n int, what string) string {
	return fmt.Sprintf("line %d %s", n, what)
}

func checkStart(e Event) error {
	ds, ok := e.Payload.(DebateStarted)
	if !ok {
		return fmt.Errorf("%w: it starts with a %q event, not debate_started", ErrNotALog, e.Kind())
	}
	if ds.Version > LogVersion {
		return fmt.Errorf("%w: format version %d, this arena reads up to version %d; upgrade arena to replay it", ErrNewerLog, ds.Version, LogVersion)
	}
	if ds.Version < 1 || ds.Protocol == "" {
		return fmt.Errorf("%w: no format version", ErrNotALog)
	}
	return nil
}

// readLine reads one line, without its newline. complete is false for a
// last line without a newline, or one over MaxLogLine (the rest of such a
// line is discarded).
func readLine(br *bufio.Reader) (line []byte, complete bool, err error) {
	for {
		frag, ferr := br.ReadSlice('\n')
		if len(line)+len(frag) > MaxLogLine {
			return append(line, frag[:min(len(frag), MaxLogLine+1-len(line))]...), false, nil
		}
		line = append(line, frag...)
		if ferr == nil {
			return line[:len(line)-1], true, nil
		}
		if !errors.Is(ferr, bufio.ErrBufferFull) {
			return line, false, ferr
		}
	}
}

// AppendLog opens an existing log to append a resumed run to it. When
// keep >= 0 the file is first cut to its first keep bytes: a log whose
// last line was cut short (a killed arena) would otherwise hold a broken
// line in its middle, and readers stop at the first one.
func AppendLog(path string, keep int64) (*LogWriter, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, fmt.Errorf("open log: %w", err)
	}
	if keep >= 0 {
		if err := f.Truncate(keep); err != nil {
			f.Close()
			return nil, fmt.Errorf("cut the log's damaged end: %w", err)
		}
	}
	return &LogWriter{f: f, w: bufio.NewWriterSize(f, 64<<10), path: path, lastFlush: time.Now()}, nil
}

// CompleteBytes is how many bytes of a log hold its first n lines, each
// with its newline: where to cut a log whose line n+1 is damaged.
func CompleteBytes(path string, n int) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 256<<10)
	var off int64
	for i := 0; i < n; i++ {
		line, err := br.ReadSlice('\n')
		for errors.Is(err, bufio.ErrBufferFull) {
			off += int64(len(line))
			line, err = br.ReadSlice('\n')
		}
		if err != nil {
			return 0, fmt.Errorf("line %d: %w", i+1, err)
		}
		off += int64(len(line))
	}
	return off, nil
}

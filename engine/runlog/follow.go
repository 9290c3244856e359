package runlog

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
)

// Following a log still being written (a run arena mcp started, or one in
// another terminal), as tail -f follows a file, until its outcome.

// followPoll is how often a log is checked for new lines; followDrain how
// long, after the outcome, the events that follow it (the saved outcome
// document) are waited for.
const (
	followPoll  = 200 * time.Millisecond
	followDrain = time.Second
)

// ReadSoFar reads the lines of a log written whole so far, and says where
// they end: a last line still being written is left for Follow to read
// whole. Only a regular file is read (a FIFO is refused, not waited on).
func ReadSoFar(path string) (Contents, int64, error) {
	var events []engine.Event
	lc, n, err := ScanSoFar(path, func(e engine.Event) { events = append(events, e) })
	lc.Events = events
	return lc, n, err
}

// ScanSoFar is ReadSoFar as Scan reads: each event handed to fn, none
// kept, the file never held whole.
func ScanSoFar(path string, fn func(engine.Event)) (Contents, int64, error) {
	fh, err := trust.Open(path)
	if err != nil {
		return Contents{}, 0, err
	}
	defer fh.Close()
	size, err := fh.Seek(0, io.SeekEnd)
	if err != nil {
		return Contents{}, 0, err
	}
	whole := int64(0) // up to the last newline
	for pos := size; pos > 0 && whole == 0; {
		n := min(tailBlock, pos)
		pos -= n
		buf := make([]byte, n)
		if _, err := fh.ReadAt(buf, pos); err != nil && !errors.Is(err, io.EOF) {
			return Contents{}, 0, err
		}
		if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
			whole = pos + int64(i) + 1
		}
	}
	if _, err := fh.Seek(0, io.SeekStart); err != nil {
		return Contents{}, 0, err
	}
	lc, err := Scan(io.LimitReader(fh, whole), fn)
	return lc, whole, err
}

// Follow hands sink every event written to the log after offset, until
// the outcome (and what follows it within followDrain) or ctx's end.
// ended says the outcome came; note is told when the writer stopped
// without one.
func Follow(ctx context.Context, path string, offset int64, sink engine.Sink, note func(string)) (ended bool, err error) {
	fh, err := trust.Open(path)
	if err != nil {
		return false, err
	}
	defer fh.Close()
	if _, err := fh.Seek(offset, io.SeekStart); err != nil {
		return false, err
	}
	t := tail{path: path, br: bufio.NewReaderSize(fh, 256<<10), at: offset, sink: sink}
	for {
		line, err := t.next()
		switch {
		case err == nil:
			if err := t.handle(line); err != nil {
				return t.ended, err
			}
			continue
		case !errors.Is(err, io.EOF):
			return t.ended, err
		}
		switch t.atEnd(note) {
		case followDone:
			return t.ended, nil
		case followReadAgain:
			continue
		}
		select {
		case <-ctx.Done():
			return t.ended, nil
		case <-time.After(followPoll):
		}
	}
}

// tail is a log being followed.
type tail struct {
	path    string
	br      *bufio.Reader
	partial []byte // a line read in part
	at      int64  // where the line being read starts
	sink    engine.Sink
	ended   bool
	// quietSince is when nothing more came after the outcome; gone says
	// the writer let go of the log.
	quietSince time.Time
	gone       bool
}

// next reads the next whole line; io.EOF at the end of what is written
// so far (a line in part is kept for the next call).
func (t *tail) next() ([]byte, error) {
	for {
		chunk, err := t.br.ReadSlice('\n')
		if len(t.partial)+len(chunk) > MaxLine {
			return nil, fmt.Errorf("%s: the line at byte %d is longer than %d MiB", t.path, t.at, MaxLine>>20)
		}
		t.partial = append(t.partial, chunk...)
		switch {
		case err == nil:
			line := t.partial
			t.partial = nil
			t.at += int64(len(line))
			t.quietSince = time.Time{}
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		}
		return nil, err
	}
}

// handle hands the event a line holds to the sink.
func (t *tail) handle(line []byte) error {
	if len(bytes.TrimSpace(line)) == 0 {
		return nil
	}
	var e engine.Event
	if err := json.Unmarshal(line, &e); err != nil {
		return fmt.Errorf("%s: the line at byte %d, written after the follow began, is not a valid event: %w", t.path, t.at-int64(len(line)), err)
	}
	if _, unknown := e.Payload.(engine.Unknown); unknown {
		return nil
	}
	t.sink.Handle(e)
	if e.Kind() == engine.KindOutcome {
		t.ended = true
	}
	return nil
}

// What a follow does at the end of what is written so far.
const (
	followWait      = iota // wait for more
	followReadAgain        // read once more at once
	followDone             // stop
)

// atEnd is called at the end of what is written so far, and says what to
// do next. The run's arena holds the log's writer lock until it has
// written its last event: once it lets go, what the file holds is all
// there will be (one more read takes what came just before).
func (t *tail) atEnd(note func(string)) int {
	switch {
	case t.gone:
		if !t.ended {
			note("the run writing the log stopped without an outcome: it was cut short (arena resume " + t.path + " carries it on)")
		}
		return followDone
	case writerGone(t.path):
		t.gone = true
		return followReadAgain
	case !t.ended:
		return followWait
	case t.quietSince.IsZero():
		t.quietSince = time.Now()
	case time.Since(t.quietSince) >= followDrain:
		return followDone
	}
	return followWait
}

// writerGone says no arena holds the log's writer lock any more. The lock
// names its holder on Linux only; elsewhere the follow ends at the outcome
// (or Ctrl+C).
func writerGone(path string) bool {
	return runtime.GOOS == "linux" && WriterPID(path) == 0
}

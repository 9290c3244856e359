package runlog

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/arenadebate/arena/challengers/trust"

	"github.com/arenadebate/arena/engine"
)

// Summary describes a saved debate, for `arena logs`.
type Summary struct {
	Path     string
	Started  time.Time
	Protocol string
	Topic    string
	Seats    []engine.Seat
	Result   engine.OutcomeKind // "" when the log has no outcome (cut short)
	Rounds   int
	Took     time.Duration // from the first event to the last
	Usage    engine.Usage  // over every call
	Problem  string        // why the log could not be read, or which lines are damaged
	// Sequence lists gaps and repeats in the events' sequence numbers.
	Sequence []string
	// Contradiction says which events contradict the run and were
	// ignored ("" when none: Contents.Contradiction).
	Contradiction string
	// Writing says an arena is writing the log now (the run is going on),
	// WriterPID which process when known.
	Writing   bool
	WriterPID int
}

// Agents lists the agents holding seats, once each, in seat order.
func (s Summary) Agents() []string {
	var out []string
	for _, st := range s.Seats {
		if !slices.Contains(out, st.Agent) {
			out = append(out, st.Agent)
		}
	}
	return out
}

// ReadFile reads a log from a file, and says whether another arena is
// writing it now. Only a regular file is read (a FIFO or a device is
// refused by name, before any read: trust.Open), each line bounded by
// MaxLine.
func ReadFile(path string) (Contents, error) {
	var events []engine.Event
	lc, err := ScanFile(path, func(e engine.Event) { events = append(events, e) })
	lc.Events = events
	return lc, err
}

// ScanFile is ReadFile as Scan reads: each event handed to fn, none kept.
func ScanFile(path string, fn func(engine.Event)) (Contents, error) {
	return ScanFileAt(path, func(e engine.Event, _ int64) { fn(e) })
}

// ScanFileAt is ReadFile as ScanAt reads: each event handed to fn with the
// offset of its line, none kept.
func ScanFileAt(path string, fn func(engine.Event, int64)) (Contents, error) {
	f, err := trust.Open(path)
	if err != nil {
		return Contents{}, err
	}
	defer f.Close()
	held, pid, _ := lockHolder(f)
	lc, err := ScanAt(f, fn)
	lc.Writing, lc.WriterPID = held, pid
	return lc, err
}

// EventAt reads again the events of the line at offset off of the log at
// path (ScanFileAt's offsets), as a log of format version reads them.
func EventAt(path string, version int, off int64) ([]engine.Event, error) {
	f, err := trust.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return nil, err
	}
	line, state, _, err := readLine(bufio.NewReaderSize(f, 64<<10))
	if state == lineTooLong || (err != nil && !errors.Is(err, io.EOF)) {
		return nil, fmt.Errorf("line at %d of %s: %w", off, path, ErrNotALog)
	}
	lc := Contents{Version: version}
	return lc.decode(line)
}

// Summarize reads the essentials of one log, the whole of it as a
// stream: memory holds one line at a time.
func Summarize(path string) Summary {
	s := Summary{Path: path}
	var first, last time.Time
	lc, err := ScanFile(path, func(e engine.Event) {
		if first.IsZero() {
			first = e.Time
		}
		last = e.Time
		switch p := e.Payload.(type) {
		case engine.DebateStarted:
			s.Started, s.Protocol, s.Topic, s.Seats = e.Time, p.Protocol, p.Topic, p.Seats
		case engine.AgentFinished:
			if !p.Reused { // a resumed run's copy of a reply counted already
				s.Usage.Add(p.Usage)
			}
		case engine.PhaseStarted:
			s.Rounds = max(s.Rounds, p.Round)
		case engine.Outcome:
			s.Result, s.Rounds = p.Result, p.Rounds
		case engine.Resumed:
			s.Result = "" // the resumed run has no outcome yet
		}
	})
	if err != nil {
		s = Summary{Path: path, Problem: openProblem(err)}
		return s
	}
	s.Problem, s.Sequence, s.Writing, s.WriterPID = lc.Problem, lc.Sequence, lc.Writing, lc.WriterPID
	s.Contradiction = lc.Contradiction()
	if lc.Count > 0 {
		s.Took = last.Sub(first)
	}
	return s
}

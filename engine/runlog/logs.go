package runlog

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
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
	f, err := trust.Open(path)
	if err != nil {
		return Contents{}, err
	}
	defer f.Close()
	held, pid, _ := lockHolder(f)
	lc, err := Scan(f, fn)
	lc.Writing, lc.WriterPID = held, pid
	return lc, err
}

// Summarize reads the essentials of one log.
func Summarize(path string) Summary {
	s := Summary{Path: path}
	lc, err := ReadFile(path)
	if err != nil {
		s.Problem = err.Error()
		var ie *trust.InputError
		if errors.As(err, &ie) {
			s.Problem = ie.Problem // the path is in the listing already
		}
		return s
	}
	s.Problem, s.Sequence, s.Writing, s.WriterPID = lc.Problem, lc.Sequence, lc.Writing, lc.WriterPID
	s.Contradiction = lc.Contradiction()
	for _, e := range lc.Events {
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
		}
	}
	if n := len(lc.Events); n > 0 {
		s.Took = lc.Events[n-1].Time.Sub(lc.Events[0].Time)
	}
	return s
}

// List summarises every log in dir, newest first. A missing directory
// is an empty list.
func List(dir string) ([]Summary, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Summary
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		out = append(out, Summarize(filepath.Join(dir, e.Name())))
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Started.Equal(out[j].Started) {
			return out[i].Started.After(out[j].Started)
		}
		return out[i].Path > out[j].Path
	})
	return out, nil
}

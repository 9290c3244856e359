package engine

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
)

// LogSummary describes a saved debate, for `arena logs`.
type LogSummary struct {
	Path     string
	Started  time.Time
	Protocol string
	Topic    string
	Seats    []Seat
	Result   OutcomeKind // "" when the log has no outcome (cut short)
	Rounds   int
	Took     time.Duration // from the first event to the last
	Usage    Usage         // over every call
	Problem  string        // why the log could not be read, or which lines are damaged
	// Sequence lists gaps and repeats in the events' sequence numbers.
	Sequence []string
	// Writing says an arena is writing the log now (the run is going on),
	// WriterPID which process when known.
	Writing   bool
	WriterPID int
}

// Agents lists the agents holding seats, once each, in seat order.
func (s LogSummary) Agents() []string {
	var out []string
	for _, st := range s.Seats {
		if !slices.Contains(out, st.Agent) {
			out = append(out, st.Agent)
		}
	}
	return out
}

// ReadLogFile reads a log from a file, and says whether another arena is
// writing it now. Only a regular file is read (a FIFO or a device is
// refused by name, before any read: trust.Open), each line bounded by
// MaxLogLine.
func ReadLogFile(path string) (LogContents, error) {
	f, err := trust.Open(path)
	if err != nil {
		return LogContents{}, err
	}
	defer f.Close()
	held, pid, _ := lockHolder(f)
	lc, err := ReadLog(f)
	lc.Writing, lc.WriterPID = held, pid
	return lc, err
}

// Summarize reads the essentials of one log.
func Summarize(path string) LogSummary {
	s := LogSummary{Path: path}
	lc, err := ReadLogFile(path)
	if err != nil {
		s.Problem = err.Error()
		var ie *trust.InputError
		if errors.As(err, &ie) {
			s.Problem = ie.Problem // the path is in the listing already
		}
		return s
	}
	s.Problem, s.Sequence, s.Writing, s.WriterPID = lc.Problem, lc.Sequence, lc.Writing, lc.WriterPID
	for _, e := range lc.Events {
		switch p := e.Payload.(type) {
		case DebateStarted:
			s.Started, s.Protocol, s.Topic, s.Seats = e.Time, p.Protocol, p.Topic, p.Seats
		case AgentFinished:
			if !p.Reused { // a resumed run's copy of a reply counted already
				s.Usage.Add(p.Usage)
			}
		case PhaseStarted:
			s.Rounds = max(s.Rounds, p.Round)
		case Outcome:
			s.Result, s.Rounds = p.Result, p.Rounds
		}
	}
	if n := len(lc.Events); n > 0 {
		s.Took = lc.Events[n-1].Time.Sub(lc.Events[0].Time)
	}
	return s
}

// ListLogs summarises every log in dir, newest first. A missing directory
// is an empty list.
func ListLogs(dir string) ([]LogSummary, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []LogSummary
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

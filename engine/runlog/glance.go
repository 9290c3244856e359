package runlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"time"

	"github.com/arenadebate/arena/challengers/trust"

	"github.com/arenadebate/arena/engine"
)

// Glance summarises a log from its first line (the run's start) and its
// end, read backward to the run's outcome: over the events arena adds
// after an outcome (saved documents, labels, notes, a follow-up and its
// call), and no further than the first event of the run itself, which
// says it has no outcome after it. Memory holds one block of the file and
// the line in hand, however long the log. Usage is left zero; Problem
// names only what the first line and the end show.
func Glance(path string) Summary {
	s := Summary{Path: path}
	f, err := trust.Open(path)
	if err != nil {
		s.Problem = openProblem(err)
		return s
	}
	defer f.Close()
	s.Writing, s.WriterPID, _ = lockHolder(f)
	lc, headLen, err := readHead(f)
	if err != nil {
		s.Problem = err.Error()
		return s
	}
	st, _ := lc.Start.Payload.(engine.DebateStarted)
	s.Started, s.Protocol, s.Topic, s.Seats = lc.Start.Time, st.Protocol, st.Topic, st.Seats
	s.Problem, s.Sequence = lc.Problem, lc.Sequence
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return s
	}
	t := logEnd{lc: &lc}
	_ = eachLineBackward(f, headLen, size, t.line)
	if t.problem != "" && s.Problem == "" {
		s.Problem = t.problem
	}
	s.Result, s.Rounds = t.result, t.rounds
	if !t.last.IsZero() {
		s.Took = t.last.Sub(s.Started)
	}
	return s
}

// openProblem words why a log could not be opened, without its path
// (the listing shows it).
func openProblem(err error) string {
	var ie *trust.InputError
	if errors.As(err, &ie) {
		return ie.Problem
	}
	return err.Error()
}

// readHead reads the first line as a log's first event, and returns what
// the reader made of it and the line's length with its newline.
func readHead(f *os.File) (Contents, int64, error) {
	line, state, n, err := readLine(bufio.NewReaderSize(f, 64<<10))
	if state == lineTooLong || (err != nil && !errors.Is(err, io.EOF)) {
		return Contents{}, 0, ErrNotALog
	}
	lc, err := Scan(bytes.NewReader(line), func(engine.Event) {})
	if err == nil && lc.Count == 0 {
		err = ErrNotALog
	}
	return lc, n, err
}

// logEnd follows a log backward from its end to its run's outcome.
type logEnd struct {
	lc      *Contents // the head's: how the log's version reads a line
	seen    int       // lines read so far
	last    time.Time // the time of the last event
	result  engine.OutcomeKind
	rounds  int
	problem string
}

// wireHead is what tells an event's kind and place without its payload.
type wireHead struct {
	Time time.Time   `json:"t"`
	Type engine.Kind `json:"type"`
	Data struct {
		Phase engine.Phase `json:"phase"`
		Round int          `json:"round"`
	} `json:"data"`
}

// line takes the next line back, and says whether to go on.
func (t *logEnd) line(line []byte) bool {
	t.seen++
	var w wireHead
	if err := json.Unmarshal(line, &w); err != nil {
		if t.seen == 1 {
			t.problem = "its last line " + cutShort
		}
		return true
	}
	if t.last.IsZero() {
		t.last = w.Time
	}
	switch w.Type {
	case engine.KindOutcome:
		events, err := t.lc.decode(line)
		if err == nil && len(events) > 0 {
			if o, ok := events[0].Payload.(engine.Outcome); ok {
				t.result, t.rounds = o.Result, o.Rounds
			}
		}
		return false
	case engine.KindSaved, engine.KindLabel, engine.KindNote, engine.KindFollowUp, engine.KindModeratorNote, engine.KindBudget, engine.KindChunk:
		return true
	case engine.KindAgentStarted, engine.KindAgentFinished, engine.KindAgentFailed:
		if w.Data.Phase == engine.PhaseFollowUp {
			return true
		}
	}
	// An event of the run itself: the run has no outcome after it.
	t.rounds = max(t.rounds, w.Data.Round)
	return false
}

// tailBlock is how much of the file a backward read takes at a time.
const tailBlock = 256 << 10

// eachLineBackward hands fn the lines of f between from and size, the
// last first, until fn says to stop. A line longer than MaxLine ends the
// reading.
func eachLineBackward(f *os.File, from, size int64, fn func(line []byte) bool) error {
	var carry []byte // the end of a line whose start is further back
	for pos := size; pos > from; {
		n := min(tailBlock, pos-from)
		pos -= n
		data := make([]byte, n, n+int64(len(carry)))
		if _, err := f.ReadAt(data, pos); err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		data = append(data, carry...)
		j := len(data)
		for {
			i := bytes.LastIndexByte(data[:j], '\n')
			if i < 0 {
				break
			}
			if line := data[i+1 : j]; len(bytes.TrimSpace(line)) > 0 && !fn(line) {
				return nil
			}
			j = i
		}
		if j > MaxLine {
			return errors.New("a line longer than the limit")
		}
		carry = data[:j]
	}
	if len(bytes.TrimSpace(carry)) > 0 {
		fn(carry)
	}
	return nil
}

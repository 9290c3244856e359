package runlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/arenadebate/arena/engine"
)

// MaxLine bounds one line of a log; a longer one is damage, skipped
// without being held in memory whole.
const MaxLine = 64 << 20

// Contents is what Read (or Scan) found.
type Contents struct {
	// Events are the events read, the ones that contradict the run
	// (Contradictions) left out. Scan keeps none: it hands them over.
	Events []engine.Event
	// Count is how many events were read (and handed over, by Scan).
	Count int
	// Start is the run's start: the first event.
	Start engine.Event
	// Complete is true when the log ends with an Outcome event.
	Complete bool
	// Problem sums up what is wrong with the log ("" when nothing is),
	// naming the damaged lines: the first, and how many more.
	Problem string
	// Damage lists the lines that could not be read as events, the first
	// maxListed of them (DamagedLines counts them all). Reading goes on
	// after each: what follows a damaged line is still read.
	Damage       []LineDamage
	DamagedLines int
	// Sequence lists the gaps and repeats in the events' sequence
	// numbers: events lost, or two writers on one log.
	Sequence []string
	// Contradictions lists the events that contradict the run the log
	// records, each left out: a second start, a second outcome (but for
	// one after a resumed run), events after the outcome other than the
	// ones arena adds to a finished run (the documents saved, labels,
	// notes, follow-up questions and their calls, a resumed run).
	Contradictions []string
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
	run        runState
	emit       func(engine.Event, int64)
	offset     int64 // where the line being read starts
	breaks     int   // sequence breaks past maxListed
	ignored    int   // contradictions past maxListed
}

// maxKeptBuffer bounds the line buffer Scan keeps from one line to the
// next: a longer line's memory goes back to the collector.
const maxKeptBuffer = 4 << 20

// maxListed bounds each list of problems a read keeps: a hostile log of
// a million damaged lines costs a count, not a million entries.
const maxListed = 1000

// LineDamage is one line of a log that is not an event.
type LineDamage struct {
	Line    int
	Problem string // "is cut short", "is longer than 64 MiB", "is not a valid event: ..."
}

func (d LineDamage) String() string { return lineProblem(d.Line, d.Problem) }

// Damaged says whether any line could not be read.
func (lc Contents) Damaged() bool { return lc.DamagedLines > 0 }

// DamagedEnd says whether the only damage is the last line, cut short: a
// writer stopped in the middle of it.
func (lc Contents) DamagedEnd() bool {
	return lc.DamagedLines == 1 && lc.Damage[0].Line == lc.Lines && lc.Damage[0].Problem == cutShort
}

// Contradiction sums up the events left out as contradicting the run, in
// a sentence ("" when there are none).
func (lc Contents) Contradiction() string {
	n := len(lc.Contradictions) + lc.ignored
	switch {
	case n == 0:
		return ""
	case n == 1:
		return "the log contradicts itself: " + lc.Contradictions[0] + "; that event was ignored"
	}
	return fmt.Sprintf("the log contradicts itself: %s, and %d more events contradict the run; they were ignored", lc.Contradictions[0], n-1)
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
// version is newer than LogVersion, is refused with an error. The events
// that contradict the run its first line starts are left out, and named
// in Contradictions.
func Read(r io.Reader) (Contents, error) {
	var events []engine.Event
	lc, err := Scan(r, func(e engine.Event) { events = append(events, e) })
	lc.Events = events
	return lc, err
}

// Scan reads a log as Read does, but hands each event to fn as it is read
// and keeps none of them: memory holds one line at a time however long
// the log is (a line is bounded by MaxLine). The Contents it returns are
// Read's without Events.
func Scan(r io.Reader, fn func(engine.Event)) (Contents, error) {
	return ScanAt(r, func(e engine.Event, _ int64) { fn(e) })
}

// ScanAt is Scan, handing fn with each event the offset of its line, for
// EventAt to read it again.
func ScanAt(r io.Reader, fn func(engine.Event, int64)) (Contents, error) {
	br := bufio.NewReaderSize(r, 256<<10)
	lc := Contents{emit: fn}
	defer func() { lc.emit = nil }()
	var buf []byte // each line is done with before the next: json copies what it keeps
	for {
		line, state, n, err := readLineInto(br, buf)
		if cap(line) <= maxKeptBuffer {
			buf = line[:0]
		}
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
		lc.offset += n
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
	lc.DamagedLines++
	if len(lc.Damage) < maxListed {
		lc.Damage = append(lc.Damage, LineDamage{Line: line, Problem: problem})
	}
}

// sumUp words Problem from the damage found, and closes the lists.
func (lc *Contents) sumUp() {
	switch n := lc.DamagedLines; {
	case n == 0:
		lc.Problem = ""
	case n == 1:
		lc.Problem = lc.Damage[0].String()
	default:
		lc.Problem = fmt.Sprintf("%s, and %d more damaged lines", lc.Damage[0], n-1)
	}
	if lc.breaks > 0 {
		lc.Sequence = append(lc.Sequence, fmt.Sprintf("and %d more breaks in the event numbers", lc.breaks))
		lc.breaks = 0
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
		if lc.Count == 0 && lc.Skipped == 0 {
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
		if why := lc.run.contradiction(e, lc.Lines); why != "" {
			lc.contradicts(why)
			continue
		}
		if lc.Count == 0 {
			lc.Start = e
		}
		lc.Count++
		if lc.emit != nil {
			lc.emit(e, lc.offset)
		}
		if e.Kind() == engine.KindOutcome {
			lc.Complete = true
		}
	}
	return nil
}

func (lc *Contents) contradicts(why string) {
	if len(lc.Contradictions) < maxListed {
		lc.Contradictions = append(lc.Contradictions, why)
	} else {
		lc.ignored++
	}
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
	if len(lc.Sequence) >= maxListed && seq != prev+1 {
		lc.breaks++
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
	if lc.Count == 0 && lc.Skipped == 0 && len(lc.Damage) > 0 {
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

// readLine reads one line, without its newline, and says how many bytes
// it took of the input. A line over MaxLine is read through to its end
// without being kept: memory stays bounded, and the next line is read as
// it should be.
func readLine(br *bufio.Reader) (line []byte, state int, n int64, err error) {
	return readLineInto(br, nil)
}

// readLineInto is readLine building the line in buf's memory: a reader
// that is done with each line before the next saves an allocation a line
// (a quarter of what reading a long log allocated).
func readLineInto(br *bufio.Reader, buf []byte) (line []byte, state int, n int64, err error) {
	line = buf[:0]
	for {
		frag, ferr := br.ReadSlice('\n')
		n += int64(len(frag))
		if state != lineTooLong {
			if len(line)+len(frag) > MaxLine+1 {
				state, line = lineTooLong, nil
			} else {
				line = append(line, frag...)
			}
		}
		if ferr == nil {
			if state == lineTooLong {
				return nil, state, n, nil
			}
			return line[:len(line)-1], lineWhole, n, nil
		}
		if errors.Is(ferr, bufio.ErrBufferFull) {
			continue
		}
		if state != lineTooLong && len(line) > 0 {
			state = lineCut
		}
		return line, state, n, ferr
	}
}

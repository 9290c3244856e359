package runlog

import (
	"fmt"

	"github.com/arenadebate/arena/engine"
)

// A log records one run: one start, then the run's events, its outcome,
// and after the outcome only what arena adds to a finished run (the
// documents saved, labels, notes, follow-up questions and their calls),
// or a resumed run, which carries on to an outcome of its own. An event
// that contradicts this (issue 29: a second start claiming another
// protocol, a second outcome, which arena logs showed instead of the
// first) is left out by the reader and named, and the run is the one the
// first start began.

// runState follows the run a log records, line by line.
type runState struct {
	startLine   int  // the line of the run's start (0 before it)
	outcomeLine int  // the line of the outcome that ended the run (0 while it runs)
	asking      bool // a follow-up's call is streaming, after the outcome
}

// contradiction says how e, read on line, contradicts the run so far, or
// "" when it does not; an event that does not is taken into the state.
func (s *runState) contradiction(e engine.Event, line int) string {
	switch p := e.Payload.(type) {
	case engine.DebateStarted:
		if s.startLine == 0 {
			s.startLine = line
			return ""
		}
		return fmt.Sprintf("line %d starts another run (a %s run, %q) after the one started on line %d",
			line, engine.OrDash(p.Protocol), engine.OneLine(p.Topic, 60), s.startLine)
	case engine.Resumed:
		s.outcomeLine, s.asking = 0, false
		return ""
	case engine.Outcome:
		if s.outcomeLine == 0 {
			s.outcomeLine = line
			return ""
		}
		return fmt.Sprintf("line %d is a second outcome (%s) after the run's outcome on line %d", line, engine.OrDash(string(p.Result)), s.outcomeLine)
	}
	if s.outcomeLine == 0 || s.appendix(e) {
		return ""
	}
	return fmt.Sprintf("line %d (a %s event) comes after the run's outcome on line %d", line, e.Kind(), s.outcomeLine)
}

// appendix says whether e is something arena adds to a finished run, and
// follows a follow-up's call.
func (s *runState) appendix(e engine.Event) bool {
	switch p := e.Payload.(type) {
	case engine.Saved, engine.Label, engine.Note, engine.FollowUp, engine.ModeratorNote, engine.BudgetUsed:
		return true
	case engine.Chunk:
		return s.asking
	case engine.AgentStarted:
		s.asking = p.Phase == engine.PhaseFollowUp
		return s.asking
	case engine.AgentFinished:
		s.asking = false
		return p.Phase == engine.PhaseFollowUp
	case engine.AgentFailed:
		s.asking = false
		return p.Phase == engine.PhaseFollowUp
	}
	return false
}

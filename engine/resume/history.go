package resume

import (
	"fmt"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
)

// History is what a resumed run needs of its log, gathered as the log is
// read (runlog.ReopenScan) instead of the log held whole (issue 29: a
// 500 MB log cost as much memory again): the run's start, its calls
// without their text (the budget counts them), the moderator's notes, the
// Resumed events, where the run stopped, how its last part ended, and its
// replies, each held as where it is in the log and read back from there
// when it is reused.
type History struct {
	path    string
	version int
	// Events are the start, the calls without their text and the
	// moderator's notes.
	Events []engine.Event
	// Resumes are the log's Resumed events.
	Resumes []engine.Event
	// Outcome is the outcome of the log's last part (nil when it has
	// none: cut short, or resumed since).
	Outcome *engine.Outcome
	// Document are the outcome and saved events of the log: what tells
	// the outcome document saved before the resume, which the resumed
	// run's final one replaces (engine.DocumentWriter's Earlier).
	Document []engine.Event
	cache    *engine.ReplayCache
	stopped  *engine.PhaseStarted // the last phase the run was in
}

// NewHistory is an empty history of the log at path, for Add.
func NewHistory(path string) *History {
	return &History{path: path, cache: engine.EmptyReplayCache()}
}

// Add takes the log's next event, whose line is at off.
func (h *History) Add(e engine.Event, off int64) {
	switch p := e.Payload.(type) {
	case engine.DebateStarted:
		h.version = p.Version
		h.Events = append(h.Events, e)
	case engine.AgentStarted, engine.AgentFailed, engine.ModeratorNote:
		h.Events = append(h.Events, e)
		h.cache.Add(e, nil) // a call's prompt hash, for the reply that follows
	case engine.AgentFinished:
		h.cache.Add(e, h.loader(off))
		h.Events = append(h.Events, engine.Event{Seq: e.Seq, Time: e.Time, Payload: engine.AgentFinished{
			CallInfo: p.CallInfo, Unparseable: p.Unparseable, Usage: p.Usage, Duration: p.Duration, Reused: p.Reused,
		}})
	case engine.PhaseStarted:
		if p.Phase != engine.PhaseOutcome { // an interrupted run's outcome phase is only its way out
			h.stopped = &p
		}
	case engine.Outcome:
		h.Outcome = &p
		h.Document = append(h.Document, e)
	case engine.Saved:
		h.Document = append(h.Document, e)
	case engine.Resumed:
		h.Outcome = nil
		h.Resumes = append(h.Resumes, e)
	}
}

// loader reads the reply on the line at off back from the log.
func (h *History) loader(off int64) func() (engine.AgentFinished, error) {
	return func() (engine.AgentFinished, error) {
		events, err := runlog.EventAt(h.path, h.version, off)
		if err != nil {
			return engine.AgentFinished{}, err
		}
		for _, e := range events {
			if f, ok := e.Payload.(engine.AgentFinished); ok {
				return f, nil
			}
		}
		return engine.AgentFinished{}, fmt.Errorf("%s: no reply at offset %d", h.path, off)
	}
}

// Start is the run's start.
func (h *History) Start() engine.DebateStarted {
	if len(h.Events) == 0 {
		return engine.DebateStarted{}
	}
	st, _ := h.Events[0].Payload.(engine.DebateStarted)
	return st
}

// Resume is what the resumed run of a log read into h starts from (lc:
// what the reader said of the log; changed: the settings it runs with
// differently; swap: the seats' new agents), and the sequence number its
// events continue after.
func (h *History) Resume(lc runlog.Contents, changed []engine.Setting, swap map[string]challengers.Agent) (*engine.Resume, int64) {
	ev := engine.Resumed{From: "the start"}
	if ps := h.stopped; ps != nil {
		ev.From, ev.Phase, ev.Round = ps.Title, ps.Phase, ps.Round
	}
	ev.After, ev.Reusable, ev.Settings, ev.Problem = lc.LastSeq, h.cache.Len(), changed, lc.Problem
	return &engine.Resume{Events: h.Events, Event: ev, Swap: swap, Cache: h.cache}, lc.LastSeq
}

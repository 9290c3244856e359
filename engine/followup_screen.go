package engine

import (
	"context"
	"slices"
	"sync"

	"github.com/arenadebate/arena/challengers"
)

// ScreenFollowUps asks the follow-ups typed on the live screen (f), one
// at a time, after the outcome: on a bus of their own that feeds the
// screen, the log and the run's transcript, continuing the run's
// numbering. Subscribed to the run's bus, it keeps that transcript.
type ScreenFollowUps struct {
	Ctx    context.Context // the run's: a follow-up in progress ends with it
	Opts   Options         // Env and Run, for the follow-up's call
	Agents map[string]challengers.Agent
	// Log is the run's log (nil for none), LogPath its path: the
	// follow-up is appended to it, and to the outcome document beside it.
	Log     Sink
	LogPath string
	Screen  Sink

	run      transcript
	mu       sync.Mutex
	busy     bool
	panicked bool
	wg       sync.WaitGroup
}

// Inline: Handle only appends under a mutex (InlineSink).
func (fu *ScreenFollowUps) Inline() {}

// Handle keeps the run's events for the follow-up's prompt.
func (fu *ScreenFollowUps) Handle(e Event) { fu.run.Handle(e) }

// Ask starts a follow-up question, unless one is in progress, the run has
// no outcome yet, or it has no seat to ask whose agent is known; it
// reports whether it started.
func (fu *ScreenFollowUps) Ask(question string) bool {
	fu.mu.Lock()
	defer fu.mu.Unlock()
	events, last := fu.run.snapshot()
	if fu.busy || len(events) == 0 {
		return false
	}
	if _, ok := LastOutcome(events); !ok {
		return false
	}
	start, ok := events[0].Payload.(DebateStarted)
	if !ok {
		return false
	}
	seat, agent, err := FollowUpTo(start, "", fu.Agents)
	if err != nil {
		return false
	}
	fu.busy = true
	fu.wg.Add(1)
	go fu.answer(events, last, seat, agent, question)
	return true
}

func (fu *ScreenFollowUps) answer(events []Event, last int64, seat Seat, agent challengers.Agent, question string) {
	defer fu.wg.Done()
	bus := NewBus(fu.Screen, &fu.run)
	var logPath string
	if fu.Log != nil {
		bus.Subscribe(fu.Log)
		logPath = fu.LogPath
		if o, _ := LastOutcome(events); o.LogPath != "" {
			logPath = o.LogPath // where the log is now, if it had to move (runlog's place.go)
		}
	}
	bus.ContinueAfter(last)
	if pn := challengers.Catch(func() { AnswerFollowUp(fu.Ctx, bus, fu.Opts, events, seat, agent, question, logPath) }); pn != nil {
		// After the outcome: the follow-up's failure is said where the
		// follow-up was, and arena exits 1.
		bus.Emit(Note{Level: NoteWarn, Message: "the follow-up stopped on an internal error: " + pn.Error()})
		fu.mu.Lock()
		fu.panicked = true
		fu.mu.Unlock()
	}
	bus.Close()
	fu.mu.Lock()
	fu.busy = false
	fu.mu.Unlock()
}

// Wait waits for a follow-up in progress (the run's context ends first,
// so it is cut short), and reports whether one stopped on an internal
// error.
func (fu *ScreenFollowUps) Wait() (panicked bool) {
	fu.wg.Wait()
	fu.mu.Lock()
	defer fu.mu.Unlock()
	return fu.panicked
}

// transcript keeps a run's events other than chunks.
type transcript struct {
	mu     sync.Mutex
	events []Event
	last   int64
}

// Inline: Handle only appends under the mutex (InlineSink).
func (t *transcript) Inline() {}

func (t *transcript) Handle(e Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.last = max(t.last, e.Seq)
	if e.Kind() != KindChunk {
		t.events = append(t.events, e)
	}
}

func (t *transcript) snapshot() ([]Event, int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.events), t.last
}

package tui

import (
	"strings"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/arenadebate/arena/engine"
)

// eventsMsg is a batch of engine events, in the order the engine emitted
// them, delivered by the sink's pump once per frame. done is set on the
// last batch after the engine returned (err is what it returned).
type eventsMsg struct {
	events []engine.Event
	done   bool
	err    error
}

// sink is the engine.Sink of a live screen. Handle never blocks the
// engine: it appends to a pending batch under a mutex and returns. A pump
// goroutine hands the batch to the program at most once per frame.
//
// Chunks are coalesced: within a run of chunks (between two other
// events), the text of each agent is merged into one chunk. Each agent's
// text keeps its order and stays before or after the same non-chunk events
// (a chunk for X followed by X's AgentFinished stays in that order); only
// the interleaving of different agents' chunks within a run is lost, which
// no pane can see. Non-chunk events are never dropped or merged.
type sink struct {
	mu      sync.Mutex
	pending []engine.Event
	run     map[string]*chunkAcc // the current run of chunks, by agent
	done    bool
	err     error
	closed  bool          // the screen is gone: drop what comes
	wake    chan struct{} // capacity 1: "there is something pending"
}

// chunkAcc accumulates an agent's text in the current run. Builders make
// merging linear; the text lands in pending[at] when the batch is taken.
type chunkAcc struct {
	at int
	b  strings.Builder
}

func newSink() *sink {
	return &sink{run: map[string]*chunkAcc{}, wake: make(chan struct{}, 1)}
}

// Inline tells the bus to call Handle from Emit (engine.InlineSink): it
// only appends under the mutex, and a goroutine woken for every chunk
// cost more than the screen's drawing.
func (s *sink) Inline() {}

// Handle queues an event. It is called on the engine's goroutine.
func (s *sink) Handle(e engine.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	if c, ok := e.Payload.(engine.Chunk); ok {
		s.addChunk(e, c)
	} else {
		s.endRun()
		s.pending = append(s.pending, e)
	}
	s.signal()
}

func (s *sink) addChunk(e engine.Event, c engine.Chunk) {
	if acc, ok := s.run[c.Seat]; ok {
		acc.b.WriteString(c.Text)
		return
	}
	acc := &chunkAcc{at: len(s.pending)}
	acc.b.WriteString(c.Text)
	s.run[c.Seat] = acc
	s.pending = append(s.pending, e)
}

// finish queues the end of the engine, after every event already queued.
func (s *sink) finish(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done, s.err = true, err
	s.signal()
}

// close drops whatever comes next: nobody will draw it.
func (s *sink) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed, s.pending, s.run = true, nil, map[string]*chunkAcc{}
}

func (s *sink) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// take returns the pending batch (nil if there is none) and starts a new
// one.
func (s *sink) take() *eventsMsg {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.pending) == 0 && !s.done {
		return nil
	}
	s.endRun()
	msg := &eventsMsg{events: s.pending, done: s.done, err: s.err}
	s.pending, s.done = nil, false
	return msg
}

// endRun writes the merged text of the current run of chunks into their
// events and starts a new run.
func (s *sink) endRun() {
	for _, acc := range s.run {
		e := s.pending[acc.at]
		c := e.Payload.(engine.Chunk)
		c.Text = acc.b.String()
		e.Payload = c
		s.pending[acc.at] = e
	}
	clear(s.run)
}

// pump delivers batches with send (the program's Send) until stop is
// closed, at most one per frame: once something is pending, at the
// instant until says (the next frame's). send blocks while the program
// is busy; meanwhile events keep coalescing, so a slow screen receives
// fewer, larger batches rather than a backlog.
func (s *sink) pump(send func(tea.Msg), stop <-chan struct{}, until func(time.Time) time.Duration) {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	for {
		select {
		case <-stop:
			return
		case <-s.wake:
		}
		timer.Reset(until(time.Now()))
		select {
		case <-stop:
			return
		case <-timer.C:
		}
		if msg := s.take(); msg != nil {
			send(*msg)
		}
	}
}

package engine

import (
	"context"
	"sync"

	"github.com/arenadebate/arena/challengers"
)

// FrontEnd shows a run as it happens: tui.Live, or plain.Headless.
type FrontEnd interface {
	Sink() Sink
	// EngineDone is called once the engine has returned and every event
	// has been handed over.
	EngineDone(err error)
	// Run blocks until the front end is finished with the run; the run
	// stops when ctx ends.
	Run(ctx context.Context) error
}

// Session is a protocol to run on its bus, with its options and the front
// end that shows it (subscribed to the bus by the caller, last).
type Session struct {
	Protocol Protocol
	Bus      *Bus
	Opts     Options
	Front    FrontEnd
}

// Drive runs the engine (until ctx ends) beside the front end, and
// returns the outcome once both are done, with the front end's failure,
// if it failed. The front end watches show, not ctx: after the person
// asks to quit the live screen must live on to see the interrupted
// outcome. It is stopped after an internal error, so the terminal is back
// at once. cancel ends ctx.
func (s Session) Drive(show, ctx context.Context, cancel func()) (Outcome, error) {
	done := make(chan Outcome, 1)
	showCtx, stopShow := context.WithCancel(show)
	defer stopShow()
	go func() {
		out := s.run(ctx)
		s.Front.EngineDone(nil)
		if out.InternalError != "" {
			stopShow()
		}
		done <- out
	}()
	err := s.Front.Run(showCtx)
	if err != nil && showCtx.Err() == nil {
		// The screen failed (it crashed, or could not start): the run
		// ends with an outcome saying so, not as if interrupted.
		s.Bus.Fail(&challengers.Panic{Value: err, Where: "the live screen"})
	} else {
		err = nil
	}
	cancel()
	return <-done, err
}

// run runs the engine, and closes the bus once every consumer has handled
// every event. Run turns a panic into an outcome; one here (in a
// consumer's Close) must still not take the terminal down raw.
func (s Session) run(ctx context.Context) (out Outcome) {
	if pn := challengers.Catch(func() {
		out = Run(ctx, s.Protocol, s.Bus, s.Opts)
		s.Bus.Close()
	}); pn != nil {
		out = InternalError(pn)
	}
	return out
}

// SavedFiles collects the Saved events of a run, for the account after
// the screen.
type SavedFiles struct {
	mu    sync.Mutex
	files []Saved
}

// Inline: Handle only appends under the mutex (InlineSink).
func (s *SavedFiles) Inline() {}

// Handle keeps a Saved event.
func (s *SavedFiles) Handle(e Event) {
	if v, ok := e.Payload.(Saved); ok {
		s.mu.Lock()
		s.files = append(s.files, v)
		s.mu.Unlock()
	}
}

// Files are the files saved so far.
func (s *SavedFiles) Files() []Saved {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.files
}

package plain

import (
	"context"

	"github.com/arenadebate/arena/engine"
)

// Headless is a run's front end without a screen: a printer (New or
// NewJSON) on the run's bus, with the live screen's methods (tui.Live),
// so that whoever runs the engine drives either the same way.
type Headless struct {
	sink engine.Sink
	done chan struct{}
}

// NewHeadless is the front end that prints the run through sink.
func NewHeadless(sink engine.Sink) *Headless {
	return &Headless{sink: sink, done: make(chan struct{})}
}

// Sink is what to subscribe to the engine's bus.
func (h *Headless) Sink() engine.Sink { return h.sink }

// EngineDone says the engine returned, after every event it emitted. Call
// it once.
func (h *Headless) EngineDone(error) { close(h.done) }

// Run waits until the engine is done: the printer has printed every
// event by then, and there is nothing to quit.
func (h *Headless) Run(context.Context) error {
	<-h.done
	return nil
}

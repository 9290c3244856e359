package engine

import (
	"sync"
	"time"
)

// Sink consumes events. Handle is called with events in order, one at a
// time, from whichever goroutine emitted them; it must not block for long
// (a front end that needs time queues the event and returns).
type Sink interface {
	Handle(Event)
}

// SinkFunc adapts a function to Sink.
type SinkFunc func(Event)

func (f SinkFunc) Handle(e Event) { f(e) }

// Bus stamps events with a sequence number and a time and hands each to
// every subscriber, in the same order for all of them. Agents stream in
// parallel; the bus is where their chunks are put in one order.
type Bus struct {
	mu    sync.Mutex
	seq   int64
	sinks []Sink
	now   func() time.Time
}

// NewBus returns a bus delivering to sinks.
func NewBus(sinks ...Sink) *Bus {
	return &Bus{sinks: sinks, now: time.Now}
}

// Subscribe adds a sink; it sees events emitted from now on.
func (b *Bus) Subscribe(s Sink) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sinks = append(b.sinks, s)
}

// Emit publishes a payload and returns the stamped event.
func (b *Bus) Emit(p Payload) Event {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.seq++
	e := Event{Seq: b.seq, Time: b.now(), Payload: p}
	for _, s := range b.sinks {
		s.Handle(e)
	}
	return e
}

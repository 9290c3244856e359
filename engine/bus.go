package engine

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/arenadebate/arena/challengers"
)

// Sink consumes events. Handle is called with events in order, one at a
// time, on the sink's own goroutine (an InlineSink's: on the emitter's);
// a slow sink delays only itself.
type Sink interface {
	Handle(Event)
}

// An InlineSink is a Sink whose Handle returns at once: it never blocks,
// never does I/O and never emits (it appends to a buffer under a lock of
// its own, as the live screen's sink does). The bus calls it from Emit, in
// order, instead of waking a goroutine of its own for every event: with
// four agents streaming, a hand-off between goroutines per chunk per sink
// was most of what arena cost a processor (bench/README.md, BenchmarkFeel).
type InlineSink interface {
	Sink
	// Inline marks the sink; it is never called.
	Inline()
}

// SinkFunc adapts a function to Sink.
type SinkFunc func(Event)

func (f SinkFunc) Handle(e Event) { f(e) }

// Bus stamps events with a sequence number and a time and hands each to
// every subscriber, in the same order for all of them. Agents stream in
// parallel; the bus is where their chunks are put in one order.
//
// Emit never waits for a sink: each sink has its own queue and goroutine,
// so a log write stalled on a slow disk never stalls an agent's stream
// (it used to: Emit called every sink while holding the bus's lock). The
// queues are unbounded; what flows into them is bounded by the runner's
// cap on each reply. Close waits until every sink has handled every event,
// including events sinks emit while handling one (the document writer's
// Saved).
//
// A chunk wakes no sink's goroutine by itself: chunks wait in the queues
// for at most chunkWait, or until another event comes, and are handed
// over together. Agents stream a piece every few milliseconds each; a
// goroutine woken per piece per sink cost more than everything the sinks
// do with them. An InlineSink is called from Emit and waits for nothing.
type Bus struct {
	mu      sync.Mutex
	idle    *sync.Cond // signalled when pending drops to zero
	seq     int64
	subs    []*subscriber
	pending int // events queued or being handled, over all sinks
	closed  bool
	now     func() time.Time
	// drop, when set, says an event is not to be published at all (a
	// resumed run walking again the part of its path the log holds).
	drop func(Payload) bool
	// failed is the first panic of a sink; broken is closed then.
	failed *challengers.Panic
	broken chan struct{}
	// lazy is set while chunks wait in the queues with nobody woken for
	// them; the timer wakes the sinks chunkWait after the first.
	lazy  bool
	timer *time.Timer
}

// chunkWait bounds how long a chunk waits in a sink's queue before the
// sink is woken for it. The live screen is an InlineSink and draws on
// its own frames; the others (the log, the printers) cannot tell 20 ms.
const chunkWait = 20 * time.Millisecond

type subscriber struct {
	sink   Sink
	inline bool // an InlineSink: handled in Emit, no queue, no goroutine
	queue  []Event
	ready  *sync.Cond
	broken bool // it panicked: it gets nothing more
}

// NewBus returns a bus delivering to sinks.
func NewBus(sinks ...Sink) *Bus {
	b := &Bus{now: time.Now, broken: make(chan struct{})}
	b.idle = sync.NewCond(&b.mu)
	for _, s := range sinks {
		b.Subscribe(s)
	}
	return b
}

// Subscribe adds a sink; it sees events emitted from now on.
func (b *Bus) Subscribe(s Sink) {
	b.mu.Lock()
	defer b.mu.Unlock()
	sub := &subscriber{sink: s, ready: sync.NewCond(&b.mu)}
	b.subs = append(b.subs, sub)
	if _, sub.inline = s.(InlineSink); !sub.inline {
		go b.deliver(sub)
	}
}

// Emit publishes a payload and returns the stamped event. After Close it
// only stamps: nothing is delivered.
func (b *Bus) Emit(p Payload) Event {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.drop != nil && b.drop(p) {
		return Event{Seq: b.seq, Time: b.now(), Payload: p}
	}
	b.seq++
	e := Event{Seq: b.seq, Time: b.now(), Payload: p}
	if b.closed {
		return e
	}
	_, chunk := p.(Chunk)
	for _, s := range b.subs {
		switch {
		case s.broken:
		case s.inline:
			if pn := challengers.Catch(func() { s.sink.Handle(e) }); pn != nil {
				b.sinkFailed(s, pn)
			}
		default:
			s.queue = append(s.queue, e)
			b.pending++
			if !chunk {
				s.ready.Signal()
			}
		}
	}
	if chunk && !b.lazy && b.pending > 0 {
		b.lazy = true
		// On the wall clock's ticks, those the runner reads a trickle
		// on: the timer fires with the readers' and wakes nothing else.
		d := chunkWait - time.Duration(time.Now().UnixNano())%chunkWait
		if b.timer == nil {
			b.timer = time.AfterFunc(d, b.wakeLazy)
		} else {
			b.timer.Reset(d)
		}
	}
	return e
}

// wakeLazy wakes the sinks that have chunks waiting.
func (b *Bus) wakeLazy() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.wakeAll()
}

// wakeAll wakes every sink with events queued. Called with b.mu held.
func (b *Bus) wakeAll() {
	b.lazy = false
	for _, s := range b.subs {
		if len(s.queue) > 0 {
			s.ready.Signal()
		}
	}
}

// ContinueAfter makes the next event's sequence number seq+1: a resumed
// run appends to its log after the event numbered seq. Call it before the
// first Emit.
func (b *Bus) ContinueAfter(seq int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.seq = seq
}

// setDrop sets the filter of events not to publish (nil: none). drop is
// called with the bus's lock held and must not emit.
func (b *Bus) setDrop(drop func(Payload) bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.drop = drop
}

// deliver hands a subscriber its events in order until the bus closes.
func (b *Bus) deliver(s *subscriber) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for {
		for len(s.queue) == 0 {
			if b.closed {
				return
			}
			s.ready.Wait()
		}
		batch := s.queue
		s.queue = nil
		b.mu.Unlock()
		p := challengers.Catch(func() {
			for i := range batch {
				s.sink.Handle(batch[i])
				batch[i] = Event{} // let handled chunks go
			}
		})
		b.mu.Lock()
		b.pending -= len(batch)
		if p != nil {
			b.sinkFailed(s, p)
		}
		if b.pending == 0 {
			b.idle.Broadcast()
		}
	}
}

// sinkFailed drops a sink that panicked (the others go on: the log still
// gets the outcome when the screen fails) and records the first such
// failure for the run to abort with. Called with b.mu held.
func (b *Bus) sinkFailed(s *subscriber, p *challengers.Panic) {
	s.broken = true
	b.pending -= len(s.queue)
	s.queue = nil
	if b.failed == nil {
		p.Where = sinkName(s.sink)
		b.failed = p
		close(b.broken)
	}
}

// sinkName is how an outcome names a sink: its type, as "the log writer"
// reads better than "*runlog.Writer", when the sink says so.
func sinkName(s Sink) string {
	if n, ok := s.(interface{ SinkName() string }); ok {
		return n.SinkName()
	}
	return "the event consumer " + strings.TrimPrefix(fmt.Sprintf("%T", s), "*")
}

// Fail records a failure of a consumer outside the bus (the live screen
// crashed): the run ends with an outcome saying so, as when a sink panics.
func (b *Bus) Fail(p *challengers.Panic) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.failed == nil {
		b.failed = p
		close(b.broken)
	}
}

// Failure is the first panic of a sink, or nil.
func (b *Bus) Failure() *challengers.Panic {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.failed
}

// Broken is closed when a sink panics.
func (b *Bus) Broken() <-chan struct{} { return b.broken }

// Flush waits until every sink has handled every event emitted so far.
func (b *Bus) Flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.wakeAll()
	for b.pending > 0 {
		b.idle.Wait()
	}
}

// Close waits until every sink has handled every event, then stops the
// sinks' goroutines. Events emitted after Close are not delivered.
func (b *Bus) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.wakeAll()
	for b.pending > 0 {
		b.idle.Wait()
	}
	if b.timer != nil {
		b.timer.Stop()
	}
	b.closed = true
	for _, s := range b.subs {
		s.ready.Signal()
	}
}

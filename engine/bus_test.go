package engine

import (
	"sync"
	"testing"
	"time"
)

// A sink that blocks does not block Emit, nor the other sinks; Close
// waits for every sink, including events a sink emits while handling one.
func TestBusDeliversWithoutWaitingForSlowSinks(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	var fast, slow []Kind
	var bus *Bus
	bus = NewBus(
		SinkFunc(func(e Event) {
			<-release
			mu.Lock()
			slow = append(slow, e.Kind())
			mu.Unlock()
		}),
		SinkFunc(func(e Event) {
			mu.Lock()
			fast = append(fast, e.Kind())
			mu.Unlock()
			if e.Kind() == KindOutcome {
				bus.Emit(Saved{What: "x", Path: "p"})
			}
		}),
	)
	for i := 0; i < 1000; i++ {
		bus.Emit(Chunk{Seat: "a", Text: "x"}) // would deadlock if Emit waited for the slow sink
	}
	bus.Emit(Outcome{Result: "done"})
	close(release)
	bus.Close()
	if len(fast) != 1002 || len(slow) != 1002 || fast[1001] != KindSaved || slow[1001] != KindSaved {
		t.Fatalf("fast %d slow %d", len(fast), len(slow))
	}
	if e := bus.Emit(Note{}); e.Seq != 1003 {
		t.Fatalf("seq %d", e.Seq)
	}
}

// inlineSink records events from Emit's goroutine; it panics on a Note.
type inlineSink struct{ got []Kind }

func (s *inlineSink) Inline() {}

func (s *inlineSink) Handle(e Event) {
	if e.Kind() == KindNote {
		panic("inline sink")
	}
	s.got = append(s.got, e.Kind())
}

// An InlineSink has every event by the time Emit returns; a panic in it
// is the bus's failure and drops that sink only.
func TestBusInlineSink(t *testing.T) {
	in := &inlineSink{}
	var mu sync.Mutex
	var queued int
	bus := NewBus(in, SinkFunc(func(Event) { mu.Lock(); queued++; mu.Unlock() }))
	bus.Emit(Chunk{Seat: "a", Text: "x"})
	if len(in.got) != 1 || in.got[0] != KindChunk { // no lock: Emit returned, nothing else touches it
		t.Fatalf("after Emit: %v", in.got)
	}
	bus.Emit(Note{Message: "boom"})
	if bus.Failure() == nil {
		t.Fatal("the inline sink's panic was not recorded")
	}
	bus.Emit(Outcome{Result: "done"})
	bus.Close()
	if len(in.got) != 1 || queued != 3 {
		t.Fatalf("inline %v, queued sink %d events", in.got, queued)
	}
}

// Chunks alone still reach a queued sink, without another event or a
// Flush to push them: the bus wakes it after chunkWait.
func TestBusDeliversLoneChunks(t *testing.T) {
	got := make(chan string, 10)
	bus := NewBus(SinkFunc(func(e Event) { got <- e.Payload.(Chunk).Text }))
	defer bus.Close()
	bus.Emit(Chunk{Seat: "a", Text: "x"})
	bus.Emit(Chunk{Seat: "a", Text: "y"})
	for _, want := range []string{"x", "y"} {
		select {
		case s := <-got:
			if s != want {
				t.Fatalf("got %q, want %q", s, want)
			}
		case <-time.After(30 * time.Second): // generous: the bus waits 20 ms
			t.Fatal("a chunk was never delivered")
		}
	}
}

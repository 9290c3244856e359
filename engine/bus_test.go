package engine

import (
	"sync"
	"testing"
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

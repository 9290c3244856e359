package tuitest

import (
	"testing"

	"github.com/arenadebate/arena/engine"
)

func TestDebateIsOrdered(t *testing.T) {
	ev := Debate()
	open := map[string]bool{}
	for i, e := range ev {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d", i, e.Seq)
		}
		if i > 0 && e.Time.Before(ev[i-1].Time) {
			t.Fatalf("event %d goes back in time", i)
		}
		switch p := e.Payload.(type) {
		case engine.AgentStarted:
			open[p.Agent] = true
		case engine.Chunk:
			if !open[p.Agent] {
				t.Fatalf("event %d: chunk for %s outside a call", i, p.Agent)
			}
		case engine.AgentFinished:
			open[p.Agent] = false
		case engine.AgentFailed:
			open[p.Agent] = false
		}
	}
	if _, ok := ev[len(ev)-1].Payload.(engine.Outcome); !ok {
		t.Fatalf("last event is %s", ev[len(ev)-1].Kind())
	}
}

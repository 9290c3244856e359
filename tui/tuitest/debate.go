// Package tuitest gives the screen's tests real debates: the recordings
// that `arena demo` plays, made from the engine with the stand-in CLIs
// (engine/demo), so a golden screen shows what the engine emits and
// not a hand-built stream it cannot produce.
package tuitest

import (
	"time"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/demo"
)

// Start is when every recorded debate begins, once rebased by Run.
var Start = time.Date(2025, 3, 14, 9, 30, 0, 0, time.UTC)

// Run returns a protocol's recorded debate, its times moved to begin at
// Start. It panics when there is no recording: a test without its data.
func Run(protocol string) []engine.Event {
	lc, err := demo.Read(protocol)
	if err != nil {
		panic(err)
	}
	shift := Start.Sub(lc.Events[0].Time)
	out := make([]engine.Event, len(lc.Events))
	for i, e := range lc.Events {
		e.Time = e.Time.Add(shift)
		out[i] = e
	}
	return out
}

// Protocols are the protocols with a recorded demo.
func Protocols() []string { return demo.Protocols() }

// Debate is the recorded adversarial debate: four seats over three
// rounds, one of whose calls times out.
func Debate() []engine.Event { return Run("adversarial") }

// Topic is a recorded debate's topic.
func Topic(events []engine.Event) string {
	return events[0].Payload.(engine.DebateStarted).Topic
}

// Until returns the events up to and including the first for which stop
// is true (all of them when none is).
func Until(events []engine.Event, stop func(engine.Event) bool) []engine.Event {
	if i := Index(events, stop); i >= 0 {
		return events[:i+1]
	}
	return events
}

// Index is the position of the first event for which match is true, or -1.
func Index(events []engine.Event, match func(engine.Event) bool) int {
	for i, e := range events {
		if match(e) {
			return i
		}
	}
	return -1
}

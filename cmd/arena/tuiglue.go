package main

import (
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/tui/plain"
)

// replayTUI plays events on the live screen. Until the screen exists it
// prints them.
func (a *app) replayTUI(events []engine.Event, speed float64, note string) error {
	sink := plain.New(a.stdout)
	replayAll(events, sink)
	if note != "" {
		a.warn("%s", note)
	}
	return sink.Err()
}

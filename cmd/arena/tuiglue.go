package main

import (
	"context"
	"os/signal"
	"syscall"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/tui"
)

// replayTUI plays events on the live screen with their original timing
// (speed <= 0: instantly). note says where a cut-short log ends.
func (a *app) replayTUI(events []engine.Event, speed float64, note string) error {
	// SIGINT too: the screen leaves signals to ctx (a key press of ctrl+c
	// still reaches it as a key).
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	err := tui.Replay(ctx, events, tui.Options{Speed: speed, TruncatedNote: note})
	if ctx.Err() != nil {
		return exitCode(exitInterrupted)
	}
	return err
}

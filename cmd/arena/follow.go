package main

import (
	"context"
	"errors"
	"io/fs"
	"os/signal"
	"syscall"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
	"github.com/arenadebate/arena/tui"
	"github.com/arenadebate/arena/tui/plain"
)

// arena replay --follow LOG: a log still being written (a run arena mcp
// started, or one in another terminal) played into the same consumers as
// it grows, as tail -f follows a file, until its outcome. Stopping the
// watching (Ctrl+C, q) does not stop the run.

func (a *app) follow(path string, f replayFlags) error {
	// Read once to check it is a log to follow, keeping nothing; then
	// again into the sink (tail), as a stream: memory does not grow with
	// the log.
	lc, _, err := runlog.ScanSoFar(path, func(engine.Event) {})
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return usageCause(err, "replay: %s: no such file", path)
	case err != nil:
		return usagef("replay %s: %w", path, err)
	case lc.Count == 0:
		return usagef("replay %s: %w: it holds no complete event yet (a run writes its first event as it starts)", path, runlog.ErrNotALog)
	case !lc.Complete && lc.Version != engine.LogVersion:
		return usagef("replay --follow %s: the log is in format version %d, which no running arena writes; replay it without --follow", path, lc.Version)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	tail := func(ctx context.Context, sink engine.Sink) (bool, error) {
		lc, offset, err := runlog.ScanSoFar(path, sink.Handle)
		if err != nil || lc.Complete {
			return err == nil, err
		}
		return runlog.Follow(ctx, path, offset, sink, func(msg string) { a.warn("%s", msg) })
	}
	if f.json || f.noTUI || !a.isTTY() {
		return a.followPrinted(ctx, f.json, tail)
	}
	ui := tui.NewLive(tui.Options{Watching: true}) // q stops the watching at once
	var tailErr error
	go func() {
		_, tailErr = tail(ctx, ui.Sink())
		ui.EngineDone(nil)
	}()
	err = ui.Run(ctx)
	if ctx.Err() != nil {
		return exitCode(exitInterrupted)
	}
	if err == nil {
		err = tailErr
	}
	return err
}

// followPrinted prints the log, as text or JSON Lines, as tail plays it
// into the printer.
func (a *app) followPrinted(ctx context.Context, json bool, tail func(context.Context, engine.Sink) (bool, error)) error {
	var sink interface {
		engine.Sink
		Err() error
	}
	if json {
		sink = plain.NewJSON(a.stdout)
	} else {
		sink = plain.New(a.stdout)
	}
	_, err := tail(ctx, sink)
	if err == nil {
		err = sink.Err()
	}
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		return exitCode(exitInterrupted) // the watching, not the run
	}
	return nil
}

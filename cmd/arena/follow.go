package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
	"github.com/arenadebate/arena/tui"
	"github.com/arenadebate/arena/tui/plain"
)

// arena replay --follow LOG: a log still being written (a run arena mcp
// started, or one in another terminal) played into the same consumers as
// it grows, as tail -f follows a file, until its outcome. Stopping the
// watching (Ctrl+C, q) does not stop the run.

// followPoll is how often a log is checked for new lines; followDrain how
// long, after the outcome, the events that follow it (the saved outcome
// document) are waited for.
const (
	followPoll  = 200 * time.Millisecond
	followDrain = time.Second
)

func (a *app) follow(path string, f replayFlags) error {
	fh, err := trust.Open(path) // a regular file only: a FIFO is refused, not waited on
	if errors.Is(err, fs.ErrNotExist) {
		return usageCause(err, "replay: %s: no such file", path)
	} else if err != nil {
		return usagef("replay %s: %w", path, err)
	}
	data, err := io.ReadAll(fh)
	fh.Close()
	if err != nil {
		return usagef("replay %s: %w", path, err)
	}
	// The lines written whole so far; a last line still being written is
	// read again, whole, by the tail.
	whole := data[:bytes.LastIndexByte(data, '\n')+1]
	offset := int64(len(whole))
	lc, err := runlog.Read(bytes.NewReader(whole))
	switch {
	case err != nil:
		return usagef("replay %s: %w", path, err)
	case len(lc.Events) == 0:
		return usagef("replay %s: %w: it holds no complete event yet (a run writes its first event as it starts)", path, runlog.ErrNotALog)
	case !lc.Complete && lc.Version != engine.LogVersion:
		return usagef("replay --follow %s: the log is in format version %d, which no running arena writes; replay it without --follow", path, lc.Version)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	tail := func(ctx context.Context, sink engine.Sink) (bool, error) {
		done := lc.Complete
		for _, e := range lc.Events {
			sink.Handle(e)
		}
		if done {
			return true, nil
		}
		return tailLog(ctx, path, offset, sink, func(msg string) { a.warn("%s", msg) })
	}
	switch {
	case f.json || f.noTUI || !a.isTTY():
		var sink interface {
			engine.Sink
			Err() error
		}
		if f.json {
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

// tailLog hands sink every event written to the log after offset, until
// the outcome (and what follows it within followDrain) or ctx's end.
// ended says the outcome came.
func tailLog(ctx context.Context, path string, offset int64, sink engine.Sink, note func(string)) (ended bool, err error) {
	fh, err := trust.Open(path)
	if err != nil {
		return false, err
	}
	defer fh.Close()
	if _, err := fh.Seek(offset, io.SeekStart); err != nil {
		return false, err
	}
	br := bufio.NewReaderSize(fh, 256<<10)
	var partial []byte
	lineNo := 0
	var quietSince time.Time
	gone := false
	for {
		chunk, rerr := br.ReadSlice('\n')
		if len(partial)+len(chunk) > runlog.MaxLine {
			return ended, fmt.Errorf("%s: a line after byte %d is longer than %d MiB", path, offset, runlog.MaxLine>>20)
		}
		partial = append(partial, chunk...)
		switch {
		case rerr == nil:
			lineNo++
			line := partial
			partial = nil
			quietSince = time.Time{}
			if len(line) <= 1 {
				continue
			}
			var e engine.Event
			if err := json.Unmarshal(line, &e); err != nil {
				return ended, fmt.Errorf("%s: a line written after the follow began is not a valid event: %w", path, err)
			}
			if _, unknown := e.Payload.(engine.Unknown); unknown {
				continue
			}
			sink.Handle(e)
			if e.Kind() == engine.KindOutcome {
				ended = true
			}
			continue
		case errors.Is(rerr, bufio.ErrBufferFull):
			continue
		case !errors.Is(rerr, io.EOF):
			return ended, rerr
		}
		// At the end of what is written so far. The run's arena holds the
		// log's writer lock until it has written its last event: once it
		// lets go, what the file holds is all there will be (one more read
		// takes what came just before).
		if gone {
			if !ended {
				note("the run writing the log stopped without an outcome: it was cut short (arena resume " + path + " carries it on)")
			}
			return ended, nil
		}
		if writerGone(path) {
			gone = true
			continue
		}
		if ended {
			if quietSince.IsZero() {
				quietSince = time.Now()
			} else if time.Since(quietSince) >= followDrain {
				return true, nil
			}
		}
		select {
		case <-ctx.Done():
			return ended, nil
		case <-time.After(followPoll):
		}
	}
}

// writerGone says no arena holds the log's writer lock any more. The lock
// names its holder on Linux only; elsewhere the follow ends at the outcome
// (or Ctrl+C).
func writerGone(path string) bool {
	return runtime.GOOS == "linux" && runlog.WriterPID(path) == 0
}

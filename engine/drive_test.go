package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// testFront is a front end that shows nothing: it keeps the events, and
// its Run returns once the engine is done or show ends, or at once with
// fail.
type testFront struct {
	sink *collect
	done chan struct{}
	fail error
}

func newTestFront() *testFront { return &testFront{sink: &collect{}, done: make(chan struct{})} }

func (f *testFront) Sink() Sink       { return f.sink }
func (f *testFront) EngineDone(error) { close(f.done) }
func (f *testFront) Run(ctx context.Context) error {
	if f.fail != nil {
		return f.fail
	}
	select {
	case <-f.done:
	case <-ctx.Done():
	}
	return nil
}

func drive(t *testing.T, p Protocol, fe FrontEnd) (Outcome, error) {
	t.Helper()
	bus := NewBus()
	bus.Subscribe(fe.Sink())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	return Session{Protocol: p, Bus: bus, Front: fe}.Drive(context.Background(), ctx, cancel)
}

// The outcome comes back once the front end has been handed every event.
func TestDriveReturnsTheOutcomeTheFrontEndShowed(t *testing.T) {
	fe := newTestFront()
	out, err := drive(t, funcProtocol(func(context.Context, *Runtime) Outcome { return Outcome{Result: "done"} }), fe)
	if err != nil || out.Result != "done" {
		t.Fatalf("%+v, %v", out, err)
	}
	if got := fe.sink.outcome(t); got.Result != "done" {
		t.Fatalf("the front end showed %+v", got)
	}
}

// A front end that fails (the screen crashed, or could not start) ends
// the run with an outcome that says so, not as if it were interrupted,
// and its failure comes back for the person to read.
func TestDriveEndsTheRunWhenTheFrontEndFails(t *testing.T) {
	fe := newTestFront()
	fe.fail = errors.New("no terminal")
	p := funcProtocol(func(ctx context.Context, _ *Runtime) Outcome {
		<-ctx.Done()
		return Outcome{Result: OutcomeInterrupted}
	})
	out, err := drive(t, p, fe)
	if err == nil || err.Error() != "no terminal" {
		t.Fatalf("the front end's failure: %v", err)
	}
	if out.Result != OutcomeAborted || !strings.Contains(out.InternalError, "the live screen") || !strings.Contains(out.InternalError, "no terminal") {
		t.Fatalf("%+v", out)
	}
}

// A panic ends the run with an internal error, and the front end is let
// go at once (the terminal is back), though the engine never said done.
func TestDriveStopsTheFrontEndAfterAnInternalError(t *testing.T) {
	fe := newTestFront()
	fe.done = make(chan struct{}) // never closed by a front end that missed EngineDone
	p := funcProtocol(func(context.Context, *Runtime) Outcome {
		var xs []int
		_ = xs[len(fe.done)+1]
		return Outcome{}
	})
	out, err := drive(t, p, &neverDone{fe})
	if err != nil || out.InternalError == "" {
		t.Fatalf("%+v, %v", out, err)
	}
}

// neverDone is a front end that waits for show to end, whatever the
// engine says.
type neverDone struct{ *testFront }

func (n *neverDone) EngineDone(error) {}

func TestSavedFilesKeepsWhatWasSaved(t *testing.T) {
	var s SavedFiles
	s.Handle(Event{Payload: Note{Message: "x"}})
	s.Handle(Event{Payload: Saved{What: WhatOutcomeDocument, Path: "a.md"}})
	if got := s.Files(); len(got) != 1 || got[0].Path != "a.md" {
		t.Fatalf("%+v", got)
	}
}

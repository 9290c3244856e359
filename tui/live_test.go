package tui

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/tui/tuitest"
)

// screen is a terminal for a real program: it records what is drawn.
type screen struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// waitFor waits until the screen shows want. The deadline is for a hung
// test, not a measure of speed.
func (s *screen) waitFor(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(s.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("the screen never showed %q", want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// runLive starts ui.Run and returns its error channel.
func runLive(ui *Live) <-chan error {
	errc := make(chan error, 1)
	go func() { errc <- ui.Run(context.Background()) }()
	return errc
}

func waitErr(t *testing.T, errc <-chan error) error {
	t.Helper()
	select {
	case err := <-errc:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return")
	}
	return nil
}

func TestLiveRunsADebateAndQuitsAfterTheOutcome(t *testing.T) {
	in, keys := io.Pipe()
	defer keys.Close()
	out := &screen{}
	ui := NewLive(Options{Input: in, Output: out, Cancel: func() { t.Error("Cancel after the outcome") }})
	for _, e := range tuitest.Debate() { // before Run: kept until it starts
		ui.Sink().Handle(e)
	}
	ui.EngineDone(nil)
	errc := runLive(ui)
	out.waitFor(t, "TRADEOFF")
	if _, err := keys.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	if err := waitErr(t, errc); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if err := ui.Run(context.Background()); err == nil {
		t.Fatal("a second Run did not fail")
	}
}

// TestLiveQuitCancelsAndWaitsForTheOutcome plays the engine: on Cancel it
// emits the interrupted Outcome, as the real engine does after closing
// its log.
func TestLiveQuitCancelsAndWaitsForTheOutcome(t *testing.T) {
	in, keys := io.Pipe()
	defer keys.Close()
	out := &screen{}
	var ui *Live
	var cancels int
	var mu sync.Mutex
	cancel := func() {
		mu.Lock()
		cancels++
		mu.Unlock()
		go func() {
			ui.Sink().Handle(engine.Event{Payload: engine.Outcome{Result: engine.OutcomeInterrupted}})
			ui.EngineDone(context.Canceled)
		}()
	}
	ui = NewLive(Options{Input: in, Output: out, Cancel: cancel})
	errc := runLive(ui)
	for _, e := range codexTimedOut(t) {
		ui.Sink().Handle(e)
	}
	out.waitFor(t, "codex timed out")
	keys.Write([]byte("q"))
	out.waitFor(t, "Stop the debate?")
	keys.Write([]byte("y"))
	if err := waitErr(t, errc); err != nil {
		t.Fatalf("Run: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if cancels != 1 {
		t.Fatalf("Cancel called %d times", cancels)
	}
}

// A screen following a run another process owns quits on q at once: it
// has nothing to cancel, and must not ask to stop a run it does not own.
func TestWatchingQuitsWithoutAsking(t *testing.T) {
	in, keys := io.Pipe()
	defer keys.Close()
	out := &screen{}
	ui := NewLive(Options{Input: in, Output: out, Watching: true})
	errc := runLive(ui)
	for _, e := range codexTimedOut(t) {
		ui.Sink().Handle(e)
	}
	out.waitFor(t, "codex timed out")
	keys.Write([]byte("q"))
	if err := waitErr(t, errc); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if strings.Contains(out.String(), "Stop the") {
		t.Fatalf("the watching screen asked to stop the run:\n%s", out.String())
	}
}

func TestLiveReportsAPanicAfterRestoring(t *testing.T) {
	in, keys := io.Pipe()
	defer keys.Close()
	out := &screen{}
	ui := NewLive(Options{Input: in, Output: out, Cancel: func() { panic("cancel exploded") }})
	errc := runLive(ui)
	ui.Sink().Handle(tuitest.Debate()[0])
	out.waitFor(t, tuitest.Topic(tuitest.Debate()))
	keys.Write([]byte("q"))
	out.waitFor(t, "Stop the debate?")
	keys.Write([]byte("y"))
	err := waitErr(t, errc)
	if err == nil || !strings.Contains(err.Error(), "cancel exploded") {
		t.Fatalf("Run: %v", err)
	}
}

func TestLiveStopsWithItsContext(t *testing.T) {
	in, keys := io.Pipe()
	defer keys.Close()
	ctx, cancel := context.WithCancel(context.Background())
	ui := NewLive(Options{Input: in, Output: &screen{}})
	errc := make(chan error, 1)
	go func() { errc <- ui.Run(ctx) }()
	cancel()
	if err := waitErr(t, errc); !errors.Is(err, context.Canceled) {
		t.Fatalf("Run: %v", err)
	}
}

func TestReplayRunsToTheEnd(t *testing.T) {
	in, keys := io.Pipe()
	defer keys.Close()
	out := &screen{}
	errc := make(chan error, 1)
	ev := tuitest.Debate()
	short := append(ev[:60:60], ev[len(ev)-1]) // the opening, some of round 1, the outcome
	go func() {
		errc <- Replay(context.Background(), short, Options{Speed: 64, Input: in, Output: out})
	}()
	out.waitFor(t, "REPLAY")
	keys.Write([]byte("n"))
	out.waitFor(t, "TRADEOFF") // n jumps a phase; the rest plays at ×64
	keys.Write([]byte("q"))
	if err := waitErr(t, errc); err != nil {
		t.Fatalf("Replay: %v", err)
	}
}

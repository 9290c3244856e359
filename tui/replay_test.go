package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/tui/tuitest"
)

func TestReplayInstant(t *testing.T) {
	h := newHarness(t, Options{Replay: true}, tuitest.Debate(), 100, 30)
	if h.m.outcome == nil || !h.m.showOutcome {
		t.Fatal("an instant replay does not end on the outcome")
	}
	if len(h.timers) != 0 {
		t.Fatalf("an instant replay scheduled %d timers", len(h.timers))
	}
	if !strings.Contains(plain(h.view()), "REPLAY · end") {
		t.Fatalf("header:\n%s", plain(h.view()))
	}
	h.keys("q")
	if !h.quit {
		t.Fatal("q in a replay asks")
	}
}

func TestReplayPlaysWithTiming(t *testing.T) {
	ev := tuitest.Debate()
	h := newHarness(t, Options{Replay: true, Speed: 1}, ev, 100, 30)
	if h.fire(isReplayTick) != 1 {
		t.Fatal("Init scheduled no replay tick")
	}
	if h.m.replay.next == 0 || h.m.topic != tuitest.Topic(tuitest.Debate()) {
		t.Fatal("the first tick applied nothing")
	}
	// Each tick schedules exactly one more, after the log's gap (capped).
	for range 20 {
		if len(h.timers) == 0 {
			t.Fatal("the replay stopped")
		}
		for _, s := range h.timers {
			if _, ok := s.msg.(replayTickMsg); ok && (s.d < frameInterval || s.d > maxReplayGap) {
				t.Fatalf("tick after %v", s.d)
			}
		}
		if n := h.fire(isReplayTick); n != 1 {
			t.Fatalf("%d ticks pending, want 1", n)
		}
	}
	if !strings.Contains(plain(h.view()), "REPLAY ×1") {
		t.Fatal("no replay mark in the header")
	}
}

func TestReplayPauseNextPhaseSpeed(t *testing.T) {
	ev := tuitest.Debate()
	h := newHarness(t, Options{Replay: true, Speed: 1}, ev, 100, 30)
	h.fire(isReplayTick)
	h.keys("space")
	if !h.m.replay.paused || !strings.Contains(plain(h.view()), "paused") {
		t.Fatal("space does not pause")
	}
	at := h.m.replay.next
	h.fire(isReplayTick) // the tick scheduled before the pause
	if h.m.replay.next != at {
		t.Fatal("a paused replay moved on")
	}
	h.keys("n")
	if h.m.phase != "challenge" {
		t.Fatalf("n went to %q, want challenge", h.m.phase)
	}
	h.keys("n")
	if h.m.phase != "consensus_check" || h.m.round != 1 {
		t.Fatalf("n went to %q round %d, want consensus_check round 1", h.m.phase, h.m.round)
	}
	if h.fire(isReplayTick) != 0 || !h.m.replay.paused {
		t.Fatal("n un-paused the replay")
	}
	h.keys("+", "+")
	if h.m.replay.speed != 4 {
		t.Fatalf("speed %v, want 4", h.m.replay.speed)
	}
	h.keys("-")
	if h.m.replay.speed != 2 || !strings.Contains(plain(h.view()), "REPLAY ×2") {
		t.Fatal("- does not halve the speed")
	}
	h.keys("space")
	if h.m.replay.paused || h.fire(isReplayTick) != 1 {
		t.Fatal("space does not resume")
	}
	for range 40 { // to the end
		h.keys("n")
	}
	if h.m.outcome == nil || !h.m.replay.done() {
		t.Fatal("n to the end does not reach the outcome")
	}
}

func TestReplayCapsLongGaps(t *testing.T) {
	start := tuitest.Start
	ev := []engine.Event{
		{Seq: 1, Time: start, Payload: engine.Note{Message: "a"}},
		{Seq: 2, Time: start.Add(10 * time.Minute), Payload: engine.Note{Message: "b"}},
	}
	h := newHarness(t, Options{Replay: true, Speed: 1}, ev, 100, 30)
	h.fire(isReplayTick)
	if len(h.timers) == 0 {
		t.Fatal("no tick for the second event")
	}
	for _, s := range h.timers {
		if _, ok := s.msg.(replayTickMsg); ok && s.d != maxReplayGap {
			t.Fatalf("a 10-minute gap waits %v", s.d)
		}
	}
}

func TestReplayOfATruncatedLog(t *testing.T) {
	ev := round2(t)
	note := "log ends here (cut short at event 248)"
	h := newHarness(t, Options{Replay: true, TruncatedNote: note}, ev, 100, 30)
	if !strings.Contains(plain(h.view()), note) {
		t.Fatalf("no truncation note:\n%s", plain(h.view()))
	}
	h = newHarness(t, Options{Replay: true, Speed: 1, TruncatedNote: note}, ev, 100, 30)
	for range 1000 {
		if h.fire(isReplayTick) == 0 {
			break
		}
	}
	if !h.m.replay.done() || !strings.Contains(plain(h.view()), note) {
		t.Fatal("a timed replay does not end with the note")
	}
}

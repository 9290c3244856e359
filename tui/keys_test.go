package tui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/arenadebate/arena/tui/tuitest"
)

// together is what bubbletea v1 sends for printable keys that arrive in
// one read: one KeyRunes message carrying all of them.
func together(keys string) tea.KeyMsg {
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(keys)}
}

func pasted(text string) tea.KeyMsg {
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(text), Paste: true}
}

// pausedReplay is a replay stopped before its first phase ends, so that
// each n is seen to move it.
func pausedReplay(t *testing.T) *harness {
	t.Helper()
	h := newHarness(t, Options{Replay: true, Speed: 1}, tuitest.Debate(), 100, 30)
	h.fire(isReplayTick)
	h.keys("space")
	if !h.m.replay.paused {
		t.Fatal("space does not pause")
	}
	return h
}

func TestKeysTogetherArePressedOneByOne(t *testing.T) {
	h := pausedReplay(t)
	h.send(together("nn"))
	if h.m.phase != "consensus_check" || h.m.round != 1 {
		t.Fatalf("nn went to %q round %d, want consensus_check round 1 (n twice)", h.m.phase, h.m.round)
	}
	h.send(together("++"))
	if h.m.replay.speed != 4 {
		t.Fatalf("++ left the speed at %v, want 4", h.m.replay.speed)
	}
	h.send(together("+++"))
	if h.m.replay.speed != 32 {
		t.Fatalf("+++ left the speed at %v, want 32", h.m.replay.speed)
	}
	h.send(together("--"))
	if h.m.replay.speed != 8 {
		t.Fatalf("-- left the speed at %v, want 8", h.m.replay.speed)
	}
}

func TestSpaceAndAKeyTogether(t *testing.T) {
	h := newHarness(t, Options{Replay: true, Speed: 1}, tuitest.Debate(), 100, 30)
	h.fire(isReplayTick)
	h.send(together(" n"))
	if !h.m.replay.paused || h.m.phase != "challenge" {
		t.Fatalf("\" n\": paused %v, phase %q; want paused, challenge", h.m.replay.paused, h.m.phase)
	}
}

func TestQuitAmongKeysTogether(t *testing.T) {
	h := pausedReplay(t)
	h.send(together("nq"))
	if h.m.phase != "challenge" || !h.quit {
		t.Fatalf("nq: phase %q, quit %v; want challenge and quit", h.m.phase, h.quit)
	}

	cancels := 0
	h = newHarness(t, Options{Cancel: func() { cancels++ }}, round2(t), 100, 30)
	h.send(together("qy"))
	if cancels != 1 || !h.m.stopping {
		t.Fatalf("qy while running: cancels %d, stopping %v; want the prompt asked and answered", cancels, h.m.stopping)
	}
}

// alt+n is not n: each press keeps the Alt of the message.
func TestAltStaysOnEachKey(t *testing.T) {
	h := pausedReplay(t)
	phase := h.m.phase
	k := together("nn")
	k.Alt = true
	h.send(k)
	if h.m.phase != phase {
		t.Fatalf("alt+nn moved the phase to %q: the Alt was dropped", h.m.phase)
	}
}

// A text field takes what was typed as typed; the keys before it that
// open it are still pressed.
func TestTextTypedTogetherReachesTheNote(t *testing.T) {
	var notes []string
	moderate := func(n string) bool { notes = append(notes, n); return true }
	h := newHarness(t, Options{Moderate: moderate}, round2(t), 100, 30)
	h.keys("m")
	h.send(together("hello"))
	if string(h.m.draft) != "hello" {
		t.Fatalf("draft %q, want hello", string(h.m.draft))
	}
	h.keys("enter")
	h.send(together("mqn yes"))
	if string(h.m.draft) != "qn yes" || h.m.confirming {
		t.Fatalf("mqn yes: draft %q, confirming %v; want the note editor to take qn yes", string(h.m.draft), h.m.confirming)
	}
	h.keys("enter")
	if len(notes) != 2 || notes[0] != "hello" || notes[1] != "qn yes" {
		t.Fatalf("notes sent %q, want [hello qn yes]", notes)
	}
}

// Pasted text is never taken for key presses, and reaches a text field
// whole.
func TestPasteIsNotSplit(t *testing.T) {
	h := pausedReplay(t)
	phase := h.m.phase
	h.send(pasted("nnq"))
	if h.m.phase != phase || h.quit {
		t.Fatalf("a paste of nnq pressed keys: phase %q, quit %v", h.m.phase, h.quit)
	}

	h = newHarness(t, Options{Moderate: func(string) bool { return true }}, round2(t), 100, 30)
	h.keys("m")
	h.send(pasted("q n y"))
	if string(h.m.draft) != "q n y" {
		t.Fatalf("draft %q, want the paste q n y", string(h.m.draft))
	}
}

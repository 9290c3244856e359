package tui

import (
	"bytes"
	"io"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/tui/tuitest"
)

// TestProgramReplay runs the model in a real bubbletea program (teatest):
// an instant replay shows the outcome, and q quits without asking.
func TestProgramReplay(t *testing.T) {
	m := NewModel(Options{Replay: true, Output: io.Discard}, tuitest.Debate())
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("TRADEOFF")) && bytes.Contains(b, []byte("Debate outcome"))
	}, teatest.WithDuration(10*time.Second))
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	fm, ok := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*Model)
	if !ok || fm.outcome == nil || fm.outcome.Result != engine.OutcomeKind("tradeoff") || fm.confirming {
		t.Fatalf("final model: %+v", fm)
	}
}

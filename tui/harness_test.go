package tui

import (
	"io"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/tui/tuitest"
)

// harness drives a Model as the program would, synchronously: it runs the
// commands Update returns and feeds their messages back, except timers,
// which it records for the test to fire. No test waits on a clock.
type harness struct {
	t      *testing.T
	m      *Model
	clock  time.Time
	timers []scheduledMsg
	quit   bool
}

// scheduledMsg is a timer the model asked for.
type scheduledMsg struct {
	d   time.Duration
	msg tea.Msg
}

type harnessOpt func(*harness)

// keepColors keeps the colour profile NewModel chose (NO_COLOR tests).
var keepColors harnessOpt = func(*harness) {}

func newHarness(t *testing.T, opts Options, events []engine.Event, w, h int, hopts ...harnessOpt) *harness {
	t.Helper()
	if opts.Output == nil {
		opts.Output = io.Discard
	}
	hs := &harness{t: t, m: NewModel(opts, events), clock: tuitest.Start}
	if n := len(events); n > 0 && !opts.Replay {
		hs.clock = events[n-1].Time
	}
	hs.m.now = func() time.Time { return hs.clock }
	hs.m.after = func(d time.Duration, msg tea.Msg) tea.Cmd {
		return func() tea.Msg { return scheduledMsg{d, msg} }
	}
	if len(hopts) == 0 {
		hs.m.setRenderer(testRenderer(termenv.TrueColor))
	}
	hs.run(hs.m.Init())
	hs.send(tea.WindowSizeMsg{Width: w, Height: h})
	return hs
}

// testRenderer fixes the colour profile and the background, so goldens do
// not depend on the machine.
func testRenderer(p termenv.Profile) *lipgloss.Renderer {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(p)
	r.SetHasDarkBackground(true)
	return r
}

func (h *harness) send(msg tea.Msg) {
	h.t.Helper()
	_, cmd := h.m.Update(msg)
	h.run(cmd)
	_ = h.m.View() // the program draws after every message
	if h.m.fatal != nil {
		h.t.Fatal(h.m.fatal)
	}
}

func (h *harness) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			h.run(c)
		}
	case tea.QuitMsg:
		h.quit = true
	case scheduledMsg:
		h.timers = append(h.timers, msg)
	default:
		h.send(msg)
	}
}

// events delivers events as one batch, as the live sink does.
func (h *harness) events(ev ...engine.Event) { h.send(eventsMsg{events: ev}) }

// fire delivers the pending timers whose message match accepts, oldest
// first, and reports how many.
func (h *harness) fire(match func(tea.Msg) bool) int {
	pending := h.timers
	h.timers = nil
	n := 0
	for _, s := range pending {
		if match(s.msg) {
			n++
			h.send(s.msg)
		} else {
			h.timers = append(h.timers, s)
		}
	}
	return n
}

func isReplayTick(msg tea.Msg) bool { _, ok := msg.(replayTickMsg); return ok }

// keys presses keys by name: "tab", "shift+tab", "enter", "esc", "up",
// "pgup", "ctrl+c", "space", or runes ("j", "G", "?").
func (h *harness) keys(names ...string) {
	h.t.Helper()
	for _, n := range names {
		h.send(keyMsg(n))
	}
}

func keyMsg(name string) tea.KeyMsg {
	special := map[string]tea.KeyType{
		"tab": tea.KeyTab, "shift+tab": tea.KeyShiftTab, "enter": tea.KeyEnter,
		"esc": tea.KeyEsc, "up": tea.KeyUp, "down": tea.KeyDown, "pgup": tea.KeyPgUp,
		"pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd,
		"ctrl+c": tea.KeyCtrlC, "space": tea.KeySpace,
	}
	if t, ok := special[name]; ok {
		return tea.KeyMsg{Type: t}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(name)}
}

func (h *harness) view() string { return h.m.View() }

func resize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

package tui

import (
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

func matches(k tea.KeyMsg, b ...key.Binding) bool { return key.Matches(k, b...) }

// onKeys hands a key message to onKey one press at a time. bubbletea v1
// reports the printable keys that arrive in one read as one KeyRunes
// message (key.go, detectOneMsg: "the bunch of them as a single KeyRunes"):
// n pressed twice quickly, or sent together by tmux, is "nn", which no
// binding matches, so both presses were lost (issue 27). A text field takes
// the rest of the message whole, as typed. A paste is never split: bubbletea
// keeps pasted text from matching shortcuts, and so does the screen.
func (m *Model) onKeys(k tea.KeyMsg) tea.Cmd {
	if k.Type != tea.KeyRunes || k.Paste || len(k.Runes) < 2 {
		return m.onKey(k)
	}
	cmds := make([]tea.Cmd, 0, len(k.Runes))
	for i, r := range k.Runes {
		if m.typing {
			rest := k
			rest.Runes = k.Runes[i:]
			return tea.Batch(append(cmds, m.onKey(rest))...)
		}
		cmds = append(cmds, m.onKey(onePress(r, k.Alt)))
	}
	return tea.Batch(cmds...)
}

// onePress is the message bubbletea sends for r pressed alone; a space
// alone is KeySpace (key_sequences.go).
func onePress(r rune, alt bool) tea.KeyMsg {
	if r == ' ' {
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}, Alt: alt}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: alt}
}

// onKey routes a key: the quit prompt first, then the keys that work
// everywhere, then playback, then the view's own keys.
func (m *Model) onKey(k tea.KeyMsg) tea.Cmd {
	if m.confirming {
		return m.confirmKey(k)
	}
	if m.typing {
		return m.noteKey(k)
	}
	if matches(k, m.keys.Moderate) && m.canModerate() {
		m.typing, m.asking, m.draft = true, false, nil
		return nil
	}
	if matches(k, m.keys.FollowUp) && m.canFollowUp() {
		m.typing, m.asking, m.draft = true, true, nil
		return nil
	}
	switch {
	case matches(k, m.keys.Quit):
		return m.requestQuit()
	case matches(k, m.keys.Help), m.help.ShowAll && matches(k, m.keys.Back):
		// esc closes the help first, on the panes and the outcome alike
		m.help.ShowAll = !m.help.ShowAll
		m.relayout()
		return nil
	}
	if m.replay != nil {
		if cmd, ok := m.replayKey(k); ok {
			return cmd
		}
	}
	if m.showOutcome && m.outcome != nil {
		return m.outcomeKey(k)
	}
	return m.paneKey(k)
}

// paneKey handles focus, zoom and scrolling of the focused pane.
func (m *Model) paneKey(k tea.KeyMsg) tea.Cmd {
	if len(m.panes) == 0 {
		return nil
	}
	p := m.panes[m.focus]
	switch {
	case matches(k, m.keys.Next):
		m.moveFocus(1)
	case matches(k, m.keys.Prev):
		m.moveFocus(-1)
	case matches(k, m.keys.Zoom):
		m.setZoom(!m.zoomed)
	case matches(k, m.keys.Back):
		m.setZoom(false)
	case matches(k, m.keys.Outcome):
		if m.outcome != nil {
			m.showOutcome = true
			m.relayout()
			return m.renderOutcome()
		}
	case matches(k, m.keys.Up):
		p.scroll(-1)
	case matches(k, m.keys.Down):
		p.scroll(1)
	case matches(k, m.keys.PageUp):
		p.page(-1)
	case matches(k, m.keys.PageDown):
		p.page(1)
	case matches(k, m.keys.Top):
		p.home()
	case matches(k, m.keys.Bottom):
		p.end()
	}
	return nil
}

func (m *Model) moveFocus(d int) {
	n := len(m.panes)
	m.focus = ((m.focus+d)%n + n) % n
	m.relayout() // the compact layout and the zoomed pane follow focus
}

func (m *Model) setZoom(on bool) {
	if m.zoomed == on {
		return
	}
	m.zoomed = on
	m.relayout()
}

// requestQuit quits at once when nothing runs; while a debate runs it asks
// first. Asked again while stopping, it quits without waiting.
func (m *Model) requestQuit() tea.Cmd {
	if m.quitFreely() || m.stopping {
		return tea.Quit
	}
	m.confirming = true
	return nil
}

func (m *Model) confirmKey(k tea.KeyMsg) tea.Cmd {
	switch {
	case matches(k, m.keys.Yes), k.Type == tea.KeyCtrlC:
		return m.confirmQuit()
	case matches(k, m.keys.No):
		m.confirming = false
	}
	return nil
}

// quitDeadlineMsg ends the program when the debate did not report its end
// within quitGrace of being cancelled (confirmQuit schedules it).
type quitDeadlineMsg struct{}

// quitGrace is how long a cancelled debate gets to emit its Outcome.
const quitGrace = 5 * time.Second

// confirmQuit cancels the debate (once) and waits for its Outcome, which
// the engine emits after closing the log, or quitGrace, whichever first.
func (m *Model) confirmQuit() tea.Cmd {
	m.confirming = false
	if m.opts.Cancel == nil {
		return tea.Quit
	}
	if !m.cancelled {
		m.cancelled = true
		m.opts.Cancel() // cancels a context: it does not block
	}
	m.stopping = true
	return m.after(quitGrace, quitDeadlineMsg{})
}

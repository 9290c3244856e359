package tui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/arenadebate/arena/engine"
)

// The moderator's input line: m opens it on the live screen while the run
// goes on; enter sends the note (Options.Moderate), esc drops it. The
// engine gives the note to every seat's next prompt and publishes it, and
// the screen shows it in every pane when it comes back as an event.

// maxNote bounds a note typed on the screen.
const maxNote = 2000

// canModerate says whether a note can be sent now: live, running.
func (m *Model) canModerate() bool {
	return m.opts.Moderate != nil && m.replay == nil && m.outcome == nil && !m.engineDone && !m.stopping
}

// canFollowUp says whether a follow-up can be asked now: live, after the
// outcome and everything its consumers saved, none in progress.
func (m *Model) canFollowUp() bool {
	return m.opts.FollowUp != nil && m.replay == nil && m.outcome != nil && m.engineDone && !m.followUp
}

// onFollowUp: a follow-up was asked; its answer streams in the seat's
// pane, which the screen shows.
func (m *Model) onFollowUp(f engine.FollowUp) {
	p := m.paneFor(f.Seat, f.Agent, "")
	p.remark("? follow-up: " + f.Question)
	m.showOutcome, m.focus = false, m.byName[f.Seat]
	m.status = statusLine{text: "follow-up to " + f.Seat + ": " + f.Question, level: "info"}
	m.relayout()
}

// noteKey edits the note.
func (m *Model) noteKey(k tea.KeyMsg) tea.Cmd {
	switch k.Type {
	case tea.KeyEnter:
		note := strings.TrimSpace(string(m.draft))
		m.typing, m.draft = false, nil
		if note == "" {
			return nil
		}
		if m.asking {
			if m.canFollowUp() && m.opts.FollowUp(note) {
				m.followUp = true
				m.status = statusLine{text: "asking the follow-up…", level: "info"}
			} else {
				m.status = statusLine{text: "the follow-up could not be asked now", level: "warn"}
			}
			return nil
		}
		if m.canModerate() && m.opts.Moderate(note) {
			m.status = statusLine{text: "✎ note sent: every seat's next prompt carries it", level: "info"}
		} else {
			m.status = statusLine{text: "the note was not sent: the run is over", level: "warn"}
		}
	case tea.KeyEsc, tea.KeyCtrlC:
		m.typing, m.draft = false, nil
	case tea.KeyBackspace:
		if n := len(m.draft); n > 0 {
			m.draft = m.draft[:n-1]
		}
	case tea.KeySpace:
		m.add(' ')
	case tea.KeyRunes:
		for _, r := range k.Runes {
			m.add(r)
		}
	}
	return nil
}

func (m *Model) add(r rune) {
	if len(m.draft) < maxNote && (r >= ' ' || r == '\t') {
		m.draft = append(m.draft, r)
	}
}

// noteLine replaces the footer while a note is typed.
func (m *Model) noteLine() []string {
	prompt, help := " ✎ note to every seat: ", " enter send to every seat · esc cancel"
	if m.asking {
		prompt, help = " ? follow-up question to "+m.answerer+": ", " enter ask · esc cancel"
	}
	text := string(m.draft) + "▏"
	// Show the end of a long note: that is where the typing is.
	room := m.width - textWidth(prompt) - 1
	if r := []rune(text); room > 0 && len(r) > room {
		text = "…" + string(r[len(r)-room+1:])
	}
	return []string{
		fit(m.th.warn.Render(prompt)+text, m.width),
		fit(help, m.width),
	}
}

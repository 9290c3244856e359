package tui

import (
	"fmt"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/layout"
)

// onEvents applies a batch of events, in order, then lays the screen out
// again if panes appeared.
func (m *Model) onEvents(msg eventsMsg) tea.Cmd {
	cmd := m.applyAll(msg.events)
	var done tea.Cmd
	if msg.done {
		done = m.onEngineDone(msg.err)
	}
	return tea.Batch(cmd, done, m.startHeartbeat())
}

// applyAll applies events in order and lays the screen out again if panes
// appeared.
func (m *Model) applyAll(events []engine.Event) tea.Cmd {
	n := len(m.panes)
	var cmds []tea.Cmd
	for _, e := range events {
		if cmd := m.apply(e); cmd != nil {
			cmds = append(cmds, cmd)
		}
	}
	if len(m.panes) != n {
		m.relayout()
	}
	return tea.Batch(cmds...)
}

// apply updates the screen's state from one event. It never draws and
// never blocks: drawing happens in View, slow work in commands.
func (m *Model) apply(e engine.Event) tea.Cmd {
	if !e.Time.IsZero() {
		m.last = e.Time
	}
	switch p := e.Payload.(type) {
	case engine.DebateStarted:
		m.onDebateStarted(p, e)
	case engine.PhaseStarted:
		m.phase, m.round, m.phaseTitle = p.Phase, p.Round, p.Title
		m.onPhase(p.Phase)
	case engine.AgentStarted, engine.Chunk, engine.AgentFinished, engine.AgentFailed:
		m.onSeatEvent(e)
	case engine.Table:
		m.onTable(p)
	case engine.PositionUpdated:
		m.onPosition(p)
	case engine.Note:
		m.status = statusLine{text: p.Message, level: p.Level}
	case engine.Outcome:
		return m.onOutcome(p)
	case engine.Resumed:
		m.onResumed(p)
	case engine.ModeratorNote:
		m.onModeratorNote(p)
	case engine.BudgetUsed:
		m.onBudget(p)
	case engine.FollowUp:
		m.onFollowUp(p)
	case engine.Saved:
		// A file saved again (a resumed run's outcome document, after the
		// earlier run's in the log it replays) is named once, where it
		// was saved last.
		m.saved = slices.DeleteFunc(m.saved, func(s engine.Saved) bool { return s.What == p.What })
		m.saved = append(m.saved, p)
		if m.outcome != nil {
			m.relayout()
		}
	}
	return nil // engine.Unknown and anything newer: ignored
}

// onSeatEvent follows one seat's call: its start, its streamed text, its
// reply or its failure, on the seat's pane and in the call ledger.
func (m *Model) onSeatEvent(e engine.Event) {
	switch p := e.Payload.(type) {
	case engine.AgentStarted:
		var l *layout.Layout
		if lo, ok := m.layouts[p.Shape]; ok {
			l = &lo
		}
		m.paneFor(p.Seat, p.Agent, p.Role).begin(p, e.Time, l)
	case engine.Chunk:
		if !m.paneFor(p.Seat, "", "").stream(p.Text) {
			m.lateChunk++
		}
	case engine.AgentFinished:
		m.paneFor(p.Seat, p.Agent, p.Role).finish(p)
		if p.Phase == engine.PhaseFollowUp {
			m.followUp = false
			m.status = statusLine{text: p.Seat + " answered the follow-up (o: the outcome)", level: "info"}
		}
		if !p.Reused { // a resumed run's copy of a reply counted already
			m.ledger.Record(p)
		}
	case engine.AgentFailed:
		m.paneFor(p.Seat, p.Agent, p.Role).fail(p)
		if p.Phase == engine.PhaseFollowUp && !p.WillRetry {
			m.followUp = false
		}
		m.ledger.Record(p)
	}
}

// onBudget keeps the budget for the header, and says on the status line
// when it was spent or is nearly.
func (m *Model) onBudget(p engine.BudgetUsed) {
	m.budget = &p
	switch {
	case p.Over != "":
		m.status = statusLine{text: "over budget: " + p.Over, level: engine.NoteWarn}
	case len(p.Warnings) > 0:
		m.status = statusLine{text: strings.Join(p.Warnings, " · "), level: engine.NoteWarn}
	}
}

func (m *Model) onDebateStarted(p engine.DebateStarted, e engine.Event) {
	m.topic, m.noun, m.maxRounds, m.phases, m.started = p.Topic, p.RunNoun(), p.MaxRounds, p.Phases, e.Time
	m.layouts = p.Layouts
	if s, ok := engine.FollowUpSeat(p); ok {
		m.answerer = s.Name
	}
	for _, s := range p.Seats {
		m.paneFor(s.Name, s.Agent, s.Role)
	}
}

// paneFor returns the seat's pane, making one for a seat not seen before
// (a log may name seats DebateStarted did not list).
func (m *Model) paneFor(seat, agent string, role engine.Role) *pane {
	if i, ok := m.byName[seat]; ok {
		p := m.panes[i]
		if p.role == "" {
			p.role = role
		}
		if p.agent == "" {
			p.agent = agent
		}
		return p
	}
	p := newPane(seat, agent, role, len(m.panes), m.th.md)
	m.byName[seat] = len(m.panes)
	m.panes = append(m.panes, p)
	return p
}

func (m *Model) onPosition(p engine.PositionUpdated) {
	if p.Version > 1 && p.Changed {
		who := p.Seat
		if who == "" {
			who = "a seat"
		}
		m.status = statusLine{text: fmt.Sprintf("%s revised its position (v%d)", who, p.Version), level: "info"}
	}
}

// onOutcome shows the outcome, or ends the program if the person already
// asked to quit.
func (m *Model) onOutcome(o engine.Outcome) tea.Cmd {
	m.outcome = &o
	m.confirming = false
	if m.stopping {
		return tea.Quit
	}
	m.showOutcome, m.zoomed = true, false
	m.doc.reset()
	m.relayout()
	return m.renderOutcome()
}

// onResumed: the run goes on after an interruption. Calls it cut off are
// asked again, and the earlier outcome no longer stands.
func (m *Model) onResumed(r engine.Resumed) {
	words := r.Words()
	for _, p := range m.panes {
		p.cutOff("↻ " + strings.TrimPrefix(words, "↻ "))
	}
	m.outcome, m.showOutcome = nil, false
	if r.Phase != "" {
		m.phase, m.round, m.phaseTitle = r.Phase, r.Round, r.From
		m.onPhase(r.Phase)
	}
	m.status = statusLine{text: words, level: "info"}
	m.relayout()
}

// onModeratorNote shows the moderator's note in every pane and the
// status line.
func (m *Model) onModeratorNote(n engine.ModeratorNote) {
	for _, p := range m.panes {
		p.remark("✎ moderator: " + n.Text)
	}
	m.status = statusLine{text: "✎ moderator: " + n.Text, level: "info"}
}

// onEngineDone: the engine returned. A debate that ended without an
// Outcome says so; a cancelled one has nothing left to wait for.
func (m *Model) onEngineDone(err error) tea.Cmd {
	m.engineDone, m.engineErr = true, err
	if m.stopping {
		return tea.Quit
	}
	m.confirming = false
	return nil
}

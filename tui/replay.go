package tui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/arenadebate/arena/engine"
)

// maxReplayGap caps a pause in playback: a debate that waited two minutes
// on a slow model replays as a two-second wait.
const maxReplayGap = 2 * time.Second

// Replay speeds: + and - double and halve within these.
const (
	minSpeed = 0.25
	maxSpeed = 64
)

// player plays preloaded events back.
type player struct {
	events []engine.Event
	next   int // the first event not applied
	speed  float64
	paused bool
	gen    int // bumped to orphan the pending tick (pause, speed, jump)
}

func (p *player) done() bool { return p.next >= len(p.events) }

// replayTickMsg applies the events that are due. Each tick schedules the
// next one, so ticks never overlap; a tick whose gen is stale is ignored.
type replayTickMsg struct{ gen int }

func (m *Model) onReplayTick(msg replayTickMsg) tea.Cmd {
	p := m.replay
	if p == nil || msg.gen != p.gen || p.paused || p.done() {
		return nil
	}
	first := p.events[p.next].Time
	window := time.Duration(float64(frameInterval) * p.speed)
	var batch []engine.Event
	for !p.done() {
		e := p.events[p.next]
		if len(batch) > 0 && e.Time.Sub(first) > window {
			break
		}
		batch = append(batch, e)
		p.next++
	}
	return tea.Batch(m.onEvents(eventsMsg{events: batch}), m.scheduleReplay())
}

// scheduleReplay schedules the tick for the next event: its delay in the
// log, scaled by the speed, no shorter than a frame and no longer than
// maxReplayGap.
func (m *Model) scheduleReplay() tea.Cmd {
	p := m.replay
	if p.done() {
		m.replayEnded()
		return nil
	}
	if p.paused {
		return nil
	}
	var gap time.Duration
	if p.next > 0 {
		gap = p.events[p.next].Time.Sub(p.events[p.next-1].Time)
	}
	d := time.Duration(float64(gap) / p.speed)
	d = min(max(d, frameInterval), maxReplayGap)
	return m.after(d, replayTickMsg{gen: p.gen})
}

// replayAll applies every event at once (speed 0: instant).
func (m *Model) replayAll() tea.Cmd {
	p := m.replay
	batch := p.events[p.next:]
	p.next = len(p.events)
	cmd := m.applyAll(batch)
	m.replayEnded()
	return cmd
}

// replayEnded: the log is played out. A log cut short has no Outcome, and
// the screen says so rather than leaving the person waiting.
func (m *Model) replayEnded() {
	if m.outcome != nil {
		return
	}
	note := m.opts.TruncatedNote
	if note == "" {
		note = "log ends here (no outcome recorded)"
	}
	m.status = statusLine{text: note, level: "warn"}
}

// replayKey handles the playback keys; ok is false for any other key.
func (m *Model) replayKey(k tea.KeyMsg) (cmd tea.Cmd, ok bool) {
	switch {
	case matches(k, m.keys.Pause):
		return m.togglePause(), true
	case matches(k, m.keys.NextPhase):
		return m.nextPhase(), true
	case matches(k, m.keys.Faster):
		return m.setSpeed(m.replay.speed * 2), true
	case matches(k, m.keys.Slower):
		return m.setSpeed(m.replay.speed / 2), true
	}
	return nil, false
}

func (m *Model) togglePause() tea.Cmd {
	p := m.replay
	if p.done() {
		return nil
	}
	p.paused = !p.paused
	p.gen++
	if p.paused {
		return nil
	}
	return tea.Batch(m.after(0, replayTickMsg{gen: p.gen}), m.startHeartbeat())
}

// nextPhase applies, at once, every event up to and including the next
// PhaseStarted; playback then goes on from there (or stays paused).
func (m *Model) nextPhase() tea.Cmd {
	p := m.replay
	if p.done() {
		return nil
	}
	var batch []engine.Event
	for !p.done() {
		e := p.events[p.next]
		batch = append(batch, e)
		p.next++
		if e.Kind() == engine.KindPhaseStarted {
			break
		}
	}
	p.gen++
	return tea.Batch(m.onEvents(eventsMsg{events: batch}), m.scheduleReplay())
}

func (m *Model) setSpeed(s float64) tea.Cmd {
	p := m.replay
	if p.speed <= 0 { // instant: nothing left to pace
		return nil
	}
	p.speed = min(max(s, minSpeed), maxSpeed)
	p.gen++
	return m.scheduleReplay()
}

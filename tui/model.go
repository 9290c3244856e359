package tui

import (
	"fmt"
	"os"
	"runtime/debug"
	"time"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/arenadebate/arena/challengers/pace"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/layout"
)

// frameInterval is the pace at which streamed text reaches the screen:
// 15 frames a second, fast enough to read as live and slow enough that
// four agents streaming cost a few frames, not thousands of redraws. Each
// frame re-renders, with glamour, the paragraph every streaming pane is
// writing, and glamour is most of what a frame costs.
//
// Frames keep arena's clock (challengers/pace): the agents' output
// is read on its ticks, a frame is drawn frameLag after each tick (once
// that tick's reads are in), the terminal is written flushLag after it
// (once the frame is drawn), and the spinners turn on every other frame.
// Three short wake-ups a tick, where clocks of their own (reads every 20
// ms, frames every 50 ms counted from the last, bubbletea's renderer 60
// times a second, spinners every 100 ms) woke arena about 140 times a
// second, each a switch of threads that on the 2-core VM cost more than
// the drawing. A key is drawn at the renderer's next frame.
const (
	frameInterval     = pace.Tick
	frameLag          = 2 * time.Millisecond
	flushLag          = 10 * time.Millisecond
	heartbeatInterval = 2 * frameInterval // spinners and clocks
)

// untilFrame is how long from now until the next frame's instant.
func untilFrame(now time.Time) time.Duration {
	return pace.UntilTick(now, frameInterval, frameLag)
}

// Model is the arena screen. It is the program's only tea.Model; panes,
// header, footer and the outcome view are plain structs it draws.
type Model struct {
	opts  Options
	th    theme
	keys  keyMap
	help  help.Model
	now   func() time.Time                           // the wall clock (tests fix it)
	after func(d time.Duration, msg tea.Msg) tea.Cmd // schedules msg (tests record it)

	renderBudget time.Duration               // how long a frame waits for its renders (render.go)
	renderWith   func(renderJob) renderedMsg // runs a render job (tests hold one up)

	width, height int
	layout        []layoutRow

	// What the events said.
	topic       string
	noun        string // what the run is called: "debate", "comparison"
	answerer    string // the seat a follow-up goes to
	maxRounds   int
	phases      []engine.PhaseInfo
	ran         map[engine.Phase]bool    // the phases that started
	layouts     map[string]layout.Layout // how each reply shape reads as it streams
	ledger      engine.Ledger            // what the agents' calls cost, for the header
	budget      *engine.BudgetUsed       // where the run's budget stands (nil: it has none)
	table       *engine.Table            // the latest table, drawn under the panes
	tableLayout *tableLayout             // the table laid out at the screen's width
	phase       engine.Phase
	phaseTitle  string
	round       int
	started     time.Time // DebateStarted's time
	last        time.Time // the latest event's time
	status      statusLine
	outcome     *engine.Outcome
	saved       []engine.Saved // files consumers wrote (the outcome document)
	engineDone  bool
	engineErr   error

	panes  []*pane
	byName map[string]int
	focus  int
	zoomed bool

	showOutcome bool
	doc         outcomeDoc

	confirming bool // the quit prompt is up
	typing     bool // the input line is up: the moderator's note, or
	asking     bool // a follow-up question
	followUp   bool // a follow-up is in progress
	draft      []rune
	stopping   bool // Cancel was called; quitting when the Outcome comes
	cancelled  bool // Cancel has been called (it is called once)

	helpCache struct {
		key  helpKey
		text string
	}
	timelineCache struct {
		key  timelineKey
		text string
	}

	frame     int  // heartbeat count: the spinner's frame
	beating   bool // a heartbeat is scheduled
	replay    *player
	fatal     error // a panic in Update or View, reported after exit
	lateChunk int   // chunks that came after their call finished
}

// statusLine is the footer's message: the latest note or table.
type statusLine struct {
	text  string
	level string // info | warn | error | table
	table *engine.Table
}

// NewModel returns the screen with preloaded events: played back with
// their timing when opts.Replay and opts.Speed > 0, applied at once
// otherwise.
func NewModel(opts Options, preloaded []engine.Event) *Model {
	m := &Model{
		// Until the terminal reports its size (it does not when the
		// output is not a terminal), assume the classic one.
		width:  80,
		height: 24,
		opts:   opts,
		keys:   newKeyMap(),
		help:   help.New(),
		now:    time.Now,
		after:  tick,

		renderBudget: renderBudget,
		renderWith:   renderJob.run,
		byName:       map[string]int{},
		doc:          newOutcomeDoc(),
	}
	m.setRenderer(newRenderer(opts))
	if opts.Replay {
		m.replay = &player{events: preloaded, speed: opts.Speed}
		if opts.Speed <= 0 {
			m.replayAll()
		}
	} else {
		m.applyAll(preloaded)
	}
	return m
}

// newRenderer picks the colour profile of the output, and none at all
// under NO_COLOR (https://no-color.org: set and not empty) or NoColor.
func newRenderer(opts Options) *lipgloss.Renderer {
	out := opts.Output
	if out == nil {
		out = os.Stdout
	}
	r := lipgloss.NewRenderer(out)
	if opts.NoColor || os.Getenv("NO_COLOR") != "" {
		r.SetColorProfile(termenv.Ascii)
	}
	return r
}

// setRenderer rebuilds the styles; tests use it to force a profile.
func (m *Model) setRenderer(r *lipgloss.Renderer) {
	m.th = newTheme(r)
	m.help.Styles = m.th.help
	m.helpCache.text, m.timelineCache.text, m.tableLayout = "", "", nil
	m.doc.reset()
	for _, p := range m.panes {
		p.restyle(m.th.md)
	}
}

// tick is the real scheduler behind Model.after.
func tick(d time.Duration, msg tea.Msg) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return msg })
}

// clock is the time the screen shows: the wall clock live, the playback
// position in a replay (so a paused replay's timers stand still).
func (m *Model) clock() time.Time {
	if m.replay != nil {
		return m.last
	}
	return m.now()
}

// quitFreely says whether quitting needs no confirmation: nothing runs.
func (m *Model) quitFreely() bool {
	return m.outcome != nil || m.engineDone || m.replay != nil || m.opts.Watching
}

// Init starts the heartbeat and the replay.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.startHeartbeat()}
	if p := m.replay; p != nil && !p.done() {
		cmds = append(cmds, m.after(0, replayTickMsg{gen: p.gen}))
	}
	return tea.Batch(cmds...)
}

// heartbeatMsg advances spinners and clocks. Each schedules the next, so
// two can never be pending at once.
type heartbeatMsg struct{}

func (m *Model) startHeartbeat() tea.Cmd {
	if m.beating || m.settled() {
		return nil
	}
	m.beating = true
	return m.after(pace.UntilTick(m.now(), heartbeatInterval, frameLag), heartbeatMsg{})
}

// settled says nothing on screen moves by itself any more.
func (m *Model) settled() bool {
	if m.replay != nil {
		return m.replay.done() && !m.anyWorking()
	}
	return m.quitFreely() && !m.anyWorking()
}

func (m *Model) anyWorking() bool {
	for _, p := range m.panes {
		if p.state == stateWorking {
			return true
		}
	}
	return false
}

func (m *Model) onHeartbeat() tea.Cmd {
	m.beating = false
	if m.replay == nil || !m.replay.paused {
		m.frame++
	}
	return m.startHeartbeat()
}

// Update routes a message to its handler.
func (m *Model) Update(msg tea.Msg) (model tea.Model, cmd tea.Cmd) {
	defer func() {
		if r := recover(); r != nil {
			m.fatal = fmt.Errorf("tui: internal error: %v\n%s", r, debug.Stack())
			model, cmd = m, tea.Quit
		}
	}()
	if m.fatal != nil {
		return m, tea.Quit
	}
	cmd = m.route(msg)
	return m, tea.Batch(cmd, m.layPanes())
}

// route hands a message to its handler.
func (m *Model) route(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		return m.resize(msg.Width, msg.Height)
	case tea.KeyMsg:
		return m.onKeys(msg)
	case eventsMsg:
		return m.onEvents(msg)
	case heartbeatMsg:
		return m.onHeartbeat()
	case replayTickMsg:
		return m.onReplayTick(msg)
	case outcomeRenderedMsg:
		m.onOutcomeRendered(msg)
	case renderedMsg:
		m.onRendered(msg)
	case quitDeadlineMsg:
		return tea.Quit
	}
	return nil
}

// resize re-lays the screen out for a new terminal size.
func (m *Model) resize(w, h int) tea.Cmd {
	m.width, m.height = w, h
	m.help.Width = w
	m.relayout()
	return m.renderOutcome()
}

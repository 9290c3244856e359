package tui

import (
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/arenadebate/arena/engine"
)

// The screen's smallest usable size.
const (
	minWidth  = 40
	minHeight = 12
)

const headerHeight = 2

// View draws the screen: header, panes or outcome, footer, and the quit
// prompt over them. It only reads state; it is called after every Update,
// so it draws what is visible and nothing more.
func (m *Model) View() (view string) {
	defer func() {
		if r := recover(); r != nil {
			m.fatal = fmt.Errorf("tui: internal error while drawing: %v\n%s", r, debug.Stack())
			view = "arena: internal error — press any key to exit"
		}
	}()
	if m.fatal != nil {
		return "arena: internal error — press any key to exit"
	}
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	if m.width < minWidth || m.height < minHeight {
		return m.tooSmall()
	}
	lines := make([]string, 0, m.height)
	lines = append(lines, m.header()...)
	body := m.bodyHeight()
	if m.showOutcome && m.outcome != nil {
		lines = append(lines, m.outcomeView(body)...)
	} else {
		lines = append(lines, m.panesView(body)...)
		if th := m.tableHeight(); th > 0 {
			lines = append(lines, m.tableView(th)...)
		}
	}
	lines = append(lines, m.footer()...)
	lines = fitLines(lines, m.width, m.height)
	if m.confirming {
		m.overlay(lines, m.confirmBox())
	}
	return strings.Join(lines, "\n")
}

func (m *Model) tooSmall() string {
	msg := fmt.Sprintf("arena needs %d×%d; this terminal is %d×%d", minWidth, minHeight, m.width, m.height)
	return ansi.Wrap(msg, m.width, "")
}

// bodyHeight is what the header, the table and the footer leave.
func (m *Model) bodyHeight() int {
	return max(m.height-headerHeight-m.footerHeight()-m.tableHeight(), 0)
}

// relayout gives every pane (or the outcome viewport) its size. It runs on
// resize, zoom, help, focus changes in the compact layout, and when panes
// appear: never per chunk.
func (m *Model) relayout() {
	body := m.bodyHeight()
	if m.outcome != nil {
		m.doc.vp.Width = m.width
		m.doc.vp.Height = m.outcomeViewportHeight(body)
	}
	if m.zoomed && len(m.panes) > 0 {
		m.panes[m.focus].SetSize(m.width, body)
		return
	}
	m.layout = computeLayout(len(m.panes), m.width, body, m.focus)
	for _, r := range m.layout {
		for i, pi := range r.panes {
			if !r.compact {
				m.panes[pi].SetSize(r.widths[i], r.height)
			}
		}
	}
}

// panesView draws the panes in their layout, or the zoomed one.
func (m *Model) panesView(h int) []string {
	v := paneView{th: &m.th, now: m.clock(), frame: m.frame}
	if len(m.panes) == 0 {
		out := blank(m.width, h)
		if h > 0 {
			out[h/2] = fit(strings.Repeat(" ", max(m.width/2-11, 0))+m.th.dim.Render("waiting for the start…"), m.width)
		}
		return out
	}
	if m.zoomed {
		v.focused, v.fullTitle = true, m.panes[m.focus].titleFits(m.width)
		return m.panes[m.focus].Render(v)
	}
	v.fullTitle = m.fullTitles()
	nameW := 0
	for _, p := range m.panes {
		nameW = max(nameW, textWidth(p.title(v.fullTitle)))
	}
	out := make([]string, 0, h)
	for _, r := range m.layout {
		if r.compact {
			out = append(out, m.panes[r.panes[0]].compact(v, m.width, nameW))
			continue
		}
		out = append(out, m.drawRow(r, v)...)
	}
	return out
}

// fullTitles says whether every pane's title can carry its role: one
// form for all, so that two seats of one kind read alike.
func (m *Model) fullTitles() bool {
	for _, r := range m.layout {
		for i, pi := range r.panes {
			w := m.width - 3 // "▸ " and the compact line's margin
			if !r.compact {
				w = r.widths[i]
			}
			if !m.panes[pi].titleFits(w) {
				return false
			}
		}
	}
	return true
}

// drawRow draws panes side by side by joining their lines: each is
// exactly its width, so no measuring is needed.
func (m *Model) drawRow(r layoutRow, v paneView) []string {
	cols := make([][]string, len(r.panes))
	for i, pi := range r.panes {
		pv := v
		pv.focused = pi == m.focus
		cols[i] = m.panes[pi].Render(pv)
	}
	out := make([]string, r.height)
	var b strings.Builder
	for y := range out {
		b.Reset()
		for _, c := range cols {
			if y < len(c) {
				b.WriteString(c[y])
			}
		}
		out[y] = b.String()
	}
	return out
}

// header: the mark, the topic and where the run stands, then the
// timeline. On a narrow screen the least needed of the facts on the
// right go first, so that the mark and some of the topic always stay.
func (m *Model) header() []string {
	th := &m.th
	mark := th.pill.Render("ARENA")
	if !th.color {
		mark = "[arena]"
	}
	topic := m.topic
	if topic == "" {
		topic = "starting…"
	}
	left := mark + " " + th.bold.Render(topic)
	room := m.width - 1 - ansi.StringWidth(mark) - 1 - min(textWidth(topic), minTopicWidth)
	line1 := spread(left, m.headerFacts(room), m.width)
	return []string{line1, m.timelineLine()}
}

// minTopicWidth is as much of the topic as the header keeps before the
// facts beside it: room for its first few words.
const minTopicWidth = 20

// headerFacts are where the run stands, in at most room cells: the
// replay's state, the round, what the calls cost (or the budget), the
// clock. The least needed go first when they do not all fit: the
// tokens, the cost, the clock, the round, the budget; the replay's state
// (paused, at its end) stays.
func (m *Model) headerFacts(room int) string {
	th := &m.th
	type fact struct {
		text string
		drop int // the higher, the sooner it goes
	}
	var facts []fact
	if r := m.replayLabel(); r != "" {
		facts = append(facts, fact{th.warn.Render(r), 0})
	}
	if m.round > 0 {
		rounds := fmt.Sprintf("round %d", m.round)
		if m.maxRounds > 0 {
			rounds += fmt.Sprintf(" of %d", m.maxRounds)
		}
		facts = append(facts, fact{th.text.Render(rounds), 2})
	}
	// What the calls cost; a limited amount shows as the budget's.
	var limit engine.Budget
	if m.budget != nil {
		limit = m.budget.Budget
	}
	if t := m.ledger.Total(); t.Usage.Reported > 0 {
		if limit.MaxTokens == 0 {
			facts = append(facts, fact{th.dim.Render(t.Usage.Tokens()), 5})
		}
		if t.Usage.Costed > 0 && limit.MaxCostUSD == 0 {
			facts = append(facts, fact{th.dim.Render(engine.USD4(t.Usage.CostUSD)), 4})
		}
	}
	if b := m.budget; b != nil {
		ink := th.dim
		switch {
		case b.Over != "":
			ink = th.bad
		case b.Share() >= 0.8:
			ink = th.warn
		}
		facts = append(facts, fact{ink.Render(b.Words()), 1})
	}
	if !m.started.IsZero() {
		facts = append(facts, fact{th.dim.Render(fmtClock(m.elapsed())), 3})
	}
	sep := th.faint.Render(" · ")
	for drop := 6; ; drop-- {
		var kept []string
		for _, f := range facts {
			if f.drop < drop {
				kept = append(kept, f.text)
			}
		}
		s := strings.Join(kept, sep)
		if drop == 1 || ansi.StringWidth(s) <= room {
			return s
		}
	}
}

// elapsed is the debate's running time: up to the Outcome once there is
// one.
func (m *Model) elapsed() time.Duration {
	end := m.clock()
	if m.outcome != nil || m.engineDone {
		end = m.last
	}
	return end.Sub(m.started)
}

func (m *Model) replayLabel() string {
	p := m.replay
	if p == nil {
		return ""
	}
	s := "REPLAY"
	if p.speed > 0 {
		s += " " + fmtSpeed(p.speed)
	}
	switch {
	case p.done():
		s += " · end"
	case p.paused:
		s += " · ⏸ paused"
	}
	return s
}

// footerHeight: the status line and the help.
func (m *Model) footerHeight() int {
	return 1 + strings.Count(m.helpView(), "\n") + 1
}

// helpView is the help for the current state. It is cached: the footer
// is drawn every frame and changes only with the state.
func (m *Model) helpView() string {
	k := m.helpKeys()
	key := helpKey{m.width, m.help.ShowAll, k.outcome, k.replay, k.canOutcome, k.canModerate, k.canFollowUp, k.zoomed}
	if m.helpCache.key != key || m.helpCache.text == "" {
		m.helpCache.key, m.helpCache.text = key, m.help.View(k)
	}
	return m.helpCache.text
}

// helpKeys is the key map as the help describes it: the keys that work
// now.
func (m *Model) helpKeys() keyMap {
	k := m.keys
	k.outcome = m.showOutcome && m.outcome != nil
	k.replay = m.replay != nil
	k.canOutcome = m.outcome != nil
	k.canModerate = m.canModerate()
	k.canFollowUp = m.canFollowUp()
	k.zoomed = m.zoomed && !k.outcome
	k.helpOpen = m.help.ShowAll
	k.width = m.width - 1
	return k
}

// helpKey is what the help depends on.
type helpKey struct {
	width                       int
	all, outcome, replay, outOK bool
	moderate, followUp, zoomed  bool
}

// footer: the latest news, then the keys.
func (m *Model) footer() []string {
	if m.typing {
		return m.noteLine()
	}
	out := []string{fit(" "+m.statusText(), m.width)}
	for _, l := range strings.Split(m.helpView(), "\n") {
		out = append(out, fit(" "+l, m.width))
	}
	return out
}

// statusText is the most important thing to say: that we are stopping,
// that the run ended badly, or the latest note or table.
func (m *Model) statusText() string {
	th := &m.th
	switch {
	case m.stopping:
		return th.warn.Render("stopping the " + m.runNoun() + "… (the log is being closed)")
	case m.engineDone && m.outcome == nil:
		msg := "the " + m.runNoun() + " stopped without an outcome"
		if m.engineErr != nil {
			msg += ": " + m.engineErr.Error()
		}
		return th.bad.Render("✗ " + msg)
	case m.status.text == "":
		return ""
	}
	if t := m.status.table; t != nil {
		switch n := m.tableHeight(); {
		case n > 0 && m.laidOutTable().decisionShown(n):
			return "" // drawn above, its decision whole in its head (issue 40, point 11: said twice)
		case n > 0:
			return th.current.Render("⚖ ") + th.dim.Render(t.Decision) // its head cuts it
		}
		return m.tableText(t)
	}
	icon := map[string]string{"warn": "⚠ ", "error": "✗ "}[m.status.level]
	return th.levelStyle(m.status.level).Render(icon + m.status.text)
}

// tableText draws a table on one line: each row's first two cells in its
// stance's colour, then what was decided.
func (m *Model) tableText(t *engine.Table) string {
	th := &m.th
	var parts []string
	for _, r := range t.Rows {
		cells := r.Cells
		if len(cells) > 2 {
			cells = cells[:2]
		}
		parts = append(parts, th.stanceStyle(r.Stance).Render(strings.TrimSpace(strings.Join(cells, " "))))
	}
	s := th.current.Render("⚖ ")
	if t.Title != "" {
		s += th.current.Render(t.Title + ": ")
	}
	s += strings.Join(parts, th.faint.Render(" · "))
	if t.Decision != "" {
		s += th.dim.Render(" → " + t.Decision)
	}
	return s
}

// runNoun is what the run is called, from its start event ("run" before
// one came).
func (m *Model) runNoun() string {
	if m.noun == "" {
		return "run"
	}
	return m.noun
}

// confirmBox is the quit prompt.
func (m *Model) confirmBox() []string {
	th := &m.th
	body := th.bold.Render("Stop the "+m.runNoun()+"?") + "\n" +
		"The agents will be cancelled. Every\nreply so far stays in the log:\narena resume carries the run on.\n\n" +
		th.bold.Render("y") + th.dim.Render("/enter stop   ") +
		th.bold.Render("n") + th.dim.Render("/esc keep going")
	return strings.Split(th.modal.Render(body), "\n")
}

// overlay draws box over the middle of lines.
func (m *Model) overlay(lines, box []string) {
	bw := 0
	for _, l := range box {
		bw = max(bw, ansi.StringWidth(l))
	}
	x := max((m.width-bw)/2, 0)
	y := max((len(lines)-len(box))/2, 0)
	reset := ""
	if m.th.color {
		reset = "\x1b[m"
	}
	for i, b := range box {
		if y+i >= len(lines) {
			break
		}
		l := lines[y+i]
		left := ansi.Truncate(l, x, "")
		right := ansi.TruncateLeft(l, x+bw, "")
		lines[y+i] = fit(left+reset+fit(b, bw)+reset+right, m.width)
	}
}

// fitLines makes lines exactly h lines. Each part of the screen already
// draws lines of exactly w cells (measuring every line again would cost a
// third of a frame); blank lines added here are w wide too.
func fitLines(lines []string, w, h int) []string {
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, strings.Repeat(" ", w))
	}
	return lines
}

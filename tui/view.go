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
		v.focused = true
		return m.panes[m.focus].Render(v)
	}
	nameW := 0
	for _, p := range m.panes {
		nameW = max(nameW, textWidth(p.name))
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

// header: the topic and where the debate stands, then the timeline.
func (m *Model) header() []string {
	th := &m.th
	mark := th.pill.Render("ARENA")
	if !th.color {
		mark = "[arena]"
	}
	var right []string
	if r := m.replayLabel(); r != "" {
		right = append(right, th.warn.Render(r))
	}
	if m.round > 0 {
		rounds := fmt.Sprintf("round %d", m.round)
		if m.maxRounds > 0 {
			rounds += fmt.Sprintf(" of %d", m.maxRounds)
		}
		right = append(right, th.text.Render(rounds))
	}
	// What the calls cost; a limited amount shows as the budget's.
	var limit engine.Budget
	if m.budget != nil {
		limit = m.budget.Budget
	}
	if t := m.ledger.Total(); t.Usage.Reported > 0 {
		if limit.MaxTokens == 0 {
			right = append(right, th.dim.Render(t.Usage.Tokens()))
		}
		if t.Usage.Costed > 0 && limit.MaxCostUSD == 0 {
			right = append(right, th.dim.Render(fmt.Sprintf("$%.4f", t.Usage.CostUSD)))
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
		right = append(right, ink.Render(b.Words()))
	}
	if !m.started.IsZero() {
		right = append(right, th.dim.Render(fmtClock(m.elapsed())))
	}
	topic := m.topic
	if topic == "" {
		topic = "starting…"
	}
	left := mark + " " + th.bold.Render(topic)
	line1 := spread(left, strings.Join(right, th.faint.Render(" · ")), m.width)
	return []string{line1, m.timelineLine()}
}

// timelineKey is what the timeline depends on.
type timelineKey struct {
	width  int
	phases int
	phase  engine.Phase
	title  string
	ended  bool
}

// timelineLine is the timeline fitted to the screen, cached: finding the
// form that fits measures it several times, and it changes once a phase.
func (m *Model) timelineLine() string {
	k := timelineKey{m.width, len(m.phases), m.phase, m.phaseTitle, m.outcome != nil}
	if m.timelineCache.key != k || m.timelineCache.text == "" {
		m.timelineCache.key, m.timelineCache.text = k, fit(m.timeline(m.width), m.width)
	}
	return m.timelineCache.text
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

// timeline draws the protocol's phases: done, current, to come. When the
// names do not fit, it tries shorter forms (no title, first words, no
// separators), then drops the names of the phases farthest from the
// current one, until it fits.
func (m *Model) timeline(w int) string {
	cur := -1
	for i, p := range m.phases {
		if p.Phase == m.phase {
			cur = i
		}
	}
	if m.outcome != nil {
		cur = len(m.phases) // all done
	}
	if cur == -1 && m.phase != "" {
		return " " + m.th.current.Render("● "+humanPhase(m.phase))
	}
	names := make([]string, len(m.phases))
	for i, p := range m.phases {
		names[i] = p.Title
		if names[i] == "" {
			names[i] = humanPhase(p.Phase)
		}
	}
	sep := m.th.faint.Render(" › ")
	if cur < len(m.phases) && m.phaseTitle != "" {
		titled := append([]string(nil), names...)
		titled[cur] = m.phaseTitle
		if s := m.timelineOf(cur, titled, sep); ansi.StringWidth(s) <= w {
			return s
		}
	}
	if s := m.timelineOf(cur, names, sep); ansi.StringWidth(s) <= w {
		return s
	}
	for i := range names {
		if i != cur {
			names[i], _, _ = strings.Cut(names[i], " ")
		}
	}
	if s := m.timelineOf(cur, names, sep); ansi.StringWidth(s) <= w {
		return s
	}
	var s string
	for _, i := range byDistance(len(names), cur) {
		if s = m.timelineOf(cur, names, " "); ansi.StringWidth(s) <= w {
			break
		}
		names[i] = ""
	}
	return s
}

// byDistance lists 0..n-1 but cur, farthest from cur first; at equal
// distance the earlier (done) phase first.
func byDistance(n, cur int) []int {
	out := make([]int, 0, n)
	for d := n; d > 0; d-- {
		if i := cur - d; i >= 0 && i < n {
			out = append(out, i)
		}
		if i := cur + d; i >= 0 && i < n {
			out = append(out, i)
		}
	}
	return out
}

func (m *Model) timelineOf(cur int, names []string, sep string) string {
	parts := make([]string, len(names))
	for i, name := range names {
		if i == cur {
			parts[i] = m.th.current.Render("● " + name)
		} else {
			parts[i] = m.phaseMark(i, cur, name)
		}
	}
	return " " + strings.Join(parts, sep)
}

func (m *Model) phaseMark(i, cur int, name string) string {
	mark, st := "○", m.th.faint
	if i < cur {
		mark, st = "✓", m.th.dim
	}
	if name != "" {
		mark += " " + name
	}
	return st.Render(mark)
}

// footerHeight: the status line and the help.
func (m *Model) footerHeight() int {
	return 1 + strings.Count(m.helpView(), "\n") + 1
}

// helpView is the help for the current state. It is cached: the footer
// is drawn every frame and changes only with the state.
func (m *Model) helpView() string {
	k := m.keys
	k.outcome = m.showOutcome && m.outcome != nil
	k.replay = m.replay != nil
	k.canOutcome = m.outcome != nil
	k.canModerate = m.canModerate()
	k.canFollowUp = m.canFollowUp()
	k.width = m.width - 1
	key := helpKey{m.width, m.help.ShowAll, k.outcome, k.replay, k.canOutcome, k.canModerate, k.canFollowUp}
	if m.helpCache.key != key || m.helpCache.text == "" {
		m.helpCache.key, m.helpCache.text = key, m.help.View(k)
	}
	return m.helpCache.text
}

// helpKey is what the help depends on.
type helpKey struct {
	width                       int
	all, outcome, replay, outOK bool
	moderate, followUp          bool
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
		if m.tableHeight() > 0 { // drawn above: say only what was decided
			return th.current.Render("⚖ ") + th.dim.Render(t.Decision)
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

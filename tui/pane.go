package tui

import (
	"strconv"
	"strings"
	"time"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/layout"
	"github.com/arenadebate/arena/tui/markdown"
)

// paneState is where an agent stands.
type paneState uint8

const (
	stateWaiting paneState = iota
	stateWorking
	stateDone
	stateFailed
)

// Bounds on what a pane keeps. What is drawn is bounded by the pane's
// height; these bound memory and the cost of re-wrapping on a resize.
const (
	maxRawBytes  = 64 << 10  // streamed text kept per call (its tail)
	maxPaneBytes = 512 << 10 // text kept per pane (oldest calls go first)
)

// call is one request to an agent and what came back: a section of its
// pane.
type call struct {
	title   string
	state   paneState
	raw     strings.Builder // streamed text, its tail only past maxRawBytes
	trimmed bool            // raw lost its head
	display string          // the readable reply, once finished
	note    string          // a failure or a warning, shown under the text
	noteAs  lineKind        // kindFail, kindRetry or kindNote
	body    wrapper         // the raw text, wrapped; its width is the section's
	tail    wrapper

	// doc is the reply drawn by glamour: the finished reply, or the
	// streaming one as its shape's layout renders it (nil: the raw text
	// is shown instead).
	doc *markdown.Stream
	// live renders the streaming reply with its shape's layout, so the
	// pane reads as prose while JSON arrives, and prose as it will read
	// (nil: shown as raw text, for a shape without a layout, or once the
	// reply grew past liveBytes). dirty: written since last laid out.
	live  *layout.Stream
	dirty bool
	n     int // bytes streamed
	// marker: not a call but a line for the person (the moderator's
	// note, where a run was resumed); the call in progress goes on
	// past it.
	marker bool
}

// liveBytes bounds rendering a reply as it streams: past it the pane
// shows the tail of the raw text, as a flood gets. Below it, what a frame
// renders is the line being written, whatever the reply's length
// (markdown.Stream): what it bounds is what a reply drawn as it streams
// holds, its text laid out and its lines.
const liveBytes = maxPaneBytes

func (c *call) size() int { return c.raw.Len() + len(c.display) + len(c.note) }

// count is the number of lines of the section: title, body, tail.
func (c *call) count() int { return 1 + c.bodyCount() + c.tail.count() }

// bodyCount is the number of lines of the reply.
func (c *call) bodyCount() int {
	if c.doc != nil {
		return c.doc.Len()
	}
	return c.body.count()
}

// at returns line i of the section.
func (c *call) at(i int) line {
	switch {
	case i == 0:
		return line{text: c.title, kind: kindSection}
	case i-1 < c.bodyCount():
		if c.doc != nil {
			return line{text: c.doc.Line(i - 1), kind: kindStyled}
		}
		return c.body.at(i - 1)
	}
	return c.tail.at(i - 1 - c.bodyCount())
}

// sectionLines is how many lines call i takes in the pane: a blank line
// separates it from the one before.
func (p *pane) sectionLines(i int) int {
	if i == 0 {
		return p.calls[i].count()
	}
	return p.calls[i].count() + 1
}

// stream appends streamed text.
func (c *call) stream(s string) {
	c.raw.WriteString(s)
	if c.raw.Len() > 2*maxRawBytes {
		c.trimRaw()
	}
	c.n += len(s)
	if c.live != nil {
		c.live.WriteString(s)
		c.dirty = true
		if c.n > liveBytes {
			c.live, c.doc, c.dirty = nil, nil, false
			c.rewrap(c.body.width)
		}
		return
	}
	if c.body.width > 0 {
		c.body.write(s)
	}
}

// finishDoc draws the finished reply, rendered whole as glamour draws it.
// Until that render is back, what the streaming reply showed stays, where
// it reads as the reply does (else the reply shows as plain text).
func (c *call) finishDoc() {
	var shown []string
	width := 0
	if c.live != nil && c.doc != nil {
		c.feed()
		if c.doc.Markdown() == c.display {
			shown, width = c.doc.Lines(), c.doc.Width()
		}
	}
	c.live, c.dirty = nil, false
	c.doc = markdown.NewAsyncStream()
	c.doc.Layout(width) // the width shown was laid out at
	c.doc.AddShown(c.display, shown)
}

// feed hands the layout's rendering of the streaming reply to the
// document: the blocks that became final, and the rest.
func (c *call) feed() {
	c.doc.Add(c.live.Completed()...)
	c.doc.SetTail(c.live.Rest())
}

// trimRaw keeps the last maxRawBytes of the streamed text, cut at a rune
// boundary. The wrapped lines are left alone: they have their own bound.
func (c *call) trimRaw() {
	s := c.raw.String()
	cut := len(s) - maxRawBytes
	for cut < len(s) && s[cut]&0xC0 == 0x80 {
		cut++
	}
	c.raw.Reset()
	c.raw.WriteString(s[cut:])
	c.trimmed = true
}

// rewrap lays the section out again at width (0: not laid out yet).
func (c *call) rewrap(width int) {
	c.body.reset(width)
	c.tail.reset(width)
	if width <= 0 {
		return
	}
	switch {
	case c.doc != nil:
		if c.live != nil && c.state != stateDone {
			c.feed()
		}
		c.doc.Layout(width)
	default:
		if c.trimmed {
			c.body.kind = kindNote
			c.body.write("… earlier text trimmed")
			c.body.newline()
		}
		c.body.kind = kindRaw
		c.body.write(c.raw.String())
	}
	if c.note != "" {
		c.tail.kind = c.noteAs
		if c.bodyCount() > 0 {
			c.tail.newline()
		}
		c.tail.write(c.note)
	}
}

// pane is one agent's column: its status and the sections of its calls.
type pane struct {
	name  string // the seat
	agent string // the agent holding it
	role  engine.Role
	color int // index into the theme's agent styles

	calls []*call
	bytes int // sum of the calls' sizes

	state    paneState
	badge    string
	stance   engine.Stance
	failMsg  string
	retry    bool
	started  time.Time
	timeout  time.Duration
	attempt  int
	finished time.Duration

	acct engine.Account // what the seat's calls cost so far

	render    *markdown.Renderer // draws the replies, in one job at a time (render.go)
	renderGen int                // bumped with the styles: older renders are dropped
	rendering bool               // a job is under way

	w, h   int  // outer size, border included
	follow bool // stick to the tail
	top    int  // first visible line when not following
	unseen bool // text arrived below while scrolled up
}

func newPane(seat, agent string, role engine.Role, color int, md markdown.Options) *pane {
	return &pane{name: seat, agent: agent, role: role, color: color, follow: true, render: markdown.New(md)}
}

// restyle draws the replies as md says (new styles): everything is
// rendered again, with a new renderer (a job under way keeps the old
// one, and what it renders is dropped).
func (p *pane) restyle(md markdown.Options) {
	p.render = markdown.New(md)
	p.renderGen++
	p.rendering = false
	for _, c := range p.calls {
		if c.doc != nil {
			c.doc.SetRenderer(nil)
		}
		c.rewrap(p.contentWidth())
	}
}

// Content area: a border and one column of padding on each side. A pane
// not laid out yet has width 0 and wraps nothing.
func (p *pane) contentWidth() int {
	if p.w <= 0 {
		return 0
	}
	return max(p.w-4, 1)
}
func (p *pane) contentHeight() int { return max(p.h-2, 0) }

// SetSize sets the outer size; a new width re-wraps the pane's text.
func (p *pane) SetSize(w, h int) {
	oldWidth := p.contentWidth()
	p.w, p.h = w, h
	if p.contentWidth() != oldWidth || p.needsWrap() {
		for _, c := range p.calls {
			c.rewrap(p.contentWidth())
		}
	}
	p.clamp()
}

func (p *pane) needsWrap() bool {
	return len(p.calls) > 0 && p.calls[len(p.calls)-1].body.width != p.contentWidth()
}

// open returns the call in progress, or nil.
func (p *pane) open() *call {
	for i := len(p.calls) - 1; i >= 0; i-- {
		if c := p.calls[i]; !c.marker {
			if c.state == stateWorking {
				return c
			}
			return nil
		}
	}
	return nil
}

// remark adds a line for the person to the pane: a marker section.
func (p *pane) remark(text string) {
	c := &call{title: text, state: stateDone, marker: true}
	c.rewrap(p.contentWidth())
	p.calls = append(p.calls, c)
	p.bytes += c.size()
	p.bound()
	p.changed()
}

// cutOff ends the call in progress as cut off (the run was resumed: it
// is asked again) and marks the place. What it streamed reads as it did
// while streaming (its shape's layout, never raw JSON), as a failed
// call's does.
func (p *pane) cutOff(text string) {
	if c := p.open(); c != nil {
		c.state = stateFailed
		c.note, c.noteAs = "✗ cut off: asked again", kindFail
		c.rewrap(p.contentWidth())
	}
	if p.state == stateWorking {
		p.state = stateWaiting
	}
	p.remark(text)
}

// begin starts a section for a new call; l is how its reply shape reads
// (nil: shown as raw text while it streams).
func (p *pane) begin(e engine.AgentStarted, at time.Time, l *layout.Layout) {
	if c := p.open(); c != nil {
		c.state = stateFailed // a call that never reported back
	}
	c := &call{title: sectionTitle(e.Phase, e.Round, e.Attempt), state: stateWorking}
	if l != nil {
		c.live, c.doc = layout.NewStream(*l), markdown.NewAsyncStream()
	}
	c.rewrap(p.contentWidth())
	p.calls = append(p.calls, c)
	p.state, p.started, p.timeout, p.attempt = stateWorking, at, e.Timeout.D(), e.Attempt
	p.badge, p.stance, p.failMsg, p.retry = "", "", "", false
	p.changed()
}

// stream appends text to the call in progress. Text arriving for no open
// call (late, after its AgentFinished) is dropped: the section already
// shows the finished reply, and appending raw JSON under it would corrupt
// it. It reports whether the text was kept.
func (p *pane) stream(s string) bool {
	c := p.open()
	if c == nil {
		return false
	}
	before := c.size()
	c.stream(s)
	p.bytes += c.size() - before
	p.bound()
	p.changed()
	return true
}

// finish replaces the call's streamed text by its readable reply.
func (p *pane) finish(e engine.AgentFinished) {
	c := p.open()
	if c == nil { // its AgentStarted was not seen (a log cut at its head)
		c = &call{title: sectionTitle(e.Phase, e.Round, e.Attempt)}
		p.calls = append(p.calls, c)
	}
	if d := e.Duration.D(); d > 0 {
		c.title += " · " + fmtDur(d)
	}
	p.bytes -= c.size()
	c.state = stateDone
	c.display = e.Display
	if c.display == "" {
		c.display = e.Text // unparseable: the text is all there is
	}
	if c.display == "" {
		c.display = "(empty reply)"
	}
	c.raw = strings.Builder{}
	c.finishDoc()
	if e.Unparseable {
		c.note, c.noteAs = "⚠ reply could not be parsed; shown as received", kindNote
	}
	c.rewrap(p.contentWidth())
	p.bytes += c.size()
	p.state, p.badge, p.stance, p.finished = stateDone, e.Badge, e.Stance, e.Duration.D()
	p.acct.Calls++
	p.acct.Time += e.Duration.D()
	p.acct.Usage.Add(e.Usage)
	if e.Unparseable && p.badge == "" {
		p.badge = "unparseable"
	}
	p.bound()
	p.changed()
}

// fail marks the call as failed, keeping what it streamed.
func (p *pane) fail(e engine.AgentFailed) {
	c := p.open()
	if c == nil {
		c = &call{title: sectionTitle(e.Phase, e.Round, e.Attempt)}
		p.calls = append(p.calls, c)
	}
	c.state = stateFailed
	c.note, c.noteAs = "✗ "+e.Message, kindFail
	if e.WillRetry {
		c.note, c.noteAs = c.note+" · retrying", kindRetry
	}
	c.rewrap(p.contentWidth())
	p.state, p.failMsg, p.retry = stateFailed, e.Message, e.WillRetry
	p.acct.Calls++
	p.acct.Failures++
	p.acct.Time += e.Duration.D()
	p.changed()
}

// sectionTitle heads a call's section: "round 2 · opening · attempt 2".
func sectionTitle(phase engine.Phase, round, attempt int) string {
	title := humanPhase(phase)
	if round > 0 {
		title = "round " + strconv.Itoa(round) + " · " + title
	}
	if attempt > 1 {
		title += " · attempt " + strconv.Itoa(attempt)
	}
	return title
}

// changed notes that text arrived: a pane scrolled up hints at it.
func (p *pane) changed() {
	if !p.follow {
		p.unseen = true
	}
}

// bound drops the oldest calls while the pane holds too much text.
func (p *pane) bound() {
	for p.bytes > maxPaneBytes && len(p.calls) > 1 {
		p.bytes -= p.calls[0].size()
		p.top -= p.sectionLines(0) + 1 // the next section loses its blank
		p.calls = p.calls[1:]
	}
	p.clamp()
}

// lineCount is the number of lines of all sections.
func (p *pane) lineCount() int {
	n := 0
	for i := range p.calls {
		n += p.sectionLines(i)
	}
	return n
}

// maxTop is the first line shown when following the tail.
func (p *pane) maxTop() int { return max(p.lineCount()-p.contentHeight(), 0) }

func (p *pane) clamp() {
	p.top = min(max(p.top, 0), p.maxTop())
}

// scroll moves the view by n lines (negative: up). Scrolling up leaves the
// tail; reaching the bottom again rejoins it.
func (p *pane) scroll(n int) {
	if p.follow {
		p.top = p.maxTop()
	}
	p.top += n
	p.clamp()
	p.follow = p.top >= p.maxTop()
	if p.follow {
		p.unseen = false
	}
}

func (p *pane) page(dir int) { p.scroll(dir * max(p.contentHeight()-1, 1)) }
func (p *pane) home()        { p.top, p.follow = 0, p.maxTop() == 0 }
func (p *pane) end()         { p.follow, p.unseen = true, false }

// window returns the lines on screen, at most contentHeight of them.
func (p *pane) window() []line {
	h := p.contentHeight()
	top := p.top
	if p.follow {
		top = p.maxTop()
	}
	out := make([]line, 0, h)
	for ci, c := range p.calls {
		n := p.sectionLines(ci)
		if top >= n {
			top -= n
			continue
		}
		gap := n - c.count() // the blank line before the section
		for i := top; i < n && len(out) < h; i++ {
			if i < gap {
				out = append(out, line{kind: kindText})
			} else {
				out = append(out, c.at(i-gap))
			}
		}
		top = 0
		if len(out) == h {
			break
		}
	}
	return out
}

package tui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/arenadebate/arena/tui/markdown"
)

// Replies are drawn by glamour, whose time a model's text decides (a
// reply that nests deep or writes a huge word took it seconds, CONTRIBUTING.md's
// Reliability), so no frame waits for it beyond a budget. Each pane lays
// out what streamed on the update loop, showing as plain text what is
// not rendered yet, and renders off the loop, in a goroutine with a
// renderer of its own, one job at a time. The frame waits for the jobs
// it started for at most renderBudget: those back by then are drawn in
// it, as if rendered in place (the common case: a frame's renders take
// well under a millisecond); the others come back as messages when they
// are done, and their panes show plain text till then. So a render that
// takes seconds holds up one pane's styling, never a frame, a key or
// another pane. (A command for every job, always, cost a second Update
// and View a frame for each pane: more than the renders.)

// renderBudget is how long a frame waits for its renders: it is drawn
// frameLag after the tick and written to the terminal flushLag after it,
// and must be drawn by then.
const renderBudget = flushLag - frameLag - 2*time.Millisecond

// renderReq is a Markdown document a reply needs rendered at a width.
type renderReq struct {
	doc   *markdown.Stream // the reply that asked; only Update touches it
	md    string
	width int
}

// renderedMsg carries a pane's renders back from its job.
type renderedMsg struct {
	seat  string
	gen   int // the pane's styles they were rendered with
	reqs  []renderReq
	lines [][]string
}

// renderJob is one pane's renders: what they are, and the renderer to
// make them with (the pane's own: one is not safe for two goroutines, and
// no other job of the pane runs meanwhile).
type renderJob struct {
	seat string
	gen  int
	r    *markdown.Renderer
	reqs []renderReq
}

// run renders the job. It reads the documents' text and widths, never
// the model.
func (j renderJob) run() renderedMsg {
	out := make([][]string, len(j.reqs))
	for i, q := range j.reqs {
		out[i] = j.r.Render(q.md, q.width)
	}
	return renderedMsg{seat: j.seat, gen: j.gen, reqs: j.reqs, lines: out}
}

// layPanes lays out what changed in every pane and renders what they
// need: within the budget in this frame, as messages after it (the
// commands returned) for the jobs that take longer.
func (m *Model) layPanes() tea.Cmd {
	budget := time.NewTimer(m.renderBudget)
	defer budget.Stop()
	for range maxRenderRounds { // a layout with renders may need more (a block now whole)
		jobs := m.renderJobs()
		if len(jobs) == 0 {
			break
		}
		if late := m.awaitRenders(jobs, budget.C); late != nil {
			return late
		}
	}
	return nil
}

// maxRenderRounds bounds the layouts a frame makes with what its renders
// brought.
const maxRenderRounds = 3

// renderJobs lays out every pane and starts the jobs they need.
func (m *Model) renderJobs() []renderJob {
	var jobs []renderJob
	for _, p := range m.panes {
		if j, ok := p.lay(); ok {
			jobs = append(jobs, j)
		}
	}
	return jobs
}

// awaitRenders runs jobs in goroutines and hands their renders to the
// panes as they come, until the budget runs out: it then returns a
// command for each job still running, which delivers its renders as a
// message once they are done.
func (m *Model) awaitRenders(jobs []renderJob, budget <-chan time.Time) tea.Cmd {
	done := make(chan renderedMsg, len(jobs))
	run := m.renderWith
	for _, j := range jobs {
		go func() { done <- run(j) }()
	}
	for pending := len(jobs); pending > 0; pending-- {
		select {
		case msg := <-done:
			m.onRendered(msg)
		case <-budget:
			cmds := make([]tea.Cmd, pending)
			for i := range cmds {
				cmds[i] = func() tea.Msg { return <-done }
			}
			return tea.Batch(cmds...)
		}
	}
	return nil
}

// onRendered hands a pane's renders to its replies.
func (m *Model) onRendered(msg renderedMsg) {
	i, ok := m.byName[msg.seat]
	if !ok {
		return
	}
	p := m.panes[i]
	if msg.gen != p.renderGen {
		return // rendered with the styles before: asked for again since
	}
	p.rendering = false
	for i, q := range msg.reqs {
		q.doc.Rendered(q.md, q.width, msg.lines[i])
	}
	p.layOut()
}

// lay lays out every reply of the pane (a streaming one's new text, the
// renders that came back) and returns the job rendering what they need,
// unless one is under way: what they need then waits for its return.
func (p *pane) lay() (renderJob, bool) {
	p.layOut()
	if p.rendering {
		return renderJob{}, false
	}
	var reqs []renderReq
	for _, c := range p.calls {
		if c.doc == nil {
			continue
		}
		for _, md := range c.doc.Wants() {
			reqs = append(reqs, renderReq{doc: c.doc, md: md, width: c.doc.Width()})
		}
	}
	if len(reqs) == 0 {
		return renderJob{}, false
	}
	p.rendering = true
	return renderJob{seat: p.name, gen: p.renderGen, r: p.render, reqs: reqs}, true
}

// layOut lays out every reply of the pane with the renders it has.
func (p *pane) layOut() {
	for _, c := range p.calls {
		c.lay(p.contentWidth())
	}
	p.clamp()
}

// lay lays out the call's reply at width: a streaming one's text since
// the last frame, once a frame, not once a chunk.
func (c *call) lay(width int) {
	if c.doc == nil || width <= 0 {
		return
	}
	if c.dirty && c.live != nil {
		c.dirty = false
		c.feed()
	}
	c.doc.Layout(width)
}

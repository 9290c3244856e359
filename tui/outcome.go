package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/doc"
	"github.com/arenadebate/arena/tui/markdown"
)

// maxCachedRenders bounds the renders kept: a person dragging the window
// edge produces a width per frame.
const maxCachedRenders = 8

// outcomeDoc is the outcome's Markdown, rendered by glamour once per
// width (in a command, off the update loop: a long document takes a few
// milliseconds) and shown in a viewport.
type outcomeDoc struct {
	vp      viewport.Model
	gen     int            // bumped when the document or the theme changes
	cache   map[int]string // rendered document, by width
	pending map[int]bool   // renders under way, by width
	shown   int            // the width of what vp holds; 0: nothing
}

func newOutcomeDoc() outcomeDoc {
	return outcomeDoc{vp: viewport.New(0, 0), cache: map[int]string{}, pending: map[int]bool{}}
}

// reset forgets every render: a new document, or new styles.
func (d *outcomeDoc) reset() {
	d.gen++
	d.cache, d.pending, d.shown = map[int]string{}, map[int]bool{}, 0
	d.vp.SetContent("")
	d.vp.GotoTop()
}

func (d *outcomeDoc) show(width int, out string) {
	if d.shown == width {
		return
	}
	off := d.vp.YOffset
	d.vp.SetContent(out)
	d.vp.SetYOffset(off)
	d.shown = width
}

// outcomeRenderedMsg carries a rendered document back from
// renderMarkdownCmd.
type outcomeRenderedMsg struct {
	gen, width int
	out        string
}

// renderMarkdownCmd renders md. It touches nothing of the model:
// everything it needs is passed by value, and it makes its own glamour
// renderer (one is not safe for two goroutines).
func renderMarkdownCmd(gen, width int, md string, o markdown.Options) tea.Cmd {
	return func() tea.Msg {
		return outcomeRenderedMsg{gen: gen, width: width, out: renderOutcomeDoc(md, width, o)}
	}
}

// outcomeMargin is the document's margin on the left and on the right.
const outcomeMargin = "  "

// renderOutcomeDoc draws the outcome document at width, its tables
// fitted (renderDoc): a blank line to set it apart from the banner above,
// then its lines behind a margin.
func renderOutcomeDoc(md string, width int, o markdown.Options) string {
	lines := renderDoc(markdown.New(o), md, max(width-2*len(outcomeMargin), 10))
	var b strings.Builder
	for _, l := range lines {
		b.WriteString("\n")
		if l != "" {
			b.WriteString(outcomeMargin + l)
		}
	}
	return b.String()
}

// renderOutcome shows the document at the current width, from the cache
// or by starting a render.
func (m *Model) renderOutcome() tea.Cmd {
	if m.outcome == nil || m.width <= 0 {
		return nil
	}
	d, w := &m.doc, m.width
	if out, ok := d.cache[w]; ok {
		d.show(w, out)
		return nil
	}
	if d.pending[w] {
		return nil
	}
	d.pending[w] = true
	return renderMarkdownCmd(d.gen, w, screenDocument(*m.outcome), m.th.md)
}

// screenDocument is the outcome document as the screen shows it: its
// Markdown without the summary, which the banner above it says. A log
// written before documents were data has its Markdown shown as it is.
func screenDocument(o engine.Outcome) string {
	if o.Document == nil {
		return o.Markdown
	}
	return doc.MarkdownWith(*o.Document, doc.MarkdownOptions{NoSummary: true})
}

func (m *Model) onOutcomeRendered(msg outcomeRenderedMsg) {
	d := &m.doc
	if msg.gen != d.gen {
		return // a render of a document or theme since replaced
	}
	delete(d.pending, msg.width)
	out := msg.out
	if len(d.cache) >= maxCachedRenders {
		clear(d.cache)
	}
	d.cache[msg.width] = out
	if msg.width == m.width {
		d.show(msg.width, out)
	}
}

// outcomeKey handles keys in the outcome view.
func (m *Model) outcomeKey(k tea.KeyMsg) tea.Cmd {
	vp := &m.doc.vp
	switch {
	case matches(k, m.keys.Outcome, m.keys.Next, m.keys.Back):
		m.showOutcome = false
		m.relayout()
	case matches(k, m.keys.Up):
		vp.ScrollUp(1)
	case matches(k, m.keys.Down):
		vp.ScrollDown(1)
	case matches(k, m.keys.PageUp):
		vp.PageUp()
	case matches(k, m.keys.PageDown):
		vp.PageDown()
	case matches(k, m.keys.Top):
		vp.GotoTop()
	case matches(k, m.keys.Bottom):
		vp.GotoBottom()
	}
	return nil
}

// outcomeBanner is the result, prominent, and the failures if any.
func (m *Model) outcomeBanner() []string {
	o := m.outcome
	pill, ok := m.th.result[o.Stance]
	if !ok {
		pill = m.th.pill
	}
	label := strings.ToUpper(string(o.Result))
	if !m.th.color {
		label = "[" + label + "]"
	}
	// The summary alone: the header counts the rounds, and a summary
	// that ends "after 1 round" read "after 1 round · 1 round".
	head := pill.Render(label) + "  " + m.th.bold.Render(o.Summary)
	lines := []string{fit(" "+head, m.width)}
	if len(o.Failures) > 0 {
		lines = append(lines, fit(" "+m.th.bad.Render("failures: "+strings.Join(o.Failures, "; ")), m.width))
	}
	return lines
}

// outcomePaths is where the report and the log were saved, or nil.
func (m *Model) outcomePaths() []string {
	o := m.outcome
	shown := m.opts.Paths
	if shown == nil {
		shown = func(path string) string { return path }
	}
	var parts []string
	for _, sv := range m.saved {
		parts = append(parts, m.th.dim.Render(sv.What+" ")+shown(sv.Path))
	}
	if o.LogPath != "" {
		parts = append(parts, m.th.dim.Render("log ")+shown(o.LogPath))
	}
	if len(parts) == 0 {
		return nil
	}
	return []string{fit(" "+strings.Join(parts, m.th.faint.Render("  ·  ")), m.width)}
}

// outcomeView is the outcome filling h lines.
func (m *Model) outcomeView(h int) []string {
	out := m.outcomeBanner()
	paths := m.outcomePaths()
	vh := max(h-len(out)-len(paths), 0)
	if m.doc.shown == 0 {
		body := blank(m.width, vh)
		if vh > 0 {
			body[vh/2] = fit(strings.Repeat(" ", max(m.width/2-6, 0))+m.th.dim.Render("rendering…"), m.width)
		}
		out = append(out, body...)
	} else {
		for _, l := range strings.Split(m.doc.vp.View(), "\n") {
			out = append(out, fit(l, m.width))
		}
	}
	return fitLines(append(out, paths...), m.width, h)
}

// outcomeViewportHeight is what the document gets of the body.
func (m *Model) outcomeViewportHeight(body int) int {
	n := body - 1
	if len(m.outcome.Failures) > 0 {
		n--
	}
	if len(m.saved) > 0 || m.outcome.LogPath != "" {
		n--
	}
	return max(n, 0)
}

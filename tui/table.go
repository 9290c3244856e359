package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/arenadebate/arena/engine"
)

// The latest table (a protocol's standing: verdicts, a scorecard, the
// judges' scores) is drawn under the panes as it comes: its title and
// what was decided, its header, its rows coloured by their stance. It
// takes at most a third of the body; where that leaves too little, the
// table shows as one line in the status line instead.

const maxTableLines = 10

// tableHeight is the lines the table takes under the panes (0: none
// shown, or no room).
func (m *Model) tableHeight() int {
	t := m.table
	if t == nil || (m.showOutcome && m.outcome != nil) || m.zoomed {
		return 0
	}
	avail := (m.height - headerHeight - m.footerHeight()) / 3
	n := min(2+len(t.Rows), maxTableLines, avail)
	if n < 3 {
		return 0
	}
	return n
}

// tableView draws the table in h lines of the screen's width.
func (m *Model) tableView(h int) []string {
	t, th := m.table, &m.th
	head := th.current.Render("⚖ " + orWord(t.Title, "table"))
	if t.Decision != "" {
		head += th.dim.Render(" → " + t.Decision)
	}
	out := []string{fit(" "+head, m.width)}
	widths := make([]int, len(t.Columns))
	for i, c := range t.Columns {
		widths[i] = ansi.StringWidth(c)
	}
	for _, r := range t.Rows {
		for i, c := range r.Cells {
			if i < len(widths) {
				widths[i] = max(widths[i], ansi.StringWidth(c))
			}
		}
	}
	row := func(cells []string, first, rest ink) string {
		var b strings.Builder
		b.WriteString("   ")
		for i, w := range widths {
			c := ""
			if i < len(cells) {
				c = cells[i]
			}
			st := rest
			if i == 0 {
				st = first
			}
			b.WriteString(st.Render(c + strings.Repeat(" ", w-ansi.StringWidth(c))))
			if i < len(widths)-1 {
				b.WriteString("  ")
			}
		}
		return fit(b.String(), m.width)
	}
	out = append(out, row(t.Columns, th.bold, th.bold))
	shown := t.Rows
	if len(shown) > h-2 {
		shown = shown[:max(h-3, 0)]
	}
	for _, r := range shown {
		out = append(out, row(r.Cells, th.stanceStyle(r.Stance), th.text))
	}
	if len(shown) < len(t.Rows) {
		out = append(out, fit("   "+th.faint.Render("… "+engine.Plural(len(t.Rows)-len(shown), "more row")+" in the outcome document"), m.width))
	}
	return fitLines(out, m.width, h)
}

func orWord(s, w string) string {
	if s == "" {
		return w
	}
	return s
}

// onTable keeps the latest table, and lays the screen out again when its
// height changes.
func (m *Model) onTable(t engine.Table) {
	before := m.tableHeight()
	m.table = &t
	m.status = statusLine{text: t.Decision, level: "table", table: &t}
	if m.tableHeight() != before {
		m.relayout()
	}
}

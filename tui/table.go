package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/arenadebate/arena/engine"
)

// The latest table (a protocol's standing: verdicts, a scorecard, the
// judges' scores) is drawn under the panes as it comes: its title and
// what was decided, its header, its rows coloured by their stance. It
// fits the screen's width: the widest columns narrow and their cells wrap
// (a column's head is never cut), and what was decided takes a second
// line when it is long. It takes at most a third of the body; where that
// leaves too little, or the columns do not fit, the table shows as one
// line in the status line instead.

const maxTableLines = 10

// tableIndent is the margin of the table's header and rows, and
// tableGap the space between two columns.
const (
	tableIndent = "   "
	tableGap    = "  "
)

// tableLayout is the table laid out at a width: its lines, styled and
// each exactly the width. It is made once per table and width: the table
// is drawn every frame.
type tableLayout struct {
	t     *engine.Table
	width int
	head  []string // the title and what was decided: one or two lines
	head1 string   // the same on one line, cut
	// whole and whole1 say whether head and head1 show what was decided
	// whole: the status line says it only where the head cuts it.
	whole, whole1 bool
	fits          bool       // the columns fit without cutting a head or a word
	cols          string     // the columns' heads
	rows          [][]string // each row's lines
	rows1         [][]string // each row on one line, its cells cut
}

// laidOutTable is the current table at the screen's width.
func (m *Model) laidOutTable() *tableLayout {
	if l := m.tableLayout; l != nil && l.t == m.table && l.width == m.width {
		return l
	}
	m.tableLayout = layTable(&m.th, m.table, m.width)
	return m.tableLayout
}

// layTable lays t out in w cells.
func layTable(th *theme, t *engine.Table, w int) *tableLayout {
	l := &tableLayout{t: t, width: w}
	l.head, l.head1 = tableHead(th, t, w)
	text := " ⚖ " + orWord(t.Title, "table")
	if t.Decision != "" {
		text += " → " + t.Decision
	}
	l.whole1 = ansi.StringWidth(text) <= w
	l.whole = len(strings.Split(ansi.Wrap(strings.TrimPrefix(text, " "), max(w-2, 10), ""), "\n")) <= 2
	widths, fits := columnWidths(t, w-len(tableIndent)-1)
	l.fits = fits
	heads := make([]string, len(widths))
	for i := range widths {
		heads[i] = th.bold.Render(padCell(cellAt(t.Columns, i), widths[i]))
	}
	l.cols = fit(tableIndent+strings.Join(heads, tableGap), w)
	for _, r := range t.Rows {
		l.rows = append(l.rows, rowLines(th, r, widths, w, false))
		l.rows1 = append(l.rows1, rowLines(th, r, widths, w, true))
	}
	return l
}

// tableHead is "⚖ title → decision" wrapped to two lines at most (the
// second cut), and on one line, cut.
func tableHead(th *theme, t *engine.Table, w int) ([]string, string) {
	title := "⚖ " + orWord(t.Title, "table")
	rest := ""
	if t.Decision != "" {
		rest = " → " + t.Decision
	}
	paint := func(ln string) string {
		if r, ok := strings.CutPrefix(ln, title); ok {
			return th.current.Render(title) + th.dim.Render(r)
		}
		return th.dim.Render(ln)
	}
	lines := strings.Split(ansi.Wrap(title+rest, max(w-2, 10), ""), "\n")
	if len(lines) > 2 { // the second line is cut
		lines = []string{lines[0], strings.Join(lines[1:], " ")}
	}
	out := make([]string, len(lines))
	for i, ln := range lines {
		out[i] = fit(" "+paint(ln), w)
	}
	return out, fit(" "+paint(title+rest), w)
}

// maxUnbroken is the longest word a narrowed column keeps whole: a
// longer one (a path, a hash) is broken instead.
const maxUnbroken = 16

// columnWidths gives each column the width of its widest cell, then,
// while the row is wider than room, takes a cell from the widest column
// still wider than its floor: its head (never cut) or its longest word,
// the wider. It reports false when the floors are too wide for room.
func columnWidths(t *engine.Table, room int) ([]int, bool) {
	n := len(t.Columns)
	widths, floor := make([]int, n), make([]int, n)
	for i, c := range t.Columns {
		widths[i], floor[i] = ansi.StringWidth(c), max(ansi.StringWidth(c), 1)
	}
	for _, r := range t.Rows {
		for i, c := range r.Cells {
			if i >= n {
				continue
			}
			widths[i] = max(widths[i], ansi.StringWidth(c))
			for _, wd := range strings.Fields(c) {
				floor[i] = max(floor[i], min(ansi.StringWidth(wd), maxUnbroken))
			}
		}
	}
	total := (n - 1) * len(tableGap)
	for _, w := range widths {
		total += w
	}
	for total > room {
		widest := -1
		for i, w := range widths {
			if w > floor[i] && (widest < 0 || w > widths[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			return widths, false
		}
		widths[widest]--
		total--
	}
	return widths, true
}

// rowLines draws a row: its cells wrapped in their columns, or cut to one
// line, the first in the row's stance's colour.
func rowLines(th *theme, r engine.Row, widths []int, w int, cut bool) []string {
	cells := make([][]string, len(widths))
	height := 1
	for i, cw := range widths {
		c := cellAt(r.Cells, i)
		if cut {
			cells[i] = []string{ansi.Truncate(c, cw, "…")}
			continue
		}
		cells[i] = strings.Split(ansi.Wrap(c, max(cw, 1), ""), "\n")
		height = max(height, len(cells[i]))
	}
	out := make([]string, height)
	for y := range out {
		parts := make([]string, len(widths))
		for i, cw := range widths {
			st := th.text
			if i == 0 {
				st = th.stanceStyle(r.Stance)
			}
			parts[i] = st.Render(padCell(cellAt(cells[i], y), cw))
		}
		out[y] = fit(tableIndent+strings.Join(parts, tableGap), w)
	}
	return out
}

func cellAt(cells []string, i int) string {
	if i < len(cells) {
		return cells[i]
	}
	return ""
}

// padCell pads c to w cells.
func padCell(c string, w int) string {
	return c + strings.Repeat(" ", max(w-ansi.StringWidth(c), 0))
}

// lines is every line of the table when nothing is left out.
func (l *tableLayout) lines() int {
	n := len(l.head) + 1
	for _, r := range l.rows {
		n += len(r)
	}
	return n
}

// fold is the table for h lines: first what was decided gives up its
// second line, then each row is cut to one (cut).
func (l *tableLayout) fold(h int) (head []string, rows [][]string, cut bool) {
	if l.lines() <= h {
		return l.head, l.rows, false
	}
	if l.lines()-len(l.head)+1 <= h {
		return []string{l.head1}, l.rows, false
	}
	return []string{l.head1}, l.rows1, true
}

// decisionShown says whether the table, drawn in h lines, shows what was
// decided whole in its head.
func (l *tableLayout) decisionShown(h int) bool {
	if head, _, _ := l.fold(h); len(head) == len(l.head) {
		return l.whole
	}
	return l.whole1
}

// tableHeight is the lines the table takes under the panes (0: none
// shown, or no room).
func (m *Model) tableHeight() int {
	if m.table == nil || (m.showOutcome && m.outcome != nil) || m.zoomed {
		return 0
	}
	l := m.laidOutTable()
	avail := (m.height - headerHeight - m.footerHeight()) / 3
	n := min(l.lines(), maxTableLines, avail)
	if n < 3 || !l.fits {
		return 0
	}
	return n
}

// tableView draws the table in h lines of the screen's width: folded
// (tableLayout.fold) where it has fewer lines than it needs, and the rows
// left out still counted.
func (m *Model) tableView(h int) []string {
	head, rows, _ := m.laidOutTable().fold(h)
	out := append(append([]string(nil), head...), m.laidOutTable().cols)
	shown := 0
	for i, r := range rows {
		room := h - len(out)
		if i < len(rows)-1 {
			room-- // for the line that counts the rows left out
		}
		if len(r) > room {
			break
		}
		out = append(out, r...)
		shown++
	}
	if shown < len(rows) {
		out = append(out, fit(tableIndent+m.th.faint.Render("… "+engine.Plural(len(rows)-shown, "more row")+" in the outcome document"), m.width))
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

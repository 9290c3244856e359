package tui

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"

	"github.com/arenadebate/arena/tui/markdown"
)

// The outcome document's tables, fitted to the screen. Glamour draws a
// table across the whole width it is given, however short its columns
// (three short columns spread over 120), and where the table is wider it
// cuts what does not fit: compare's scores, one column per option and
// order, were headed "Kafka (as g…", "Postgres LI…". So each table is
// drawn apart from the text around it, at its own width; where its heads
// make it too wide, heads wider than their column's cells give way to
// letters (docTable.keyed), named in a legend under the table; and a
// table that cannot be drawn without cutting becomes a list. Nothing of a
// protocol is known here: any document's tables are fitted alike.

// docPart is a run of the outcome document: Markdown drawn as it is, or
// one table.
type docPart struct {
	text  string
	table *docTable
}

// docTable is a table of the document, in cells as written (Markdown).
type docTable struct {
	head  []string
	delim string // the delimiter row, as written: it carries the alignment
	rows  [][]string
}

// delimRow is a table's delimiter row: "|---|:--:|".
var delimRow = regexp.MustCompile(`^ {0,3}\|?(\s*:?-+:?\s*\|)*\s*:?-+:?\s*\|?\s*$`)

// tableLine says whether a line of prose can be a table's row: it opens
// with a pipe, indented as a paragraph may be (deeper, it is code or in a
// list).
func tableLine(ln string) bool {
	t := strings.TrimLeft(ln, " ")
	return len(ln)-len(t) <= 3 && strings.HasPrefix(t, "|")
}

// splitTables cuts md into its tables and the text between them. A table
// is, outside fenced code, a row, a delimiter row of as many cells, and
// the rows after: as goldmark finds one (under glamour), also right under
// a paragraph's line.
func splitTables(md string) []docPart {
	type ln struct {
		text  string
		prose bool
	}
	var lines []ln
	for l, kind := range markdown.Fenced(md) {
		lines = append(lines, ln{l, kind == markdown.Prose})
	}
	var parts []docPart
	var text strings.Builder
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		starts := l.prose && tableLine(l.text) && i+1 < len(lines) && lines[i+1].prose &&
			delimRow.MatchString(strings.TrimRight(lines[i+1].text, "\n")) &&
			len(splitRow(l.text)) == len(splitRow(lines[i+1].text))
		if !starts {
			text.WriteString(l.text)
			continue
		}
		t := &docTable{head: splitRow(l.text), delim: strings.TrimSpace(lines[i+1].text)}
		i += 2
		for ; i < len(lines) && lines[i].prose && tableLine(lines[i].text); i++ {
			t.rows = append(t.rows, splitRow(lines[i].text))
		}
		i--
		parts = append(parts, docPart{text: text.String()}, docPart{table: t})
		text.Reset()
	}
	return append(parts, docPart{text: text.String()})
}

// splitRow is a row's cells, trimmed: split at the pipes not escaped,
// without the pipes that open and close the row.
func splitRow(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	if strings.HasSuffix(row, "|") && !strings.HasSuffix(row, `\|`) {
		row = row[:len(row)-1]
	}
	var cells []string
	var b strings.Builder
	for i := 0; i < len(row); i++ {
		switch {
		case row[i] == '\\' && i+1 < len(row) && row[i+1] == '|':
			b.WriteString(`\|`)
			i++
		case row[i] == '|':
			cells = append(cells, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(row[i])
		}
	}
	return append(cells, strings.TrimSpace(b.String()))
}

// markdown writes the table back.
func (t *docTable) markdown() string {
	var b strings.Builder
	row := func(cells []string) {
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	row(t.head)
	b.WriteString(t.delim + "\n")
	for _, r := range t.rows {
		row(r)
	}
	return b.String()
}

// cellWidth is a cell's width as written: at least what glamour draws of
// it (emphasis and code marks take cells here, not on the screen).
func cellWidth(c string) int { return ansi.StringWidth(strings.ReplaceAll(c, `\|`, "|")) }

// widths is each column's widest cell, the head's apart.
func (t *docTable) widths() (heads, cells []int) {
	heads, cells = make([]int, len(t.head)), make([]int, len(t.head))
	for i, h := range t.head {
		heads[i] = cellWidth(h)
	}
	for _, r := range t.rows {
		for i, c := range r {
			if i < len(cells) {
				cells[i] = max(cells[i], cellWidth(c))
			}
		}
	}
	return heads, cells
}

// width is what the table needs to be drawn without cutting or wrapping
// a cell: its cells, a margin either side of each and the rules between
// them (glamour's tables, drawn by lipgloss), and a cell or two to spare.
func (t *docTable) width() int {
	heads, cells := t.widths()
	w := 0
	for i := range heads {
		w += max(heads[i], cells[i]) + 3
	}
	return w
}

// keyed is the table fitted to w by its heads, and the legend under it:
// the heads wider than their column's cells give way to letters, the
// most too wide first, as few as make the table fit, and with them every
// head too wide by at least half as much as the most (its siblings: as
// few as made it fit left, at 160 columns, compare's scores headed
// "Kafka (average) │ A │ Postgres LISTEN/NOTIFY (reversed)", and
// verdict's "semantic │ A │ syntactic" at 80); all of them where that is
// half of them or more, or where even all do not make it fit (then
// glamour narrows the columns with long cells, and their cells wrap). It is t itself, without a legend, when no head
// is wider than its cells.
func (t *docTable) keyed(w int) (*docTable, string) {
	heads, cells := t.widths()
	var wide []int // the columns whose head is wider than their cells
	for i := range heads {
		if heads[i] > max(cells[i], 1) {
			wide = append(wide, i)
		}
	}
	over := func(i int) int { return heads[i] - max(cells[i], 1) }
	slices.SortStableFunc(wide, func(a, b int) int { return over(b) - over(a) })
	wide = wide[:min(len(wide), 26)]
	k := *t
	k.head = append([]string(nil), t.head...)
	n := 0
	for ; n < len(wide) && k.width() > w; n++ {
		k.head[wide[n]] = "?"
	}
	if n == 0 {
		return t, ""
	}
	if 2*n >= len(wide) || k.width() > w {
		n = len(wide)
	}
	for n < len(wide) && 2*over(wide[n]) >= over(wide[0]) {
		n++
	}
	keyed := map[int]bool{}
	for _, i := range wide[:n] {
		keyed[i] = true
	}
	var legend []string
	for i, h := range t.head {
		if keyed[i] {
			key := string(rune('A' + len(legend)))
			k.head[i] = key
			legend = append(legend, "**"+key+"** "+h)
		}
	}
	return &k, strings.Join(legend, " · ")
}

// maxTableTries bounds the renders of one table (see render).
const maxTableTries = 4

// render draws the table in at most w cells: at its own width, or keyed
// with its legend under it where its heads make it wider than w; still
// wider, glamour narrows its columns and wraps their cells; and where
// that cuts a head or a cell, as a list, a row an item. Glamour draws its
// tables with lipgloss, which counts a few cells fewer than glamour draws
// (one with three columns, six with eight) and then cuts the cells it
// believes fit: a row given 76 columns ended "0 failed, 0 sk". So a
// drawing that lost a letter or a digit is drawn again a cell narrower.
func (t *docTable) render(r *markdown.Renderer, w int) []string {
	orig, legend := t, ""
	if t.width() > w {
		t, legend = t.keyed(w)
	}
	md, want := t.markdown(), t.letters()
	var lines []string
	kept := false
	for tw, try := min(t.width(), w), 0; tw > 0 && try < maxTableTries && !kept; tw, try = tw-1, try+1 {
		lines = r.Render(md, tw)
		cut := strings.Count(strings.Join(lines, ""), "…") > strings.Count(md, "…")
		kept = keepsLetters(lines, want) && !cut
	}
	if !kept {
		return r.Render(orig.list(), w)
	}
	if legend != "" {
		lines = append(append(lines, ""), r.Render(legend, w)...)
	}
	return lines
}

// list is the table as a list, for a screen too narrow for its columns:
// an item a row, its first cell in bold, then each other cell after its
// column's head.
func (t *docTable) list() string {
	var b strings.Builder
	for _, row := range t.rows {
		var parts []string
		for i, c := range row[1:] {
			if c != "" && i+1 < len(t.head) {
				parts = append(parts, t.head[i+1]+": "+c)
			}
		}
		b.WriteString("- **" + cellAt(row, 0) + "**")
		if len(parts) > 0 {
			b.WriteString(" — " + strings.Join(parts, "; "))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// letters counts the letters and digits of the table's cells: drawing
// leaves them all, where it drops marks of emphasis and spaces.
func (t *docTable) letters() map[rune]int {
	n := map[rune]int{}
	count := func(cells []string) {
		for _, c := range cells {
			for _, r := range c {
				if unicode.IsLetter(r) || unicode.IsDigit(r) {
					n[r]++
				}
			}
		}
	}
	count(t.head)
	for _, row := range t.rows {
		count(row)
	}
	return n
}

// keepsLetters says whether lines hold every letter and digit counted in
// want.
func keepsLetters(lines []string, want map[rune]int) bool {
	got := map[rune]int{}
	for _, l := range lines {
		for _, r := range ansi.Strip(l) {
			got[r]++
		}
	}
	for r, n := range want {
		if got[r] < n {
			return false
		}
	}
	return true
}

// renderDoc draws a document in lines of at most w cells, its tables
// fitted.
func renderDoc(r *markdown.Renderer, md string, w int) []string {
	var out []string
	for _, p := range splitTables(md) {
		var lines []string
		if p.table != nil {
			lines = p.table.render(r, w)
		} else {
			lines = r.Render(p.text, w)
		}
		if len(lines) == 0 {
			continue
		}
		if len(out) > 0 {
			out = append(out, "") // glamour's blank line between blocks
		}
		out = append(out, lines...)
	}
	return out
}

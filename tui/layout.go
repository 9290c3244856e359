package tui

// The smallest pane worth drawing as a box: narrower panes wrap a model's
// reply into confetti; shorter ones show two lines of it.
const (
	minPaneWidth  = 32
	minPaneHeight = 7
)

// A pane that reads well: lines long enough for prose and short enough
// to follow, and enough of them to follow a reply. Panes side by side
// narrower than this give way to a grid of panes this size when the
// screen has the room (at 160×48, four panes of 40 columns, most of their
// rows empty, become a 2×2 of 80).
const (
	readPaneWidth    = 50
	readPaneMaxWidth = 100
	readPaneHeight   = 12
)

// layoutRow is one band of the pane area: boxes side by side, or (when
// compact) a single pane drawn as a one-line summary.
type layoutRow struct {
	height  int
	panes   []int // pane indexes, left to right
	widths  []int
	compact bool
}

// computeLayout places n panes in w×h cells: side by side, in a grid, or
// stacked (gridColumns says which) and, when even stacking leaves the
// panes too short, the focused pane as a box and the others one line each.
func computeLayout(n, w, h, focus int) []layoutRow {
	if n == 0 || w <= 0 || h <= 0 {
		return nil
	}
	cols := gridColumns(n, w, h)
	if cols == 0 {
		return focusLayout(n, w, h, focus)
	}
	rows := ceilDiv(n, cols)
	out := make([]layoutRow, 0, rows)
	for i, hh := range split(h, rows) {
		out = append(out, row(seq(i*cols, min((i+1)*cols, n)), w, hh))
	}
	return out
}

// gridColumns is how many panes sit side by side in each row: the first,
// from all n down to one, whose panes all read well (readPaneWidth to
// readPaneMaxWidth wide, readPaneHeight high; a last row of fewer panes
// has wider ones), or else the most that fit (minPaneWidth ×
// minPaneHeight); 0 when none do. The rows are balanced: four panes in
// three columns are a 2×2.
func gridColumns(n, w, h int) int {
	fits := 0
	for c := n; c >= 1; c-- {
		rows := ceilDiv(n, c)
		cols := ceilDiv(n, rows)
		narrowest, widest, ph := w/cols, ceilDiv(w, n-(rows-1)*cols), h/rows
		if narrowest < minPaneWidth || ph < minPaneHeight {
			continue
		}
		if narrowest >= readPaneWidth && widest <= readPaneMaxWidth && ph >= readPaneHeight {
			return cols
		}
		if fits == 0 {
			fits = cols
		}
	}
	return fits
}

// focusLayout gives the focused pane what the others, one line each,
// leave.
func focusLayout(n, w, h, focus int) []layoutRow {
	if h-(n-1) < 4 {
		return []layoutRow{row([]int{focus}, w, h)}
	}
	out := make([]layoutRow, 0, n)
	for i := range n {
		if i == focus {
			out = append(out, row([]int{i}, w, h-(n-1)))
			continue
		}
		out = append(out, layoutRow{height: 1, panes: []int{i}, widths: []int{w}, compact: true})
	}
	return out
}

func row(panes []int, w, h int) layoutRow {
	return layoutRow{height: h, panes: panes, widths: split(w, len(panes))}
}

// split divides total into n parts differing by at most one, the larger
// first.
func split(total, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = total / n
		if i < total%n {
			out[i]++
		}
	}
	return out
}

func seq(from, to int) []int {
	out := make([]int, 0, to-from)
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

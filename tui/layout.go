package tui

// The smallest pane worth drawing as a box: narrower panes wrap a model's
// reply into confetti; shorter ones show two lines of it.
const (
	minPaneWidth  = 32
	minPaneHeight = 7
)

// layoutRow is one band of the pane area: boxes side by side, or (when
// compact) a single pane drawn as a one-line summary.
type layoutRow struct {
	height  int
	panes   []int // pane indexes, left to right
	widths  []int
	compact bool
}

// computeLayout places n panes in w×h cells: side by side when wide, a grid
// when medium, stacked when narrow and, when even stacking leaves the
// panes too short, the focused pane as a box and the others one line each.
func computeLayout(n, w, h, focus int) []layoutRow {
	if n == 0 || w <= 0 || h <= 0 {
		return nil
	}
	if w/n >= minPaneWidth {
		return []layoutRow{row(seq(0, n), w, h)}
	}
	if cols := w / minPaneWidth; cols >= 2 {
		rows := ceilDiv(n, cols)
		cols = ceilDiv(n, rows) // balance: 4 panes in 3 columns are a 2×2
		if h/rows >= minPaneHeight {
			out := make([]layoutRow, 0, rows)
			for i, hh := range split(h, rows) {
				out = append(out, row(seq(i*cols, min((i+1)*cols, n)), w, hh))
			}
			return out
		}
	}
	if h/n >= minPaneHeight {
		out := make([]layoutRow, 0, n)
		for i, hh := range split(h, n) {
			out = append(out, row([]int{i}, w, hh))
		}
		return out
	}
	return focusLayout(n, w, h, focus)
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

package tui

import (
	"strings"
	"testing"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/tui/tuitest"
)

// Every table a protocol draws under the panes fits the screen whole:
// at 80 columns rank's measured facts were cut to "2 passed, 0 failed,
// 0 …". Each head is whole, and so is every cell where the table has
// the lines its wrapped cells need (short of them, each row keeps one
// line); a table whose heads cannot fit is not drawn as one (the status
// line says it on one line).
func TestTableUnderThePanesFits(t *testing.T) {
	for _, protocol := range tuitest.Protocols() {
		ev := tuitest.Run(protocol)
		for i, e := range ev {
			tb, ok := e.Payload.(engine.Table)
			if !ok {
				continue
			}
			for _, size := range [][2]int{{80, 24}, {100, 30}, {120, 40}} {
				h := newHarness(t, Options{}, ev[:i+1], size[0], size[1])
				n := h.m.tableHeight()
				if n == 0 {
					continue
				}
				drawn := plain(strings.Join(h.m.tableView(n), "\n"))
				words := strings.Fields(strings.Join(tb.Columns, " "))
				if _, _, cut := h.m.laidOutTable().fold(n); !cut && !strings.Contains(drawn, "more row") {
					for _, r := range tb.Rows {
						words = append(words, strings.Fields(strings.Join(r.Cells, " "))...)
					}
				}
				for _, w := range words {
					if !strings.Contains(drawn, w) {
						t.Errorf("%s, table %q at %dx%d: %q is cut:\n%s", protocol, tb.Title, size[0], size[1], w, drawn)
						break
					}
				}
			}
		}
	}
}

// Where a pane says one verdict and the table counts another (qwen's
// pane says AGREE; under the adversarial debate's skepticism of early
// agreement the table counts it partial), both are on the screen at 80
// columns with the reason, as the engine words it.
func TestTableSaysWhyAVerdictCountsOtherwise(t *testing.T) {
	h := newHarness(t, Options{}, round2(t), 80, 24)
	view := plain(h.view())
	for _, want := range []string{"qwen · challenger", "agree · minor", "agree → partial", "a round-1 agree counts as partial"} {
		if !strings.Contains(view, want) {
			t.Errorf("the screen does not show %q:\n%s", want, view)
		}
	}
}

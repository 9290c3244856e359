package plain

import (
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/lipgloss/table"

	"github.com/arenadebate/arena/challengers/trust"
)

// newTable is a borderless table with a bold header row, the look of
// `gh` and `kubectl` listings.
func newTable(r *lipgloss.Renderer, headers ...string) textTable {
	head := r.NewStyle().Bold(true).PaddingRight(2)
	cell := r.NewStyle().PaddingRight(2)
	return textTable{table.New().Headers(headers...).
		Border(lipgloss.HiddenBorder()).
		BorderTop(false).BorderBottom(false).BorderLeft(false).BorderRight(false).
		BorderHeader(false).BorderColumn(false).BorderRow(false).
		StyleFunc(func(row, _ int) lipgloss.Style {
			if row == table.HeaderRow {
				return head
			}
			return cell
		})}
}

// textTable is a table whose cells may hold text from outside (a log's
// topic, a CLI's complaint, a file name): each is cleaned of escape
// sequences before it is laid out; the table's own styling is arena's.
type textTable struct{ *table.Table }

// Row adds a row of cells, cleaned.
func (t textTable) Row(cells ...string) {
	for i, c := range cells {
		cells[i] = trust.Text(c)
	}
	t.Table.Row(cells...)
}

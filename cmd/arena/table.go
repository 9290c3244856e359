package main

import (
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/lipgloss/table"
)

// newTable is a borderless table with a bold header row, the look of
// `gh` and `kubectl` listings.
func newTable(r *lipgloss.Renderer, headers ...string) *table.Table {
	head := r.NewStyle().Bold(true).PaddingRight(2)
	cell := r.NewStyle().PaddingRight(2)
	return table.New().Headers(headers...).
		Border(lipgloss.HiddenBorder()).
		BorderTop(false).BorderBottom(false).BorderLeft(false).BorderRight(false).
		BorderHeader(false).BorderColumn(false).BorderRow(false).
		StyleFunc(func(row, _ int) lipgloss.Style {
			if row == table.HeaderRow {
				return head
			}
			return cell
		})
}

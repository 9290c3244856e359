package main

import (
	"fmt"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/lipgloss/table"
	"github.com/spf13/cobra"
)

func (a *app) configCmd(cf *commonFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "config",
		Short: "Print the effective settings and where each value came from",
		Long: `config prints the effective settings: built-in defaults, then
~/.claude/debate.local.md, then arena's config file
($XDG_CONFIG_HOME/arena/config.yaml or --config FILE), then flags, later
layers winning. Environment variable values are never shown.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := a.loadSettings(cmd, cf)
			if err != nil {
				return err
			}
			r := lipgloss.NewRenderer(a.stdout)
			head := r.NewStyle().Bold(true).PaddingRight(2)
			cell := r.NewStyle().PaddingRight(2)
			dim := r.NewStyle().Faint(true)
			t := table.New().Headers("KEY", "VALUE", "SOURCE").Border(lipgloss.HiddenBorder()).
				StyleFunc(func(row, col int) lipgloss.Style {
					switch {
					case row == table.HeaderRow:
						return head
					case col == 2:
						return dim.PaddingRight(2)
					}
					return cell
				})
			for _, row := range s.Rows() {
				t.Row(row.Key, row.Value, row.Source)
			}
			fmt.Fprintln(a.stdout, t.Render())
			if len(s.Files) == 0 {
				fmt.Fprintln(a.stdout, dim.Render("No settings files found; these are the defaults."))
			}
			for _, f := range s.Files {
				fmt.Fprintln(a.stdout, dim.Render("read "+f))
			}
			return nil
		},
	}
}

package main

import (
	"fmt"

	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/settings"
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
			dim := r.NewStyle().Faint(true)
			t := newTable(r, "KEY", "VALUE", "SOURCE")
			var agents []settings.Row
			for _, row := range s.Rows() {
				if strings.HasPrefix(row.Key, "agents.") {
					agents = append(agents, row)
					continue
				}
				t.Row(row.Key, row.Value, dim.Render(row.Source))
			}
			fmt.Fprintln(a.stdout, t.Render())
			fmt.Fprintln(a.stdout)
			fmt.Fprintln(a.stdout, r.NewStyle().Bold(true).Render("AGENTS"))
			for _, row := range agents {
				parts := strings.Split(row.Value, "; ")
				fmt.Fprintf(a.stdout, "%s  %s\n", strings.TrimPrefix(row.Key, "agents."), dim.Render(row.Source))
				fmt.Fprintf(a.stdout, "    %s\n", parts[0])
				if len(parts) > 1 {
					fmt.Fprintf(a.stdout, "    %s\n", dim.Render(strings.Join(parts[1:], " · ")))
				}
			}
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

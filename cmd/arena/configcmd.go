package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/tui/plain"
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
			var rows []plain.ConfigRow
			for _, row := range s.Rows() {
				rows = append(rows, plain.ConfigRow(row))
			}
			fmt.Fprint(a.stdout, plain.Config(rows, s.Files, a.stdout))
			return nil
		},
	}
}

package main

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/settings"
	"github.com/arenadebate/arena/tui/plain"
)

func (a *app) configCmd(cf *commonFlags) *cobra.Command {
	cmd := &cobra.Command{
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
			var files []plain.ConfigFile
			for _, l := range s.Looked {
				files = append(files, plain.ConfigFile(l))
			}
			fmt.Fprint(a.stdout, plain.Config(rows, files, a.stdout))
			return nil
		},
	}
	cmd.AddCommand(a.configInitCmd(cf))
	return cmd
}

func (a *app) configInitCmd(cf *commonFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "init",
		Short: "Write a commented starter config file (never over an existing one)",
		Long: `init writes arena's config file ($XDG_CONFIG_HOME/arena/config.yaml, or
--config FILE) with every setting commented out, readable only by you
(0600). A file already there is never written over.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			path := settings.ConfigPath(a.env)
			if cmd.Flags().Changed("config") {
				path = cf.config
			}
			if path == "" {
				return usagef("no home directory is known to put the config in: name a file with --config FILE")
			}
			return a.writeStarter(path)
		},
	}
}

// writeStarter writes the starter config at path, never over a file.
func (a *app) writeStarter(path string) error {
	err := settings.WriteStarter(path, a.starter())
	switch {
	case errors.Is(err, fs.ErrExist):
		return usagef("%s already exists: arena config init never writes over a file (arena config shows what it sets)", path)
	case err != nil:
		return usageCause(err, "cannot write %s: %v", path, err)
	}
	fmt.Fprintf(a.stdout, "arena: wrote %s: every setting in it is commented out; uncomment what you want to change\n", path)
	return nil
}

// starter is the starter config, with each protocol's section.
func (a *app) starter() string {
	var sections []string
	for _, p := range a.protocols() {
		if p.ConfigExample != "" {
			sections = append(sections, p.ConfigExample)
		}
	}
	return settings.Starter(sections...)
}

package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/tui/mcpserver"
)

// arena mcp serves each protocol as a run tool (mcpserver.ToolOf, from its
// spec), and starts each run as arena __run, which reads the run's typed
// request on its stdin (mcpserver.Launch): no command line is built.

// mcpTools are the protocols' run tools.
func (a *app) mcpTools() []mcpserver.Tool {
	var out []mcpserver.Tool
	for _, p := range a.protocols() {
		_, rounds := protocolUse(p.Spec)
		out = append(out, mcpserver.ToolOf(p.Spec, rounds))
	}
	return out
}

// runCmd is arena __run: a run arena mcp started, its launch on stdin.
func (a *app) runCmd() *cobra.Command {
	return &cobra.Command{
		Use: mcpserver.RunCommand, Hidden: true, Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			in := a.stdin
			if a.stdinRead != nil {
				in = a.stdinRead.r // the launch, not a run's input: not recorded
			}
			l, err := mcpserver.ReadLaunch(in)
			if err != nil {
				return usagef("%w", err)
			}
			a.stdin = strings.NewReader("") // a run's text is in its request
			p, ok := a.protocolNamed(l.Protocol)
			if !ok || l.Protocol != p.Name {
				return usagef("arena %s: no protocol %q", mcpserver.RunCommand, l.Protocol)
			}
			req, err := decodeRequest(p, l.Request)
			if err != nil {
				return usagef("%w", err)
			}
			sf := settingsOf(l.Settings)
			sf.Config, sf.LogDir = nonEmpty(l.Config), nonEmpty(l.LogDir)
			if l.NoLog {
				sf.NoLog = &l.NoLog
			}
			return a.runRequest(p, req, sf, outputFlags{noTUI: true, record: l.Record})
		},
	}
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

package main

import (
	"strconv"
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
			if l.Resume != nil {
				return a.resumeLaunched(l)
			}
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

// resumeLaunched is arena resume, as resume_run asks it: the command
// itself, its refusals and all, with the server's config and log
// directory. It is never told --yes: a log arena did not write on this
// machine is resumed only by a person. The log comes after "--", so no
// name can read as a flag.
func (a *app) resumeLaunched(l mcpserver.Launch) error {
	args := []string{"resume", "--no-tui"}
	flag := func(name, v string) {
		if v != "" {
			args = append(args, "--"+name+"="+v)
		}
	}
	intFlag := func(name string, v *int) {
		if v != nil {
			flag(name, strconv.Itoa(*v))
		}
	}
	flag("config", l.Config)
	flag("log-dir", l.LogDir)
	rs := l.Settings
	flag("timeout", rs.Timeout)
	intFlag("max-rounds", rs.MaxRounds)
	flag("max-cost", rs.MaxCost)
	intFlag("max-calls", rs.MaxCalls)
	flag("max-tokens", rs.MaxTokens)
	for _, seat := range l.Resume.Seats {
		flag("seat", seat)
	}
	if l.Resume.Force {
		args = append(args, "--force")
	}
	if l.Resume.Log != "" {
		args = append(args, "--", l.Resume.Log)
	}
	root := a.rootCmd()
	root.SetArgs(args)
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	return root.Execute()
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

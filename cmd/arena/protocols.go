package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/challengers/seating"
	"github.com/arenadebate/arena/engine"
)

// The protocols are a list of specs (engine.Spec), engine/protocols'
// unless a test hands arena another: the command line builds a command of
// each, and arena resume, stats, demo, replay and mcp read the same list.
// A protocol needs nothing here; extensions add to a command what its spec
// does not say.

// protocol is one protocol: its spec, which the engine owns, and what the
// command line adds to it.
type protocol struct {
	engine.Spec
	// extend adds to its command what the spec does not say (verdict's
	// hook, schema and stats; nil: nothing).
	extend func(a *app, cmd *cobra.Command, req engine.Request, out *outputFlags)
}

// extensions are what the command line adds to some protocols' commands,
// by the protocol's name (cmd/arena/NAME.go).
var extensions = map[string]func(a *app, cmd *cobra.Command, req engine.Request, out *outputFlags){
	"verdict": (*app).verdictModes,
}

// protocols are arena's protocols, in the order --help lists them.
func (a *app) protocols() []protocol {
	out := make([]protocol, 0, len(a.specs))
	for _, s := range a.specs {
		out = append(out, protocol{Spec: s, extend: extensions[s.Name]})
	}
	return out
}

// protocolCmd is p's command: its spec's help and exit codes, its
// request's flags and arguments, the settings it uses and the front
// end's flags; it runs the request (runRequest).
func (a *app) protocolCmd(p protocol, cf *commonFlags) *cobra.Command {
	req := p.New()
	var out outputFlags
	h := p.Help
	cmd := &cobra.Command{Use: h.Use, Short: h.Short, Long: h.Long, Example: h.Example, Args: cobra.NoArgs}
	if takesArgs(req) {
		cmd.Args = cobra.ArbitraryArgs
	}
	a.requests[cmd] = req
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		requestArgs(req, args)
		return a.runRequest(p, req, cf.settingsFlags(cmd), out)
	}
	bindRequest(cmd.Flags(), req)
	use, rounds := protocolUse(p.Spec)
	cf.register(cmd, use, rounds)
	out.register(cmd, p.Tool.Record)
	if p.Uses.Findings {
		sarifFlag(cmd, &out)
	}
	if p.extend != nil {
		p.extend(a, cmd, req, &out)
	}
	return withExits(cmd, p.AllExits())
}

// protocolNamed is the protocol a person or a log names: by its command
// (debate, compare) or by the name its logs give it (adversarial).
func (a *app) protocolNamed(name string) (protocol, bool) {
	for _, p := range a.protocols() {
		if p.Command == name || p.Name == name {
			return p, true
		}
	}
	return protocol{}, false
}

// runBy says whether cmd is one of the protocol's commands: its own, or
// arena itself for the protocol the root runs.
func (p protocol) runBy(cmd *cobra.Command) bool {
	if !cmd.HasParent() {
		return p.Root
	}
	return cmd.Parent() == cmd.Root() && cmd.Name() == p.Command
}

// protocolCommands are the protocols' commands, as people type them.
func (a *app) protocolCommands() []string {
	return engine.Commands(a.specs)
}

// seatingPlans are the protocols' seats, for the settings to read their
// sections of the config file by.
func (a *app) seatingPlans() []seating.Plan {
	var out []seating.Plan
	for _, p := range a.protocols() {
		if p.Seating.Protocol != "" {
			out = append(out, p.Seating)
		}
	}
	return out
}

// exit is one exit code of a command, and exits a command's: the
// engine's, which the protocols' specs declare theirs with.
type (
	exit  = engine.Exit
	exits = engine.Exits
)

// withExits ends cmd's usage with its exit codes.
func withExits(cmd *cobra.Command, x exits) *cobra.Command {
	cmd.SetUsageTemplate(usageTemplate(x.Help()))
	return cmd
}

// withExitsAfter ends cmd's usage with its exit codes, after a line that
// says what they add to.
func withExitsAfter(cmd *cobra.Command, lead string, x exits) *cobra.Command {
	help := strings.Replace(x.Help(), "Exit codes:", "Exit codes:\n  "+lead, 1)
	cmd.SetUsageTemplate(usageTemplate(help))
	return cmd
}

// rootExits are the exit codes of arena itself: those of the protocol it
// runs.
func (a *app) rootExits() exits {
	for _, p := range a.protocols() {
		if p.Root {
			return p.AllExits()
		}
	}
	return nil
}

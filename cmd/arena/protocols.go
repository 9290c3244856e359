package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/challengers/seating"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/resume"
)

// protocols are arena's protocols, in the order --help lists them: the
// one list that the command line, arena resume, arena stats, arena demo
// and arena mcp read. A protocol is its engine/ folder, its command file
// (which holds its value here), this line, its fake CLIs' replies and its
// demo; TestEveryProtocolHasEveryPart fails when one lacks a part.
func protocols() []protocol {
	return []protocol{
		debateProtocol(),
		compareProtocol(),
		judgeProtocol(),
		verdictProtocol(),
		rankProtocol(),
	}
}

// protocol is one protocol, as everything above the engine knows it.
type protocol struct {
	// name is what its runs' logs call it (engine/NAME's Name).
	name string
	// command is its name wherever a person or an agent names it: the
	// command (arena compare), the MCP tool, arena stats --protocol and
	// arena demo.
	command string
	// root says that arena itself runs it too, given only a topic
	// (arena "topic" is arena debate "topic").
	root bool
	// seating is its seats, by which the settings read its section of
	// the config file; the debate has none (its seats are the top-level
	// defender and challengers).
	seating seating.Plan
	// exits are its command's exit codes and what each means: its
	// --help and arena mcp's results say them from here.
	exits exits
	// resume is what arena resume may start its runs again with.
	resume resume.Rule
	// build makes its command.
	build func(a *app, cf *commonFlags) *cobra.Command
	// tool is its MCP tool.
	tool tool
}

// protocolNamed is the protocol a person or a log names: by its command
// (debate, compare) or by the name its logs give it (adversarial).
func protocolNamed(name string) (protocol, bool) {
	for _, p := range protocols() {
		if p.command == name || p.name == name {
			return p, true
		}
	}
	return protocol{}, false
}

// runBy says whether cmd is one of the protocol's commands: its own, or
// arena itself for the protocol the root runs.
func (p protocol) runBy(cmd *cobra.Command) bool {
	if !cmd.HasParent() {
		return p.root
	}
	return cmd.Parent() == cmd.Root() && cmd.Name() == p.command
}

// protocolCommands are the protocols' commands, as people type them.
func protocolCommands() []string {
	out := make([]string, 0, len(protocols()))
	for _, p := range protocols() {
		out = append(out, p.command)
	}
	return out
}

// seatingPlans are the protocols' seats, for the settings to read their
// sections of the config file by.
func seatingPlans() []seating.Plan {
	var out []seating.Plan
	for _, p := range protocols() {
		if p.seating.Protocol != "" {
			out = append(out, p.seating)
		}
	}
	return out
}

// exit is one exit code of a command, what it means, and the outcomes of
// a run that end with it.
type exit struct {
	code     int
	means    string
	outcomes []engine.OutcomeKind
}

// exits are a command's exit codes.
type exits []exit

// runExits are a protocol command's exit codes: its own (0 and 2, and
// any it adds, each with the outcomes that end with it) and those every
// run shares.
func runExits(own ...exit) exits {
	all := append(exits{
		{code: exitError, means: "internal error"},
		{code: exitOverBudget, means: "over budget: --max-cost, --max-calls or --max-tokens was spent (arena resume LOG --max-... carries on)", outcomes: []engine.OutcomeKind{engine.OutcomeOverBudget}},
		{code: exitInterrupted, means: "interrupted (Ctrl+C, SIGTERM, SIGHUP)", outcomes: []engine.OutcomeKind{engine.OutcomeInterrupted}},
	}, own...)
	slices.SortStableFunc(all, func(a, b exit) int { return a.code - b.code })
	return all
}

// aborted is a protocol's exit 4: its run could not go on, and why.
func aborted(why string) exit {
	return exit{code: exitAborted, means: why, outcomes: []engine.OutcomeKind{engine.OutcomeAborted}}
}

// code is the exit code a run's outcome ends with: that of the exit
// listing it, else 4 (a result this command does not know could not
// have been its own).
func (x exits) code(k engine.OutcomeKind) int {
	for _, e := range x {
		if slices.Contains(e.outcomes, k) {
			return e.code
		}
	}
	return exitAborted
}

// help is the exit codes as --help ends with them.
func (x exits) help() string {
	var b strings.Builder
	b.WriteString("Exit codes:")
	for _, e := range x {
		lines := strings.Split(e.means, "\n")
		fmt.Fprintf(&b, "\n  %-4d %s", e.code, lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(&b, "\n       %s", l)
		}
	}
	return b.String()
}

// meanings are the codes' meanings, by code, on one line each.
func (x exits) meanings() map[int]string {
	out := map[int]string{}
	for _, e := range x {
		out[e.code] = strings.ReplaceAll(e.means, "\n", " ")
	}
	return out
}

// withExits ends cmd's usage with its exit codes.
func withExits(cmd *cobra.Command, x exits) *cobra.Command {
	cmd.SetUsageTemplate((&cobra.Command{}).UsageTemplate() + "\n" + x.help() + "\n")
	return cmd
}

// withExitsAfter ends cmd's usage with its exit codes, after a line that
// says what they add to.
func withExitsAfter(cmd *cobra.Command, lead string, x exits) *cobra.Command {
	help := strings.Replace(x.help(), "Exit codes:", "Exit codes:\n  "+lead, 1)
	cmd.SetUsageTemplate((&cobra.Command{}).UsageTemplate() + "\n" + help + "\n")
	return cmd
}

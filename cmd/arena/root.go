package main

import (
	"fmt"
	"strings"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/spf13/cobra"
)

func (a *app) rootCmd() *cobra.Command {
	var cf commonFlags
	a.requests = map[*cobra.Command]engine.Request{}
	// arena "topic" runs the protocol the root runs (the debate), with
	// its command's flags and exit codes.
	var root *cobra.Command
	for _, p := range a.protocols() {
		if p.Root && root == nil {
			root = a.protocolCmd(p, &cf)
		}
	}
	root.Use, root.Short = "arena [flags] \"topic\"", "A terminal debate arena for AI models"
	root.Long = `arena puts a question or a decision to a debate: a defender model (claude)
takes a position, challenger models (gemini, codex, qwen, or any command you
configure) attack it in parallel, and a protocol drives them round by round
to a consensus report or, failing that, a tradeoff document.

The topic comes from the arguments, from -f FILE, or from stdin with "-".`
	root.Example = `  arena "should we move sessions from Redis to Postgres?"
  arena -f question.md --context schema.sql --context api.go
  git diff | arena - --no-tui
  arena doctor            # which challengers are installed and working
  arena replay            # watch the latest debate again
  arena demo              # a recorded debate, no model CLI needed`
	root.Version, root.SilenceUsage, root.SilenceErrors = buildVersion(), true, true
	run := root.RunE
	root.RunE = func(cmd *cobra.Command, args []string) error {
		if err := mistypedCommand(cmd, args); err != nil {
			return err
		}
		return run(cmd, args)
	}
	root.SuggestionsMinimumDistance = 2 // for mistypedCommand
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		if near := nearFlag(cmd, err); near != "" {
			err = fmt.Errorf("%w (did you mean --%s?)", err, near)
		}
		return flagError{err}
	})
	for _, p := range a.protocols() {
		root.AddCommand(a.protocolCmd(p, &cf))
	}
	for _, c := range a.commands(&cf) {
		root.AddCommand(c)
	}
	argsAreUsage(root)
	helpTopicsAreUsage(root)
	return root
}

// helpTopicsAreUsage makes arena help with a word that names no command
// (arena help me) a usage error, exit 2, naming the word: cobra's own
// help command prints "Unknown help topic" and the whole usage, and exits
// 0 (issue 40, item 14).
func helpTopicsAreUsage(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	var help *cobra.Command
	for _, c := range root.Commands() {
		if c.Name() == "help" {
			help = c
		}
	}
	if help == nil || help.Run == nil {
		return
	}
	run := help.Run
	help.Run = nil
	help.RunE = func(cmd *cobra.Command, args []string) error {
		_, rest, err := root.Find(args)
		if err == nil && len(rest) == 0 {
			run(cmd, args)
			return nil
		}
		topic := trust.Text(strings.Join(args, " "))
		// A word of a letter or two is near every command.
		if len(args) == 1 && len([]rune(topic)) >= 2*root.SuggestionsMinimumDistance {
			if near := root.SuggestionsFor(args[0]); len(near) > 0 {
				return usagef("arena help %s: no command is named %q: did you mean arena help %s?", topic, topic, near[0])
			}
		}
		return usagef("arena help %s: no command is named %q (arena help lists them)", topic, topic)
	}
}

// commands are arena's commands other than the protocols', each with its
// exit codes.
func (a *app) commands(cf *commonFlags) []*cobra.Command {
	usage := exit{Code: exitUsage, Means: "usage error (bad flag or config file)"}
	// Each takes the settings' flags it uses, and no other.
	with := func(cmd *cobra.Command, use settingsUse) *cobra.Command {
		cf.register(cmd, use, "the rounds the resumed run may take in all (default: the run's)")
		return cmd
	}
	return []*cobra.Command{
		withExits(with(a.doctorCmd(cf), useConfig|useSeats), exits{{Code: exitOK, Means: "ready to debate"}, {Code: exitError, Means: "not ready: no usable defender or challenger"}, usage}),
		withExits(with(a.configCmd(cf), useConfig|useLogDir|usePersistent), exits{{Code: exitOK, Means: "printed"}, usage}),
		withExits(with(a.replayCmd(cf), useConfig|useLogDir), exits{{Code: exitOK, Means: "played to its end (or quit)"}, {Code: exitUsage, Means: "usage error (no such log, not an arena log, a newer format)"}, {Code: exitInterrupted, Means: "interrupted"}}),
		withExits(with(a.logsCmd(cf), useConfig|useLogDir), exits{{Code: exitOK, Means: "listed"}, {Code: exitUsage, Means: "usage error (bad flag, config file, or an unreadable log directory)"}}),
		withExits(a.demoCmd(), exits{{Code: exitOK, Means: "played to its end (or quit)"}, {Code: exitUsage, Means: "usage error (no demo of that protocol)"}, {Code: exitInterrupted, Means: "interrupted"}}),
		withExitsAfter(with(a.resumeCmd(cf), useConfig|useLogDir|useTimeout|useRounds|useBudget|useAsStarted), "the resumed command's own (see its --help; 75 over budget again), and", resumeExits),
		withExits(with(a.askCmd(cf), useConfig|useTimeout), askExits),
		withExits(with(a.statsCmd(cf), useConfig|useLogDir), statsExits),
		withExits(with(a.benchCmd(cf), useConfig|useTimeout|useBudget|useFamilies), benchExits),
		withExits(a.labelCmd(cf), labelExits),
		withExits(with(a.installCmd(cf), useConfig), installExits),
		withExits(with(a.mcpCmd(cf), useConfig|useLogDir|useNoLog|useBudget), mcpExits),
		withExits(a.exportCmd(), exportExits),
		withExits(with(a.serveCmd(cf), useConfig|useLogDir), serveExits),
		withExits(a.manCmd(), exits{{Code: exitOK, Means: "printed"}, {Code: exitUsage, Means: "usage error"}}),
		a.runCmd(), // hidden: a run arena mcp starts
	}
}

// argsAreUsage makes a wrong number of arguments (arena replay a b, arena
// doctor extra) a usage error, exit 2, like a wrong flag: cobra's own
// argument checks return plain errors, which would exit 1, the code of an
// internal error.
func argsAreUsage(c *cobra.Command) {
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				return usageError{err: err}
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		argsAreUsage(sub)
	}
}

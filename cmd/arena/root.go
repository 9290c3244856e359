package main

import (
	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/challengers/seating"
)

type debateFlags struct {
	commonFlags
	outputFlags
	topicFile string
	context   []string
}

func (a *app) rootCmd() *cobra.Command {
	var f debateFlags
	root := &cobra.Command{
		Use:   "arena [flags] \"topic\"",
		Short: "A terminal debate arena for AI models",
		Long: `arena puts a question or a decision to a debate: a defender model (claude)
takes a position, challenger models (gemini, codex, qwen, or any command you
configure) attack it in parallel, and a protocol drives them round by round
to a consensus report or, failing that, a tradeoff document.

The topic comes from the arguments, from -f FILE, or from stdin with "-".`,
		Example: `  arena "should we move sessions from Redis to Postgres?"
  arena -f question.md --context schema.sql --context api.go
  git diff | arena - --no-tui
  arena doctor            # which challengers are installed and working
  arena replay            # watch the latest debate again
  arena demo              # a recorded debate, no model CLI needed`,
		Version:       buildVersion(),
		Args:          cobra.ArbitraryArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runDebate(cmd, &f, args)
		},
	}
	root.SuggestionsMinimumDistance = 2 // for mistypedCommand
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return flagError{err} })
	f.commonFlags.register(root)
	fl := root.Flags()
	fl.StringVarP(&f.topicFile, "file", "f", "", "read the topic from FILE (\"-\" for stdin)")
	fl.StringArrayVar(&f.context, "context", nil, "attach a file the debate is about (repeatable)")
	f.outputFlags.register(root)
	root.SetUsageTemplate(root.UsageTemplate() + "\n" + debateExitHelp + "\n")
	// The root's usage ends with the debate's exit codes; every other
	// command says its own (a protocol command in its file).
	plain := (&cobra.Command{}).UsageTemplate()
	for _, c := range []struct {
		cmd   *cobra.Command
		codes string
	}{
		{a.doctorCmd(&f.commonFlags), "  0    ready to debate\n  1    not ready: no usable defender or challenger\n  2    usage error (bad flag or config file)"},
		{a.configCmd(&f.commonFlags), "  0    printed\n  2    usage error (bad flag or config file)"},
		{a.replayCmd(&f.commonFlags), "  0    played to its end (or quit)\n  2    usage error (no such log, not an arena log, a newer format)\n  130  interrupted"},
		{a.logsCmd(&f.commonFlags), "  0    listed\n  2    usage error (bad flag, config file, or an unreadable log directory)"},
		{a.demoCmd(), "  0    played to its end (or quit)\n  2    usage error (no demo of that protocol)\n  130  interrupted"},
		{a.resumeCmd(&f.commonFlags), "  the resumed command's own (see its --help; 75 over budget again), and\n  2    the log cannot be resumed: a finished run (use arena replay), one being written,\n       a newer format, its command line refused, a log not signed here (without --yes),\n       a context file that changed since (unless --force)"},
		{a.askCmd(&f.commonFlags), "  0    answered\n  1    internal error\n  2    usage error (no such log, no outcome yet, unknown seat)\n  4    the seat's agent failed\n  130  interrupted"},
	} {
		c.cmd.SetUsageTemplate(plain + "\nExit codes:\n" + c.codes + "\n")
		root.AddCommand(c.cmd)
	}
	for _, c := range extraCommands {
		cmd := c.build(a, &f.commonFlags)
		cmd.SetUsageTemplate(plain + "\n" + c.codes + "\n")
		root.AddCommand(cmd)
	}
	for _, c := range protocolCommands {
		root.AddCommand(c(a, &f.commonFlags))
	}
	argsAreUsage(root)
	return root
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

// protocolCommands are the commands of the protocols other than the
// adversarial debate (arena compare, arena judge, ...), each appended by
// its own file's init, so adding a protocol touches its own file only.
var protocolCommands []func(a *app, cf *commonFlags) *cobra.Command

// seatingPlans are those protocols' seats, appended by the same inits:
// the settings read each protocol's section of the config file by them.
var seatingPlans []seating.Plan

// extraCommands are the commands other than the protocols' that register
// themselves from their own file's init (arena stats, arena label), each
// with its exit codes' help ("Exit codes:\n  0 ...").
var extraCommands []extraCommand

type extraCommand struct {
	build func(a *app, cf *commonFlags) *cobra.Command
	codes string
}

package main

import (
	"github.com/spf13/cobra"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

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
		Version:       version,
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
	root.AddCommand(a.doctorCmd(&f.commonFlags), a.configCmd(&f.commonFlags),
		a.replayCmd(&f.commonFlags), a.logsCmd(&f.commonFlags), a.demoCmd(),
		a.resumeCmd(&f.commonFlags), a.askCmd(&f.commonFlags))
	for _, c := range protocolCommands {
		root.AddCommand(c(a, &f.commonFlags))
	}
	return root
}

// protocolCommands are the commands of the protocols other than the
// adversarial debate (arena compare, arena judge, ...), each appended by
// its own file's init, so adding a protocol touches its own file only.
var protocolCommands []func(a *app, cf *commonFlags) *cobra.Command

package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/seating"
	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/adversarial"
	"github.com/arenadebate/arena/engine/mcpserver"
	"github.com/arenadebate/arena/engine/resume"
	"github.com/arenadebate/arena/settings"
)

// The adversarial debate: the root command runs it (arena "topic"), and so
// does arena debate.
func debateProtocol() protocol {
	return protocol{
		Spec:   adversarial.Spec,
		resume: resume.Rule{Flags: []string{"file", "context"}, Reads: []string{"file", "context"}},
		build:  (*app).debateCmd,
		tool: tool{
			inputs: []mcpserver.Param{
				{Name: "topic", About: "the question or decision to debate", Place: mcpserver.AsStdinFile, Required: true},
			},
			flags: []mcpserver.FlagInput{{Flag: "context", About: "files the debate is about, attached to every prompt (paths relative to the server's directory)"},
				{Flag: "defender"}, {Flag: "challengers"}, {Flag: "max-rounds"}, {Flag: "timeout"}},
			fixed: []string{"--no-tui"},
		},
	}
}

var debateExits = adversarial.Spec.AllExits()

// debateFlags are the debate's own flags.
type debateFlags struct {
	outputFlags
	topicFile string
	context   []string
}

func (f *debateFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVarP(&f.topicFile, "file", "f", "", "read the topic from FILE (\"-\" for stdin)")
	fl.StringArrayVar(&f.context, "context", nil, "attach a file the debate is about (repeatable)")
	f.outputFlags.register(cmd)
}

// debateCmd is arena debate: what arena "topic" does, by its name.
func (a *app) debateCmd(cf *commonFlags) *cobra.Command {
	var f debateFlags
	h := adversarial.Spec.Help
	cmd := &cobra.Command{
		Use: h.Use, Short: h.Short, Long: h.Long, Example: h.Example,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runDebate(cmd, cf, &f, args)
		},
	}
	f.register(cmd)
	return cmd
}

func (a *app) runDebate(cmd *cobra.Command, cf *commonFlags, f *debateFlags, args []string) error {
	if cmd == cmd.Root() {
		if err := mistypedCommand(cmd, args); err != nil {
			return err
		}
	}
	topic, err := a.readTopic(f.topicFile, args, f.includeSecrets)
	if err != nil {
		return err
	}
	docs, err := readContext(f.context, f.includeSecrets)
	if err != nil {
		return err
	}
	s, err := a.loadSettings(cmd, cf)
	if err != nil {
		return err
	}
	if s.NoChallengers != "" {
		a.warn("%s", s.NoChallengers) // a debate needs them; other commands do not
	}
	cfg, err := a.adversarialConfig(s, topic, docs)
	if err != nil {
		return err
	}
	p := adversarial.New(cfg)
	if f.dryRun {
		return a.showManifest(p, f.json)
	}
	logw, err := a.openLog(s, topic)
	if err != nil {
		return err
	}
	out := a.runProtocol(p, logw, f.outputFlags)
	return exitCode(debateExits.Code(out.Result))
}

// mistypedCommand refuses a single bare word as a topic: any text is a
// valid topic, so "arena docter", "arena version" or "arena list" would
// otherwise start a debate, call every model and write a log. A word close
// to a command, or one of the verbs people reach for, gets its command;
// to debate one word, a person asks it as a question.
func mistypedCommand(cmd *cobra.Command, args []string) error {
	if len(args) != 1 || args[0] == "-" || strings.ContainsAny(args[0], " ?") {
		return nil
	}
	word := trust.Text(args[0])
	instead := commonVerbs[strings.ToLower(word)]
	if s := cmd.SuggestionsFor(args[0]); instead == "" && len(s) > 0 {
		instead = "arena " + s[0]
	}
	if strings.HasPrefix(instead, "git ") {
		return usagef("arena has no %q command: to upgrade arena, run %s", word, instead)
	}
	if instead != "" {
		return usagef("%q is not a command: did you mean %s? (to debate a single word, ask it as a question: arena \"%s?\")", word, instead, word)
	}
	return usagef("%q is not a command, and one word is too little to debate: ask it as a question (arena \"%s?\"), or see arena --help", word, word)
}

// commonVerbs are words people type expecting a command arena does not
// have, and the command that does what they meant.
var commonVerbs = map[string]string{
	"version": "arena --version",
	"init":    "arena config init",
	"list":    "arena logs",
	"ls":      "arena logs",
	"history": "arena logs",
	"show":    "arena replay",
	"setup":   "arena doctor",
	"update":  "git pull && go install ./cmd/arena in your clone of arena",
	"upgrade": "git pull && go install ./cmd/arena in your clone of arena",
}

func (a *app) adversarialConfig(s *settings.Settings, topic string, docs []engine.Doc) (adversarial.Config, error) {
	cfg := adversarial.Config{
		ID: engine.Slug(topic, 40), Topic: topic, Context: docs,
		MaxRounds: s.MaxRounds, Timeout: s.TimeoutPerCLI, Skeptical: s.SkepticalOfEarlyAgreement,
	}
	def, ok := s.Agents[s.Defender]
	if !ok {
		return cfg, fmt.Errorf("defender %q has no agent definition", s.Defender)
	}
	cfg.Defender = def
	for _, name := range s.Challengers {
		c, ok := s.Agents[name]
		if !ok {
			return cfg, fmt.Errorf("challenger %q has no agent definition", name)
		}
		cfg.Challengers = append(cfg.Challengers, c)
	}
	a.noteSeats(seating.SameFamily(append([]challengers.Agent{def}, cfg.Challengers...))...)
	return cfg, nil
}

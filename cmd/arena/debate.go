package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/adversarial"
	"github.com/arenadebate/arena/settings"
)

// The adversarial debate's own.
const (
	exitConsensus = exitOK
	exitTradeoff  = 3 // the debate ended without consensus
)

const debateExitHelp = `Exit codes:
  0    consensus
  1    internal error
  2    usage error (bad flag, config, topic or context file)
  3    no consensus: a tradeoff document was written
  4    debate aborted (no usable challenger, the defender failed, every challenger failed)
` + overBudgetHelp + `  130  interrupted (Ctrl+C, SIGTERM, SIGHUP)`

func debateExit(k engine.OutcomeKind) int {
	switch k {
	case adversarial.OutcomeConsensus:
		return exitConsensus
	case adversarial.OutcomeTradeoff:
		return exitTradeoff
	}
	return commonExit(k)
}

func init() {
	resumers[adversarial.Name] = resumeByInvocation
	runExits[adversarial.Name] = runExit{tool: "debate", help: debateExitHelp, code: debateExit}
	resumeRules[adversarial.Name] = resumeRule{flags: []string{"file", "context"}, reads: []string{"file", "context"}}
}

func (a *app) runDebate(cmd *cobra.Command, f *debateFlags, args []string) error {
	if err := mistypedCommand(cmd, args); err != nil {
		return err
	}
	topic, err := a.readTopic(f.topicFile, args, f.includeSecrets)
	if err != nil {
		return err
	}
	docs, err := readContext(f.context, f.includeSecrets)
	if err != nil {
		return err
	}
	s, err := a.loadSettings(cmd, &f.commonFlags)
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
	return exitCode(debateExit(out.Result))
}

// mistypedCommand catches "arena docter": any word is a valid topic, so a
// mistyped command would otherwise start a debate and spend model calls on
// it.
func mistypedCommand(cmd *cobra.Command, args []string) error {
	if len(args) != 1 || strings.ContainsAny(args[0], " ?") {
		return nil
	}
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		return usagef("%q is not a command: did you mean arena %s? (to debate a single word, ask it as a question: arena \"%s?\")", args[0], s[0], args[0])
	}
	return nil
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
	return cfg, nil
}

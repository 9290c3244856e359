package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/adversarial"
	"github.com/arenadebate/arena/settings"
)

// maxContextBytes bounds one --context file: the whole file goes into
// every prompt.
const maxContextBytes = 4 << 20

func init() { resumers[adversarial.Name] = resumeByInvocation }

func (a *app) runDebate(cmd *cobra.Command, f *debateFlags, args []string) error {
	if err := mistypedCommand(cmd, args); err != nil {
		return err
	}
	topic, err := a.readTopic(f.topicFile, args)
	if err != nil {
		return err
	}
	docs, err := readContext(f.context)
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
	logw, err := a.openLog(s, topic)
	if err != nil {
		return err
	}
	out := a.runProtocol(adversarial.New(cfg), logw, f.outputFlags)
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

// readTopic takes the topic from -f FILE, from stdin ("-"), or from the
// arguments (joined by spaces, for those who forget the quotes).
func (a *app) readTopic(topicFile string, args []string) (string, error) {
	var topic string
	switch {
	case topicFile != "" && len(args) > 0:
		return "", usagef("give the topic either as an argument or with -f, not both")
	case topicFile == "-" || (len(args) == 1 && args[0] == "-"):
		b, err := io.ReadAll(io.LimitReader(a.stdin, maxContextBytes+1))
		if err != nil {
			return "", usagef("reading the topic from stdin: %w", err)
		}
		topic = string(b)
	case topicFile != "":
		b, err := os.ReadFile(topicFile)
		if err != nil {
			return "", usagef("topic file: %w", err)
		}
		topic = string(b)
	default:
		topic = strings.Join(args, " ")
	}
	if strings.TrimSpace(topic) == "" {
		return "", usagef("no topic given: run arena \"your question or decision\" (see arena --help)")
	}
	if len(topic) > maxContextBytes {
		return "", usagef("the topic is larger than %d MiB; attach big material with --context instead", maxContextBytes>>20)
	}
	if !utf8.ValidString(topic) {
		return "", usagef("the topic is not valid UTF-8 text")
	}
	return topic, nil
}

func readContext(paths []string) ([]engine.Doc, error) {
	var docs []engine.Doc
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, usagef("context file: %w", err)
		}
		if st.IsDir() {
			return nil, usagef("context file %s is a directory; attach files one by one", p)
		}
		if st.Size() > maxContextBytes {
			return nil, usagef("context file %s is %d MiB; the limit is %d MiB", p, st.Size()>>20, maxContextBytes>>20)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, usagef("context file: %w", err)
		}
		if !utf8.Valid(b) {
			return nil, usagef("context file %s is not UTF-8 text", p)
		}
		docs = append(docs, engine.Doc{Name: p, Content: string(b)})
	}
	return docs, nil
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

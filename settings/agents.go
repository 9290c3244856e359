package settings

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/arenadebate/arena/challengers"
)

// agentField applies one key of an agents: entry. Errors are located by
// the caller (or by a nodeError, for a bad element).
type agentField func(l *loader, a *challengers.Agent, n *yaml.Node) error

var agentFields = map[string]agentField{
	"command": func(_ *loader, a *challengers.Agent, n *yaml.Node) (err error) {
		a.Command, err = commandValue(n, true)
		return err
	},
	"stdin_command": func(_ *loader, a *challengers.Agent, n *yaml.Node) (err error) {
		a.StdinCommand, err = commandValue(n, false) // empty: derive from command
		return err
	},
	"args": func(_ *loader, a *challengers.Agent, n *yaml.Node) (err error) {
		a.Args, err = items(n, "[--model, x]")
		return err
	},
	"prompt": func(_ *loader, a *challengers.Agent, n *yaml.Node) (err error) {
		a.Prompt, err = enumValue(n, challengers.PromptModes)
		return err
	},
	"format": func(_ *loader, a *challengers.Agent, n *yaml.Node) (err error) {
		a.Format, err = enumValue(n, challengers.Formats)
		return err
	},
	"timeout": func(l *loader, a *challengers.Agent, n *yaml.Node) (err error) {
		a.Timeout, err = durationValue(l, n)
		return err
	},
	"env": func(_ *loader, a *challengers.Agent, n *yaml.Node) error {
		return mergeEnv(a, n)
	},
	"pty": func(l *loader, a *challengers.Agent, n *yaml.Node) (err error) {
		a.PTY, err = boolValue(l, n)
		return err
	},
	"dir": func(l *loader, a *challengers.Agent, n *yaml.Node) error {
		s, err := scalar(n, "a path")
		if err == nil && s != "" { // "" restores the private scratch directory
			s, err = expandHome(s, l.env.Home)
		}
		a.Dir = s
		return err
	},
	"output_cap": func(l *loader, a *challengers.Agent, n *yaml.Node) (err error) {
		a.OutputCap, err = sizeValue(l, n)
		return err
	},
	// An API agent (challengers/api.go): an endpoint, not a command.
	"api": func(_ *loader, a *challengers.Agent, n *yaml.Node) (err error) {
		a.API, err = enumValue(n, challengers.APIs)
		return err
	},
	"base_url": func(_ *loader, a *challengers.Agent, n *yaml.Node) (err error) {
		a.BaseURL, err = scalar(n, "a URL")
		return err
	},
	"model": func(_ *loader, a *challengers.Agent, n *yaml.Node) (err error) {
		a.Model, err = scalar(n, "a model id")
		return err
	},
	"key_env": func(_ *loader, a *challengers.Agent, n *yaml.Node) (err error) {
		a.KeyEnv, err = scalar(n, "the name of an environment variable")
		return err
	},
	"family": func(_ *loader, a *challengers.Agent, n *yaml.Node) (err error) {
		a.Family, err = scalar(n, "a vendor's name")
		a.Family = strings.ToLower(strings.TrimSpace(a.Family))
		return err
	},
}

// agentsKey applies the agents: section: overrides of built-ins and new
// agents.
func (l *loader) agentsKey(d *document, p pair) error {
	if p.val.Kind != yaml.MappingNode {
		return d.at(p.val).errorf(p.name, "must be a mapping of agent names to their settings, got a %s", kindName(p.val))
	}
	entries, err := d.pairs(p.val, p.name+".")
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := l.agentEntry(d, e); err != nil {
			return err
		}
	}
	return nil
}

// agentEntry applies one agent. A built-in keeps every field the entry
// does not set; a new agent starts from plain-text defaults.
func (l *loader) agentEntry(d *document, e pair) error {
	name := e.key.Value
	if err := checkAgentName(name); err != nil {
		return d.at(e.key).err(e.name, err.Error(), err)
	}
	meta, known := l.s.agents[name]
	builtin := known && meta.builtin
	a := challengers.Agent{Name: name, Prompt: challengers.PromptArgv, Format: challengers.FormatText}
	if builtin {
		a = l.s.Agents[name]
	}
	set, err := l.agentFields(d, e, &a)
	if err != nil {
		return err
	}
	if warn, err := apiEntry(&a, set); err != nil {
		return d.at(e.key).errorf(e.name, "%s", err)
	} else if warn != "" {
		l.warn(d.at(e.key), e.name, warn)
	}
	if set["command"] {
		// A command of one's own wins everywhere: the stdin command and
		// the stand-ins (agy for gemini) were the old command's, so a
		// prompt on stdin (prompt: stdin, or one over 100 KiB) runs this
		// command too, without its {prompt}, unless stdin_command is set
		// with it.
		if !set["stdin_command"] {
			a.StdinCommand = nil
		}
		a.Alternatives = nil
	}
	if !builtin && !set["command"] && !set["api"] {
		msg := "a new agent needs a command, e.g. command: [ollama, run, llama3.2], or an endpoint, e.g. api: openai, base_url: http://127.0.0.1:11434/v1, model: llama3.2"
		if s := closest(name, l.s.agentNames()); s != "" {
			msg += fmt.Sprintf(" (or did you mean the agent %s?)", s)
		}
		return d.at(e.key).errorf(e.name, "%s", msg)
	}
	l.s.Agents[name] = a
	l.s.agents[name] = &agentMeta{builtin: builtin, def: d.at(e.key)}
	return nil
}

// apiKeys are the keys only an API agent has.
var apiKeys = []string{"base_url", "model", "key_env"}

// apiEntry makes an agent whose entry sets api: an endpoint: it runs no
// command (a built-in so set loses its CLI). An entry is one or the
// other: a command with api: is a mistake; base_url: or model: on a CLI
// is ignored, with a warning.
func apiEntry(a *challengers.Agent, set map[string]bool) (warn string, err error) {
	if !set["api"] && a.API == "" {
		for _, k := range apiKeys {
			if set[k] {
				return fmt.Sprintf("%s is only read for an endpoint (api: openai), ignored here (a CLI's model goes in args, e.g. [--model, NAME])", k), nil
			}
		}
		return "", nil
	}
	if !set["api"] {
		return "", nil // an endpoint already (an earlier file said so)
	}
	if set["command"] || set["stdin_command"] {
		return "", errors.New("sets both a command and api: an agent is a command or an endpoint, not both")
	}
	a.Command, a.StdinCommand, a.Alternatives, a.PTY, a.Prompt, a.Format = nil, nil, nil, false, "", ""
	a.VersionArgs, a.CredentialFiles, a.Install = nil, nil, ""
	a.CredentialEnv = nil
	if a.KeyEnv != "" {
		a.CredentialEnv = []string{a.KeyEnv}
	}
	return "", nil
}

// agentFields applies an entry's keys to a and reports which were set.
func (l *loader) agentFields(d *document, e pair, a *challengers.Agent) (map[string]bool, error) {
	set := map[string]bool{}
	if isNull(e.val) { // "llama:" with nothing under it
		return set, nil
	}
	if e.val.Kind != yaml.MappingNode {
		return nil, d.at(e.val).errorf(e.name, "must be a mapping of agent settings (command, prompt, ...), got a %s", kindName(e.val))
	}
	fields, err := d.pairs(e.val, e.name+".")
	if err != nil {
		return nil, err
	}
	for _, f := range fields {
		apply, ok := agentFields[f.key.Value]
		switch {
		case !ok:
			l.warn(d.at(f.key), f.name, unknownKeyMsg(f.key.Value, slices.Collect(maps.Keys(agentFields))))
		case isNull(f.val):
			l.warn(d.at(f.key), f.name, "no value; ignored")
		default:
			if err := apply(l, a, f.val); err != nil {
				return nil, d.fail(f.val, f.name, err)
			}
			set[f.key.Value] = true
		}
	}
	return set, nil
}

// checkAgentName refuses names that could not be given to --challengers.
func checkAgentName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return errors.New("an agent name cannot be empty")
	case strings.ContainsAny(name, ", \t\r\n"):
		return errors.New("an agent name cannot contain spaces or commas")
	}
	return nil
}

// commandValue reads an argv. The program (first element) must be there,
// unless the list may be empty as a whole.
func commandValue(n *yaml.Node, required bool) ([]string, error) {
	argv, err := items(n, "[ollama, run, llama3.2]")
	switch {
	case err != nil:
		return nil, err
	case len(argv) == 0 && required:
		return nil, errors.New("is empty")
	case len(argv) > 0 && strings.TrimSpace(argv[0]) == "":
		return nil, &nodeError{resolve(n.Content[0]), errors.New("the program (first entry) is empty")}
	}
	return argv, nil
}

func enumValue[T ~string](n *yaml.Node, valid []T) (T, error) {
	s, err := scalar(n, "a string")
	if err != nil {
		return "", err
	}
	if !slices.Contains(valid, T(s)) {
		alts := make([]string, len(valid))
		for i, v := range valid {
			alts[i] = string(v)
		}
		return "", fmt.Errorf("%q is not one of %s", s, strings.Join(alts, " | "))
	}
	return T(s), nil
}

// mergeEnv adds the variables to the agent's environment rather than
// replacing it, so setting an API key keeps a built-in's own variables.
// Messages never quote a value: it may be a secret.
func mergeEnv(a *challengers.Agent, n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("must be a mapping of variable names to values, got a %s", kindName(n))
	}
	env := map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolve(n.Content[i]), resolve(n.Content[i+1])
		if k.Kind != yaml.ScalarNode || k.Value == "" || strings.ContainsAny(k.Value, "=\x00") {
			return &nodeError{k, errors.New("a variable name must be a non-empty string without '='")}
		}
		if _, dup := env[k.Value]; dup {
			return &nodeError{k, fmt.Errorf("%s is set twice", k.Value)}
		}
		if v.Kind != yaml.ScalarNode {
			return &nodeError{v, fmt.Errorf("the value of %s must be a string, got a %s", k.Value, kindName(v))}
		}
		env[k.Value] = v.Value
		if isNull(v) {
			env[k.Value] = ""
		}
	}
	if a.Env == nil {
		a.Env = map[string]string{}
	}
	maps.Copy(a.Env, env)
	return nil
}

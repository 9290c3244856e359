package settings

import (
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Top-level keys, as written in the files.
const (
	keyMaxRounds     = "max_rounds"
	keyTimeoutPerCLI = "timeout_per_cli"
	keySaveLogs      = "save_debate_logs"
	keyLogPath       = "debate_log_path"
	keySkeptical     = "skeptical_of_early_agreement"
	keyDefender      = "defender"
	keyChallengers   = "challengers"
	keyOutputCap     = "output_cap"
	keyAgents        = "agents"
	keyShadowGate    = "shadow_escalation_gate"
)

// topKeys is the order of `arena config`'s first rows.
var topKeys = []string{
	keyDefender, keyChallengers, keyMaxRounds, keyTimeoutPerCLI, keyOutputCap,
	keySaveLogs, keyLogPath, keySkeptical, keyShadowGate,
}

// keyHandler applies one top-level key of a document.
type keyHandler func(l *loader, d *document, p pair) error

// compatKeys are the keys the debate plugin's file may hold.
var compatKeys = map[string]keyHandler{
	keyMaxRounds:     setter(maxRoundsValue, func(s *Settings) *int { return &s.MaxRounds }),
	keyTimeoutPerCLI: setter(durationValue, func(s *Settings) *time.Duration { return &s.TimeoutPerCLI }),
	keySaveLogs:      setter(boolValue, func(s *Settings) *bool { return &s.SaveDebateLogs }),
	keyLogPath:       setter(pathValue, func(s *Settings) *string { return &s.DebateLogPath }),
	keySkeptical:     setter(boolValue, func(s *Settings) *bool { return &s.SkepticalOfEarlyAgreement }),
}

// arenaKeys are the keys of arena's own config file.
var arenaKeys = withKeys(compatKeys, map[string]keyHandler{
	keyDefender:    setter(nameValue, func(s *Settings) *string { return &s.Defender }),
	keyOutputCap:   setter(sizeValue, func(s *Settings) *int64 { return &s.OutputCap }),
	keyChallengers: (*loader).challengersKey,
	keyAgents:      (*loader).agentsKey,
	keyShadowGate:  setter(boolValue, func(s *Settings) *bool { return &s.ShadowEscalationGate }),
})

// configKeys are the keys of arena's own config file: arenaKeys, and a
// section for each protocol Load was given the seating plan of.
func (l *loader) configKeys() map[string]keyHandler {
	keys := maps.Clone(arenaKeys)
	for _, plan := range l.plans {
		keys[plan.Protocol] = protocolKey(plan)
	}
	return keys
}

func withKeys(base, more map[string]keyHandler) map[string]keyHandler {
	m := maps.Clone(base)
	maps.Copy(m, more)
	return m
}

// setter makes the handler of a key holding a single value.
func setter[T any](parse func(*loader, *yaml.Node) (T, error), field func(*Settings) *T) keyHandler {
	return func(l *loader, d *document, p pair) error {
		v, err := parse(l, p.val)
		if err != nil {
			return d.fail(p.val, p.name, err)
		}
		*field(l.s) = v
		l.s.src[p.name] = d.at(p.key)
		return nil
	}
}

// loadCompat applies the debate plugin's file. It is optional, and a file
// without front matter is only a warning: it is the plugin's, not ours.
func (l *loader) loadCompat() error {
	path := CompatPath(l.env)
	if path == "" {
		return nil
	}
	data, found, err := readFile(path)
	l.s.Looked = append(l.s.Looked, Looked{Path: path, What: "the debate plugin's settings", Found: found})
	if err != nil || !found {
		return err
	}
	text, offset, found, err := frontMatter(path, data)
	if err != nil {
		return err
	}
	if !found {
		l.warn(origin{file: path}, "", "no front matter (the settings go between two --- lines at the top of the file); file ignored")
		return nil
	}
	return l.apply(path, text, offset, compatKeys)
}

// loadConfig applies arena's config file: the --config one, which must
// exist, or the default one, which may not.
func (l *loader) loadConfig() error {
	path, err := l.configPath()
	if err != nil || path == "" {
		return err
	}
	data, found, err := readFile(path)
	l.s.Looked = append(l.s.Looked, Looked{Path: path, What: "arena's config", Found: found})
	if err != nil {
		return err
	}
	if !found {
		if l.flags.Config != nil {
			return &Error{Flag: "config", File: path, Msg: "no such file", Err: fs.ErrNotExist}
		}
		return nil
	}
	return l.apply(path, data, 0, l.configKeys())
}

func (l *loader) configPath() (string, error) {
	if l.flags.Config == nil {
		return ConfigPath(l.env), nil
	}
	if strings.TrimSpace(*l.flags.Config) == "" {
		return "", flagOrigin("config").errorf("", "no file name given")
	}
	path, err := expandHome(*l.flags.Config, l.env.Home)
	if err != nil {
		return "", flagOrigin("config").err("", err.Error(), err)
	}
	return path, nil
}

// apply parses a file's YAML text and applies its keys in file order.
func (l *loader) apply(path string, text []byte, offset int, keys map[string]keyHandler) error {
	d, err := parseYAML(path, text, offset)
	if err != nil {
		return err
	}
	l.s.Files = append(l.s.Files, path)
	if d.root == nil {
		return nil
	}
	entries, err := d.pairs(d.root, "")
	if err != nil {
		return err
	}
	for _, p := range entries {
		handle, ok := keys[p.name]
		switch {
		case !ok:
			l.unknownKey(d, p, keys)
		case isNull(p.val):
			l.warn(d.at(p.key), p.name, "no value; ignored")
		default:
			if err := handle(l, d, p); err != nil {
				return err
			}
		}
	}
	return nil
}

// unknownKey warns rather than fails: a key from a newer arena, or one of
// the plugin's we do not use, should not stop a debate.
func (l *loader) unknownKey(d *document, p pair, keys map[string]keyHandler) {
	if _, ok := l.configKeys()[p.name]; ok {
		l.warn(d.at(p.key), p.name, "only read from arena's config file; ignored here")
		return
	}
	l.warn(d.at(p.key), p.name, unknownKeyMsg(p.key.Value, slices.Collect(maps.Keys(keys))))
}

func unknownKeyMsg(key string, known []string) string {
	msg := "unknown key, ignored"
	if s := closest(key, known); s != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", s)
	}
	return msg
}

// challengersKey reads a list of agent names; a single name, or several
// separated by commas, is accepted as a scalar like the flag.
func (l *loader) challengersKey(d *document, p pair) error {
	var names []string
	var srcs []origin
	switch p.val.Kind {
	case yaml.ScalarNode:
		names = splitNames(p.val.Value)
		for range names {
			srcs = append(srcs, d.at(p.val))
		}
	case yaml.SequenceNode:
		for _, el := range p.val.Content {
			el = resolve(el)
			if el.Kind != yaml.ScalarNode || strings.TrimSpace(el.Value) == "" || isNull(el) {
				return d.at(el).errorf(p.name, "each entry must be an agent name, got a %s", kindName(el))
			}
			names = append(names, strings.TrimSpace(el.Value))
			srcs = append(srcs, d.at(el))
		}
	default:
		return d.at(p.val).errorf(p.name, "must be a list of agent names, e.g. [gemini, codex], got a %s", kindName(p.val))
	}
	if len(names) == 0 {
		return d.at(p.val).errorf(p.name, "names no agent (leave the key out to use the challengers arena doctor found)")
	}
	l.setChallengers(names, srcs, d.at(p.key))
	return nil
}

func (l *loader) setChallengers(names []string, srcs []origin, o origin) {
	l.s.Challengers = names
	l.challengerSrc = srcs
	l.s.src[keyChallengers] = o
}

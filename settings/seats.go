package settings

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// Each protocol other than the adversarial debate has a section of
// arena's config file naming the agents of its seats:
//
//	compare:
//	  advocates: [gemini, codex]   # one per option, in option order
//	  judge: claude
//	rank:
//	  judges: {functionality: claude, security: codex}
//	  test_command: make test
//
// A seat key holds one agent name or a list of them; a nested mapping is
// read as seats named "parent.child" ("judges.security"). Keys that hold
// a command or a word rather than agents are the protocol's values
// (rank's test_command). A seat without a key defaults, in the command,
// to the agents the adversarial debate would use: the defender, then the
// challengers.

// protocolSection describes one protocol's section.
type protocolSection struct {
	seats  []string // seat keys, "judges.security" for nested ones
	values []string // keys holding a string that is not an agent
}

// protocolSections are the sections arena knows, by top-level key.
var protocolSections = map[string]protocolSection{
	"compare": {seats: []string{"advocates", "judge"}},
	"judge":   {seats: []string{"judges"}},
	"verdict": {seats: []string{"quick", "deep", "tiebreaker"}},
	"rank": {
		seats: []string{"facts", "judges.functionality", "judges.security", "judges.tests",
			"judges.overengineering", "judges.dead_code"},
		values: []string{"test_command"},
	},
}

// protocolSeat is one configured seat.
type protocolSeat struct {
	agents []string
	srcs   []origin // where each agent was named
	at     origin   // where the key was
}

// Seats returns the agents a protocol's config section names for a seat
// ("compare", "advocates"), and where they were written; nil when the
// file names none.
func (s *Settings) Seats(protocol, seat string) ([]string, string) {
	ps, ok := s.protocols[protocol][seat]
	if !ok {
		return nil, ""
	}
	return slices.Clone(ps.agents), ps.at.String()
}

// ProtocolValue returns one of a protocol's values ("rank",
// "test_command") and where it was written; "" when not set.
func (s *Settings) ProtocolValue(protocol, key string) (string, string) {
	v, ok := s.values[protocol+"."+key]
	if !ok {
		return "", ""
	}
	return v.value, v.at.String()
}

// Pool is the agents a seat without a key defaults to, in order: the
// defender, then the challengers.
func (s *Settings) Pool() []string {
	return append([]string{s.Defender}, s.Challengers...)
}

type protocolValue struct {
	value string
	at    origin
}

// protocolKey makes the handler of a protocol's section.
func protocolKey(name string) keyHandler {
	return func(l *loader, d *document, p pair) error {
		sec := protocolSections[name]
		if p.val.Kind != yaml.MappingNode {
			return d.at(p.val).errorf(p.name, "must be a mapping of seats to agents, e.g. %s", sectionExample(name, sec))
		}
		entries, err := d.pairs(p.val, p.name)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if err := l.sectionEntry(d, name, sec, e, ""); err != nil {
				return err
			}
		}
		return nil
	}
}

func sectionExample(name string, sec protocolSection) string {
	return fmt.Sprintf("%s: {%s: claude}", name, strings.SplitN(sec.seats[0], ".", 2)[0])
}

// sectionEntry reads one key of a protocol's section (prefix "judges."
// inside a nested mapping).
func (l *loader) sectionEntry(d *document, protocol string, sec protocolSection, e pair, prefix string) error {
	key := prefix + e.key.Value
	full := protocol + "." + key
	switch {
	case isNull(e.val):
		l.warn(d.at(e.key), full, "no value; ignored")
		return nil
	case slices.Contains(sec.values, key):
		v, err := scalar(e.val, "a string")
		if err != nil {
			return d.at(e.val).errorf(full, "%v", err)
		}
		if l.values == nil {
			l.values = map[string]protocolValue{}
		}
		l.values[full] = protocolValue{value: strings.TrimSpace(v), at: d.at(e.key)}
		return nil
	case e.val.Kind == yaml.MappingNode && prefix == "" && hasNested(sec, key):
		entries, err := d.pairs(e.val, full)
		if err != nil {
			return err
		}
		for _, n := range entries {
			if err := l.sectionEntry(d, protocol, sec, n, key+"."); err != nil {
				return err
			}
		}
		return nil
	case !slices.Contains(sec.seats, key):
		l.warn(d.at(e.key), full, unknownKeyMsg(key, append(slices.Clone(sec.seats), sec.values...)))
		return nil
	}
	var names []string
	var srcs []origin
	switch e.val.Kind {
	case yaml.ScalarNode:
		for _, n := range splitNames(e.val.Value) {
			names, srcs = append(names, n), append(srcs, d.at(e.val))
		}
	case yaml.SequenceNode:
		for _, el := range e.val.Content {
			el = resolve(el)
			if el.Kind != yaml.ScalarNode || strings.TrimSpace(el.Value) == "" || isNull(el) {
				return d.at(el).errorf(full, "each entry must be an agent name, got a %s", kindName(el))
			}
			names, srcs = append(names, strings.TrimSpace(el.Value)), append(srcs, d.at(el))
		}
	default:
		return d.at(e.val).errorf(full, "must be an agent name or a list of them, got a %s", kindName(e.val))
	}
	if len(names) == 0 {
		return d.at(e.val).errorf(full, "names no agent (leave the key out to use the defender and challengers)")
	}
	if l.protocols == nil {
		l.protocols = map[string]map[string]protocolSeat{}
	}
	if l.protocols[protocol] == nil {
		l.protocols[protocol] = map[string]protocolSeat{}
	}
	l.protocols[protocol][key] = protocolSeat{agents: names, srcs: srcs, at: d.at(e.key)}
	return nil
}

// hasNested reports whether key is the parent of nested seat keys.
func hasNested(sec protocolSection, key string) bool {
	for _, s := range sec.seats {
		if strings.HasPrefix(s, key+".") {
			return true
		}
	}
	return false
}

// checkSeats makes sure every agent a seat names is defined, pointing at
// the line that named an unknown one.
func (l *loader) checkSeats() error {
	for protocol, seats := range l.protocols {
		for key, ps := range seats {
			for i, name := range ps.agents {
				if _, ok := l.s.Agents[name]; !ok {
					return ps.srcs[i].errorf(protocol+"."+key, "%s", l.unknownAgent(name))
				}
			}
		}
	}
	l.s.protocols, l.s.values = l.protocols, l.values
	return nil
}

package settings

import (
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/arenadebate/arena/challengers/seating"
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
// Settings knows no protocol: each declares its section in a
// seating.Plan, which the caller hands to Load. A seat key holds one agent
// name, or a list of them where the plan says the seat takes several; a
// nested mapping is read as seats named "parent.child"
// ("judges.security"). Keys that hold a command or a word rather than
// agents are the protocol's values (rank's test_command). A seat without a
// key defaults, in the command, to the agents the adversarial debate
// would use: the defender, then the challengers.

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
func protocolKey(sec seating.Plan) keyHandler {
	return func(l *loader, d *document, p pair) error {
		if p.val.Kind != yaml.MappingNode {
			return d.at(p.val).errorf(p.name, "must be a mapping of seats to agents, e.g. %s", sec.Example())
		}
		entries, err := d.pairs(p.val, p.name)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if err := l.sectionEntry(d, sec, e, ""); err != nil {
				return err
			}
		}
		return nil
	}
}

// sectionEntry reads one key of a protocol's section (prefix "judges."
// inside a nested mapping).
func (l *loader) sectionEntry(d *document, sec seating.Plan, e pair, prefix string) error {
	key := prefix + e.key.Value
	full := sec.Protocol + "." + key
	seat, isSeat := sec.Seat(key)
	switch {
	case isNull(e.val):
		l.warn(d.at(e.key), full, "no value; ignored")
		return nil
	case slices.Contains(sec.Values, key):
		return l.sectionValue(d, full, e)
	case e.val.Kind == yaml.MappingNode && prefix == "" && sec.Parent(key):
		entries, err := d.pairs(e.val, full)
		if err != nil {
			return err
		}
		for _, n := range entries {
			if err := l.sectionEntry(d, sec, n, key+"."); err != nil {
				return err
			}
		}
		return nil
	case !isSeat:
		l.warn(d.at(e.key), full, unknownKeyMsg(key, sec.Keys()))
		return nil
	}
	names, srcs, err := seatAgents(d, full, e.val)
	if err != nil {
		return err
	}
	if !seat.Many && len(names) > 1 {
		return d.at(e.val).errorf(full, "the %s seat takes one agent, got %d (%s)", seat.Label, len(names), strings.Join(names, ", "))
	}
	if l.protocols == nil {
		l.protocols = map[string]map[string]protocolSeat{}
	}
	if l.protocols[sec.Protocol] == nil {
		l.protocols[sec.Protocol] = map[string]protocolSeat{}
	}
	l.protocols[sec.Protocol][key] = protocolSeat{agents: names, srcs: srcs, at: d.at(e.key)}
	return nil
}

// sectionValue reads one of a protocol's values.
func (l *loader) sectionValue(d *document, full string, e pair) error {
	v, err := scalar(e.val, "a string")
	if err != nil {
		return d.at(e.val).errorf(full, "%v", err)
	}
	if l.values == nil {
		l.values = map[string]protocolValue{}
	}
	l.values[full] = protocolValue{value: strings.TrimSpace(v), at: d.at(e.key)}
	return nil
}

// seatAgents reads the agent names a seat key holds: one, several
// separated by commas, or a list, with where each was written.
func seatAgents(d *document, full string, val *yaml.Node) ([]string, []origin, error) {
	var names []string
	var srcs []origin
	switch val.Kind {
	case yaml.ScalarNode:
		for _, n := range splitNames(val.Value) {
			names, srcs = append(names, n), append(srcs, d.at(val))
		}
	case yaml.SequenceNode:
		for _, el := range val.Content {
			el = resolve(el)
			if el.Kind != yaml.ScalarNode || strings.TrimSpace(el.Value) == "" || isNull(el) {
				return nil, nil, d.at(el).errorf(full, "each entry must be an agent name, got a %s", kindName(el))
			}
			names, srcs = append(names, strings.TrimSpace(el.Value)), append(srcs, d.at(el))
		}
	default:
		return nil, nil, d.at(val).errorf(full, "must be an agent name or a list of them, got a %s", kindName(val))
	}
	if len(names) == 0 {
		return nil, nil, d.at(val).errorf(full, "names no agent (leave the key out to use the defender and challengers)")
	}
	return names, srcs, nil
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

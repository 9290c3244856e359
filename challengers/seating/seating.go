// Package seating is how a protocol declares its seats to the rest of
// arena: the keys of its section of the config file, how each seat reads
// in messages, whether it takes one agent or several, and how many agents
// of the pool it takes when nobody names any.
//
//	compare:
//	  advocates: [gemini, codex]   # one per option, in option order
//	  judge: claude
//
// Each protocol fills a Plan (compare.Seating, rank.Seating, ...); the
// command line hands the plans to package settings, which reads and checks
// each protocol's section by its plan, and the command seats the agents by
// it with a Picker. The package imports nothing of arena's but the agents'
// type (package challengers), so that settings can read a plan without
// importing the engine, and a protocol can declare one, and its command
// seat it, without the picker knowing settings.
package seating

import (
	"slices"
	"strings"
)

// Plan is one protocol's seats and values.
type Plan struct {
	// Protocol is the protocol's name, and its section's top-level key.
	Protocol string
	// Seats are the keys that name agents, in the order a person reads them.
	Seats []Seat
	// Values are the keys that hold a word or a command rather than agents
	// (rank's test_command).
	Values []string
}

// Seat is a seat, or a group of seats, that the config can name agents for.
type Seat struct {
	// Key is the seat's key in the section; a dotted key ("judges.security")
	// is written nested:  judges: {security: codex}.
	Key string
	// Label is how messages name the seat: "advocate", "security judge".
	Label string
	// Many says that the seat takes a list of agents (an advocate per
	// option, a panel of judges), not one.
	Many bool
	// Default is how many agents of the pool (the defender, then the
	// challengers) the seat takes when neither a flag nor the config names
	// any; 0 means as many as the run needs (one per option, one per
	// repository), which the command decides. A seat that is not Many
	// takes one.
	Default int
	// Judging says that the seat judges the work of the agents the
	// roster excludes (their authors): no agent of an author's vendor
	// family takes it from the pool while another family is free, and
	// the picker's notes name one that holds it anyway.
	Judging bool
}

// Seat returns the plan's seat of that key.
func (p Plan) Seat(key string) (Seat, bool) {
	i := slices.IndexFunc(p.Seats, func(s Seat) bool { return s.Key == key })
	if i < 0 {
		return Seat{}, false
	}
	return p.Seats[i], true
}

// Keys are every key of the section: the seats', then the values'.
func (p Plan) Keys() []string {
	keys := make([]string, 0, len(p.Seats)+len(p.Values))
	for _, s := range p.Seats {
		keys = append(keys, s.Key)
	}
	return append(keys, p.Values...)
}

// Parent reports whether key is the parent of nested seat keys ("judges"
// of "judges.security").
func (p Plan) Parent(key string) bool {
	return slices.ContainsFunc(p.Seats, func(s Seat) bool { return strings.HasPrefix(s.Key, key+".") })
}

// Example is a one-line example of the section, for messages:
// "compare: {advocates: claude}".
func (p Plan) Example() string {
	if len(p.Seats) == 0 {
		return p.Protocol + ": {}"
	}
	top, _, _ := strings.Cut(p.Seats[0].Key, ".")
	return p.Protocol + ": {" + top + ": claude}"
}

package verdict

import (
	"fmt"
	"slices"
	"strings"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/seating"
)

// Seats are what a verdict's judges are asked to be: the modes asked, the
// agent each mode's flag names ("" for none), and the agent that wrote
// the work ("" when not known).
type Seats struct {
	Modes  []Mode
	Named  map[Mode]string
	Author string
}

// JudgeFlag is the flag that names a mode's judge.
func JudgeFlag(m Mode) string {
	if m == Tiebreaker {
		return "tiebreaker"
	}
	return string(m) + "-judge"
}

// Seat picks the modes' agents from r, all at once, so that the judges are
// different agents wherever they can be: each seat's flag's (the person
// insists, even on the author), else the config's unless it is the
// author, else an agent of the pool, which never holds the author. It
// returns a judge per mode and what the person should be told. A seat
// that cannot be filled is an error matching seating.ErrSeat.
func Seat(r seating.Roster, want Seats) ([]challengers.Agent, []string, error) {
	author, config := want.Author, r.Config
	if config == nil {
		config = func(string, string) ([]string, string) { return nil, "" }
	}
	if author != "" {
		r.Exclude = []string{author}
		r.Config = func(protocol, key string) ([]string, string) {
			if names, at := config(protocol, key); !slices.Equal(names, []string{author}) {
				return names, at
			}
			return nil, ""
		}
	}
	p := seating.New(Seating, r)
	wants := make([]seating.Want, len(want.Modes))
	var notes []string
	var standIn []int // the seats the config gives the author
	for i, m := range want.Modes {
		named, replaced, note, err := want.named(p, r.Agents, config, m)
		if err != nil {
			return nil, nil, err
		}
		wants[i] = seating.Want{Key: string(m), N: 1, Named: named}
		notes = append(notes, note...)
		if replaced {
			standIn = append(standIn, i)
		}
	}
	got, err := p.Pick(wants...)
	if err != nil {
		return nil, nil, err
	}
	for _, i := range standIn {
		notes = append(notes, fmt.Sprintf("%s wrote the work, so %s takes its seat as the %s judge", author, got[i][0].Name, want.Modes[i]))
	}
	judges := make([]challengers.Agent, len(got))
	for i, g := range got {
		judges[i] = g[0]
	}
	return judges, slices.Concat(notes, p.Notes(), p.Shared(), p.SameFamily()), nil
}

// named is the agent a mode's flag names (nil: none), checked, whether
// the config names the author for it (whose seat then goes to another
// agent of the pool), and what to tell the person.
func (want Seats) named(p *seating.Picker, agents map[string]challengers.Agent, config func(string, string) ([]string, string), m Mode) ([]string, bool, []string, error) {
	label, flag, author := string(m)+" judge", JudgeFlag(m), want.Author
	if v := strings.TrimSpace(want.Named[m]); v != "" {
		if _, ok := agents[v]; !ok {
			return nil, false, nil, seating.Errorf("--%s: unknown agent %q (known: %s)", flag, v, strings.Join(known(agents), ", "))
		}
		if v == author {
			return []string{v}, false, []string{fmt.Sprintf("%s wrote the work and judges it as the %s, because --%s names it", v, label, flag)}, nil
		}
		return []string{v}, false, nil, nil
	}
	names, at := config(Name, string(m))
	replaced := author != "" && slices.Equal(names, []string{author})
	switch {
	case len(p.Pool()) > 0:
	case replaced:
		return nil, false, nil, seating.Errorf("%s wrote the work and no other agent can take its seat as the %s (%s): configure another agent, or name it with --%s", author, label, at, flag)
	case names == nil:
		return nil, false, nil, seating.Errorf("no agent for the %s seat: name one with --%s or in the config's verdict.%s", label, flag, m)
	}
	return nil, replaced, nil, nil
}

func known(agents map[string]challengers.Agent) []string {
	out := make([]string, 0, len(agents))
	for n := range agents {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

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
// author or, while an agent of another family is free, of the author's
// vendor family, else an agent of the pool, which never holds the author
// (nor its family, while another is free). It returns a judge per mode
// and what the person should be told. A seat that cannot be filled is an
// error matching seating.ErrSeat.
func Seat(r seating.Roster, want Seats) ([]challengers.Agent, []string, error) {
	author, config := want.Author, r.Config
	if config == nil {
		config = func(string, string) ([]string, string) { return nil, "" }
	}
	ofAuthor := authorsOwn(r, author)
	if author != "" {
		r.Exclude = []string{author}
		r.Config = func(protocol, key string) ([]string, string) {
			if names, at := config(protocol, key); !ofAuthor(names) {
				return names, at
			}
			return nil, ""
		}
	}
	p := seating.New(Seating, r)
	wants := make([]seating.Want, len(want.Modes))
	var notes []string
	var standIn []int // the seats the config gives the author or its family
	for i, m := range want.Modes {
		named, replaced, note, err := want.named(p, r.Agents, config, ofAuthor, m)
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
		names, _ := config(Name, string(want.Modes[i]))
		if names[0] == author {
			notes = append(notes, fmt.Sprintf("%s wrote the work, so %s takes its seat as the %s judge", author, got[i][0].Name, want.Modes[i]))
		} else {
			notes = append(notes, fmt.Sprintf("%s is of the family of %s (%s), which wrote the work, so %s takes its seat as the %s judge",
				names[0], author, challengers.Family(r.Agents[author]), got[i][0].Name, want.Modes[i]))
		}
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
func (want Seats) named(p *seating.Picker, agents map[string]challengers.Agent, config func(string, string) ([]string, string), ofAuthor func([]string) bool, m Mode) ([]string, bool, []string, error) {
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
	replaced := ofAuthor(names)
	switch {
	case len(p.Pool()) > 0:
	case replaced:
		return nil, false, nil, seating.Errorf("%s wrote the work and no other agent can take its seat as the %s (%s): configure another agent, or name it with --%s", author, label, at, flag)
	case names == nil:
		return nil, false, nil, seating.Errorf("no agent for the %s seat: name one with --%s or in the config's verdict.%s", label, flag, m)
	}
	return nil, replaced, nil, nil
}

// authorsOwn reports whether a config's names for a seat are the
// author's, or, while an agent of the pool is of another family, an agent
// of the author's family: a seat the config gives them goes to another.
func authorsOwn(r seating.Roster, author string) func([]string) bool {
	if author == "" {
		return func([]string) bool { return false }
	}
	fam := challengers.Family(r.Agents[author])
	otherFree := slices.ContainsFunc(r.Pool, func(n string) bool { return challengers.Family(r.Agents[n]) != fam })
	return func(names []string) bool {
		return len(names) == 1 && (names[0] == author || otherFree && challengers.Family(r.Agents[names[0]]) == fam)
	}
}

func known(agents map[string]challengers.Agent) []string {
	out := make([]string, 0, len(agents))
	for n := range agents {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

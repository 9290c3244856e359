package seating

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/arenadebate/arena/challengers"
)

// ErrSeat marks a seat that the flags, the config file and the pool
// cannot fill as asked: the person's to fix (the command line's usage
// error). Match it with errors.Is; the error's text is the whole sentence.
var ErrSeat = errors.New("seating")

type seatError struct{ msg string }

func (e seatError) Error() string        { return e.msg }
func (e seatError) Is(target error) bool { return target == ErrSeat }

func seatErrorf(format string, args ...any) error {
	return seatError{msg: fmt.Sprintf(format, args...)}
}

// Errorf is a seat a protocol's own seating rules cannot fill as asked,
// worded by format: it matches ErrSeat, as the picker's own do.
func Errorf(format string, args ...any) error { return seatErrorf(format, args...) }

// Roster is what a Picker seats agents from.
type Roster struct {
	// Pool is the agents a seat nobody names takes, in order: the
	// defender, then the challengers.
	Pool []string
	// Agents are every agent arena knows, by name.
	Agents map[string]challengers.Agent
	// Config returns the names the config file gives for a protocol's
	// seat key and where it gives them ("arena.yaml:3"); nil names when
	// it gives none. A nil Config is a config file that names no seat.
	Config func(protocol, key string) (names []string, at string)
	// Exclude are agents no seat of the pool goes to (the author of what
	// is judged); a flag or the config can still name them. Nor does a
	// seat of the pool go to another agent of an excluded one's vendor
	// family (Claude through OpenRouter, when claude wrote the work)
	// while an agent of another family is free.
	Exclude []string
}

// Want is one seat a protocol asks a Picker to fill.
type Want struct {
	// Key is the seat's key in the protocol's Plan.
	Key string
	// Named are the agents a flag gave, nil when the flag was not given:
	// the config's then, else the pool's.
	Named []string
	// N is how many agents the seat takes; below 0 it takes as many as
	// were named, and, when nobody named any, Default agents of the pool.
	N int
	// Default is how many agents of the pool a seat of N below 0 takes
	// when nobody names any; 0 is the plan's Default. The command sets it
	// where the plan's is 0, as many as the run needs (a fact seat per
	// repository).
	Default int
}

// Picker gives a protocol's seats, as its Plan declares them, their
// agents: the names a flag gave, else those of the protocol's section of
// the config file, else agents of the pool.
type Picker struct {
	plan   Plan
	roster Roster
	pool   []string
	held   map[string][]string // agent → the labels of the seats it holds
	order  []string            // agents in the order they were seated
	// authorOf maps an excluded agent's family to that agent (the
	// author); kin are the agents of the pool kept out for their family,
	// or, when no other family was free, kept in (kinIn).
	authorOf map[string]string
	kin      []string
	kinIn    bool
	judging  map[string][]string // agent → the labels of its judging seats
}

// New is a Picker for plan's seats.
func New(plan Plan, r Roster) *Picker {
	p := &Picker{plan: plan, roster: r, held: map[string][]string{}, judging: map[string][]string{}, authorOf: map[string]string{}}
	for _, n := range r.Exclude {
		if a, ok := r.Agents[n]; ok {
			p.authorOf[challengers.Family(a)] = n
		}
	}
	for _, n := range r.Pool {
		switch {
		case slices.Contains(p.pool, n) || slices.Contains(p.kin, n) || slices.Contains(r.Exclude, n):
		case p.authorOf[p.family(n)] != "":
			p.kin = append(p.kin, n)
		default:
			p.pool = append(p.pool, n)
		}
	}
	if len(p.pool) == 0 && len(p.kin) > 0 {
		p.pool, p.kinIn = p.kin, true
	}
	return p
}

// family is the vendor family of the agent of that name.
func (p *Picker) family(name string) string {
	if a, ok := p.roster.Agents[name]; ok {
		return challengers.Family(a)
	}
	return name
}

// Pool is the agents the seats nobody names are filled from: the
// roster's pool, without the excluded agents and repeats.
func (p *Picker) Pool() []string { return slices.Clone(p.pool) }

// Pick seats every want and returns each one's agents, in the wants'
// order. The seats a flag or the config names are settled first, then
// every other seat takes the agents of the pool that hold the fewest
// seats, the earliest in the pool on a tie: so no agent of the pool holds
// two seats while another holds none, and the rounds only wrap when there
// are more seats than agents. Settling the named seats first is what
// keeps that promise when an earlier seat is the pool's: compare asks for
// its judge before its advocates, and --advocates naming gemini must keep
// the judge's seat from gemini while codex or qwen is free.
func (p *Picker) Pick(wants ...Want) ([][]challengers.Agent, error) {
	seats := make([]Seat, len(wants))
	names := make([][]string, len(wants))
	named := make([]bool, len(wants))
	load := map[string]int{}
	for n, labels := range p.held {
		load[n] = len(labels)
	}
	for i, w := range wants {
		seat, ok := p.plan.Seat(w.Key)
		if !ok {
			return nil, fmt.Errorf("the %s protocol's seating plan has no seat %q", p.plan.Protocol, w.Key)
		}
		var err error
		seats[i] = seat
		if names[i], named[i], err = p.named(seat, w); err != nil {
			return nil, err
		}
		for _, n := range names[i] {
			load[n]++
		}
	}
	for i, w := range wants {
		if named[i] {
			continue
		}
		var err error
		n := w.N
		if n < 0 {
			n = cmp.Or(w.Default, max(seats[i].Default, 1))
		}
		if names[i], err = p.fromPool(seats[i], n, load); err != nil {
			return nil, err
		}
	}
	out := make([][]challengers.Agent, len(wants))
	for i := range wants {
		out[i] = p.seat(seats[i], names[i])
	}
	return out, nil
}

// named is the names a flag or the config gives the seat, checked;
// false when neither gives any.
func (p *Picker) named(seat Seat, w Want) ([]string, bool, error) {
	names, from := w.Named, "--"+strings.ReplaceAll(w.Key, "_", "-")
	if names == nil && p.roster.Config != nil {
		names, from = p.roster.Config(p.plan.Protocol, w.Key)
	}
	if names == nil {
		return nil, false, nil
	}
	if w.N >= 0 && len(names) != w.N {
		return nil, false, seatErrorf("the %s seat needs %s, %s names %d (%s)", seat.Label, plural(w.N, "agent"), from, len(names), strings.Join(names, ", "))
	}
	return names, true, p.known(seat, from, names)
}

// fromPool takes n agents of the pool for the seat, those holding the
// fewest seats first, and counts them in load.
func (p *Picker) fromPool(seat Seat, n int, load map[string]int) ([]string, error) {
	if len(p.pool) == 0 {
		// Only when the exclusions took every agent of the pool, since
		// the pool always holds the defender.
		return nil, seatErrorf("no agent is left for the %s seat: the defender and every challenger are excluded; add an agent to the config, or name one under %s: in it (%s: AGENT)", seat.Label, p.plan.Protocol, seat.Key)
	}
	names := make([]string, 0, n)
	for range n {
		next := p.pool[0]
		for _, c := range p.pool[1:] {
			if load[c] < load[next] {
				next = c
			}
		}
		load[next]++
		names = append(names, next)
	}
	return names, p.known(seat, "the defender and challengers", names)
}

// known checks that every name is an agent's.
func (p *Picker) known(seat Seat, from string, names []string) error {
	for _, name := range names {
		if _, ok := p.roster.Agents[name]; !ok {
			return seatErrorf("%s: unknown agent %q for the %s seat (known: %s)", from, name, seat.Label, strings.Join(slices.Sorted(maps.Keys(p.roster.Agents)), ", "))
		}
	}
	return nil
}

// seat records names as holding the seat and returns their agents.
func (p *Picker) seat(seat Seat, names []string) []challengers.Agent {
	out := make([]challengers.Agent, 0, len(names))
	for _, name := range names {
		if len(p.held[name]) == 0 {
			p.order = append(p.order, name)
		}
		p.held[name] = append(p.held[name], seat.Label)
		if seat.Judging {
			p.judging[name] = append(p.judging[name], seat.Label)
		}
		out = append(out, p.roster.Agents[name])
	}
	return out
}

// StandIns are the agents of the pool holding no seat: who takes over a
// seat whose agent keeps failing.
func (p *Picker) StandIns() []challengers.Agent {
	var out []challengers.Agent
	for _, n := range p.pool {
		if len(p.held[n]) == 0 {
			out = append(out, p.roster.Agents[n])
		}
	}
	return out
}

// Shared are warnings, one per agent holding several seats, in the order
// the agents were seated: those seats are then not independent models.
func (p *Picker) Shared() []string {
	var out []string
	for _, name := range p.order {
		if seats := p.held[name]; len(seats) > 1 {
			out = append(out, fmt.Sprintf("%s holds %d seats (%s): those seats are not independent models; name other agents to compare different ones", name, len(seats), strings.Join(seats, ", ")))
		}
	}
	return out
}

// SameFamily are warnings, one per vendor family whose models hold seats
// as several different agents, in the order the agents were seated:
// those seats are not independent either (a vendor's models share their
// training and their preferences).
func (p *Picker) SameFamily() []string {
	seated := make([]challengers.Agent, 0, len(p.order))
	for _, n := range p.order {
		seated = append(seated, p.roster.Agents[n])
	}
	return SameFamily(seated)
}

// SameFamily warns of each vendor family that several of the agents
// belong to (a debate's defender and challengers, a panel).
func SameFamily(agents []challengers.Agent) []string {
	var fams []string
	members := map[string][]string{}
	for _, a := range agents {
		f := challengers.Family(a)
		if slices.Contains(members[f], a.Name) {
			continue
		}
		if members[f] == nil {
			fams = append(fams, f)
		}
		members[f] = append(members[f], a.Name)
	}
	var out []string
	for _, f := range fams {
		if m := members[f]; len(m) > 1 {
			out = append(out, fmt.Sprintf("%s are all %s models: their seats are not independent (a vendor's models share their training); name an agent of another family to compare different ones", joinAnd(m), f))
		}
	}
	return out
}

// Notes say what the author's family did to the seating: the agents kept
// out of the seats nobody named for sharing the author's family (or kept
// in, when no other family was free), and every agent that judges work
// of its own family's (but the author itself: its protocol says that).
func (p *Picker) Notes() []string {
	var out []string
	for _, n := range p.kin {
		if len(p.held[n]) > 0 && !p.kinIn {
			continue // named for a seat: the note below says so if it judges
		}
		author := p.authorOf[p.family(n)]
		if p.kinIn {
			out = append(out, fmt.Sprintf("%s (%s, the family of %s, which wrote the work) may take seats: no agent of another family is free", n, p.family(n), author))
		} else {
			out = append(out, fmt.Sprintf("%s (%s, the family of %s, which wrote the work) gets no seat nobody named, while an agent of another family is free", n, p.family(n), author))
		}
	}
	for _, n := range p.order {
		author := p.authorOf[p.family(n)]
		switch {
		case author == "" || author == n || len(p.judging[n]) == 0:
			// the author itself judging is said by its protocol, in its words
		default:
			out = append(out, fmt.Sprintf("%s judges work of its own family (%s, like %s, which wrote it) as the %s", n, p.family(n), author, strings.Join(p.judging[n], ", ")))
		}
	}
	return out
}

// joinAnd is "a", "a and b", "a, b and c".
func joinAnd(xs []string) string {
	if len(xs) <= 1 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// plural is "1 agent", "2 agents" (engine.Plural, which this leaf cannot
// import).
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}

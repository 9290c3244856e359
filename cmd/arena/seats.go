package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/seating"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/settings"
)

// seatPicker gives a protocol's seats, as its seating plan declares them,
// their agents: the names a flag gave, else those of the protocol's
// section of the config file, else the next agents of the pool (the
// defender, then the challengers) not yet seated, wrapping round when
// there are more seats than agents.
type seatPicker struct {
	a     *app
	s     *settings.Settings
	plan  seating.Plan
	pool  []string
	next  int
	held  map[string][]string // agent → the seats it holds
	order []string            // agents in the order they were seated
}

func (a *app) seatPicker(s *settings.Settings, plan seating.Plan, exclude ...string) *seatPicker {
	var pool []string
	for _, n := range s.Pool() {
		if !slices.Contains(pool, n) && !slices.Contains(exclude, n) {
			pool = append(pool, n)
		}
	}
	return &seatPicker{a: a, s: s, plan: plan, pool: pool, held: map[string][]string{}}
}

// pick returns n agents for the plan's seat key. flag holds the names a
// flag gave (nil: not given); n < 0 takes as many as were named, and when
// none were, as many of the pool as the seat takes by default.
func (p *seatPicker) pick(key string, flag []string, n int) ([]challengers.Agent, error) {
	seat, ok := p.plan.Seat(key)
	if !ok {
		return nil, fmt.Errorf("the %s protocol's seating plan has no seat %q", p.plan.Protocol, key)
	}
	label := seat.Label
	names, from := flag, "--"+strings.ReplaceAll(key, "_", "-")
	if names == nil {
		names, from = p.s.Seats(p.plan.Protocol, key)
	}
	if names == nil {
		if len(p.pool) == 0 {
			// Only when --author (or --authors) excluded every agent of
			// the pool, since the pool always holds the defender.
			return nil, usagef("no agent is left for the %s seat: the defender and every challenger are excluded; add an agent to the config, or name one under %s: in it (%s: AGENT)", label, p.plan.Protocol, key)
		}
		if n < 0 {
			n = max(seat.Default, 1)
		}
		for range n {
			names = append(names, p.pool[p.next%len(p.pool)])
			p.next++
		}
		from = "the defender and challengers"
	}
	if n >= 0 && len(names) != n {
		return nil, usagef("the %s seat needs %s, %s names %d (%s)", label, engine.Plural(n, "agent"), from, len(names), strings.Join(names, ", "))
	}
	var out []challengers.Agent
	for _, name := range names {
		ag, ok := p.s.Agents[name]
		if !ok {
			return nil, usagef("%s: unknown agent %q for the %s seat (known: %s)", from, name, label, strings.Join(slices.Sorted(maps.Keys(p.s.Agents)), ", "))
		}
		if len(p.held[name]) == 0 {
			p.order = append(p.order, name)
		}
		p.held[name] = append(p.held[name], label)
		out = append(out, ag)
	}
	return out, nil
}

// standIns are the agents of the pool holding no seat: who takes over a
// seat whose agent keeps failing.
func (p *seatPicker) standIns() []challengers.Agent {
	var out []challengers.Agent
	for _, n := range p.pool {
		if len(p.held[n]) == 0 {
			out = append(out, p.s.Agents[n])
		}
	}
	return out
}

// warnShared warns when one agent holds several seats: they are then not
// independent models.
func (p *seatPicker) warnShared() {
	for _, name := range p.order {
		if seats := p.held[name]; len(seats) > 1 {
			p.a.warn("%s holds %d seats (%s): those seats are not independent models; name other agents to compare different ones", name, len(seats), strings.Join(seats, ", "))
		}
	}
}

package benchkit

import (
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
)

// Step is where in a debate one call was made: the calls of one step run
// in parallel (the challenge, the rebuttals, the final questions), the
// steps one after another.
type Step struct {
	Phase engine.Phase
	Round int
	Task  engine.Task
	// Seat is the seat that made the call; one agent may hold several
	// seats of a step, asked in parallel (the judge's two readings).
	Seat string
}

// Steps pairs each recorded call with the AgentStarted event arena logged
// for it and returns the call's step. An agent runs one call at a time, so
// its calls in the call log and its AgentStarted events in the debate log
// are in the same order, the kinds checked to agree. (Where one agent holds
// two seats of a step, its two calls may pair with each other's seat; the
// step is the same either way.)
func Steps(lc runlog.Contents, calls []clitest.Call) ([]Step, error) {
	started := map[string][]engine.AgentStarted{}
	for _, e := range lc.Events {
		if s, ok := e.Payload.(engine.AgentStarted); ok {
			started[s.Agent] = append(started[s.Agent], s)
		}
	}
	steps := make([]Step, len(calls))
	next := map[string]int{}
	for i, c := range calls {
		list := started[c.Agent]
		k := next[c.Agent]
		if k >= len(list) {
			return nil, fmt.Errorf("%s made more calls than the debate log started", c.Agent)
		}
		s := list[k]
		next[c.Agent] = k + 1
		if string(c.Kind) != s.Shape {
			return nil, fmt.Errorf("%s's call %d is a %s request, but the log started a %s", c.Agent, k+1, c.Kind, s.Shape)
		}
		steps[i] = Step{Phase: s.Phase, Round: s.Round, Task: s.Task, Seat: s.Seat}
	}
	for agent, list := range started {
		if next[agent] != len(list) {
			return nil, fmt.Errorf("the debate log started %d calls of %s, the call log has %d", len(list), agent, next[agent])
		}
	}
	return steps, nil
}

// CriticalPath is the least time any orchestrator could take for the
// calls if it ran every step's calls in parallel and the steps one after
// another: the sum over steps of the slowest seat's time in that step (a
// seat's retries within a step add up).
func CriticalPath(calls []clitest.Call, steps []Step, took []time.Duration) time.Duration {
	type key struct {
		step Step // without its seat
		seat string
	}
	per := map[key]time.Duration{}
	var order []Step
	for i, c := range calls {
		group := steps[i]
		group.Seat = ""
		if !slices.Contains(order, group) {
			order = append(order, group)
		}
		seat := steps[i].Seat
		if seat == "" {
			seat = c.Agent
		}
		per[key{group, seat}] += took[i]
	}
	var total time.Duration
	for _, s := range order {
		var slowest time.Duration
		for k, d := range per {
			if k.step == s {
				slowest = max(slowest, d)
			}
		}
		total += slowest
	}
	return total
}

// Median of ds (the mean of the middle two for an even count).
func Median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// MedianF is Median for plain numbers.
func MedianF(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// MiB is n bytes in MiB.
func MiB(n int64) float64 { return float64(n) / (1 << 20) }

package compare

import (
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/seating"
	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/inputs"
	"github.com/arenadebate/arena/engine/receipt"
)

// Request is a comparison as the command line asks for it: its flags. A
// mistake in one matches inputs.ErrInput.
type Request struct {
	// Criteria are the weighted criteria as given, when CriteriaGiven
	// (else the judge proposes them).
	Criteria      string
	CriteriaGiven bool
	// Orders is how many orders the judge is asked in, when OrdersGiven.
	Orders      int
	OrdersGiven bool
	// Authors are the agents that wrote each option ("" for none), and
	// Author the one that proposed them all ("" when not known).
	Authors []string
	Author  string
	Quick   bool
	Single  bool
	// Advocates and Judge are the agents the flags name for the seats.
	Advocates []string
	Judge     string
}

// Input is what a comparison is of, read and checked.
type Input struct {
	Decision, Stakeholders string
	Options                []string
	Criteria               []Criterion // nil: the judge proposes them
	Context                []engine.Doc
}

// Check checks the flags that need nothing read or loaded first, for a
// comparison of n options: the criteria parse, the orders are ones the
// options can be shown in, Authors names one agent per option, and Quick
// is not asked with Single. It returns the criteria, nil when the judge is
// to propose them.
func (r Request) Check(n int) ([]Criterion, error) {
	var criteria []Criterion
	if r.CriteriaGiven {
		var err error
		if criteria, err = ParseCriteria(trust.Text(r.Criteria)); err != nil {
			return nil, inputs.Cause(err, "--criteria: %v", err)
		}
	}
	if most := receipt.MaxOrders(n); r.OrdersGiven && (r.Orders < 1 || r.Orders > most) {
		return nil, inputs.Errorf("--orders %d: %d options can be shown in 1 to %d counterbalanced orders", r.Orders, n, most)
	}
	if r.Authors != nil && len(r.Authors) != n {
		return nil, inputs.Errorf("--authors names %s for %d options (one per option, in order; \"\" for one not written by an agent)", engine.Plural(len(r.Authors), "agent"), n)
	}
	if r.Quick && r.Single {
		return nil, inputs.Errorf("--quick and --single do not go together: --single has no advocates to rebut")
	}
	return criteria, nil
}

// Exclude checks that Authors and Author name agents, and returns the
// agents the seats must not go to. The author of the options (arena mcp
// names the calling agent) is left out of the pool, so the seats that
// defaults fill, the judge's first, are held by other models (the
// self-preference guard).
func (r Request) Exclude(agents map[string]challengers.Agent) ([]string, error) {
	for _, n := range r.Authors {
		if _, ok := agents[n]; n != "" && !ok {
			return nil, inputs.Errorf("--authors: unknown agent %q", n)
		}
	}
	if r.Author == "" {
		return nil, nil
	}
	if _, ok := agents[r.Author]; !ok {
		return nil, inputs.Errorf("--author: unknown agent %q (known: %s)", r.Author, strings.Join(slices.Sorted(maps.Keys(agents)), ", "))
	}
	return []string{r.Author}, nil
}

// Wants are the seats of a comparison of n options: the judge, then,
// unless Single, an advocate per option.
func (r Request) Wants(n int) []seating.Want {
	judge := seating.Want{Key: "judge", N: 1}
	if r.Judge != "" {
		judge.Named = []string{r.Judge}
	}
	if r.Single {
		return []seating.Want{judge}
	}
	return []seating.Want{judge, {Key: "advocates", Named: r.Advocates, N: n}}
}

// Config is the comparison of in, with the seats got (Wants: the judge's,
// then the advocates' unless Single).
func (r Request) Config(in Input, got [][]challengers.Agent, timeout time.Duration) Config {
	cfg := Config{
		ID: engine.Slug(in.Decision, 40), Decision: in.Decision, Options: in.Options, Criteria: in.Criteria,
		Context: in.Context, Stakeholders: in.Stakeholders, Judge: got[0][0],
		Quick: r.Quick, Single: r.Single, Timeout: timeout, Orders: r.Orders, Authors: r.Authors,
	}
	if !r.Single {
		cfg.Advocates = got[1]
	}
	if cfg.Authors == nil && r.Author != "" {
		// One proposer of every option: its judging them shows in
		// arena stats as self-preference.
		for range in.Options {
			cfg.Authors = append(cfg.Authors, r.Author)
		}
	}
	return cfg
}

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

// Request is a comparison as it is asked for (engine.Request): the
// decision (as text, or from a file; "-": stdin), its options, and how to
// weigh and seat them. A mistake in one matches inputs.ErrInput.
type Request struct {
	Decision     string   `json:"decision,omitempty" arg:"all" mcp:"required" about:"the decision the options are for"`
	DecisionFile string   `json:"file,omitempty" flag:"file,f" mcp:"-" help:"read the decision from FILE (\"-\" for stdin)"`
	Options      []string `json:"options,omitempty" flag:"option,repeat" mcp:"required" help:"an option to compare (two to four, repeat the flag)" about:"two to four options to compare"`
	// Criteria are the weighted criteria (nil: the judge proposes them).
	Criteria     *string  `json:"criteria,omitempty" flag:"criteria" help:"weighted criteria, e.g. \"throughput:high,ops cost:medium\" (default: the judge proposes them)"`
	Context      []string `json:"context,omitempty" flag:"context,repeat" help:"attach a file of evidence every seat reads (repeatable)" about:"files of evidence every seat reads"`
	Stakeholders string   `json:"stakeholders,omitempty" flag:"stakeholders" help:"a file describing the stakeholders and their preferences"`
	Quick        bool     `json:"quick,omitempty" flag:"quick" help:"skip the rebuttals"`
	Single       bool     `json:"single,omitempty" flag:"single" help:"one agent scores the options alone, for a quick look"`
	// Advocates and Judge are the agents named for the seats.
	Advocates []string `json:"advocates,omitempty" flag:"advocates" help:"advocate agents, one per option in option order, comma-separated"`
	Judge     string   `json:"judge,omitempty" flag:"judge" help:"the judge's agent"`
	// Orders is how many orders the judge is asked in (nil: the default).
	Orders *int `json:"orders,omitempty" flag:"orders" mcp:"-" help:"how many counterbalanced orders of the options the judge is asked in (default 2; 1 with --single)"`
	// Repeats is how many times each order is asked (nil: once).
	Repeats *int `json:"repeats,omitempty" flag:"repeats" mcp:"-" help:"ask the judge each order N times, to measure its noise apart from its position bias (arena stats' repeat stability; default 1)"`
	// Authors are the agents that wrote each option ("" for none), and
	// Author the one that proposed them all ("" when not known).
	Authors []string `json:"authors,omitempty" flag:"authors" mcp:"-" help:"the agent that wrote each option, comma-separated in option order (\"\" for none): for arena stats"`
	Author  string   `json:"author,omitempty" flag:"author" help:"the agent that proposed the options: no seat the defaults fill goes to it (flags and the config still can)" about:"the agent that proposed the options: it gets no judge seat (default: the calling agent, when it is one of arena's agents)"`
}

func newRequest() engine.Request { return &Request{} }

// Prepare reads and checks the decision, the options and the files the
// comparison is given, and seats the judge and the advocates.
func (r *Request) Prepare(s engine.Setup) (*engine.Prepared, error) {
	in, err := r.read(s)
	if err != nil {
		return nil, err
	}
	exclude, err := r.Exclude(s.Roster.Agents)
	if err != nil {
		return nil, err
	}
	if r.Author != "" && r.Judge == r.Author {
		s.Warn(r.Author + " proposed the options and judges them, because --judge names it")
	}
	seats := s.Picker(Seating, exclude...)
	got, err := seats.Pick(r.Wants(len(in.Options))...)
	if err != nil {
		return nil, err
	}
	if err := r.quorum(s, got); err != nil {
		return nil, err
	}
	cfg := r.Config(in, got, s.Timeout)
	s.Shared(seats)
	cfg.StandIns = seats.StandIns()
	return &engine.Prepared{Protocol: New(cfg), Name: in.Decision}, nil
}

// read reads and checks the decision, the options, the request and the
// files the comparison is given, before any seat is taken.
func (r *Request) read(s engine.Setup) (Input, error) {
	var in Input
	var args []string
	if r.Decision != "" {
		args = []string{r.Decision}
	}
	var err error
	missing := inputs.Needs(Spec, "the decision")
	if in.Decision, err = inputs.Topic(r.DecisionFile, args, inputs.Options{Stdin: s.Stdin, IncludeSecrets: s.IncludeSecrets, Missing: missing}); err != nil {
		return in, err
	}
	if in.Options, err = CheckOptions(r.Options); err != nil {
		return in, inputs.Errorf("%w", err)
	}
	if in.Criteria, err = r.Check(len(in.Options)); err != nil {
		return in, err
	}
	if in.Context, err = inputs.Context(r.Context, s.IncludeSecrets); err != nil {
		return in, err
	}
	in.Stakeholders, err = inputs.Stakeholders(r.Stakeholders, s.IncludeSecrets)
	return in, err
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
	if r.Criteria != nil {
		var err error
		if criteria, err = ParseCriteria(trust.Text(*r.Criteria)); err != nil {
			return nil, inputs.Cause(err, "--criteria: %v", err)
		}
	}
	if most := receipt.MaxOrders(n); r.Orders != nil && (*r.Orders < 1 || *r.Orders > most) {
		return nil, inputs.Errorf("--orders %d: %d options can be shown in 1 to %d counterbalanced orders", *r.Orders, n, most)
	}
	if r.Repeats != nil && (*r.Repeats < 1 || *r.Repeats > receipt.MaxRepeats) {
		return nil, inputs.Errorf("--repeats %d: each order can be asked 1 to %d times", *r.Repeats, receipt.MaxRepeats)
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

// quorum refuses seats (Wants') spanning fewer vendor families than the
// setup's minimum once the author's are kept out: a comparison's one judge
// cannot span several, so every seat counts, the advocates' too. And the
// judge is never of the author's family alone: no judge on its own work.
func (r Request) quorum(s engine.Setup, got [][]challengers.Agent) error {
	if err := s.Quorum("seats", slices.Concat(got...), r.Author); err != nil {
		return err
	}
	s.MinFamilies = 0
	return s.Quorum("judges", got[0], r.Author)
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
		Quick: r.Quick, Single: r.Single, Timeout: timeout, Authors: r.Authors,
	}
	if r.Orders != nil {
		cfg.Orders = *r.Orders
	}
	if r.Repeats != nil {
		cfg.Repeats = *r.Repeats
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

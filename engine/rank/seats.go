package rank

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/seating"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/rank/facts"
)

// Seat gives the ranking's seats their agents from p: a fact seat per
// repository (the config's fact agents used in turn, else one of the
// pool each), a judge per weighted dimension, and the verdict writer.
// A fact seat runs inside a copy of the person's repository: an agent
// whose command would give it the run of the machine is refused.
func Seat(cfg *Config, p *seating.Picker) error {
	dims := cfg.Weights.Active()
	wants := []seating.Want{{Key: "facts", N: -1, Default: len(cfg.Repos)}}
	for _, d := range dims {
		wants = append(wants, seating.Want{Key: JudgeKey(d), N: 1})
	}
	got, err := p.Pick(append(wants, seating.Want{Key: VerdictSeat, N: 1})...)
	if err != nil {
		return err
	}
	for i := range cfg.Repos {
		ag := got[0][i%len(got[0])]
		if u := UnsafeFlag(ag); u != "" {
			return inputf("the fact seat of %s would be held by %s, whose command has %s: fact seats run inside the repository and must be read-only (remove the flag from its args)", cfg.Repos[i].Label, ag.Name, u)
		}
		cfg.Repos[i].Agent = ag
	}
	cfg.Judges = map[Dimension]challengers.Agent{}
	for i, d := range dims {
		cfg.Judges[d] = got[1+i][0]
	}
	cfg.Verdict = got[len(got)-1][0]
	return nil
}

// unsafeFlags give an agent the run of the machine; a fact seat runs
// inside the person's repository, so it must not have them.
var unsafeFlags = []string{
	"--dangerously-skip-permissions", "--yolo", "--full-auto", "--dangerously-bypass-approvals-and-sandbox",
	"danger-full-access", "--approval-mode=yolo", "bypassPermissions",
}

// UnsafeFlag is the first of ag's command's words that gives it the run
// of the machine, "" when none does.
func UnsafeFlag(ag challengers.Agent) string {
	for _, arg := range slices.Concat(ag.Command, ag.StdinCommand, ag.Args) {
		for _, u := range unsafeFlags {
			if arg == u || strings.Contains(arg, u) {
				return u
			}
		}
	}
	return ""
}

// AvoidAuthors moves a judge seat (and the verdict) held by the agent
// that wrote one of the repositories, or by another of its vendor family
// (Claude through OpenRouter, when claude wrote one), to an agent of the
// pool (the defender, then the challengers) of another family, in turn,
// or, when no other family is free, to one that wrote none; it returns
// notes saying where it moved one and where it could not.
func AvoidAuthors(cfg *Config, pool []string, agents map[string]challengers.Agent, authors []string) []string {
	if len(authors) == 0 {
		return nil
	}
	family := func(ag challengers.Agent) string {
		if a, ok := agents[ag.Name]; ok {
			return challengers.Family(a)
		}
		return challengers.Family(ag)
	}
	authorOf := map[string]string{} // family → an author of it
	for _, n := range authors {
		authorOf[family(agents[n])] = n
	}
	var free, kin []string
	for _, n := range pool {
		switch {
		case slices.Contains(authors, n) || slices.Contains(free, n) || slices.Contains(kin, n):
		case authorOf[family(agents[n])] != "":
			kin = append(kin, n)
		default:
			free = append(free, n)
		}
	}
	kinOnly := len(free) == 0
	if kinOnly {
		free = kin
	}
	var notes []string
	next := 0
	swap := func(seat string, ag challengers.Agent) challengers.Agent {
		author, own := authorOf[family(ag)]
		switch {
		case !own || kinOnly && !slices.Contains(authors, ag.Name):
			if own {
				notes = append(notes, fmt.Sprintf("the %s is held by %s, of the family of %s (%s), which wrote one of the repositories: no agent of another family is free", seat, ag.Name, author, family(ag)))
			}
			return ag
		case len(free) == 0:
			notes = append(notes, fmt.Sprintf("the %s is held by %s, which wrote one of the repositories: no other usable agent to take it", seat, ag.Name))
			return ag
		}
		to := agents[free[next%len(free)]]
		next++
		why := "which wrote one of the repositories"
		if ag.Name != author {
			why = fmt.Sprintf("of the family of %s (%s), which wrote one of the repositories", author, family(ag))
		}
		notes = append(notes, fmt.Sprintf("the %s went to %s instead of %s, %s", seat, to.Name, ag.Name, why))
		return to
	}
	for _, d := range cfg.Weights.Active() {
		cfg.Judges[d] = swap(strings.ToLower(d.Title())+" judge", cfg.Judges[d])
	}
	cfg.Verdict = swap("verdict writer", cfg.Verdict)
	return notes
}

// Config is the ranking of in, the spec's implementations, as req asked:
// its seats picked by p (Seat), none held by an author's agent where an
// agent of pool can hold it (AvoidAuthors), and with req.RunTests, each
// repository's own tests run (with testCommand, the config's, else the
// one detected). A mistake in req, or a seat that cannot be filled,
// matches inputs.ErrInput or seating.ErrSeat.
func (req Request) Config(spec engine.Doc, in Input, p *seating.Picker, pool []string, agents map[string]challengers.Agent, testCommand string) (Config, error) {
	cfg := Config{
		ID: engine.Slug("rank "+strings.Join(in.Labels, " "), 40), Spec: spec, Repos: in.Repos,
		Weights: in.Weights, Judges: map[Dimension]challengers.Agent{}, Seed: req.Seed, Orders: req.Orders,
	}
	if req.Repeats != nil {
		cfg.Repeats = *req.Repeats
	}
	if cfg.Seed == 0 {
		cfg.Seed = uint64(time.Now().UnixNano())
	}
	for _, n := range req.Authors {
		if _, ok := agents[n]; !ok {
			return cfg, inputf("--authors: unknown agent %q", n)
		}
	}
	if err := Seat(&cfg, p); err != nil {
		return cfg, err
	}
	// Eight or more seats over four agents must share, and a fact seat
	// and a judge are different tasks: that is not warned of. What must
	// not happen, a judge held by an author's agent, AvoidAuthors handles.
	cfg.Notes, cfg.Authors = AvoidAuthors(&cfg, pool, agents, req.Authors), req.Authors
	if req.RunTests {
		var command []string
		if testCommand != "" {
			command = []string{testCommand}
		}
		timeout := req.TestTimeout.D()
		cfg.RunTests = func(ctx context.Context, r Repo) facts.TestRun {
			return facts.Run(ctx, r.Path, r.Git.Head, command, timeout)
		}
	}
	return cfg, nil
}

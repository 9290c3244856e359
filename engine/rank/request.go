package rank

import (
	"context"
	"strings"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/inputs"
	"github.com/arenadebate/arena/engine/rank/facts"
)

// BeforeTests, when set, is called in each repository's tests' goroutine
// before they run: a test build of arena (go build -tags arenapanic)
// panics there, to show that a panic in it ends the run as aborted.
var BeforeTests func()

// Prepare reads the spec, measures each repository, seats the fact seats
// and the judges, and makes the private copies the fact seats work in
// (removed by Cleanup). Once the run's log is known, the run saves its
// JSON report beside it (or at Out), and its exit code says whether
// Expect ranked first alone.
func (r *Request) Prepare(s engine.Setup) (*engine.Prepared, error) {
	if n := len(r.Repos); r.Spec == "" || n < 2 {
		if r.Spec != "" {
			n++
		}
		return nil, inputs.Errorf("arena rank needs a spec and two or more repositories: arena rank SPEC REPO REPO [REPO...] (got %s)", engine.Plural(n, "argument"))
	}
	spec, err := inputs.Spec(r.Spec, s.IncludeSecrets)
	if err != nil {
		return nil, err
	}
	in, err := Read(*r)
	if err != nil {
		return nil, err
	}
	cfg, err := r.Config(spec, in, s.Picker(Seating), s.Roster.Pool, s.Roster.Agents, s.Value("test_command"))
	if err != nil {
		return nil, err
	}
	// Each repository's author is recused from its own item (AvoidAuthors),
	// not from the panel: the authors' families stay counted.
	var judges []challengers.Agent
	for _, d := range Dimensions {
		judges = append(judges, cfg.Judges[d])
	}
	if err := s.Quorum("dimension judges", judges); err != nil {
		return nil, err
	}
	cfg.Timeout = s.Timeout
	if run := cfg.RunTests; run != nil && BeforeTests != nil {
		cfg.RunTests = func(ctx context.Context, repo Repo) facts.TestRun {
			BeforeTests()
			return run(ctx, repo)
		}
	}
	s.Reaper() // the copies are the reaper's to remove after a SIGKILL
	cleanup, err := ExportRepos(&cfg)
	if err != nil {
		cleanup()
		return nil, err
	}
	prep := &engine.Prepared{Protocol: New(cfg), Name: "rank " + strings.Join(in.Labels, " vs "), Notes: cfg.Notes, Cleanup: cleanup}
	prep.Logged = func(logPath string) engine.Protocol {
		cfg.SaveReport = func(data []byte) (string, error) { return WriteReport(data, r.Out, logPath) }
		p := New(cfg)
		prep.Exit = func(out engine.Outcome) (int, bool) {
			switch out.Result {
			case OutcomeRanked, OutcomeTie:
				if r.Expect == "" || p.Report().FirstAlone(r.Expect) {
					return engine.ExitOK, true
				}
				return ExitOtherWinner, true
			}
			return 0, false
		}
		prep.Said = func() []engine.Saved {
			if rep := p.Report(); rep != nil && rep.SavedTo != "" {
				return []engine.Saved{{What: WhatReport, Path: rep.SavedTo}}
			}
			return nil
		}
		return p
	}
	return prep, nil
}

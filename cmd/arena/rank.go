package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/mcpserver"
	"github.com/arenadebate/arena/engine/rank"
	"github.com/arenadebate/arena/engine/rank/facts"
	"github.com/arenadebate/arena/engine/resume"
	"github.com/arenadebate/arena/settings"
)

// arena rank: judge two or more implementations of one spec.

// exitOtherWinner is rank's own exit code: --expect-winner named a
// repository that did not rank first alone.
const exitOtherWinner = 3

var rankExits = runExits(
	exit{code: exitOK, means: "a ranking was made (and, with --expect-winner, that repository ranks first alone)", outcomes: []engine.OutcomeKind{rank.OutcomeRanked, rank.OutcomeTie}},
	exit{code: exitUsage, means: "usage error (spec, repository, branch, base, labels, weights, --out, config)"},
	exit{code: exitOtherWinner, means: "--expect-winner: another repository ranks first, or first place is tied"},
	aborted("ranking aborted (no repository's facts could be gathered, or every judge failed)"),
)

func rankProtocol() protocol {
	return protocol{
		name:    rank.Name,
		command: "rank",
		seating: rank.Seating,
		exits:   rankExits,
		resume: resume.Rule{Args: true, Spec: true,
			Flags:  []string{"labels", "weights", "branch", "base", "run-tests", "test-timeout", "out", "expect-winner", "authors", "seed"},
			Writes: []string{"out"},
			Runs:   map[string]string{"run-tests": "each repository's own tests (the repositories' code)"},
			Again:  rank.StartAgain},
		build: (*app).rankCmd,
		tool: tool{
			about: "Rank two or more implementations (git repositories) of one spec: measured git facts, a fact seat per repository, five dimension judges under neutral labels, and a ranking arena computes.",
			inputs: []mcpserver.Param{
				{Name: "spec", About: "the specification file every repository implements", Place: mcpserver.AsArgs, Required: true},
				{Name: "repos", About: "two or more repositories (git work trees) implementing it", Type: mcpserver.Repeated, Place: mcpserver.AsArgs, Required: true},
			},
			flags: []mcpserver.FlagInput{{Flag: "labels", About: "a label per repository, in order (default: directory names)", List: true},
				{Flag: "weights"}, {Flag: "branch"}, {Flag: "base"}, {Flag: "run-tests"}, {Flag: "test-timeout"},
				{Flag: "authors", About: "the agent that wrote each repository, in order: no judge seat goes to an author's agent where another exists"},
				{Flag: "expect-winner", About: "the label expected to rank first alone (exit code 3 otherwise)"}, {Flag: "seed"}, {Flag: "timeout"}},
			fixed: []string{"--no-tui"},
			guard: mcpserver.Guard{Authors: "authors"},
		},
	}
}

type rankFlags struct {
	outputFlags
	rank.Request
}

func (a *app) rankCmd(cf *commonFlags) *cobra.Command {
	var f rankFlags
	cmd := &cobra.Command{
		Use:   "rank SPEC REPO REPO [REPO...]",
		Short: "Rank two or more implementations of one spec: measured facts, five judges, arena's arithmetic",
		Long: `arena rank judges implementations of the same specification (two agents'
branches, two vendors, two candidates' take-home tasks).

arena measures each repository's branch against its base with git (HEAD,
files changed, additions, deletions) and, with --run-tests, runs the
repository's own tests (go test, npm test, pytest, cargo test, or the
config's rank.test_command) in a temporary export of the branch with a
timeout. Running a repository's tests runs its code: only use --run-tests on
code you trust enough to run.

One fact seat per repository, running read-only inside it, reports the
facts of the spec's requirements, security, tests, overengineering and
dead code, without scoring; arena checks them against what it measured.
Five dimension judges then score every repository from 1 to 5 under neutral
letters, each in its own shuffled order and again in the reverse order
(--orders K for more counterbalanced orders); a preference that changed with
the order counts as a tie, and the outcome's order receipts say, dimension by
dimension, whether it held. arena computes the weighted totals and the
ranking. Nothing in the repositories is changed.

Seats come from the config's rank section, else from the defender and
challengers in turn:
  rank:
    facts: [claude, gemini]        # used in turn across repositories
    judges: {functionality: claude, security: codex, tests: gemini,
             overengineering: qwen, dead_code: codex}
    test_command: make test        # instead of detecting one`,
		Example: `  arena rank spec.md ../impl-a ../impl-b
  arena rank spec.md ../a ../b ../c --labels "Claude,GPT,Qwen" --weights functionality:40,security:30
  arena rank spec.md ../a ../b --branch feature --base main --run-tests --out report.json
  arena rank spec.md ../a ../b --authors claude,codex --expect-winner a   # for CI`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runRank(cmd, cf, &f, args)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.Labels, "labels", "", "comma-separated labels, one per repository (default: directory names)")
	fl.StringVar(&f.Weights, "weights", "", `dimension weights, e.g. "functionality:40,security:30" (the rest keep 30/25/20/15/10)`)
	fl.StringVar(&f.Branch, "branch", "", "branch to judge in every repository (default: each one's current branch)")
	fl.StringVar(&f.Base, "base", "", "base to compare with (default: main, else master, else origin's default)")
	fl.BoolVar(&f.RunTests, "run-tests", false, "run each repository's own tests (this runs their code)")
	fl.DurationVar(&f.TestTimeout, "test-timeout", 10*time.Minute, "timeout for one repository's tests")
	fl.StringVar(&f.Out, "out", "", "write the JSON report here (default: beside the log; never overwrites a file)")
	fl.StringVar(&f.Expect, "expect-winner", "", "exit 3 unless the repository with this label ranks first alone")
	fl.StringSliceVar(&f.Authors, "authors", nil, "the agent that wrote each repository, comma-separated: no judge is held by an author's agent where another exists")
	fl.Uint64Var(&f.Seed, "seed", 0, "seed of the judges' shuffled orders (default: random, logged)")
	fl.IntVar(&f.Orders, "orders", rank.DefaultOrders, "how many counterbalanced orders each judge is asked in (the second the reverse of the first)")
	f.outputFlags.register(cmd)
	return cmd
}

func (a *app) runRank(cmd *cobra.Command, cf *commonFlags, f *rankFlags, args []string) error {
	in, err := readRankInput(f, args)
	if err != nil {
		return err
	}
	s, err := a.loadSettings(cmd, cf)
	if err != nil {
		return err
	}
	cfg, err := a.rankConfig(s, f, in)
	if err != nil {
		return err
	}
	a.startReaper() // the copies are the reaper's to remove after a SIGKILL
	cleanup, err := rank.ExportRepos(&cfg)
	defer cleanup()
	if err != nil {
		return err
	}
	if f.dryRun {
		return a.showManifest(rank.New(cfg), f.json, cfg.Notes...)
	}
	logw, err := a.openLog(s, "rank "+strings.Join(in.Labels, " vs "))
	if err != nil {
		return err
	}
	logPath := ""
	if logw != nil {
		logPath = logw.Path()
	}
	cfg.SaveReport = func(data []byte) (string, error) { return rank.WriteReport(data, f.Out, logPath) }
	p := rank.New(cfg)
	out := a.runProtocol(p, logw, f.outputFlags)
	if f.json {
		// The live screen's account and the headless printer's list it
		// already; JSON Lines on stdout do not.
		if rep := p.Report(); rep != nil && rep.SavedTo != "" {
			fmt.Fprintf(a.stderr, "arena: JSON report: %s\n", rep.SavedTo)
		}
	}
	return exitCode(rankExit(out.Result, p.Report(), f.Expect))
}

func rankExit(k engine.OutcomeKind, rep *rank.Report, expect string) int {
	switch k {
	case rank.OutcomeRanked, rank.OutcomeTie:
		if expect == "" || rep.FirstAlone(expect) {
			return exitOK
		}
		return exitOtherWinner
	}
	return rankExits.code(k)
}

// rankInput is the command line, checked: every mistake is found before
// any agent starts.
type rankInput struct {
	spec engine.Doc
	rank.Input
}

func readRankInput(f *rankFlags, args []string) (rankInput, error) {
	var in rankInput
	if len(args) < 3 {
		return in, usagef("arena rank needs a spec and two or more repositories: arena rank SPEC REPO REPO [REPO...] (got %s)", engine.Plural(len(args), "argument"))
	}
	spec, err := readSpec(args[0], f.includeSecrets)
	if err != nil {
		return in, err
	}
	in.spec = spec
	f.Paths = args[1:]
	in.Input, err = rank.Read(f.Request)
	return in, usageOf(err)
}

func (a *app) rankConfig(s *settings.Settings, f *rankFlags, in rankInput) (rank.Config, error) {
	command, _ := s.ProtocolValue(rank.Name, "test_command")
	cfg, err := f.Config(in.spec, in.Input, seatPicker(s, rank.Seating), s.Pool(), s.Agents, command)
	if err != nil {
		return cfg, usageOf(err)
	}
	cfg.Timeout = s.TimeoutPerCLI
	if run := cfg.RunTests; run != nil && injectTestsPanic != nil {
		cfg.RunTests = func(ctx context.Context, r rank.Repo) facts.TestRun {
			injectTestsPanic()
			return run(ctx, r)
		}
	}
	return cfg, nil
}

// injectTestsPanic is set only in a test build (testpanic.go).
var injectTestsPanic func()

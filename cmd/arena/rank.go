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

var rankExits = rank.Spec.AllExits()

func rankProtocol() protocol {
	return protocol{
		Spec: rank.Spec,
		resume: resume.Rule{Args: true, Spec: true,
			Flags:  []string{"labels", "weights", "branch", "base", "run-tests", "test-timeout", "out", "expect-winner", "authors", "seed"},
			Writes: []string{"out"},
			Runs:   map[string]string{"run-tests": "each repository's own tests (the repositories' code)"},
			Again:  rank.StartAgain},
		build: (*app).rankCmd,
		tool: tool{
			inputs: []mcpserver.Param{
				{Name: "spec", About: "the specification file every repository implements", Place: mcpserver.AsArgs, Required: true},
				{Name: "repos", About: "two or more repositories (git work trees) implementing it", Type: mcpserver.Repeated, Place: mcpserver.AsArgs, Required: true},
			},
			flags: []mcpserver.FlagInput{{Flag: "labels", About: "a label per repository, in order (default: directory names)", List: true},
				{Flag: "weights"}, {Flag: "branch"}, {Flag: "base"}, {Flag: "run-tests"}, {Flag: "test-timeout"},
				{Flag: "authors", About: "the agent that wrote each repository, in order: no judge seat goes to an author's agent where another exists"},
				{Flag: "expect-winner", About: "the label expected to rank first alone (exit code 3 otherwise)"}, {Flag: "seed"}, {Flag: "timeout"}},
			fixed: []string{"--no-tui"},
		},
	}
}

type rankFlags struct {
	outputFlags
	rank.Request
}

func (a *app) rankCmd(cf *commonFlags) *cobra.Command {
	var f rankFlags
	h := rank.Spec.Help
	cmd := &cobra.Command{
		Use: h.Use, Short: h.Short, Long: h.Long, Example: h.Example,
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
		return rank.ExitOtherWinner
	}
	return rankExits.Code(k)
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

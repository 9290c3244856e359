package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/mcpserver"
	"github.com/arenadebate/arena/engine/rank"
	"github.com/arenadebate/arena/engine/rank/facts"
	"github.com/arenadebate/arena/engine/receipt"
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
		resume: resumeRule{args: true, spec: true,
			flags:  []string{"labels", "weights", "branch", "base", "run-tests", "test-timeout", "out", "expect-winner", "authors", "seed"},
			writes: []string{"out"},
			runs:   map[string]string{"run-tests": "each repository's own tests (the repositories' code)"},
			again:  resumeRank},
		build: (*app).rankCmd,
		tool: tool{
			about: "Rank two or more implementations (git repositories) of one spec: measured git facts, a fact seat per repository, five dimension judges under neutral labels, and a ranking arena computes.",
			inputs: []mcpserver.Param{
				{Name: "spec", About: "the specification file every repository implements", Place: mcpserver.AsArgs, Required: true},
				{Name: "repos", About: "two or more repositories (git work trees) implementing it", Type: mcpserver.Repeated, Place: mcpserver.AsArgs, Required: true},
			},
			flags: []toolFlag{{flag: "labels", about: "a label per repository, in order (default: directory names)", list: true},
				{flag: "weights"}, {flag: "branch"}, {flag: "base"}, {flag: "run-tests"}, {flag: "test-timeout"},
				{flag: "authors", about: "the agent that wrote each repository, in order: no judge seat goes to an author's agent where another exists"},
				{flag: "expect-winner", about: "the label expected to rank first alone (exit code 3 otherwise)"}, {flag: "seed"}, {flag: "timeout"}},
			fixed: []string{"--no-tui"},
			guard: mcpserver.Guard{Authors: "authors"},
		},
	}
}

// diffBudget bounds the diff in a fact seat's prompt; the files left out
// are named, and the seat can read them in the repository.
const diffBudget = 120 << 10

type rankFlags struct {
	outputFlags
	labels, weights, branch, base, out, expect string
	authors                                    []string
	runTests                                   bool
	testTimeout                                time.Duration
	seed                                       uint64
	orders                                     int
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
	fl.StringVar(&f.labels, "labels", "", "comma-separated labels, one per repository (default: directory names)")
	fl.StringVar(&f.weights, "weights", "", `dimension weights, e.g. "functionality:40,security:30" (the rest keep 30/25/20/15/10)`)
	fl.StringVar(&f.branch, "branch", "", "branch to judge in every repository (default: each one's current branch)")
	fl.StringVar(&f.base, "base", "", "base to compare with (default: main, else master, else origin's default)")
	fl.BoolVar(&f.runTests, "run-tests", false, "run each repository's own tests (this runs their code)")
	fl.DurationVar(&f.testTimeout, "test-timeout", 10*time.Minute, "timeout for one repository's tests")
	fl.StringVar(&f.out, "out", "", "write the JSON report here (default: beside the log; never overwrites a file)")
	fl.StringVar(&f.expect, "expect-winner", "", "exit 3 unless the repository with this label ranks first alone")
	fl.StringSliceVar(&f.authors, "authors", nil, "the agent that wrote each repository, comma-separated: no judge is held by an author's agent where another exists")
	fl.Uint64Var(&f.seed, "seed", 0, "seed of the judges' shuffled orders (default: random, logged)")
	fl.IntVar(&f.orders, "orders", rank.DefaultOrders, "how many counterbalanced orders each judge is asked in (the second the reverse of the first)")
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
	cleanup, err := exportRepos(&cfg)
	defer cleanup()
	if err != nil {
		return err
	}
	if f.dryRun {
		return a.showManifest(rank.New(cfg), f.json)
	}
	logw, err := a.openLog(s, "rank "+strings.Join(in.labels, " vs "))
	if err != nil {
		return err
	}
	logPath := ""
	if logw != nil {
		logPath = logw.Path()
	}
	cfg.SaveReport = func(data []byte) (string, error) { return saveRankReport(data, f.out, logPath) }
	p := rank.New(cfg)
	out := a.runProtocol(p, logw, f.outputFlags)
	if f.noTUI || f.json || !a.isTTY() {
		// The live screen's account lists it already.
		if rep := p.Report(); rep != nil && rep.SavedTo != "" {
			fmt.Fprintf(a.stderr, "arena: JSON report: %s\n", rep.SavedTo)
		}
	}
	return exitCode(rankExit(out.Result, p.Report(), f.expect))
}

func rankExit(k engine.OutcomeKind, rep *rank.Report, expect string) int {
	switch k {
	case rank.OutcomeRanked, rank.OutcomeTie:
		if expect == "" {
			return exitOK
		}
		var first []string
		for _, pl := range rep.Places {
			if pl.Place == 1 {
				first = append(first, pl.Label)
			}
		}
		if len(first) == 1 && first[0] == expect {
			return exitOK
		}
		return exitOtherWinner
	}
	return rankExits.code(k)
}

// rankInput is the command line, checked: every mistake is found before
// any agent starts.
type rankInput struct {
	spec    engine.Doc
	repos   []rank.Repo
	labels  []string
	weights rank.Weights
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
	var err2 error
	if in.weights, err2 = rank.ParseWeights(trust.Text(f.weights)); err2 != nil {
		return in, usagef("--weights: %w", err2)
	}
	paths := args[1:]
	if in.labels, err = rankLabels(f.labels, paths); err != nil {
		return in, err
	}
	seen := map[string]string{}
	for i, p := range paths {
		r, err := readRepo(p, in.labels[i], f.branch, f.base)
		if err != nil {
			return in, err
		}
		if other, ok := seen[r.Path]; ok {
			return in, usagef("repository %s: the same work tree as %s (%s); give each implementation once", p, other, r.Path)
		}
		seen[r.Path] = p
		in.repos = append(in.repos, r)
	}
	if f.expect != "" && !slices.Contains(in.labels, f.expect) {
		return in, usagef("--expect-winner %q is not one of the labels (%s)", f.expect, strings.Join(in.labels, ", "))
	}
	if f.authors != nil && len(f.authors) != len(paths) {
		return in, usagef("--authors names %s for %d repositories (one per repository, in order)", engine.Plural(len(f.authors), "agent"), len(paths))
	}
	if f.out != "" {
		if _, err := os.Lstat(f.out); err == nil {
			return in, usagef("--out %s already exists; arena does not overwrite a file it did not write (name a new file)", f.out)
		}
		if st, err := os.Stat(filepath.Dir(f.out)); err != nil || !st.IsDir() {
			return in, usagef("--out %s: the directory %s does not exist", f.out, filepath.Dir(f.out))
		}
	}
	if n := receipt.MaxOrders(len(paths)); f.orders < 1 || f.orders > n {
		return in, usagef("--orders %d: %d repositories can be shown in 1 to %d counterbalanced orders", f.orders, len(paths), n)
	}
	if f.testTimeout <= 0 {
		return in, usagef("--test-timeout must be positive, got %s", f.testTimeout)
	}
	return in, nil
}

// exportRepos makes, for each repository, the private copy of its
// branch's tree its fact seat works in (trust.ExportTree): a seat is a
// model CLI, which would read the repository's own configuration for it
// (hooks, MCP servers, instruction files) if it ran in the repository.
// cleanup removes the copies.
func exportRepos(cfg *rank.Config) (cleanup func(), err error) {
	var dirs []string
	cleanup = func() {
		for _, d := range dirs {
			_ = os.RemoveAll(d)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	for i := range cfg.Repos {
		r := &cfg.Repos[i]
		dir, _, err := challengers.TempDir("arena-rank-" + engine.Slug(r.Label, 20) + "-")
		if err != nil {
			return cleanup, fmt.Errorf("a copy of repository %s for its fact seat: %w", r.Label, err)
		}
		dirs = append(dirs, dir)
		ex, err := trust.ExportTree(ctx, r.Path, r.Git.Head, dir)
		if err != nil {
			return cleanup, fmt.Errorf("a copy of repository %s for its fact seat: %w", r.Label, err)
		}
		r.WorkDir, r.LeftOut, r.CopyFiles, r.CopyBytes = dir, ex.LeftOut, ex.Files, ex.Bytes
	}
	return cleanup, nil
}

// rankLabels are the labels given, or the directory names made unique.
func rankLabels(flag string, paths []string) ([]string, error) {
	var labels []string
	if flag != "" {
		for _, l := range strings.Split(trust.Text(flag), ",") {
			labels = append(labels, strings.TrimSpace(l))
		}
		if len(labels) != len(paths) {
			return nil, usagef("--labels names %s for %d repositories (one per repository, in order)", engine.Plural(len(labels), "label"), len(paths))
		}
		for i, l := range labels {
			if l == "" {
				return nil, usagef("--labels: the label of repository %s is empty", paths[i])
			}
			if slices.Index(labels, l) != i {
				return nil, usagef("--labels: %q is given twice; each repository needs its own", l)
			}
		}
		return labels, nil
	}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			abs = p
		}
		base, l := filepath.Base(abs), filepath.Base(abs)
		for n := 2; slices.Contains(labels, l); n++ {
			l = fmt.Sprintf("%s-%d", base, n)
		}
		labels = append(labels, l)
	}
	return labels, nil
}

// readRepo checks one repository and measures it.
func readRepo(path, label, branch, base string) (rank.Repo, error) {
	r := rank.Repo{Label: label}
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return r, usageCause(err, "repository %s: no such directory", path)
	case err != nil:
		return r, usagef("repository %s: %w", path, err)
	case !st.IsDir():
		return r, usagef("repository %s: not a directory", path)
	}
	top, err := facts.TopLevel(path)
	if err != nil {
		return r, usagef("repository %s: not a git work tree", path)
	}
	r.Path = top
	if branch == "" {
		if branch, err = facts.CurrentBranch(top); err != nil {
			return r, usagef("repository %s: %w", path, err)
		}
	} else if !facts.RefExists(top, branch) {
		return r, usagef("repository %s: branch %q does not exist", path, branch)
	}
	if base == "" {
		if base, err = facts.DefaultBase(top); err != nil {
			return r, usagef("repository %s: %w", path, err)
		}
	} else if !facts.RefExists(top, base) {
		return r, usagef("repository %s: base %q does not exist (name another with --base)", path, base)
	}
	g, err := facts.Measure(top, branch, base)
	if err != nil {
		return r, usagef("repository %s: %w", path, err)
	}
	r.Git = g
	r.Diff, r.DiffCut, err = facts.Diff(top, g, diffBudget)
	if err != nil {
		return r, usagef("repository %s: %w", path, err)
	}
	return r, nil
}

// unsafeFlags give an agent the run of the machine; a fact seat runs
// inside the person's repository, so it must not have them.
var unsafeFlags = []string{
	"--dangerously-skip-permissions", "--yolo", "--full-auto", "--dangerously-bypass-approvals-and-sandbox",
	"danger-full-access", "--approval-mode=yolo", "bypassPermissions",
}

func unsafeFlag(ag challengers.Agent) string {
	for _, arg := range slices.Concat(ag.Command, ag.StdinCommand, ag.Args) {
		for _, u := range unsafeFlags {
			if arg == u || strings.Contains(arg, u) {
				return u
			}
		}
	}
	return ""
}

// resumeRank starts a ranking again as it was started, with the seed of
// its judges' orders: a random seed drawn again would shuffle the judges'
// prompts differently, and none of their replies could be reused.
func resumeRank(st engine.DebateStarted) ([]string, error) {
	args, err := resumeByInvocation(st)
	if err != nil {
		return nil, err
	}
	for _, set := range st.Settings {
		if set.Name == "judge order seed" && !slices.Contains(args, "--seed") && !slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "--seed=") }) {
			args = withFlags(args, "--seed", set.Value)
		}
	}
	return args, nil
}

func (a *app) rankConfig(s *settings.Settings, f *rankFlags, in rankInput) (rank.Config, error) {
	cfg := rank.Config{
		ID: engine.Slug("rank "+strings.Join(in.labels, " "), 40), Spec: in.spec, Repos: in.repos,
		Weights: in.weights, Judges: map[rank.Dimension]challengers.Agent{}, Timeout: s.TimeoutPerCLI, Seed: f.seed, Orders: f.orders,
	}
	if cfg.Seed == 0 {
		cfg.Seed = uint64(time.Now().UnixNano())
	}
	for _, n := range f.authors {
		if _, ok := s.Agents[n]; !ok {
			return cfg, usagef("--authors: unknown agent %q", n)
		}
	}
	sp := a.seatPicker(s, rank.Seating)
	n := len(in.repos)
	if names, _ := s.Seats(rank.Name, "facts"); names != nil {
		n = -1
	}
	factAgents, err := sp.pick("facts", nil, n)
	if err != nil {
		return cfg, err
	}
	for i := range cfg.Repos {
		ag := factAgents[i%len(factAgents)]
		if u := unsafeFlag(ag); u != "" {
			return cfg, usagef("the fact seat of %s would be held by %s, whose command has %s: fact seats run inside the repository and must be read-only (remove the flag from its args)", cfg.Repos[i].Label, ag.Name, u)
		}
		cfg.Repos[i].Agent = ag
	}
	for _, d := range in.weights.Active() {
		ags, err := sp.pick(rank.JudgeKey(d), nil, 1)
		if err != nil {
			return cfg, err
		}
		cfg.Judges[d] = ags[0]
	}
	vs, err := sp.pick(rank.VerdictSeat, nil, 1)
	if err != nil {
		return cfg, err
	}
	cfg.Verdict = vs[0]
	// No warnShared here: eight or more seats over four agents must share,
	// and a fact seat and a judge are different tasks. What must not
	// happen, a judge held by an author's agent, avoidAuthors handles.
	cfg.Notes, cfg.Authors = avoidAuthors(s, &cfg, f.authors), f.authors
	if f.runTests {
		var command []string
		if tc, _ := s.ProtocolValue(rank.Name, "test_command"); tc != "" {
			command = []string{tc}
		}
		timeout := f.testTimeout
		cfg.RunTests = func(ctx context.Context, r rank.Repo) facts.TestRun {
			if injectTestsPanic != nil {
				injectTestsPanic()
			}
			return facts.Run(ctx, r.Path, r.Git.Head, command, timeout)
		}
	}
	return cfg, nil
}

// injectTestsPanic is set only in a test build (testpanic.go).
var injectTestsPanic func()

// avoidAuthors moves a judge seat (and the verdict) held by the agent that
// wrote one of the repositories to a usable agent that wrote none, and
// says where it could not.
func avoidAuthors(s *settings.Settings, cfg *rank.Config, authors []string) []string {
	if len(authors) == 0 {
		return nil
	}
	var free []string
	for _, n := range s.Pool() {
		if !slices.Contains(authors, n) && !slices.Contains(free, n) {
			free = append(free, n)
		}
	}
	var notes []string
	next := 0
	swap := func(seat string, ag challengers.Agent) challengers.Agent {
		if !slices.Contains(authors, ag.Name) {
			return ag
		}
		if len(free) == 0 {
			notes = append(notes, fmt.Sprintf("the %s is held by %s, which wrote one of the repositories: no other usable agent to take it", seat, ag.Name))
			return ag
		}
		to := s.Agents[free[next%len(free)]]
		next++
		notes = append(notes, fmt.Sprintf("the %s went to %s instead of %s, which wrote one of the repositories", seat, to.Name, ag.Name))
		return to
	}
	for _, d := range cfg.Weights.Active() {
		cfg.Judges[d] = swap(strings.ToLower(d.Title())+" judge", cfg.Judges[d])
	}
	cfg.Verdict = swap("verdict writer", cfg.Verdict)
	return notes
}

// saveRankReport writes the JSON report: to --out, a new file (checked
// before the run, created exclusively now), else beside the log under a
// free name, else rank-report.json (or a free variant) here. It never
// replaces a file.
func saveRankReport(data []byte, out, logPath string) (string, error) {
	switch {
	case out != "":
		return out, writeExclusive(out, data)
	case logPath != "":
		return trust.WriteNew(strings.TrimSuffix(logPath, ".jsonl")+".json", data)
	}
	return trust.WriteNew("rank-report.json", data)
}

// writeExclusive creates path (it must not exist) and writes data; a
// failed write removes the partial file.
func writeExclusive(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	if err := errors.Join(werr, f.Close()); err != nil {
		os.Remove(path)
		return err
	}
	return nil
}

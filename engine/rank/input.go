package rank

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/inputs"
	"github.com/arenadebate/arena/engine/rank/facts"
	"github.com/arenadebate/arena/engine/receipt"
)

// ErrInput marks a mistake in what the person asked to rank (a path, a
// label, a flag's value), theirs to fix: the command line's usage error,
// as every run's input mistakes are (engine/inputs).
var ErrInput = inputs.ErrInput

func inputf(format string, args ...any) error { return inputs.Errorf(format, args...) }

func inputCause(cause error, format string, args ...any) error {
	return inputs.Cause(cause, format, args...)
}

// diffBudget bounds the diff in a fact seat's prompt; the files left out
// are named, and the seat can read them in the repository.
const diffBudget = 120 << 10

// Request is a ranking as it is asked for (engine.Request): the spec,
// the repositories implementing it, and how to measure and weigh them.
type Request struct {
	Spec  string   `json:"spec,omitempty" arg:"first" mcp:"required" about:"the specification file every repository implements"`
	Repos []string `json:"repos,omitempty" arg:"rest" mcp:"required" about:"two or more repositories (git work trees) implementing it"`
	// Labels name the repositories, in order (nil: their directories').
	Labels  []string `json:"labels,omitempty" flag:"labels" help:"comma-separated labels, one per repository (default: directory names)" about:"a label per repository, in order (default: directory names)"`
	Weights string   `json:"weights,omitempty" flag:"weights" help:"dimension weights, e.g. \"functionality:40,security:30\" (the rest keep 30/25/20/15/10)"`
	Branch  string   `json:"branch,omitempty" flag:"branch" help:"branch to judge in every repository (default: each one's current branch)"`
	Base    string   `json:"base,omitempty" flag:"base" help:"base to compare with (default: main, else master, else origin's default)"`
	// RunTests runs each repository's own tests.
	RunTests    bool            `json:"run_tests,omitempty" flag:"run-tests" help:"run each repository's own tests (this runs their code)"`
	TestTimeout engine.Duration `json:"test_timeout,omitempty" flag:"test-timeout" help:"timeout for one repository's tests"`
	Out         string          `json:"out,omitempty" flag:"out" mcp:"-" help:"write the JSON report here (default: beside the log; never overwrites a file)"`
	Expect      string          `json:"expect_winner,omitempty" flag:"expect-winner" help:"exit 3 unless the repository with this label ranks first alone" about:"the label expected to rank first alone (exit code 3 otherwise)"`
	Authors     []string        `json:"authors,omitempty" flag:"authors" help:"the agent that wrote each repository, comma-separated: no judge is held by an author's agent where another exists" about:"the agent that wrote each repository, in order: no judge seat goes to an author's agent where another exists"`
	// Seed draws the judges' orders (0: a seed drawn from the clock).
	Seed   uint64 `json:"seed,omitempty" flag:"seed" help:"seed of the judges' shuffled orders (default: random, logged)"`
	Orders int    `json:"orders,omitempty" flag:"orders" mcp:"-" help:"how many counterbalanced orders each judge is asked in (the second the reverse of the first)"`
	// Repeats is how many times each order is asked (nil: once).
	Repeats *int `json:"repeats,omitempty" flag:"repeats" mcp:"-" help:"ask each judge each order N times, to measure its noise apart from its position bias (arena stats' repeat stability; default 1)"`
}

func newRequest() engine.Request {
	return &Request{TestTimeout: engine.Duration(10 * time.Minute), Orders: DefaultOrders}
}

// Input is a Request checked and measured: every mistake is found before
// any agent starts.
type Input struct {
	Repos   []Repo
	Labels  []string
	Weights Weights
}

// Read checks the request and measures each repository.
func Read(req Request) (Input, error) {
	var in Input
	var err error
	if in.Weights, err = ParseWeights(trust.Text(req.Weights)); err != nil {
		return in, inputf("--weights: %w", err)
	}
	if in.Labels, err = Labels(req.Labels, req.Repos); err != nil {
		return in, err
	}
	if in.Repos, err = readRepos(req, in.Labels); err != nil {
		return in, err
	}
	if req.Expect != "" && !slices.Contains(in.Labels, req.Expect) {
		return in, inputf("--expect-winner %q is not one of the labels (%s)", req.Expect, strings.Join(in.Labels, ", "))
	}
	return in, checkRest(req)
}

// readRepos measures each repository, refusing one work tree given twice.
func readRepos(req Request, labels []string) ([]Repo, error) {
	var repos []Repo
	seen := map[string]string{}
	for i, p := range req.Repos {
		r, err := ReadRepo(p, labels[i], req.Branch, req.Base)
		if err != nil {
			return nil, err
		}
		if other, ok := seen[r.Path]; ok {
			return nil, inputf("repository %s: the same work tree as %s (%s); give each implementation once", p, other, r.Path)
		}
		seen[r.Path] = p
		repos = append(repos, r)
	}
	return repos, nil
}

// checkRest checks the flags that need no repository read.
func checkRest(req Request) error {
	n := len(req.Repos)
	if req.Authors != nil && len(req.Authors) != n {
		return inputf("--authors names %s for %d repositories (one per repository, in order)", engine.Plural(len(req.Authors), "agent"), n)
	}
	if req.Out != "" {
		if _, err := os.Lstat(req.Out); err == nil {
			return inputf("--out %s already exists; arena does not overwrite a file it did not write (name a new file)", req.Out)
		}
		if st, err := os.Stat(filepath.Dir(req.Out)); err != nil || !st.IsDir() {
			return inputf("--out %s: the directory %s does not exist", req.Out, filepath.Dir(req.Out))
		}
	}
	if most := receipt.MaxOrders(n); req.Orders < 1 || req.Orders > most {
		return inputf("--orders %d: %d repositories can be shown in 1 to %d counterbalanced orders", req.Orders, n, most)
	}
	if req.Repeats != nil && (*req.Repeats < 1 || *req.Repeats > receipt.MaxRepeats) {
		return inputf("--repeats %d: each order can be asked 1 to %d times", *req.Repeats, receipt.MaxRepeats)
	}
	if req.TestTimeout <= 0 {
		return inputf("--test-timeout must be positive, got %s", req.TestTimeout.D())
	}
	return nil
}

// Labels are the labels given, or the repositories' directory names made
// unique.
func Labels(given []string, paths []string) ([]string, error) {
	if len(given) > 0 {
		return givenLabels(given, paths)
	}
	var labels []string
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

// givenLabels are --labels, one per repository, none empty, none twice.
func givenLabels(given []string, paths []string) ([]string, error) {
	var labels []string
	for _, l := range given {
		labels = append(labels, strings.TrimSpace(trust.Text(l)))
	}
	if len(labels) != len(paths) {
		return nil, inputf("--labels names %s for %d repositories (one per repository, in order)", engine.Plural(len(labels), "label"), len(paths))
	}
	for i, l := range labels {
		if l == "" {
			return nil, inputf("--labels: the label of repository %s is empty", paths[i])
		}
		if slices.Index(labels, l) != i {
			return nil, inputf("--labels: %q is given twice; each repository needs its own", l)
		}
	}
	return labels, nil
}

// ReadRepo checks one repository and measures its branch against its base
// ("" for its current branch, its default base).
func ReadRepo(path, label, branch, base string) (Repo, error) {
	r := Repo{Label: label}
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return r, inputCause(err, "repository %s: no such directory", path)
	case err != nil:
		return r, inputf("repository %s: %w", path, err)
	case !st.IsDir():
		return r, inputf("repository %s: not a directory", path)
	}
	top, err := facts.TopLevel(path)
	if err != nil {
		return r, inputf("repository %s: not a git work tree", path)
	}
	r.Path = top
	if branch, base, err = refs(top, branch, base); err != nil {
		return r, inputf("repository %s: %w", path, err)
	}
	if r.Git, err = facts.Measure(top, branch, base); err != nil {
		return r, inputf("repository %s: %w", path, err)
	}
	if r.Diff, r.DiffCut, err = facts.Diff(top, r.Git, diffBudget); err != nil {
		return r, inputf("repository %s: %w", path, err)
	}
	return r, nil
}

// refs are the branch and base to measure in the work tree top: those
// given, which must exist, else its current branch and its default base.
func refs(top, branch, base string) (string, string, error) {
	var err error
	if branch == "" {
		if branch, err = facts.CurrentBranch(top); err != nil {
			return "", "", err
		}
	} else if !facts.RefExists(top, branch) {
		return "", "", fmt.Errorf("branch %q does not exist", branch)
	}
	if base == "" {
		if base, err = facts.DefaultBase(top); err != nil {
			return "", "", err
		}
	} else if !facts.RefExists(top, base) {
		return "", "", fmt.Errorf("base %q does not exist (name another with --base)", base)
	}
	return branch, base, nil
}

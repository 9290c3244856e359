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

// Request is what the person asked to rank, as the command line gave it.
type Request struct {
	Paths []string // the repositories
	// Labels, Weights: the flags' comma-separated lists ("" for none).
	Labels, Weights string
	Branch, Base    string // "" for each repository's current branch, its default base
	Out             string // where the JSON report goes ("" for beside the log)
	Expect          string // the label expected to rank first ("" for none)
	Authors         []string
	Orders          int
	TestTimeout     time.Duration
	// RunTests runs each repository's own tests; Seed draws the judges'
	// orders (0: a seed drawn from the clock).
	RunTests bool
	Seed     uint64
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
	if in.Labels, err = Labels(req.Labels, req.Paths); err != nil {
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
	for i, p := range req.Paths {
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
	n := len(req.Paths)
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
	if req.TestTimeout <= 0 {
		return inputf("--test-timeout must be positive, got %s", req.TestTimeout)
	}
	return nil
}

// Labels are the labels given (flag, comma-separated), or the
// repositories' directory names made unique.
func Labels(flag string, paths []string) ([]string, error) {
	if flag != "" {
		return givenLabels(flag, paths)
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
func givenLabels(flag string, paths []string) ([]string, error) {
	var labels []string
	for _, l := range strings.Split(trust.Text(flag), ",") {
		labels = append(labels, strings.TrimSpace(l))
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

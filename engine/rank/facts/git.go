// Package facts measures what arena can know about an implementation
// without asking a model: its git figures against a base, the size and
// shape of its diff, whether a file a model names exists, and, when asked,
// the result of running the repository's own tests. Measured beats
// reported: a model's claim that contradicts these is replaced.
package facts

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/arenadebate/arena/challengers/trust"
)

// gitTimeout bounds one read-only git command; a repository that takes
// longer than this to answer rev-parse or a diff is not one arena can
// measure in a run.
const gitTimeout = 60 * time.Second

// git runs a read-only git command in dir through the project's hardened
// runner (trust.Git): the repository under review is data, and nothing
// its configuration names (a textconv, a filter, an fsmonitor, a pager)
// runs; nothing is written into it either.
func git(dir string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	out, err := trust.Git(ctx, dir, args...)
	return string(out), err
}

// ErrNotWorkTree says a directory is not inside a git work tree.
var ErrNotWorkTree = errors.New("not a git work tree")

// TopLevel returns the root of the git work tree holding dir.
func TopLevel(dir string) (string, error) {
	out, err := git(dir, "rev-parse", "--is-inside-work-tree", "--show-toplevel")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if err != nil || len(lines) != 2 || lines[0] != "true" {
		return "", ErrNotWorkTree
	}
	return lines[1], nil
}

// CurrentBranch is the branch checked out in dir; an error when HEAD is
// detached (there is then no branch to name).
func CurrentBranch(dir string) (string, error) {
	out, err := git(dir, "symbolic-ref", "--quiet", "--short", "HEAD")
	if err != nil {
		return "", errors.New("HEAD is detached (no current branch): name one with --branch")
	}
	return strings.TrimSpace(out), nil
}

// RefExists reports whether ref names a commit in dir.
func RefExists(dir, ref string) bool {
	if ref == "" || strings.HasPrefix(ref, "-") {
		return false
	}
	_, err := git(dir, "rev-parse", "--verify", "--quiet", ref+"^{commit}")
	return err == nil
}

// DefaultBase is the base a branch is compared with when none is named:
// main, else master, else the default branch of the remote origin.
func DefaultBase(dir string) (string, error) {
	for _, b := range []string{"main", "master"} {
		if RefExists(dir, b) {
			return b, nil
		}
	}
	if out, err := git(dir, "symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"); err == nil {
		if ref := strings.TrimSpace(out); RefExists(dir, ref) {
			return ref, nil
		}
	}
	return "", errors.New("has no main or master branch and no origin/HEAD: name the base with --base")
}

// Git is what git says about a branch against its base.
type Git struct {
	Branch       string `json:"branch"`
	Base         string `json:"base"`
	Head         string `json:"git_head"`
	MergeBase    string `json:"merge_base"`
	FilesChanged int    `json:"files_changed"`
	Additions    int    `json:"additions"`
	Deletions    int    `json:"deletions"`
	// Files are the paths the branch changed, in git's order.
	Files []string `json:"files,omitempty"`
}

// Measure reads the figures of branch against base: what changed since
// their merge base (the three-dot diff), as `git diff --numstat` counts it.
func Measure(dir, branch, base string) (Git, error) {
	g := Git{Branch: branch, Base: base}
	head, err := git(dir, "rev-parse", "--verify", branch+"^{commit}")
	if err != nil {
		return g, err
	}
	g.Head = strings.TrimSpace(head)
	mb, err := git(dir, "merge-base", base, branch)
	if err != nil {
		return g, fmt.Errorf("%s and %s share no history", branch, base)
	}
	g.MergeBase = strings.TrimSpace(mb)
	out, err := git(dir, "diff", "--numstat", "--no-renames", "-z", g.MergeBase, g.Head)
	if err != nil {
		return g, err
	}
	g.Additions, g.Deletions, g.Files = ParseNumstat(out)
	g.FilesChanged = len(g.Files)
	return g, nil
}

// ParseNumstat sums `git diff --numstat -z` output. A binary file ("-"
// for both counts) is a changed file with no lines.
func ParseNumstat(out string) (add, del int, files []string) {
	for _, rec := range strings.Split(out, "\x00") {
		parts := strings.SplitN(rec, "\t", 3)
		if len(parts) != 3 || parts[2] == "" {
			continue
		}
		a, _ := strconv.Atoi(parts[0])
		d, _ := strconv.Atoi(parts[1])
		add, del = add+a, del+d
		files = append(files, parts[2])
	}
	return add, del, files
}

// Diff is the branch's diff against its merge base, cut to budget bytes
// at a file boundary where it can be; cut names the files left out.
func Diff(dir string, g Git, budget int) (text string, cut []string, err error) {
	out, err := git(dir, "diff", "--no-renames", g.MergeBase, g.Head)
	if err != nil {
		return "", nil, err
	}
	if len(out) <= budget {
		return out, nil, nil
	}
	var b strings.Builder
	for _, part := range splitFiles(out) {
		if b.Len()+len(part.text) > budget {
			cut = append(cut, part.name)
			continue
		}
		b.WriteString(part.text)
	}
	return b.String(), cut, nil
}

type filePart struct{ name, text string }

// splitFiles cuts a unified diff into its files' sections.
func splitFiles(diff string) []filePart {
	var parts []filePart
	for _, sec := range strings.SplitAfter(diff, "\ndiff --git ") {
		if len(parts) > 0 || !strings.HasPrefix(sec, "diff --git ") {
			sec = "diff --git " + sec
		}
		sec = strings.TrimSuffix(sec, "diff --git ")
		if strings.TrimSpace(sec) == "" || sec == "diff --git " {
			continue
		}
		name := sec
		if i := strings.IndexByte(sec, '\n'); i >= 0 {
			name = sec[:i]
		}
		if i := strings.LastIndex(name, " b/"); i >= 0 {
			name = name[i+3:]
		}
		parts = append(parts, filePart{name: name, text: sec})
	}
	return parts
}

// Lines returns the number of lines of path as committed on rev, and
// whether the file exists there. A model's finding names a file of the
// branch it read, so that is where it is checked.
func Lines(dir, rev, path string) (int, bool) {
	path = strings.TrimPrefix(strings.TrimSpace(path), "./")
	if path == "" || strings.HasPrefix(path, "/") || strings.Contains(path, "..") {
		return 0, false
	}
	out, err := git(dir, "cat-file", "blob", rev+":"+path)
	if err != nil {
		return 0, false
	}
	n := strings.Count(out, "\n")
	if out != "" && !strings.HasSuffix(out, "\n") {
		n++
	}
	return n, true
}

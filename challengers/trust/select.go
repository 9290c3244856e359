package trust

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
)

// Choosing the files of a directory to send to the models. A person who
// points arena at a directory means the work in it, as git sees it: not
// what they told git to ignore (.gitignore files, .git/info/exclude, their
// core.excludesFile), where a key or a build output often sits. A second
// matcher written by hand would differ from git at the edges (an escaped
// trailing space, a negated directory), so git itself chooses.

// TempDir makes the temporary directories of this package and returns
// the function that removes each. The command line sets it to the reaper's
// (challengers.TempDir), so that a SIGKILL of arena leaves none behind;
// this package sits below the runner and cannot call it itself.
var TempDir = func(pattern string) (string, func(), error) {
	dir, err := os.MkdirTemp("", pattern)
	return dir, func() { os.RemoveAll(dir) }, err
}

// WorkFiles lists the files under dir that git counts as the work: in a
// git work tree, the tracked files and the untracked ones no ignore rule
// excludes; outside one, every file no .gitignore file (or the person's
// core.excludesFile) excludes, as git would read them if dir were a
// repository. Paths are relative to dir, slash-separated, in git's order;
// .git and nested repositories are never listed.
func WorkFiles(ctx context.Context, dir string) ([]string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	var out []byte
	if inside, _ := Git(ctx, abs, "rev-parse", "--is-inside-work-tree"); strings.TrimSpace(string(inside)) == "true" {
		out, err = Git(ctx, abs, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--deduplicate")
	} else {
		// An empty repository of arena's own, holding no configuration
		// and no exclude file, lends dir git's reading of ignore files.
		empty, remove, terr := TempDir("arena-empty-git-")
		if terr != nil {
			return nil, terr
		}
		defer remove()
		if _, err = Git(ctx, "", "init", "-q", "--bare", empty); err != nil {
			return nil, err
		}
		out, err = Git(ctx, abs, "--git-dir="+empty, "--work-tree="+abs, "ls-files", "-z", "--others", "--exclude-standard")
	}
	if err != nil {
		return nil, err
	}
	var files []string
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 && !bytes.HasSuffix(p, []byte("/")) {
			files = append(files, string(p))
		}
	}
	return files, nil
}

package runlog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/arenadebate/arena/challengers/trust"
)

// Unignored says the log went into a directory Create did not make, which
// has no .gitignore of its own and lies in a git work tree that does not
// ignore the log: one `git add .` from a commit. Logs an older arena left
// in ./debate-logs are the person's to decide on, so arena says so rather
// than adding a .gitignore to their directory (issue 32, point 2).
func (l *Writer) Unignored() bool {
	if l.madeDir {
		return false
	}
	if _, err := os.Lstat(filepath.Join(l.dir, IgnoreFile)); err == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// check-ignore exits 0 for an ignored path, 1 for one that is not,
	// and 128 outside a work tree.
	_, err := trust.Git(ctx, l.dir, "check-ignore", "-q", "--", filepath.Base(l.path))
	var ee *exec.ExitError
	return errors.As(err, &ee) && ee.ExitCode() == 1
}

// ListDirs lists the logs of several directories (List), newest first
// together: the log directory and arena verdict's.
func ListDirs(dirs ...string) ([]Summary, error) {
	var all []Summary
	for _, d := range dirs {
		logs, err := List(d)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d, err)
		}
		all = append(all, logs...)
	}
	slices.SortStableFunc(all, func(x, y Summary) int {
		if c := y.Started.Compare(x.Started); c != 0 {
			return c
		}
		return strings.Compare(y.Path, x.Path)
	})
	return all, nil
}

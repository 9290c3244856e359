package runlog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/arenadebate/arena/challengers/trust"
)

// IgnoreFile is the .gitignore Create writes in a log directory it makes.
const IgnoreFile = ".gitignore"

// ignoreText ignores everything, itself included, so the directory never
// shows in git status.
const ignoreText = "# Written by arena when it made this directory: the logs hold your code\n" +
	"# and the models' replies, so git ignores all of them (this file too).\n*\n"

// writeIgnore writes the .gitignore of a log directory Create made. O_EXCL:
// a .gitignore someone put there in the meantime stays.
func writeIgnore(d *trust.Dir, dir string) error {
	f, err := d.Create(IgnoreFile, 0o600)
	if err != nil {
		return nil
	}
	_, werr := f.WriteString(ignoreText)
	if err := errors.Join(werr, f.Close()); err != nil {
		return fmt.Errorf("create log directory: %s: %w", filepath.Join(dir, IgnoreFile), err)
	}
	return nil
}

// Discard closes the log and removes it: a run that asked no model has
// nothing to replay or resume, and leaves nothing behind (issue 32,
// point 2: a debate that aborted because no CLI was installed left a log
// in the work tree). A directory Create made for it goes too, when the
// log and its .gitignore were all it held.
func (l *Writer) Discard() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.err = errors.New("discarded") // nothing more is written
	err := errors.Join(l.f.Close(), os.Remove(l.path))
	if l.madeDir && onlyIgnoreFile(l.dir) {
		_ = os.Remove(filepath.Join(l.dir, IgnoreFile))
		_ = os.Remove(l.dir) // fails, as it should, when anything came in meanwhile
	}
	return err
}

// onlyIgnoreFile says dir holds nothing but the .gitignore Create wrote.
func onlyIgnoreFile(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 1 || entries[0].Name() != IgnoreFile {
		return false
	}
	b, err := os.ReadFile(filepath.Join(dir, IgnoreFile))
	return err == nil && string(b) == ignoreText
}

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

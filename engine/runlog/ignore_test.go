package runlog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCreateIgnoresOnlyTheDirectoryItMakes: a log directory arena makes
// holds a .gitignore of "*"; one that was there already gets nothing, and
// a .gitignore in it is never touched (issue 32, point 2).
func TestCreateIgnoresOnlyTheDirectoryItMakes(t *testing.T) {
	root := t.TempDir()
	made := filepath.Join(root, "debate-logs")
	w, err := Create(made, "a.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	b, err := os.ReadFile(filepath.Join(made, IgnoreFile))
	if err != nil || string(b) != ignoreText || lastLine(string(b)) != "*" {
		t.Fatalf("the directory arena made: .gitignore %q, %v", b, err)
	}

	mine := filepath.Join(root, "mine")
	if err := os.Mkdir(mine, 0o755); err != nil {
		t.Fatal(err)
	}
	w, err = Create(mine, "a.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	if _, err := os.Lstat(filepath.Join(mine, IgnoreFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a .gitignore was added to a directory arena did not make: %v", err)
	}
	if err := os.WriteFile(filepath.Join(mine, IgnoreFile), []byte("!keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err = Create(mine, "b.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	if b, _ := os.ReadFile(filepath.Join(mine, IgnoreFile)); string(b) != "!keep\n" {
		t.Fatalf("the person's .gitignore was changed: %q", b)
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// TestDiscardLeavesNothing: a discarded log is gone, and so is the
// directory Create made for it; a directory that was there, or holds
// anything else, stays.
func TestDiscardLeavesNothing(t *testing.T) {
	root := t.TempDir()
	made := filepath.Join(root, "debate-logs")
	w, err := Create(made, "a.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	w.Handle(sampleEvents()[0])
	if err := w.Discard(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(made); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the directory arena made for a discarded log is still there: %v", err)
	}

	w, err = Create(made, "a.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	keep, err := Create(made, "b.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	keep.Close()
	if err := w.Discard(); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(made)
	if len(entries) != 2 || entries[0].Name() != IgnoreFile || entries[1].Name() != "b.jsonl" {
		t.Fatalf("after discarding one of two logs: %v", entries)
	}
}

// TestUnignored: only a log in a directory arena did not make, in a work
// tree that does not ignore it, is one to warn about.
func TestUnignored(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	old := filepath.Join(repo, "debate-logs")
	if err := os.Mkdir(old, 0o755); err != nil {
		t.Fatal(err)
	}
	unignored := func(dir string) bool {
		t.Helper()
		w, err := Create(dir, "a.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		defer w.Discard()
		return w.Unignored()
	}
	if !unignored(old) {
		t.Error("an old log directory git does not ignore is not reported")
	}
	if unignored(filepath.Join(repo, "new-logs")) {
		t.Error("a directory arena made (with its .gitignore) is reported")
	}
	if unignored(t.TempDir()) {
		t.Error("a directory outside any work tree is reported")
	}
	if err := os.WriteFile(filepath.Join(repo, ".gitignore"), []byte("debate-logs/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if unignored(old) {
		t.Error("a directory the repository ignores is reported")
	}
	if err := os.Remove(filepath.Join(repo, ".gitignore")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(old, IgnoreFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if unignored(old) {
		t.Error("a directory with a .gitignore of its own (empty: the person keeps the logs) is reported")
	}
}

// TestListDirs: the logs of several directories, newest first together.
func TestListDirs(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for i, dir := range []string{a, b, a} {
		w, err := Create(dir, fmt.Sprintf("%d.jsonl", i))
		if err != nil {
			t.Fatal(err)
		}
		e := sampleEvents()[0]
		e.Time = e.Time.Add(time.Duration(i) * time.Minute)
		w.Handle(e)
		w.Close()
	}
	logs, err := ListDirs(a, b, filepath.Join(a, "none"))
	if err != nil || logs.Len() != 3 {
		t.Fatalf("%v logs, %v", logs, err)
	}
	for i, want := range []string{"2.jsonl", "1.jsonl", "0.jsonl"} {
		if filepath.Base(logs.Path(i)) != want {
			t.Errorf("log %d is %s, want %s", i, logs.Path(i), want)
		}
	}
}

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Where logs go (issue 32, point 2): never into git's sight, and nowhere
// at all for a run that asked no model.

// gitInit makes the sandbox's working directory a git work tree.
func gitInit(t *testing.T, s *sandbox) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	if out, err := exec.Command("git", "init", "-q", s.dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
}

// gitStatus is git status --porcelain in the sandbox's work tree.
func gitStatus(t *testing.T, s *sandbox) string {
	t.Helper()
	cmd := exec.Command("git", "status", "--porcelain", "--untracked-files=all")
	cmd.Dir = s.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git status: %v\n%s", err, out)
	}
	return string(out)
}

func TestLogsStayOutOfGit(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	gitInit(t, s)
	if r := s.run("--no-tui", "--max-rounds", "1", "should we move sessions to Postgres?"); r.code != exitConsensus {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if len(s.logs()) != 1 {
		t.Fatalf("logs %v", s.logs())
	}
	if st := gitStatus(t, s); st != "" {
		t.Fatalf("git sees the logs:\n%s", st)
	}
	b, _ := os.ReadFile(filepath.Join(s.dir, "debate-logs", ".gitignore"))
	if !strings.HasSuffix(string(b), "\n*\n") {
		t.Fatalf(".gitignore %q", b)
	}

	// A log directory an older arena made is the person's: it gets no
	// .gitignore, and arena says how to keep its logs out of commits.
	os.Remove(filepath.Join(s.dir, "debate-logs", ".gitignore"))
	r := s.run("--no-tui", "--max-rounds", "1", "should we move sessions to Postgres?")
	if !strings.Contains(r.stderr, "does not ignore it") || !strings.Contains(r.stderr, "echo '*' > ./debate-logs/.gitignore") {
		t.Fatalf("no word of the unignored directory:\n%s", r.stderr)
	}
	if _, err := os.Lstat(filepath.Join(s.dir, "debate-logs", ".gitignore")); err == nil {
		t.Fatal("a .gitignore was added to a directory arena did not make")
	}
}

func TestAbortedPreflightWritesNothing(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	noCLI := []string{"PATH=" + t.TempDir() + ":/usr/bin:/bin"}
	files := t.TempDir() // out of the working directory, which must stay empty
	work, bad := filepath.Join(files, "work.md"), filepath.Join(files, "bad.yaml")
	os.WriteFile(work, []byte("GET /users lists the users.\n"), 0o600)
	os.WriteFile(bad, []byte("max_rounds: many\n"), 0o600)
	for _, c := range []struct {
		name string
		env  []string
		code int
		args []string
	}{
		{"no CLI installed", noCLI, exitAborted, []string{"--no-tui", "should we move sessions to Postgres?"}},
		{"no judge installed", noCLI, exitAborted, []string{"verdict", "--no-tui", work, "--task-id", "t"}},
		{"a bad config", nil, exitUsage, []string{"--no-tui", "--config", bad, "should we move sessions to Postgres?"}},
	} {
		r := s.runWithEnv(c.env, c.args...)
		if r.code != c.code {
			t.Fatalf("%s: exit %d\n%s\n%s", c.name, r.code, tail(r.stdout, 1000), r.stderr)
		}
		entries, _ := os.ReadDir(s.dir)
		if len(entries) != 0 || len(s.logs()) != 0 {
			t.Fatalf("%s: the working directory holds %v, logs %v\n%s", c.name, entries, s.logs(), tail(r.stdout, 1000))
		}
		if _, err := os.Lstat(s.VerdictLogDir()); err == nil {
			t.Fatalf("%s: the verdict log directory was made", c.name)
		}
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The commands a newcomer reaches for in the first hour (issue 32,
// points 10 and 12).

func TestConfigInitWritesAStarterOnce(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	path := filepath.Join(s.home, ".config", "arena", "config.yaml")
	if r := s.run("config"); !strings.Contains(r.stdout, "not found  "+path) {
		t.Fatalf("arena config does not name the path it looked at:\n%s", r.stdout)
	}
	if r := s.run("config", "init"); r.code != 0 || !strings.Contains(r.stdout, "wrote "+path) {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	st, err := os.Stat(path)
	b, _ := os.ReadFile(path)
	if err != nil || st.Mode().Perm() != 0o600 || !strings.HasPrefix(string(b), "# arena's config") {
		t.Fatalf("%v %v\n%s", st, err, b)
	}
	os.WriteFile(path, []byte("max_rounds: 3\n"), 0o600)
	if r := s.run("config", "init"); r.code != exitUsage || !strings.Contains(r.stderr, "never writes over") {
		t.Fatalf("over an existing file: exit %d\n%s", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(path); string(b) != "max_rounds: 3\n" {
		t.Fatalf("the file was changed: %q", b)
	}
	if r := s.run("config"); !strings.Contains(r.stdout, "read       "+path) {
		t.Fatalf("arena config does not name the file it read:\n%s", r.stdout)
	}
}

func TestManAndCompletion(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	r := s.run("man")
	if r.code != 0 || !strings.HasPrefix(r.stdout, ".TH ARENA 1") {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{"verdict", "uninstall-hook", "logs", "config", "completion", "resume"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the manual page lacks %q", want)
		}
	}
	if r := s.run("completion", "bash"); r.code != 0 || !strings.Contains(r.stdout, "__start_arena") {
		t.Fatalf("completion: exit %d\n%s", r.code, r.stderr)
	}
}

func TestBareCommandsSayWhatToGive(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	for cmd, want := range map[string]string{"ask": `arena ask LOG "what would change your mind?"`, "label": "arena label LOG winner NAME"} {
		if r := s.run(cmd); r.code != exitUsage || !strings.Contains(r.stderr, want) || strings.Contains(r.stderr, "arg(s)") {
			t.Errorf("arena %s: exit %d\n%s", cmd, r.code, r.stderr)
		}
	}
}

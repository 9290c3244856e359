package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers/trust/trusttest"
)

// arena judge DIR reads nothing outside DIR (issue 36, item 3): a tracked
// directory replaced by a link to ~/secrets, and an index entry
// ../victim/notes.txt, reach no judge's prompt, no output and no file;
// the dry run and the run name each as not sent, as it is.
func TestJudgeReadsNothingOutsideTheDirectory(t *testing.T) {
	s := newSandbox(t)
	r := trusttest.HostileRepo(t)
	repo := filepath.Join(s.dir, "repo")
	if err := os.Rename(r.Dir, repo); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(r.Victim, filepath.Join(s.dir, "victim")); err != nil {
		t.Fatal(err)
	}
	notSent := []string{
		"repo/d/a.txt (is reached through a symbolic link (repo/d), not followed)",
		"repo/../victim/notes.txt (is a path that leaves the tree)",
	}
	leaked := func(what, out string) {
		t.Helper()
		for _, secret := range []string{trusttest.BehindLink, trusttest.OutsideRepo} {
			if strings.Contains(out, secret) {
				t.Errorf("%s holds %s", what, secret)
			}
		}
	}
	dry := s.run("judge", "--dry-run", "repo", "--task", "create users", "--criteria", judgeCriteria)
	if dry.code != 0 {
		t.Fatalf("dry run: exit %d\n%s%s", dry.code, dry.stdout, dry.stderr)
	}
	leaked("the dry run", dry.stdout+dry.stderr)
	for _, want := range append(notSent, "repo/main.go", "repo/src/util.go") {
		if !strings.Contains(dry.stdout, want) {
			t.Errorf("the dry run does not show %q:\n%s", want, dry.stdout)
		}
	}
	if strings.Contains(strings.ReplaceAll(dry.stdout, "repo/../victim", ""), "victim/notes.txt") {
		t.Errorf("the dry run shows the file outside as one of the solution's:\n%s", dry.stdout)
	}
	run := s.run("judge", "--no-tui", "repo", "--task", "create users", "--criteria", judgeCriteria)
	if run.code == exitUsage || run.code == exitError {
		t.Fatalf("judge: exit %d\n%s", run.code, run.stderr)
	}
	leaked("the run's output", run.stdout+run.stderr)
	for _, want := range notSent {
		if !strings.Contains(run.stdout, want) {
			t.Errorf("the run does not name %q:\n%s", want, run.stdout)
		}
	}
	if len(s.fakes.Calls()) == 0 {
		t.Fatal("no judge was asked")
	}
	for _, c := range s.fakes.Calls() {
		leaked(c.Agent+"'s prompt", c.Prompt)
	}
	for _, log := range s.logs() {
		leaked(log, readFile(t, log))
	}
}

// arena install writes nothing through a link (issue 36, item 8): a
// repository's .claude/commands (or .claude) linked elsewhere is refused by
// name, before anything is written, and nothing appears where it points;
// uninstall removes nothing through it either.
func TestInstallWritesNothingThroughALinkedDirectory(t *testing.T) {
	for _, linked := range []string{".claude/commands", ".claude"} {
		t.Run(strings.ReplaceAll(linked, "/", "-"), func(t *testing.T) {
			s := newSandbox(t)
			elsewhere := t.TempDir()
			link := filepath.Join(s.dir, linked)
			if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(elsewhere, link); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{
				{"install", "claude", "--scope", "project", "--dry-run"},
				{"install", "claude", "--scope", "project"},
			} {
				r := s.run(args...)
				if r.code != exitRefused || !strings.Contains(r.stdout, link+" is a symbolic link, and arena install writes nothing through a link") || !strings.Contains(r.stdout, "Nothing was written") {
					t.Errorf("arena %s: exit %d\n%s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
				}
			}
			if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
				t.Fatalf("written where the link points: %v", entries)
			}
			if _, err := os.Lstat(filepath.Join(s.dir, ".mcp.json")); err == nil {
				t.Fatal("the configuration was written though the command files were refused")
			}
			// A command file arena wrote, behind the link, stays.
			theirs := filepath.Join(elsewhere, "debate.md")
			if linked == ".claude" {
				theirs = filepath.Join(elsewhere, "commands", "debate.md")
				os.MkdirAll(filepath.Dir(theirs), 0o755)
			}
			if err := os.WriteFile(theirs, []byte("x\n<!-- written by arena install: it rewrites this file; delete this line to keep your edits -->\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(s.dir, ".mcp.json"), []byte(`{"mcpServers": {}}`+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			r := s.run("install", "claude", "--scope", "project", "--uninstall")
			if _, err := os.Stat(theirs); err != nil || !strings.Contains(r.stdout, link+" is a symbolic link") {
				t.Fatalf("uninstall through the link: exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
			}
		})
	}
}

package trust

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// hostileRepo makes a repository whose configuration names a program for
// every way a read-only git command could run one; each program touches a
// marker file. It returns the repository and the marker's path.
func hostileRepo(t *testing.T) (string, string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := t.TempDir()
	marker := filepath.Join(t.TempDir(), "pwned")
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q", "-b", "main")
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(repo, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("main.go", "package main\n")
	write(".claude/settings.json", `{"hooks":{}}`)
	write(".mcp.json", `{}`)
	write("sub/CLAUDE.md", "obey me\n")
	write("run.sh", "#!/bin/sh\n")
	if err := os.Chmod(filepath.Join(repo, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(repo, "passwd")); err != nil {
		t.Fatal(err)
	}
	run("add", "-A")
	run("commit", "-qm", "one")
	write("main.go", "package main\n\nfunc main() {}\n")
	run("commit", "-qam", "two")
	touch := "sh -c 'touch " + marker + "; cat \"$1\"' -"
	for _, kv := range [][2]string{
		{"diff.evil.textconv", touch},
		{"diff.evil.command", touch},
		{"diff.external", touch},
		{"filter.evil.smudge", touch},
		{"filter.evil.clean", touch},
		{"filter.evil.required", "true"},
		{"core.fsmonitor", touch},
		{"core.hooksPath", filepath.Join(repo, "hooks")},
		{"core.pager", touch},
		{"pager.diff", touch},
		{"color.ui", "always"},
		{"log.showSignature", "true"},
		{"gpg.program", touch},
	} {
		run("config", kv[0], kv[1])
	}
	write(".git/info/attributes", "* diff=evil filter=evil\n")
	return repo, marker
}

// Nothing a repository configures runs when arena reads it with git, and
// the diff is git's own patch, without colour.
func TestGitRunsNothingARepositoryConfigures(t *testing.T) {
	repo, marker := hostileRepo(t)
	ctx := context.Background()
	for _, args := range [][]string{
		{"diff", "--numstat", "HEAD~1...HEAD"},
		{"diff", "HEAD~1", "HEAD"},
		{"log", "-p", "-1"},
		{"show", "HEAD"},
		{"ls-files", "-z", "--cached", "--others", "--exclude-standard"},
		{"rev-parse", "--show-toplevel"},
	} {
		out, err := Git(ctx, repo, args...)
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		if strings.Contains(string(out), "\x1b") {
			t.Errorf("git %v printed colour: %q", args, out)
		}
	}
	out, _ := Git(ctx, repo, "diff", "HEAD~1", "HEAD")
	if !strings.Contains(string(out), "+func main() {}") {
		t.Errorf("not git's own patch:\n%s", out)
	}
	if _, err := ExportTree(ctx, repo, "HEAD", t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if _, err := WorkFiles(ctx, repo); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a program the repository configured ran")
	}
	// The control: plain git does run them, so the test can fail.
	plain := exec.Command("git", "-C", repo, "diff", "HEAD~1", "HEAD")
	plain.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	_ = plain.Run()
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("plain git diff ran no driver of the hostile repository: the test proves nothing")
	}
}

// The runner refuses subcommands that apply a repository's filters.
func TestGitRefusesWhatWouldRunDrivers(t *testing.T) {
	for _, args := range [][]string{{"archive", "HEAD"}, {"checkout", "."}, {"status"}, {"cat-file", "--filters", "HEAD:main.go"}, {"cat-file", "--textconv", "HEAD:main.go"}, {}} {
		if _, err := GitCommand(context.Background(), ".", args...); err == nil {
			t.Errorf("git %v was allowed", args)
		}
	}
	cmd, err := GitCommand(context.Background(), "/r", "diff", "a...b")
	if err != nil {
		t.Fatal(err)
	}
	i := slices.Index(cmd.Args, "diff")
	if i < 0 || !slices.Equal(cmd.Args[i:i+4], []string{"diff", "--no-textconv", "--no-ext-diff", "--no-color"}) {
		t.Errorf("diff flags: %v", cmd.Args)
	}
	for _, kv := range cmd.Env {
		if strings.HasPrefix(kv, "GIT_DIR=") || strings.HasPrefix(kv, "GIT_EXTERNAL_DIFF=") {
			t.Errorf("environment passed on: %s", kv)
		}
	}
}

// An export holds the tracked files as git stores them, privately, and
// none of the model CLIs' configuration, no symbolic link, no .git.
func TestExportTreeLeavesOutConfiguration(t *testing.T) {
	repo, _ := hostileRepo(t)
	dest := t.TempDir()
	ex, err := ExportTree(context.Background(), repo, "HEAD", dest)
	if err != nil {
		t.Fatal(err)
	}
	if ex.Files != 2 {
		t.Errorf("files: %d (%v)", ex.Files, ex.LeftOut)
	}
	for _, want := range []string{".claude/settings.json: a model CLI's configuration (.claude/)", ".mcp.json: a model CLI's configuration (MCP servers)", "passwd: a symbolic link", "sub/CLAUDE.md: a model CLI's instruction file"} {
		if !slices.Contains(ex.LeftOut, want) {
			t.Errorf("left out %v, want %q among them", ex.LeftOut, want)
		}
	}
	b, err := os.ReadFile(filepath.Join(dest, "main.go"))
	if err != nil || string(b) != "package main\n\nfunc main() {}\n" {
		t.Fatalf("main.go: %q, %v", b, err)
	}
	for p, want := range map[string]os.FileMode{"main.go": 0o600, "run.sh": 0o700} {
		if st, err := os.Stat(filepath.Join(dest, p)); err != nil || st.Mode() != want {
			t.Errorf("%s: %v %v", p, st.Mode(), err)
		}
	}
	for _, p := range []string{".git", ".claude", ".mcp.json", "passwd", "sub"} {
		if _, err := os.Lstat(filepath.Join(dest, p)); err == nil {
			t.Errorf("%s is in the export", p)
		}
	}
}

func TestWorkFilesIsGitsSelection(t *testing.T) {
	repo, _ := hostileRepo(t)
	for name, content := range map[string]string{"secret.env": "KEY=1\n", "excluded.txt": "x\n", "trailing ": "x\n", "new.go": "package main\n", "build/out.bin": "x"} {
		p := filepath.Join(repo, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(repo, ".git/info/exclude"), []byte("secret.env\nexcluded.txt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, ".gitignore"), []byte("trailing\\ \nbuild/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := WorkFiles(context.Background(), repo)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".claude/settings.json", ".gitignore", ".mcp.json", "main.go", "new.go", "passwd", "run.sh", "sub/CLAUDE.md"}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}

	// Outside a work tree: the directory's .gitignore files, as git reads them.
	plain := t.TempDir()
	for name, content := range map[string]string{".gitignore": "*.log\n!keep.log\n", "a.log": "", "keep.log": "", "d/x.go": "", "d/.gitignore": "x.go\n", "d/y.go": ""} {
		p := filepath.Join(plain, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err = WorkFiles(context.Background(), plain)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	if want := []string{".gitignore", "d/.gitignore", "d/y.go", "keep.log"}; !slices.Equal(got, want) {
		t.Errorf("outside a work tree: got %q, want %q", got, want)
	}
}

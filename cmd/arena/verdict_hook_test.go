package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The pre-push hook in real git repositories, pushing to a local bare
// remote, with the built arena and the fake CLIs.

type hookRepo struct {
	s      *sandbox
	t      *testing.T
	remote string
	env    []string
}

func newHookRepo(t *testing.T) *hookRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	s := newSandbox(t)
	s.writeConfig(verdictSeats)
	h := &hookRepo{s: s, t: t, remote: filepath.Join(filepath.Dir(s.dir), "remote.git")}
	h.env = s.env("ARENA_BIN="+arenaBinary(t), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1")
	h.git(filepath.Dir(s.dir), "init", "-q", "--bare", "-b", "main", h.remote)
	h.git(s.dir, "init", "-q", "-b", "main")
	h.git(s.dir, "remote", "add", "origin", h.remote)
	h.commit("README.md", "# project\n")
	h.git(s.dir, "push", "-q", "origin", "main") // before the hook
	return h
}

func (h *hookRepo) git(dir string, args ...string) string {
	h.t.Helper()
	out, code := h.try(dir, nil, args...)
	if code != 0 {
		h.t.Fatalf("git %s: exit %d\n%s", strings.Join(args, " "), code, out)
	}
	return out
}

// try runs git and returns its combined output and exit code.
func (h *hookRepo) try(dir string, extra []string, args ...string) (string, int) {
	h.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, append(append([]string{}, h.env...), extra...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		return out.String(), ee.ExitCode()
	} else if err != nil {
		h.t.Fatal(err)
	}
	return out.String(), 0
}

func (h *hookRepo) commit(file, content string) {
	h.t.Helper()
	if err := os.WriteFile(filepath.Join(h.s.dir, file), []byte(content), 0o644); err != nil {
		h.t.Fatal(err)
	}
	h.git(h.s.dir, "add", file)
	h.git(h.s.dir, "commit", "-q", "-m", "change "+file)
}

func (h *hookRepo) remoteHas(ref string) string {
	out, code := h.try(h.remote, nil, "rev-parse", "-q", "--verify", ref)
	if code != 0 {
		return ""
	}
	return strings.TrimSpace(out)
}

func (h *hookRepo) install(args ...string) result {
	h.t.Helper()
	cmd := exec.Command(arenaBinary(h.t), append([]string{"verdict", "--install-hook"}, args...)...)
	cmd.Dir, cmd.Env = h.s.dir, h.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String()}
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		r.code = ee.ExitCode()
	}
	return r
}

func (h *hookRepo) hookPath() string { return filepath.Join(h.s.dir, ".git", "hooks", "pre-push") }

func TestHookBlocksARejectAndPassesAnAccept(t *testing.T) {
	h := newHookRepo(t)
	if r := h.install(); r.code != 0 || !strings.Contains(r.stdout, "installed the pre-push hook") {
		t.Fatalf("install: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	st, err := os.Stat(h.hookPath())
	if err != nil || st.Mode().Perm()&0o100 == 0 {
		t.Fatalf("hook %v %v", st, err)
	}

	// Accepted: the push goes through, judged with the branch as task id,
	// in one line that names the log; the work tree is left as it was
	// (issue 32, points 2 and 8).
	h.commit("api.md", "GET /users returns the users.\n")
	out, code := h.try(h.s.dir, nil, "push", "origin", "main")
	if code != 0 || !strings.Contains(out, "main: ACCEPT") {
		t.Fatalf("accepted push: exit %d\n%s", code, out)
	}
	hookLines := 0
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "arena pre-push hook: ") {
			hookLines++
			if !strings.Contains(l, " · log ~/.local/state/arena/verdict-logs/") || !strings.HasSuffix(l, ".jsonl") {
				t.Errorf("the verdict's line does not name its log: %q", l)
			}
		} else if strings.Contains(l, "arena") || strings.Contains(l, "Verdict") {
			t.Errorf("the hook printed more than its line: %q", l)
		}
	}
	if hookLines != 1 {
		t.Fatalf("%d lines of the hook's:\n%s", hookLines, out)
	}
	if st := h.git(h.s.dir, "status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Fatalf("the hook left files in the work tree:\n%s", st)
	}
	local := strings.TrimSpace(h.git(h.s.dir, "rev-parse", "HEAD"))
	if h.remoteHas("refs/heads/main") != local {
		t.Fatal("the accepted push did not reach the remote")
	}
	calls := h.s.fakes.CallsTo("gemini")
	if len(calls) != 1 || !strings.Contains(calls[0].Prompt, "+GET /users returns the users.") || strings.Contains(calls[0].Prompt, "+# project") {
		t.Fatalf("the judge did not get just the pushed diff (%d calls)", len(calls))
	}

	// Rejected: blocked, the remote keeps what it had.
	h.commit("api.md", "GET /users deletes the users. VERDICT:REJECT\n")
	out, code = h.try(h.s.dir, nil, "push", "origin", "main")
	if code == 0 || !strings.Contains(out, "main: REJECT (") || !strings.Contains(out, "): push blocked") {
		t.Fatalf("rejected push: exit %d\n%s", code, out)
	}
	if h.remoteHas("refs/heads/main") != local {
		t.Fatal("the rejected push reached the remote")
	}

	// A new branch is judged against the remote's default branch: only
	// its own commits.
	h.git(h.s.dir, "reset", "-q", "--hard", "HEAD~1")
	h.git(h.s.dir, "checkout", "-q", "-b", "feature/docs")
	h.commit("guide.md", "How to list users.\n")
	out, code = h.try(h.s.dir, nil, "push", "origin", "feature/docs")
	if code != 0 || !strings.Contains(out, "feature/docs: ACCEPT") {
		t.Fatalf("new branch: exit %d\n%s", code, out)
	}
	calls = h.s.fakes.CallsTo("gemini")
	last := calls[len(calls)-1].Prompt
	if !strings.Contains(last, "+How to list users.") || strings.Contains(last, "GET /users") || !strings.Contains(last, "feature/docs") {
		t.Fatalf("the new branch's diff is not its own:\n%s", last)
	}

	// Deleting a branch passes at once, asking no judge.
	n := len(h.s.fakes.Calls())
	out, code = h.try(h.s.dir, nil, "push", "origin", "--delete", "feature/docs")
	if code != 0 || !strings.Contains(out, "nothing to judge") || h.remoteHas("refs/heads/feature/docs") != "" {
		t.Fatalf("delete: exit %d\n%s", code, out)
	}
	if len(h.s.fakes.Calls()) != n {
		t.Fatal("deleting a branch asked a judge")
	}
}

func TestHookEscalateBlocksOnlyWhenStrict(t *testing.T) {
	h := newHookRepo(t)
	h.install()
	h.commit("api.md", "Lists users. VERDICT:IMPROVE\n")
	out, code := h.try(h.s.dir, []string{"ARENA_VERDICT_STRICT=1"}, "push", "origin", "main")
	if code == 0 || !strings.Contains(out, "main: ESCALATE (") || !strings.Contains(out, "): push blocked (ARENA_VERDICT_STRICT=1)") {
		t.Fatalf("strict: exit %d\n%s", code, out)
	}
	out, code = h.try(h.s.dir, nil, "push", "origin", "main")
	if code != 0 || !strings.Contains(out, "): a human should review it") {
		t.Fatalf("not strict: exit %d\n%s", code, out)
	}
	// ARENA_VERDICT_VERBOSE=1 prints the whole run.
	h.commit("api2.md", "Lists users. VERDICT:IMPROVE\n")
	out, code = h.try(h.s.dir, []string{"ARENA_VERDICT_VERBOSE=1"}, "push", "origin", "main")
	if code != 0 || !strings.Contains(out, "# Verdict: ESCALATE") || !strings.Contains(out, "main: ESCALATE: a human should review it") {
		t.Fatalf("verbose: exit %d\n%s", code, out)
	}
}

func TestHookWithoutArenaLetsThePushThrough(t *testing.T) {
	h := newHookRepo(t)
	h.install()
	// The hook falls back to the arena that installed it; name a missing
	// one, and take the installed path away by rewriting nothing: ARENA_BIN
	// set to a program that does not exist is "not found".
	h.commit("api.md", "VERDICT:REJECT\n")
	out, code := h.try(h.s.dir, []string{"ARENA_BIN=/nonexistent/arena"}, "push", "origin", "main")
	if code != 0 || !strings.Contains(out, "arena was not found") || !strings.Contains(out, "goes through UNJUDGED") || !strings.Contains(out, "ARENA_BIN") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	// ARENA_VERDICT_STRICT=1 lets nothing through unjudged (issue 19
	// item 8).
	h.commit("api2.md", "VERDICT:REJECT\n")
	out, code = h.try(h.s.dir, []string{"ARENA_BIN=/nonexistent/arena", "ARENA_VERDICT_STRICT=1"}, "push", "origin", "main")
	if code == 0 || !strings.Contains(out, "arena was not found") || !strings.Contains(out, "push blocked") {
		t.Fatalf("strict: exit %d\n%s", code, out)
	}
}

func TestInstallHookNeverReplacesAForeignHook(t *testing.T) {
	h := newHookRepo(t)
	foreign := "#!/bin/sh\necho my own checks\n"
	if err := os.WriteFile(h.hookPath(), []byte(foreign), 0o755); err != nil {
		t.Fatal(err)
	}
	r := h.install()
	if r.code != exitUsage || !strings.Contains(r.stderr, "arena did not write it") {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(h.hookPath()); string(b) != foreign {
		t.Fatal("the foreign hook was changed")
	}
	// --force replaces it, keeping a backup.
	r = h.install("--force")
	if r.code != 0 || !strings.Contains(r.stdout, "the old one is in") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if b, _ := os.ReadFile(h.hookPath() + ".arena-backup"); string(b) != foreign {
		t.Fatalf("backup %q", b)
	}
	// Arena's own hook is updated in place; once edited, it is foreign.
	if r := h.install(); r.code != 0 || !strings.Contains(r.stdout, "already installed") {
		t.Fatalf("reinstall: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	b, _ := os.ReadFile(h.hookPath())
	edited := strings.Replace(string(b), "blocked=0", "blocked=0\necho extra", 1)
	os.WriteFile(h.hookPath(), []byte(edited), 0o755)
	if r := h.install(); r.code != exitUsage {
		t.Fatalf("an edited hook was replaced: exit %d\n%s", r.code, r.stdout)
	}
	if b, _ := os.ReadFile(h.hookPath()); string(b) != edited {
		t.Fatal("the edited hook was changed")
	}
	// A second --force keeps the first backup and adds another.
	if r := h.install("--force"); r.code != 0 {
		t.Fatalf("exit %d %s", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(h.hookPath() + ".arena-backup"); string(b) != foreign {
		t.Fatal("the first backup was overwritten")
	}
	if b, _ := os.ReadFile(h.hookPath() + "-2.arena-backup"); string(b) != edited {
		t.Fatalf("second backup %q", b)
	}
	// Not even --force replaces a hook made read-only, or one with a
	// second name (its twin would keep the old hook).
	os.Remove(h.hookPath())
	os.WriteFile(h.hookPath(), []byte(foreign), 0o555)
	if r := h.install("--force"); r.code != exitUsage || !strings.Contains(r.stderr, "read-only") {
		t.Fatalf("read-only: exit %d\n%s", r.code, r.stderr)
	}
	os.Chmod(h.hookPath(), 0o755)
	twin := filepath.Join(t.TempDir(), "shared-pre-push")
	if err := os.Link(h.hookPath(), twin); err != nil {
		t.Fatal(err)
	}
	if r := h.install("--force"); r.code != exitUsage || !strings.Contains(r.stderr, "2 hard links") {
		t.Fatalf("linked: exit %d\n%s", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(twin); string(b) != foreign {
		t.Fatal("the twin changed")
	}
	if _, err := os.Stat(h.hookPath() + "-3.arena-backup"); err == nil {
		t.Fatal("a refused --force left a backup")
	}
}

func TestInstallHookOutsideARepository(t *testing.T) {
	s := newSandbox(t)
	r := s.runWithEnv([]string{"GIT_CEILING_DIRECTORIES=" + filepath.Dir(s.dir)}, "verdict", "--install-hook")
	if r.code != exitUsage || !strings.Contains(r.stderr, "not inside a git repository") {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
}

// The hook judges the patch of exactly the pushed range, whatever the
// user's diff configuration: an external diff tool (difftastic), a
// textconv driver, colour always on.
func TestHookJudgesThePatchWhateverTheDiffConfiguration(t *testing.T) {
	h := newHookRepo(t)
	h.install()
	tool := filepath.Join(t.TempDir(), "difftool")
	if err := os.WriteFile(tool, []byte("#!/bin/sh\necho NOT A PATCH FROM THE DIFF TOOL\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	h.git(h.s.dir, "config", "diff.external", tool)
	h.git(h.s.dir, "config", "color.ui", "always")
	h.git(h.s.dir, "config", "diff.conv.textconv", "sh -c 'echo TEXTCONV OUTPUT'")
	h.commit(".gitattributes", "*.md diff=conv\n")
	h.commit("api.md", "GET /users returns the users.\n")
	// The configuration is in effect for a plain git diff.
	if out := h.git(h.s.dir, "diff", "HEAD~2", "HEAD"); !strings.Contains(out, "NOT A PATCH") {
		t.Fatalf("the diff tool is not configured:\n%s", out)
	}
	out, code := h.try(h.s.dir, nil, "push", "origin", "main")
	if code != 0 || !strings.Contains(out, "main: ACCEPT") {
		t.Fatalf("push: exit %d\n%s", code, out)
	}
	calls := h.s.fakes.CallsTo("gemini")
	if len(calls) != 1 {
		t.Fatalf("%d calls", len(calls))
	}
	p := calls[0].Prompt
	if !strings.Contains(p, "+GET /users returns the users.") || !strings.Contains(p, "+*.md diff=conv") {
		t.Fatalf("the judge did not get the patch:\n%s", p)
	}
	for _, bad := range []string{"NOT A PATCH", "TEXTCONV", "\x1b"} {
		if strings.Contains(p, bad) {
			t.Errorf("the judged diff holds %q:\n%s", bad, p)
		}
	}
}

// arena writes the hook only where git keeps the repository's hooks, never
// through a link: a hooks directory that is a link inside the work tree
// is refused, and nothing appears where it points.
func TestInstallHookRefusesALinkedHooksDirectory(t *testing.T) {
	h := newHookRepo(t)
	target := t.TempDir()
	hooks := filepath.Join(h.s.dir, ".git", "hooks")
	if err := os.RemoveAll(hooks); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, hooks); err != nil {
		t.Fatal(err)
	}
	r := h.install()
	if r.code != exitUsage || !strings.Contains(r.stderr, "symbolic link") {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if entries, _ := os.ReadDir(target); len(entries) != 0 {
		t.Fatalf("written through the link: %v", entries)
	}
}

// TestUninstallHookRemovesOnlyArenasOwn: --uninstall-hook removes the
// hook arena wrote, puts back the one --force replaced, and leaves
// another's alone (issue 32, point 12).
func TestUninstallHookRemovesOnlyArenasOwn(t *testing.T) {
	h := newHookRepo(t)
	uninstall := func() result {
		t.Helper()
		cmd := exec.Command(arenaBinary(t), "verdict", "--uninstall-hook")
		cmd.Dir, cmd.Env = h.s.dir, h.env
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		code := exitCodeOf(cmd.Run())
		return result{stdout: out.String(), stderr: errb.String(), code: code}
	}
	h.install()
	if r := uninstall(); r.code != 0 || !strings.Contains(r.stdout, "removed arena's pre-push hook") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(h.hookPath()); !os.IsNotExist(err) {
		t.Fatalf("the hook is still there: %v", err)
	}
	foreign := "#!/bin/sh\necho my own checks\n"
	os.WriteFile(h.hookPath(), []byte(foreign), 0o755)
	if r := uninstall(); r.code != exitUsage || !strings.Contains(r.stderr, "arena leaves it alone") {
		t.Fatalf("a foreign hook: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := h.install("--force"); r.code != 0 {
		t.Fatalf("install --force: exit %d\n%s", r.code, r.stderr)
	}
	if r := uninstall(); r.code != 0 || !strings.Contains(r.stdout, "put back the one it had replaced") {
		t.Fatalf("after --force: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if b, _ := os.ReadFile(h.hookPath()); string(b) != foreign {
		t.Fatalf("the replaced hook is not back: %q", b)
	}
}

package facts

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// repo is a real temporary git repository for a test.
type repo struct {
	t   *testing.T
	dir string
}

func newRepo(t *testing.T, base string) *repo {
	t.Helper()
	r := &repo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", base)
	r.git("config", "user.email", "t@example.com")
	r.git("config", "user.name", "t")
	r.git("config", "commit.gpgsign", "false")
	return r
}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-C", r.dir}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (r *repo) write(name, content string) {
	r.t.Helper()
	p := filepath.Join(r.dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *repo) commit(msg string) {
	r.t.Helper()
	r.git("add", "-A")
	r.git("commit", "-q", "-m", msg)
}

func TestMeasureCountsTheBranchAgainstItsMergeBase(t *testing.T) {
	r := newRepo(t, "main")
	r.write("README.md", "one\ntwo\nthree\n")
	r.commit("base")
	r.git("checkout", "-q", "-b", "feature")
	r.write("README.md", "one\nTWO\nthree\nfour\n") // +2 -1
	r.write("cmd/main.go", "package main\n\nfunc main() {}\n")
	r.write("logo.bin", "\x00\x01\x02")
	r.commit("feature")
	// A commit on main after the branch point is not the branch's doing.
	r.git("checkout", "-q", "main")
	r.write("other.txt", "a\nb\n")
	r.commit("main moves on")

	g, err := Measure(r.dir, "feature", "main")
	if err != nil {
		t.Fatal(err)
	}
	if g.FilesChanged != 3 || g.Additions != 5 || g.Deletions != 1 {
		t.Fatalf("files %d +%d -%d (%q), want 3 +5 -1", g.FilesChanged, g.Additions, g.Deletions, g.Files)
	}
	if g.Head != r.git("rev-parse", "feature") {
		t.Fatalf("head %s", g.Head)
	}
	if !slices.Contains(g.Files, "cmd/main.go") {
		t.Fatalf("files %q", g.Files)
	}
}

func TestBaseAndBranchDetection(t *testing.T) {
	r := newRepo(t, "master")
	r.write("a.txt", "a\n")
	r.commit("a")
	if b, err := DefaultBase(r.dir); err != nil || b != "master" {
		t.Fatalf("base %q %v", b, err)
	}
	r.git("checkout", "-q", "-b", "work")
	if b, err := CurrentBranch(r.dir); err != nil || b != "work" {
		t.Fatalf("branch %q %v", b, err)
	}
	if RefExists(r.dir, "nope") || !RefExists(r.dir, "work") || RefExists(r.dir, "--help") {
		t.Fatal("RefExists")
	}
	r.git("branch", "-q", "-m", "master", "trunk")
	if _, err := DefaultBase(r.dir); err == nil {
		t.Fatal("a repository without main or master has a default base")
	}
	r.git("checkout", "-q", "--detach")
	if _, err := CurrentBranch(r.dir); err == nil {
		t.Fatal("a detached HEAD has a branch")
	}
	if _, err := TopLevel(t.TempDir()); !errors.Is(err, ErrNotWorkTree) {
		t.Fatalf("TopLevel of a plain directory: %v", err)
	}
	sub := filepath.Join(r.dir, "sub")
	os.Mkdir(sub, 0o755)
	if top, err := TopLevel(sub); err != nil || !sameDir(top, r.dir) {
		t.Fatalf("TopLevel %q %v", top, err)
	}
}

func sameDir(a, b string) bool {
	ra, _ := filepath.EvalSymlinks(a)
	rb, _ := filepath.EvalSymlinks(b)
	return ra == rb
}

func TestLinesReadsTheBranchNotTheWorkTree(t *testing.T) {
	r := newRepo(t, "main")
	r.write("a.go", "1\n2\n3")
	r.commit("a")
	r.write("untracked.go", "x\n")
	if n, ok := Lines(r.dir, "main", "a.go"); !ok || n != 3 {
		t.Fatalf("a.go: %d %v", n, ok)
	}
	if n, ok := Lines(r.dir, "main", "./a.go"); !ok || n != 3 {
		t.Fatalf("./a.go: %d %v", n, ok)
	}
	for _, p := range []string{"untracked.go", "missing.go", "../a.go", "/etc/passwd", ""} {
		if _, ok := Lines(r.dir, "main", p); ok {
			t.Errorf("%q exists", p)
		}
	}
}

func TestDiffIsCutAtFileBoundaries(t *testing.T) {
	r := newRepo(t, "main")
	r.write("keep.txt", "x\n")
	r.commit("base")
	r.git("checkout", "-q", "-b", "f")
	r.write("small.txt", "small\n")
	r.write("big.txt", strings.Repeat("a long line of text\n", 400))
	r.commit("f")
	g, err := Measure(r.dir, "f", "main")
	if err != nil {
		t.Fatal(err)
	}
	whole, cut, err := Diff(r.dir, g, 1<<20)
	if err != nil || cut != nil || !strings.Contains(whole, "big.txt") {
		t.Fatalf("whole diff: cut %q %v", cut, err)
	}
	part, cut, err := Diff(r.dir, g, 1000)
	if err != nil || !slices.Equal(cut, []string{"big.txt"}) {
		t.Fatalf("cut %q %v", cut, err)
	}
	if !strings.Contains(part, "+small") || strings.Contains(part, "a long line") || len(part) > 1000 {
		t.Fatalf("part:\n%s", part)
	}
}

func TestCountReadsEachRunnersSummary(t *testing.T) {
	for _, c := range []struct {
		name, out string
		p, f, s   int
	}{
		{"pytest", "collected 6 items\n\n==== 3 passed, 1 failed, 2 skipped in 0.12s ====\n", 3, 1, 2},
		{"cargo", "test result: ok. 3 passed; 0 failed; 1 ignored; 0 measured\n\ntest result: FAILED. 2 passed; 1 failed; 0 ignored;\n", 5, 1, 1},
		{"jest", "Tests:       1 failed, 1 skipped, 4 passed, 6 total\n", 4, 1, 1},
		{"mocha", "  4 passing (12ms)\n  2 pending\n  1 failing\n", 4, 1, 2},
		{"go -v", "=== RUN TestA\n--- PASS: TestA (0.00s)\n    --- PASS: TestA/sub (0.00s)\n--- FAIL: TestB\n--- SKIP: TestC\n", 2, 1, 1},
	} {
		p, f, s, ok := Count(c.out)
		if !ok || p != c.p || f != c.f || s != c.s {
			t.Errorf("%s: %d/%d/%d %v, want %d/%d/%d", c.name, p, f, s, ok, c.p, c.f, c.s)
		}
	}
	if _, _, _, ok := Count("all good\n"); ok {
		t.Error("counted prose")
	}
}

func TestCountGoJSONCountsABrokenBuildAsAFailure(t *testing.T) {
	out := `{"Action":"run","Package":"m/a","Test":"TestX"}
{"Action":"pass","Package":"m/a","Test":"TestX"}
{"Action":"skip","Package":"m/a","Test":"TestY"}
{"Action":"pass","Package":"m/a"}
{"Action":"fail","Package":"m/b"}
`
	p, f, s, ok := CountGoJSON(out)
	if !ok || p != 1 || f != 1 || s != 1 {
		t.Fatalf("%d/%d/%d %v", p, f, s, ok)
	}
}

// goModule makes a repository holding a Go module without dependencies
// (so `go test` needs no network), on branch "impl" off main.
func goModule(t *testing.T, testSrc string) *repo {
	r := newRepo(t, "main")
	r.write("go.mod", "module example.com/m\n\ngo 1.21\n")
	r.write("m.go", "package m\n\nfunc Add(a, b int) int { return a + b }\n")
	r.commit("base")
	r.git("checkout", "-q", "-b", "impl")
	r.write("m_test.go", testSrc)
	r.commit("tests")
	return r
}

const goTests = `package m

import "testing"

func TestAdd(t *testing.T) {
	if Add(1, 2) != 3 { t.Fatal("add") }
}

func TestAddMore(t *testing.T) {
	t.Run("zero", func(t *testing.T) {
		if Add(0, 0) != 0 { t.Fatal("zero") }
	})
}

func TestLater(t *testing.T) { t.Skip("later") }
`

func TestRunCountsARealGoModulesTests(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go not installed")
	}
	r := goModule(t, goTests+"\nfunc TestBroken(t *testing.T) { t.Fatal(\"broken\") }\n")
	// The work tree is on main, without the tests: arena runs the branch's.
	r.git("checkout", "-q", "main")
	before := repoState(t, r.dir)
	tr := Run(context.Background(), r.dir, "impl", nil, 2*time.Minute)
	if !tr.Ran || !tr.Counted || tr.Passed != 3 || tr.Failed != 1 || tr.Skipped != 1 || tr.ExitCode == 0 {
		t.Fatalf("%+v\n%s", tr, tr.Output)
	}
	if tr.Command != "go test -count=1 -json ./..." {
		t.Fatalf("command %q", tr.Command)
	}
	if after := repoState(t, r.dir); after != before {
		t.Fatalf("running the tests changed the repository:\n%s\n---\n%s", before, after)
	}
}

func TestRunStopsAtTheTimeout(t *testing.T) {
	r := newRepo(t, "main")
	r.write("a.txt", "a\n")
	r.commit("a")
	start := time.Now()
	tr := Run(context.Background(), r.dir, "main", []string{"sleep 30 & sleep 30"}, time.Second)
	if !tr.TimedOut || time.Since(start) > 20*time.Second {
		t.Fatalf("%+v after %s", tr, time.Since(start))
	}
}

func TestRunWithoutASuite(t *testing.T) {
	r := newRepo(t, "main")
	r.write("a.txt", "a\n")
	r.commit("a")
	tr := Run(context.Background(), r.dir, "main", nil, time.Minute)
	if tr.Ran || !strings.Contains(tr.Error, "no test suite") {
		t.Fatalf("%+v", tr)
	}
	if tr := Run(context.Background(), r.dir, "main", []string{"echo '3 passing'; echo '1 failing'"}, time.Minute); !tr.Ran || tr.Passed != 3 || tr.Failed != 1 {
		t.Fatalf("test_command: %+v", tr)
	}
}

// TestRunLeavesNothingRunningNorOnDisk: a test command that forks
// sleepers into the background (out of reach of the pipe: their output
// goes to /dev/null) and exits leaves none of them running, and the
// export it ran in is gone.
func TestRunLeavesNothingRunningNorOnDisk(t *testing.T) {
	r := newRepo(t, "main")
	r.write("a.txt", "a\n")
	r.commit("a")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	pids := filepath.Join(t.TempDir(), "pids")
	cmd := "for i in 1 2 3; do sleep 300 >/dev/null 2>&1 & echo $! >>" + pids + "; done; echo '1 passing'"
	tr := Run(context.Background(), r.dir, "main", []string{cmd}, time.Minute)
	if !tr.Ran || tr.Passed != 1 {
		t.Fatalf("%+v\n%s", tr, tr.Output)
	}
	b, err := os.ReadFile(pids)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range strings.Fields(string(b)) {
		stat, err := os.ReadFile("/proc/" + p + "/stat")
		if err == nil && !strings.Contains(string(stat), ") Z ") {
			t.Errorf("the sleeper %s is still running", p)
			exec.Command("kill", "-9", p).Run()
		}
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Fatalf("left in TMPDIR: %v", left)
	}
}

// TestRunExportsWithoutTheRepositorysFilters: a filter driver in the
// repository's config and attributes never runs; the tests see the files
// as git stores them.
func TestRunExportsWithoutTheRepositorysFilters(t *testing.T) {
	r := newRepo(t, "main")
	marker := filepath.Join(t.TempDir(), "ran")
	r.git("config", "filter.evil.smudge", "touch "+marker+"; cat")
	r.git("config", "filter.evil.clean", "cat")
	r.write(".gitattributes", "*.txt filter=evil\n")
	r.write("a.txt", "stored\n")
	r.commit("a")
	os.Remove(marker)
	tr := Run(context.Background(), r.dir, "main", []string{"cat a.txt; echo '1 passing'"}, time.Minute)
	if !tr.Ran || !strings.Contains(tr.Output, "stored") {
		t.Fatalf("%+v\n%s", tr, tr.Output)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the repository's filter driver ran")
	}
}

// repoState is what a repository looks like from outside: its status, its
// stashes, its refs. Two equal states mean a run changed nothing.
func repoState(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	for _, args := range [][]string{{"status", "--porcelain=v1", "--untracked-files=all", "--ignored"}, {"stash", "list"}, {"for-each-ref"}, {"worktree", "list", "--porcelain"}} {
		out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		b.Write(out)
	}
	return b.String()
}

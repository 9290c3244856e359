package rank

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/engine"
)

// gitRepo is a real repository at dir with a commit on main and one on
// the branch feature, which is checked out.
func gitRepo(t *testing.T, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("init", "-q", "-b", "main")
	run("config", "user.email", "t@example.com")
	run("config", "user.name", "t")
	run("config", "commit.gpgsign", "false")
	write("README.md", "a login page\n")
	run("add", "-A")
	run("commit", "-q", "-m", "start")
	run("checkout", "-q", "-b", "feature")
	write("main.go", "package main\n\nfunc main() {}\n")
	run("add", "-A")
	run("commit", "-q", "-m", "the work")
	return dir
}

func request(paths ...string) Request {
	return Request{Repos: paths, Orders: DefaultOrders, TestTimeout: engine.Duration(time.Minute)}
}

func TestReadMeasuresEachRepositoryUnderItsDirectorysName(t *testing.T) {
	root := t.TempDir()
	a := gitRepo(t, filepath.Join(root, "one", "impl"))
	b := gitRepo(t, filepath.Join(root, "two", "impl"))
	in, err := Read(request(a, filepath.Join(b, ".")))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(in.Labels, ",") != "impl,impl-2" || len(in.Repos) != 2 || in.Weights.Sum(Dimensions) != 100 {
		t.Fatalf("labels %q, %d repositories, weights %v", in.Labels, len(in.Repos), in.Weights)
	}
	for i, r := range in.Repos {
		if r.Label != in.Labels[i] || r.Git.Branch != "feature" || r.Git.Base != "main" || r.Git.FilesChanged != 1 || !strings.Contains(r.Diff, "func main()") {
			t.Errorf("repository %d: %+v", i, r)
		}
	}
}

func TestReadRefusesWhatCannotBeRanked(t *testing.T) {
	root := t.TempDir()
	a := gitRepo(t, filepath.Join(root, "a"))
	b := gitRepo(t, filepath.Join(root, "b"))
	plain := filepath.Join(root, "plain")
	file := filepath.Join(root, "file.txt")
	if err := os.Mkdir(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(a, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	with := func(change func(*Request)) Request {
		r := request(a, b)
		change(&r)
		return r
	}
	for name, tc := range map[string]struct {
		req  Request
		want string
	}{
		"weights":          {with(func(r *Request) { r.Weights = "speed:10" }), "--weights: "},
		"labels too few":   {with(func(r *Request) { r.Labels = []string{"x"} }), "--labels names 1 label for 2 repositories (one per repository, in order)"},
		"an empty label":   {with(func(r *Request) { r.Labels = []string{"x", " "} }), "--labels: the label of repository " + b + " is empty"},
		"a label twice":    {with(func(r *Request) { r.Labels = []string{"x", "x"} }), `--labels: "x" is given twice; each repository needs its own`},
		"no such path":     {request(a, filepath.Join(root, "gone")), "repository " + filepath.Join(root, "gone") + ": no such directory"},
		"a file":           {request(a, file), "repository " + file + ": not a directory"},
		"no git":           {request(a, plain), "repository " + plain + ": not a git work tree"},
		"no such branch":   {with(func(r *Request) { r.Branch = "nope" }), "repository " + a + `: branch "nope" does not exist`},
		"no such base":     {with(func(r *Request) { r.Base = "nope" }), "repository " + a + `: base "nope" does not exist (name another with --base)`},
		"one tree twice":   {request(a, filepath.Join(a, "sub")), "repository " + filepath.Join(a, "sub") + ": the same work tree as " + a},
		"an unknown label": {with(func(r *Request) { r.Expect = "c" }), `--expect-winner "c" is not one of the labels (a, b)`},
		"authors":          {with(func(r *Request) { r.Authors = []string{"claude"} }), "--authors names 1 agent for 2 repositories (one per repository, in order)"},
		"out exists":       {with(func(r *Request) { r.Out = file }), "--out " + file + " already exists; arena does not overwrite a file it did not write (name a new file)"},
		"out nowhere":      {with(func(r *Request) { r.Out = filepath.Join(root, "gone", "r.json") }), "--out " + filepath.Join(root, "gone", "r.json") + ": the directory " + filepath.Join(root, "gone") + " does not exist"},
		"orders":           {with(func(r *Request) { r.Orders = 3 }), "--orders 3: 2 repositories can be shown in 1 to 2 counterbalanced orders"},
		"test timeout":     {with(func(r *Request) { r.TestTimeout = 0 }), "--test-timeout must be positive, got 0s"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Read(tc.req)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) || !errors.Is(err, ErrInput) {
				t.Fatalf("error %v, want %q (an input error)", err, tc.want)
			}
		})
	}
}

// A path that is not there keeps its cause, for errors.Is.
func TestReadRepoKeepsTheCause(t *testing.T) {
	_, err := ReadRepo(filepath.Join(t.TempDir(), "gone"), "a", "", "")
	if !errors.Is(err, fs.ErrNotExist) || !errors.Is(err, ErrInput) {
		t.Fatalf("error %v", err)
	}
}

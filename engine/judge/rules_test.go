package judge

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

var three = []Criterion{{"correctness", 30}, {"design", 20}, {"security", 10}} // sums to 60

func TestWeightedNormalisesUnsummedWeights(t *testing.T) {
	got := Weighted(three, []int{5, 3, 1})
	want := (30*5 + 20*3 + 10*1) / 60.0
	if math.Abs(got-want) > 1e-12 {
		t.Fatalf("weighted %v, want %v", got, want)
	}
	if n := NormaliseNote(three); !strings.Contains(n, "sum to 60") || !strings.Contains(n, "correctness 50%") {
		t.Fatalf("note %q", n)
	}
	if n := NormaliseNote(Presets["code"]); n != "" {
		t.Fatalf("a preset summing to 100 needs no note: %q", n)
	}
}

func TestConsensusAtItsEdges(t *testing.T) {
	cs := []Criterion{{"a", 1}, {"b", 1}}
	names := []string{"Judge 1", "Judge 2"}
	tests := []struct {
		name    string
		scores  [][]int
		accepts []bool
		ok      bool
		fail    string
	}{
		// overalls 4.0 and 3.5: exactly 0.5 apart passes.
		{"overall 0.5 apart exactly", [][]int{{4, 4}, {4, 3}}, nil, true, ""},
		// overalls 4.5 and 3.5: 1.0 apart fails, though each criterion is 1 apart.
		{"overall more than 0.5 apart", [][]int{{5, 4}, {4, 3}}, nil, false, "overall scores 1.00 apart"},
		{"criterion 1.0 apart exactly", [][]int{{5, 3}, {4, 4}}, nil, true, ""},
		{"criterion 2 apart", [][]int{{5, 3}, {3, 5}}, nil, false, "a, b more than 1 point apart"},
		{"one judge not accepting", [][]int{{4, 4}, {4, 4}}, []bool{true, false}, false, "Judge 2 did not accept"},
		{"all accepting", [][]int{{4, 4}, {4, 4}}, []bool{true, true}, true, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := CheckConsensus(cs, names, tc.scores, tc.accepts)
			if c.OK != tc.ok {
				t.Fatalf("ok %v, fails %q", c.OK, c.Fails)
			}
			if tc.fail != "" && !strings.Contains(strings.Join(c.Fails, "; "), tc.fail) {
				t.Fatalf("fails %q, want %q", c.Fails, tc.fail)
			}
		})
	}
	// Weights that make the overalls differ by 0.5 only up to rounding.
	cs3 := []Criterion{{"x", 30}, {"y", 25}, {"z", 45}}
	c := CheckConsensus(cs3, []string{"Judge 1", "Judge 2"}, [][]int{{4, 4, 4}, {4, 2, 4}}, nil)
	if c.OverallSpread != 0.5 || !slices.Contains(c.Apart, "y") {
		t.Fatalf("spread %v apart %v", c.OverallSpread, c.Apart)
	}
}

func TestQuoteCheckIgnoresWhiteSpace(t *testing.T) {
	c := NewCorpus("func Add(a, b int) int {\n\treturn a + b\n}\n// validates the email\n")
	for _, q := range []string{"return a + b", "return   a+b", "func Add(a, b int) int {  return a + b }", `"return a + b"`, "func Add ... return a + b", "validates the email"} {
		if !c.QuoteFound(q) {
			t.Errorf("%q not found", q)
		}
	}
	for _, q := range []string{"return a - b", "rate limiting middleware", "", "...", "return a + b ... func Add"} {
		if c.QuoteFound(q) {
			t.Errorf("%q found", q)
		}
	}
}

func TestUnexplainedChangeIsFlagged(t *testing.T) {
	prev, cur := []int{3, 4, 2}, []int{4, 4, 3}
	got := Unexplained(three, prev, cur, []Change{
		{Criterion: "Correctness", From: 3, To: 4, Reason: "Judge 2 showed the nil check", Evidence: []string{"if u == nil"}},
	})
	if len(got) != 1 || got[0] != "security 2 → 3 with no stated reason or evidence" {
		t.Fatalf("got %q", got)
	}
	got = Unexplained(three, prev, cur, []Change{
		{Criterion: "correctness", Reason: "convinced by Judge 2"},
		{Criterion: "security", Evidence: []string{"x"}},
	})
	want := []string{"correctness 3 → 4 with no evidence", "security 2 → 3 with no stated reason"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got := Unexplained(three, prev, prev, nil); len(got) != 0 {
		t.Fatalf("unchanged scores flagged: %q", got)
	}
}

func TestAlpha(t *testing.T) {
	if a, ok := Alpha([][]int{{1, 2, 3, 4}, {1, 2, 3, 4}}); !ok || math.Abs(a-1) > 1e-12 {
		t.Fatalf("perfect agreement: %v %v", a, ok)
	}
	if _, ok := Alpha([][]int{{4, 4}, {4, 4}}); ok {
		t.Fatal("alpha of identical scores is undefined")
	}
	// Krippendorff's own interval example, reduced to two coders and
	// complete data: values per unit (1,1) (2,2) (3,3) (3,4).
	a, ok := Alpha([][]int{{1, 2, 3, 3}, {1, 2, 3, 4}})
	// Do = 2*1/8 = 0.25; De = sum of squared pair differences over n(n-1).
	vals := []float64{1, 2, 3, 3, 1, 2, 3, 4}
	de := 0.0
	for i := range vals {
		for j := range vals {
			if i != j {
				de += (vals[i] - vals[j]) * (vals[i] - vals[j])
			}
		}
	}
	de /= 8 * 7
	if want := 1 - 0.25/de; !ok || math.Abs(a-want) > 1e-12 {
		t.Fatalf("alpha %v, want %v", a, want)
	}
	lo, _ := Alpha([][]int{{1, 5, 1, 5}, {5, 1, 5, 1}})
	if lo >= 0 {
		t.Fatalf("systematic disagreement should be below 0: %v", lo)
	}
}

func TestRecommendation(t *testing.T) {
	for _, tc := range []struct {
		v, mark float64
		want    string
	}{{3.5, 3.5, "pass"}, {3.49, 3.5, "needs_revision"}, {2.5, 3.5, "needs_revision"}, {2.49, 3.5, "fail"}, {4.0, 4.2, "needs_revision"}} {
		if got := Recommendation(tc.v, tc.mark); got != tc.want {
			t.Errorf("Recommendation(%v, %v) = %s, want %s", tc.v, tc.mark, got, tc.want)
		}
	}
}

func TestParseCriteria(t *testing.T) {
	cs, err := ParseCriteria("correctness:30, design:25,security:20,performance:15,docs:10")
	if err != nil || len(cs) != 5 || cs[2] != (Criterion{"security", 20}) {
		t.Fatalf("%v %v", cs, err)
	}
	cs, err = ParseCriteria("clarity,accuracy")
	if err != nil || cs[0].Weight != 1 || cs[1].Weight != 1 {
		t.Fatalf("%v %v", cs, err)
	}
	for in, want := range map[string]string{
		"":                              "no criteria",
		"a:x":                           `the weight "x" must be a number above 0`,
		"a:0":                           "above 0",
		"a:-3":                          "above 0",
		"a:NaN":                         "above 0",
		"a:1,A:2":                       "named twice",
		"a:1,b":                         "give every criterion a weight, or none",
		":30":                           "has no name",
		"code quality:1,Code_Quality:2": "named twice",
	} {
		if _, err := ParseCriteria(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseCriteria(%q) = %v, want %q", in, err, want)
		}
	}
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadWalksHonouringGitignore(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	write(t, dir, ".gitignore", "*.log\n/build/\nvendor\n!keep.log\n")
	write(t, dir, "src/api/.gitignore", "secret.go\n")
	write(t, dir, "src/api/users.go", "package api\n")
	write(t, dir, "src/api/secret.go", "package api // secret\n")
	write(t, dir, "src/api/debug.log", "noise\n")
	write(t, dir, "src/api/keep.log", "kept\n")
	write(t, dir, "build/out.go", "package build\n")
	write(t, dir, "src/build/in.go", "package build // not the top build\n")
	write(t, dir, "src/vendor/x.go", "package x\n")
	write(t, dir, "src/logo.png", "\x89PNG\x00\x00binary")
	sol, err := Load([]string{filepath.Join(dir, "src")}, nil, LoadOptions{Budget: DefaultBudget})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range sol.Files {
		rel, _ := filepath.Rel(dir, f.Name)
		names = append(names, rel)
	}
	want := []string{"src/api/.gitignore", "src/api/keep.log", "src/api/users.go", "src/build/in.go"} // as git would list them
	if !slices.Equal(names, want) {
		t.Fatalf("files %q, want %q", names, want)
	}
	if len(sol.Skipped) != 1 || !strings.HasSuffix(sol.Skipped[0], "src/logo.png (binary)") {
		t.Fatalf("skipped %q", sol.Skipped)
	}
	if sol.Name != "src" {
		t.Fatalf("name %q", sol.Name)
	}
}

// What must not leave the machine does not: files git is told to ignore
// in .git/info/exclude, files that look like secrets, links that point
// out; and what cannot be read (a FIFO, a file without permission) is
// skipped and named, never a hang or an error.
func TestLoadSendsOnlyWhatThePersonMeant(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	write(t, dir, ".git/info/exclude", "private.txt\n")
	write(t, dir, "main.go", "package main\n")
	write(t, dir, "private.txt", "excluded by .git/info/exclude\n")
	write(t, dir, ".env", "OPENAI_API_KEY=sk-abc\n")
	write(t, dir, "config.go", "package main\n\nconst key = \"AKIAIOSFODNN7EXAMPLE\"\n")
	write(t, dir, "locked.go", "package main\n")
	if err := os.Chmod(filepath.Join(dir, "locked.go"), 0); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "main.go"), filepath.Join(dir, "link.go")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.go"), 0o600); err != nil {
		t.Fatal(err)
	}
	sol, err := Load([]string{dir}, nil, LoadOptions{Budget: DefaultBudget})
	if err != nil {
		t.Fatal(err)
	}
	var sent []string
	for _, f := range sol.Files {
		sent = append(sent, filepath.Base(f.Name))
	}
	want := []string{"main.go"}
	if os.Geteuid() == 0 {
		want = []string{"locked.go", "main.go"} // root reads a file without permissions
	}
	if !slices.Equal(sent, want) {
		t.Fatalf("sent %q, want %q", sent, want)
	}
	skipped := strings.Join(sol.Skipped, "\n")
	for _, want := range []string{
		".env (looks like a secret: an environment file (.env*), where keys live; --include-secrets sends it)",
		"config.go (looks like a secret: it holds what looks like an AWS access key (line 3); --include-secrets sends it)",
		"link.go (is a symbolic link, not followed)",
	} {
		if !strings.Contains(skipped, want) {
			t.Errorf("skipped:\n%s\nwant %q among them", skipped, want)
		}
	}
	if os.Geteuid() != 0 && !strings.Contains(skipped, "locked.go (cannot be read (permission denied))") {
		t.Errorf("skipped:\n%s\nwant locked.go among them", skipped)
	}
	if strings.Contains(skipped, "private.txt") || strings.Contains(skipped, "pipe.go") {
		t.Errorf("git lists neither private.txt (ignored) nor pipe.go (not a file): neither is sent or named")
	}
	sol, err = Load([]string{dir}, nil, LoadOptions{Budget: DefaultBudget, IncludeSecrets: true})
	if err != nil || len(sol.Files) != len(want)+2 {
		t.Fatalf("with secrets included: %v, %v", sol.Files, err)
	}
}

func TestLoadNamesTheSolution(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/a.go", "package a\n")
	sol, err := Load([]string{filepath.Join(dir, "src")}, nil, LoadOptions{Budget: DefaultBudget})
	if err != nil {
		t.Fatal(err)
	}
	if sol.Name != "src" {
		t.Fatalf("name %q", sol.Name)
	}
}

func TestLoadSaysWhatTheBudgetCut(t *testing.T) {
	dir := t.TempDir()
	line := strings.Repeat("x", 99) + "\n"
	write(t, dir, "a.go", strings.Repeat(line, 30)) // 3000 bytes
	write(t, dir, "b.go", strings.Repeat(line, 30))
	write(t, dir, "c.go", "package c\n")
	sol, err := Load([]string{filepath.Join(dir, "a.go"), filepath.Join(dir, "b.go"), filepath.Join(dir, "c.go")}, nil, LoadOptions{Budget: 4500})
	if err != nil {
		t.Fatal(err)
	}
	if len(sol.Files) != 2 || len(sol.Files[1].Content) != 1500 || sol.Bytes() > 4500 {
		t.Fatalf("files %d, second %d bytes", len(sol.Files), len(sol.Files[1].Content))
	}
	if len(sol.Cut) != 2 || !strings.Contains(sol.Cut[0], "b.go: first 1500 of 3000 bytes kept") || !strings.Contains(sol.Cut[1], "c.go: left out (10 bytes)") {
		t.Fatalf("cut %q", sol.Cut)
	}
	if sol.Name != "a" {
		t.Fatalf("name %q", sol.Name)
	}
}

func TestLoadStdinAndErrors(t *testing.T) {
	sol, err := Load([]string{"-"}, strings.NewReader("def f(): pass\n"), LoadOptions{Budget: DefaultBudget})
	if err != nil || sol.Name != "stdin" || sol.Files[0].Content != "def f(): pass\n" {
		t.Fatalf("%+v %v", sol, err)
	}
	dir := t.TempDir()
	write(t, dir, "img.bin", "\x00\x01")
	for _, tc := range []struct {
		paths []string
		want  string
	}{
		{nil, "no solution given"},
		{[]string{filepath.Join(dir, "missing.go")}, "missing.go: does not exist"},
		{[]string{filepath.Join(dir, "img.bin")}, "img.bin (binary)"},
	} {
		if _, err := Load(tc.paths, strings.NewReader(""), LoadOptions{Budget: DefaultBudget}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load(%q) = %v, want %q", tc.paths, err, tc.want)
		}
	}
}

// A FIFO, a device or a huge sparse file named as the solution is refused
// or cut at once, never read whole or waited on.
func TestLoadRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.go")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{fifo: "pipe.go: is a FIFO (named pipe), not a regular file", "/dev/zero": "/dev/zero: is a character device, not a regular file"} {
		if _, err := Load([]string{path}, nil, LoadOptions{Budget: DefaultBudget}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Load(%s) = %v, want %q", path, err, want)
		}
	}
	big := filepath.Join(dir, "big.md")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(strings.Repeat("word ", 1000))
	if err := f.Truncate(3 << 30); err != nil { // sparse: NULs after the words
		t.Fatal(err)
	}
	f.Close()
	sol, err := Load([]string{big}, nil, LoadOptions{Budget: 4096})
	if err != nil || len(sol.Files) != 1 || len(sol.Cut) != 1 || !strings.Contains(sol.Cut[0], "of 3221225472 bytes kept") {
		t.Fatalf("big: %v %q", err, sol.Cut)
	}
}

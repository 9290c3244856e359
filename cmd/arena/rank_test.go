package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/rank"
	"github.com/arenadebate/arena/tui/sarif"
)

// End-to-end tests of arena rank: the built binary, fake CLIs, and real
// temporary git repositories.

// rankRepo makes a real git repository holding a Go module without
// dependencies (so its tests run offline), with a base commit on main and
// the implementation on branch "impl", checked out. tests is the test
// file's body ("" for none).
func rankRepo(t testing.TB, dir, name, tests string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(path, 0o755); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", path}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(file, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(path, file), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkg := strings.ReplaceAll(name, "-", "_")
	git("init", "-q", "-b", "main")
	git("config", "user.email", "dev@example.com")
	git("config", "user.name", "dev")
	git("config", "commit.gpgsign", "false")
	write("go.mod", "module example.com/"+name+"\n\ngo 1.21\n")
	write("README.md", "# "+name+"\n")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	git("checkout", "-q", "-b", "impl")
	write("add.go", "package "+pkg+"\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n")
	if tests != "" {
		write("add_test.go", "package "+pkg+"\n\nimport \"testing\"\n\n"+tests)
	}
	git("add", "-A")
	git("commit", "-q", "-m", "implement "+name)
	return path
}

const (
	passingTests = "func TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"1+2\")\n\t}\n}\n\nfunc TestZero(t *testing.T) {\n\tif Add(0, 0) != 0 {\n\t\tt.Fatal(\"0+0\")\n\t}\n}\n"
	failingTests = passingTests + "\nfunc TestWrong(t *testing.T) {\n\tif Add(2, 2) != 5 {\n\t\tt.Fatal(\"2+2 is not 5\")\n\t}\n}\n\nfunc TestLater(t *testing.T) { t.Skip(\"later\") }\n"
)

// rankSetup makes a spec and n repositories in a fresh directory.
func rankSetup(t *testing.T, s *sandbox, names ...string) (spec string, repos []string) {
	t.Helper()
	root := t.TempDir()
	spec = filepath.Join(s.dir, "spec.md")
	if err := os.WriteFile(spec, []byte("# Spec\n\nA Go package with Add(a, b int) int, tested.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		tests := passingTests
		if n == "beta" {
			tests = failingTests
		}
		repos = append(repos, rankRepo(t, root, n, tests))
	}
	return "spec.md", repos
}

// repoStates is what each repository looks like from outside.
func repoStates(t *testing.T, repos []string) []string {
	t.Helper()
	var out []string
	for _, r := range repos {
		st, err := repoState(r)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, st)
	}
	return out
}

// rankReport reads the JSON report the run saved beside its log.
func rankReport(t *testing.T, s *sandbox) (rank.Report, map[string]any) {
	t.Helper()
	logs := s.logs()
	if len(logs) != 1 {
		t.Fatalf("%d logs", len(logs))
	}
	b, err := os.ReadFile(strings.TrimSuffix(logs[0], ".jsonl") + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var rep rank.Report
	var raw map[string]any
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(b, &raw)
	return rep, raw
}

func TestRankTwoRepositoriesEndToEnd(t *testing.T) {
	s := newSandbox(t)
	spec, repos := rankSetup(t, s, "alpha", "beta")
	before := repoStates(t, repos)
	sarifPath := filepath.Join(s.dir, "rank.sarif")
	r := s.run("rank", spec, repos[0], repos[1], "--no-tui", "--seed", "11", "--sarif", sarifPath)
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	checkRankSARIF(t, sarifPath)
	if after := repoStates(t, repos); !slices.Equal(before, after) {
		t.Fatalf("the run changed a repository:\n%s\n---\n%s", before, after)
	}
	lc := s.onlyLog()
	o := outcomeOf(t, lc)
	if o.Result != rank.OutcomeRanked && o.Result != rank.OutcomeTie || !lc.Complete {
		t.Fatalf("outcome %s %q", o.Result, lc.Problem)
	}
	rep, raw := rankReport(t, s)
	// The log says where the report went.
	var saved []string
	for _, e := range lc.Events {
		if sv, ok := e.Payload.(engine.Saved); ok && sv.What == rank.WhatReport {
			saved = append(saved, sv.Path)
		}
	}
	if len(saved) != 1 || filepath.Join(s.dir, saved[0]) != strings.TrimSuffix(s.logs()[0], ".jsonl")+".json" {
		t.Fatalf("saved %q, log %s", saved, s.logs()[0])
	}
	checkReportFields(t, raw, "alpha", "beta")
	if rep.Version != rank.ReportVersion || rep.SpecFile != "spec.md" || len(rep.Ranking) != 2 || rep.Verdict == "" {
		t.Fatalf("report %+v", rep)
	}
	// Git figures are arena's: add.go and add_test.go, both new.
	head, _ := exec.Command("git", "-C", repos[0], "rev-parse", "impl").Output()
	if rr := rep.Repos[0]; rr.Label != "alpha" || rr.Branch != "impl" || rr.Base != "main" || rr.GitHead != strings.TrimSpace(string(head)) || rr.FilesChanged != 2 {
		t.Fatalf("repo %+v", rr)
	}
	// arena's ranking follows its own arithmetic from the scores.
	tot := map[string]float64{}
	for l, rs := range rep.Scores {
		num, den := 0.0, 0
		for d, ds := range rs.Dims {
			num += ds.Score * float64(rep.Weights[d])
			den += rep.Weights[d]
		}
		tot[l] = num / float64(den)
	}
	if tot[rep.Ranking[0]] < tot[rep.Ranking[1]] {
		t.Fatalf("ranking %q with totals %v", rep.Ranking, tot)
	}
	checkSeatsSawNoRepository(t, s.fakes.Calls(), repos, "alpha", "beta")
	// Where the report went is said once, in the run's account.
	if !strings.Contains(r.stdout, "## Ranking") || strings.Count(r.stdout, "JSON report: ") != 1 || strings.Contains(r.stderr, "JSON report") {
		t.Fatalf("stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
	// Replay shows the same run.
	rr := s.run("replay", "--no-tui", s.logs()[0])
	if rr.code != 0 || !strings.Contains(rr.stdout, "Scores (1–5) and weighted totals") || !strings.Contains(rr.stdout, "## Verdict") {
		t.Fatalf("replay: exit %d\n%s\n%s", rr.code, rr.stdout, rr.stderr)
	}
}

// checkRankSARIF checks rank --sarif's file: SARIF 2.1.0 the standard's
// schema takes, the ranking in the run's properties, each repository's
// security finding (the fakes report one at line 1 of a file of the
// branch, which the fact check keeps) at its file and line, by the fact
// seat that reported it, marked with its repository.
func checkRankSARIF(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := sarif.Validate(b); err != nil {
		t.Fatalf("the SARIF 2.1.0 schema refuses it: %v", err)
	}
	var l sarif.Log
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatal(err)
	}
	run := l.Runs[0]
	if d := run.Props["decision"]; d != string(rank.OutcomeRanked) && d != string(rank.OutcomeTie) {
		t.Errorf("decision %v", d)
	}
	parts := map[any]bool{}
	for _, res := range run.Results {
		if res.RuleID != "security" {
			continue
		}
		if len(res.Locations) == 0 || res.Locations[0].Physical.Region == nil || res.Locations[0].Physical.Region.StartLine != 1 || res.Level != "warning" || res.Props["judges"] == nil {
			t.Errorf("a security finding: %+v", res)
		}
		parts[res.Props["part"]] = true
	}
	if !parts["Findings in alpha"] || !parts["Findings in beta"] {
		t.Errorf("security findings in %v\n%s", parts, b)
	}
}

// checkReportFields checks that the JSON report has the fields the seed
// names, for the repositories labelled so.
func checkReportFields(t *testing.T, raw map[string]any, labels ...string) {
	t.Helper()
	for _, k := range []string{"version", "created_at", "spec_file", "repos", "weights", "scores", "ranking", "verdict"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("report lacks %q", k)
		}
	}
	for _, rr := range raw["repos"].([]any) {
		for _, k := range []string{"label", "path", "branch", "git_head"} {
			if _, ok := rr.(map[string]any)[k]; !ok {
				t.Errorf("report repo lacks %q", k)
			}
		}
	}
	for _, l := range labels {
		sc := raw["scores"].(map[string]any)[l].(map[string]any)
		for _, k := range []string{"functionality", "security", "tests", "overengineering", "dead_code", "weighted_total"} {
			if _, ok := sc[k]; !ok {
				t.Errorf("scores of %s lack %q", l, k)
			}
		}
	}
}

// checkSeatsSawNoRepository checks that each fact seat ran in a private
// copy of its repository, removed since, and that no judge's prompt names
// a label or a path.
func checkSeatsSawNoRepository(t *testing.T, calls []clitest.Call, repos []string, labels ...string) {
	t.Helper()
	for _, c := range calls {
		switch c.Kind {
		case "rank.facts":
			if slices.ContainsFunc(repos, func(r string) bool { return strings.HasPrefix(c.Cwd, r) }) || !strings.HasPrefix(filepath.Base(c.Cwd), "arena-rank-") {
				t.Errorf("%s gathered facts in %s, not in a copy of its own", c.Agent, c.Cwd)
			}
			if _, err := os.Stat(c.Cwd); err == nil {
				t.Errorf("the copy %s is still there", c.Cwd)
			}
		case "rank.judge":
			body := c.Prompt[strings.Index(c.Prompt, "CANDIDATE A"):]
			for _, bad := range append(labels, repos[0], "impl") {
				// As a word: the facts' key "implemented" is not the branch.
				if regexp.MustCompile(`(?i)(^|[^\pL\pN])` + regexp.QuoteMeta(bad) + `([^\pL\pN]|$)`).MatchString(body) {
					t.Errorf("a judge's prompt names %q", bad)
				}
			}
		}
	}
}

func TestRankThreeRepositoriesWithLabelsWeightsAndExpectWinner(t *testing.T) {
	s := newSandbox(t)
	spec, repos := rankSetup(t, s, "alpha", "gamma", "delta")
	args := []string{"rank", spec, repos[0], repos[1], repos[2], "--no-tui", "--labels", "Claude,GPT,Qwen", "--weights", "functionality:40,dead_code:0", "--seed", "3"}
	r := s.run(args...)
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	rep, _ := rankReport(t, s)
	if len(rep.Ranking) != 3 || rep.Weights[rank.DimFunctionality] != 40 || rep.Weights[rank.DimSecurity] != 25 {
		t.Fatalf("report %+v", rep)
	}
	if _, ok := rep.Judges["dead_code"]; ok {
		t.Fatal("a dimension weighted 0 was judged")
	}
	for _, c := range s.fakes.Calls() {
		if c.Kind == "rank.judge" && strings.Contains(c.Prompt, `"dimension": "dead_code"`) {
			t.Fatal("the dead code judge was asked")
		}
	}
	winner, loser := rep.Places[0], rep.Places[len(rep.Places)-1]
	if winner.Place == loser.Place {
		t.Fatalf("every repository tied: %+v", rep.Places)
	}
	// For CI: the expected winner exits 0, another one 3.
	if r := s.run(append(args, "--expect-winner", loser.Label)...); r.code != exitOtherWinner {
		t.Fatalf("--expect-winner %s: exit %d\n%s", loser.Label, r.code, r.stderr)
	}
	if winner.Tied {
		return
	}
	if r := s.run(append(args, "--expect-winner", winner.Label)...); r.code != exitOK {
		t.Fatalf("--expect-winner %s: exit %d\n%s", winner.Label, r.code, r.stderr)
	}
}

func TestRankRunsEachRepositorysOwnTests(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not installed")
	}
	s := newSandbox(t)
	spec, repos := rankSetup(t, s, "alpha", "beta")
	// beta's fact seat claims a test count the run contradicts.
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"gemini": {Steps: map[string][]clitest.Step{
		"rank.facts": {{Reply: json.RawMessage(`{"functionality": {"spec_requirements": ["Add"], "implemented": ["Add"], "missing": [], "test_results": {"ran": true, "passed": 40, "failed": 0, "skipped": 0}},
 "security": {"findings": [{"file": "add.go", "line": 4, "issue": "no overflow check"}, {"file": "auth/login.go", "line": 12, "issue": "invented file"}], "patterns_observed": []},
 "tests": {"coverage_estimate": "high", "dry_violations": [], "test_count": 40, "mocking_approach": "none"},
 "overengineering": {"abstractions": [], "defensive_code": [], "config_complexity": "low"},
 "dead_code": {"unused_imports": [], "unused_functions": [], "todo_comments": 0, "commented_code_blocks": 0}}`)}},
	}}}})
	before := repoStates(t, repos)
	// The Go build cache of the machine, not the sandbox's empty one: the
	// test is about counting, not about compiling the standard library.
	gocache, _ := exec.Command("go", "env", "GOCACHE").Output()
	r := s.runWithEnv([]string{"GOCACHE=" + strings.TrimSpace(string(gocache))}, "rank", spec, repos[0], repos[1], "--no-tui", "--run-tests")
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if after := repoStates(t, repos); !slices.Equal(before, after) {
		t.Fatalf("running the tests changed a repository:\n%s\n---\n%s", before, after)
	}
	rep, _ := rankReport(t, s)
	a, b := rep.Repos[0].TestResults, rep.Repos[1].TestResults
	if a == nil || !a.Ran || a.Passed != 2 || a.Failed != 0 {
		t.Fatalf("alpha's tests %+v", a)
	}
	if b == nil || !b.Ran || b.Passed != 2 || b.Failed != 1 || b.Skipped != 1 || b.ExitCode == 0 {
		t.Fatalf("beta's tests %+v", b)
	}
	checks := strings.Join(rep.Checks["beta"], "\n")
	for _, want := range []string{"reported 40 tests; running them counted 4 (replaced)", "auth/login.go: no such file", "40 passed, 0 failed, 0 skipped; the run gave 2 passed, 1 failed, 1 skipped"} {
		if !strings.Contains(checks, want) {
			t.Errorf("checks lack %q:\n%s", want, checks)
		}
	}
	if f := rep.Facts["beta"]; f.Tests.TestCount != 4 || len(f.Security.Findings) != 1 {
		t.Fatalf("beta's facts %+v", f)
	}
	if !strings.Contains(r.stdout, "2 passed, 1 failed, 1 skipped") {
		t.Fatalf("the measured tests are not on screen:\n%s", r.stdout)
	}
}

func TestRankAHangingFactSeatLeavesItsRepositoryNotJudged(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	spec, repos := rankSetup(t, s, "alpha", "beta", "gamma")
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"gemini": {Steps: map[string][]clitest.Step{
		"rank.facts": {{Mode: clitest.ModeHang}},
	}}}})
	// Only gemini, whose fact call hangs, gets a short timeout.
	s.writeConfig("agents:\n  gemini: {timeout: 3s}\n")
	r := s.run("rank", spec, repos[0], repos[1], repos[2], "--no-tui")
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	o := outcomeOf(t, s.onlyLog())
	if !slices.ContainsFunc(o.Failures, func(f string) bool { return strings.HasPrefix(f, "beta not judged: its fact seat timed out") }) {
		t.Fatalf("failures %q", o.Failures)
	}
	rep, _ := rankReport(t, s)
	if rep.NotJudged["beta"] == "" || slices.Contains(rep.Ranking, "beta") || len(rep.Ranking) != 2 || rep.Repos[1].Judged {
		t.Fatalf("report %+v", rep)
	}
	if n := len(s.fakes.CallsTo("gemini")); n < 2 {
		t.Fatalf("the hanging fact seat was asked %d times, want a retry", n)
	}
	if !strings.Contains(o.Markdown, "**beta** was not judged") {
		t.Fatalf("markdown:\n%s", o.Markdown)
	}
}

func TestRankInputIsCheckedBeforeAnyAgentStarts(t *testing.T) {
	s := newSandbox(t)
	spec, repos := rankSetup(t, s, "alpha", "beta")
	plain := t.TempDir()
	exists := filepath.Join(s.dir, "taken.json")
	os.WriteFile(exists, []byte("mine"), 0o644)
	noMain := rankRepo(t, t.TempDir(), "trunk", "")
	if out, err := exec.Command("git", "-C", noMain, "branch", "-m", "main", "trunk").CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{spec, repos[0]}, "needs a spec and two or more repositories"},
		{[]string{"nope.md", repos[0], repos[1]}, "spec file nope.md: does not exist"},
		{[]string{spec, repos[0], plain}, "repository " + plain + ": not a git work tree"},
		{[]string{spec, repos[0], repos[0]}, "the same work tree as"},
		{[]string{spec, repos[0], repos[1], "--labels", "one"}, "--labels names 1 label for 2 repositories"},
		{[]string{spec, repos[0], repos[1], "--labels", "a,a"}, `"a" is given twice`},
		{[]string{spec, repos[0], repos[1], "--weights", "style:10"}, `--weights: unknown dimension "style"`},
		{[]string{spec, repos[0], repos[1], "--branch", "feature"}, "repository " + repos[0] + `: branch "feature" does not exist`},
		{[]string{spec, repos[0], repos[1], "--base", "develop"}, "repository " + repos[0] + `: base "develop" does not exist`},
		{[]string{spec, repos[0], noMain}, "repository " + noMain + ": has no main or master branch"},
		{[]string{spec, repos[0], repos[1], "--expect-winner", "zeta"}, `--expect-winner "zeta" is not one of the labels (alpha, beta)`},
		{[]string{spec, repos[0], repos[1], "--out", exists}, "already exists; arena does not overwrite"},
		{[]string{spec, repos[0], repos[1], "--authors", "claude"}, "--authors names 1 agent for 2 repositories"},
	} {
		r := s.run(append([]string{"rank", "--no-tui"}, c.args...)...)
		if r.code != exitUsage || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%q: exit %d, stderr %q, want %q", c.args, r.code, r.stderr, c.want)
		}
	}
	if n := len(s.fakes.Calls()); n != 0 {
		t.Fatalf("%d agent calls before the input was valid", n)
	}
	if b, _ := os.ReadFile(exists); string(b) != "mine" {
		t.Fatal("--out overwrote a file")
	}
}

func TestRankOutWritesANewFileAndAuthorsDoNotJudge(t *testing.T) {
	s := newSandbox(t)
	spec, repos := rankSetup(t, s, "alpha", "beta")
	out := filepath.Join(s.dir, "report.json")
	r := s.run("rank", spec, repos[0], repos[1], "--no-tui", "--no-log", "--out", out, "--authors", "claude,codex")
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var rep rank.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	for d, j := range rep.Judges {
		if j.Agent == "claude" || j.Agent == "codex" {
			t.Errorf("the %s judge is %s, an author", d, j.Agent)
		}
	}
	if !slices.ContainsFunc(rep.Notes, func(n string) bool { return strings.Contains(n, "instead of") }) {
		t.Errorf("notes %q", rep.Notes)
	}
	for _, c := range s.fakes.Calls() {
		if c.Kind == "rank.judge" && (c.Agent == "claude" || c.Agent == "codex") {
			t.Errorf("%s judged", c.Agent)
		}
	}
}

// repoState is what a repository looks like from outside: its status,
// its stashes and its HEAD. Two equal states mean a run changed nothing.
func repoState(dir string) (string, error) {
	git := func(args ...string) (string, error) {
		out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
		return string(out), err
	}
	st, err := git("status", "--porcelain=v1", "--untracked-files=all", "--ignored")
	if err != nil {
		return "", err
	}
	stash, err := git("stash", "list")
	if err != nil {
		return "", err
	}
	head, _ := git("rev-parse", "HEAD")
	refs, _ := git("for-each-ref", "--format=%(refname) %(objectname)")
	wt, _ := git("worktree", "list", "--porcelain")
	return "status:\n" + st + "stash:\n" + stash + "head: " + head + "refs:\n" + refs + "worktrees:\n" + wt, nil
}

// With --json, stdout is JSON Lines and the report's file is named on
// stderr, as every other path arena prints: relative to where arena was
// started when it is beneath it.
func TestRankJSONNamesItsReportRelative(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	spec, repos := rankSetup(t, s, "alpha", "beta")
	logs := filepath.Join(s.dir, "logs") // named whole, as a config would
	r := s.run(append([]string{"rank", "--no-tui", "--json", "--log-dir", logs, spec}, repos...)...)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	line := ""
	for _, l := range strings.Split(r.stderr, "\n") {
		if strings.HasPrefix(l, "arena: JSON report: ") {
			line = l
		}
	}
	if path := strings.TrimPrefix(line, "arena: JSON report: "); line == "" || !strings.HasPrefix(path, "logs"+string(filepath.Separator)) || !strings.HasSuffix(path, ".json") {
		t.Fatalf("the report is not named relative to the work directory:\n%s", r.stderr)
	}
}

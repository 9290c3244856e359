package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
)

// The CI gate (action.yml runs scripts/ci-gate): the script run as GitHub
// runs it, with the variables GitHub sets, on a real repository whose
// pull request branch changes a file, the fakes standing in for the
// model CLIs.

// prRepo is a repository with main and a pull request branch checked out.
func prRepo(t *testing.T, hostile bool) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	os.MkdirAll(dir, 0o755)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(file, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, file), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main")
	git("config", "user.email", "dev@example.com")
	git("config", "user.name", "dev")
	git("config", "commit.gpgsign", "false")
	write("api.go", "package api\n\nfunc Users() []string { return nil }\n")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	git("checkout", "-q", "-b", "feature")
	write("api.go", "package api\n\nfunc Users() []string { return []string{\"ada\"} } // the pull request's line\n")
	if hostile {
		// What a pull request could plant so that reading its diff runs
		// a program: a diff driver named by its .gitattributes.
		write(".gitattributes", "* diff=evil\n")
	}
	git("add", "-A")
	git("commit", "-q", "-m", "the pull request")
	if hostile {
		// And the programs, as a repository's configuration can name
		// them (set last: git itself would run them from here on).
		git("config", "diff.evil.command", "touch "+filepath.Join(dir, "PWNED-diff"))
		git("config", "diff.evil.textconv", "touch "+filepath.Join(dir, "PWNED-textconv")+" && cat")
		git("config", "core.fsmonitor", "touch "+filepath.Join(dir, "PWNED-fsmonitor"))
		git("config", "core.pager", "touch "+filepath.Join(dir, "PWNED-pager"))
	}
	return dir
}

type gateResult struct {
	code            int
	stdout, summary string
	outputs         map[string]string
}

// gate runs scripts/ci-gate in repo with GitHub's variables and extra.
func (s *sandbox) gate(repo string, extra ...string) gateResult {
	s.t.Helper()
	root, err := clitest.ModuleRoot()
	if err != nil {
		s.t.Fatal(err)
	}
	runner := s.t.TempDir()
	summary, output := filepath.Join(runner, "summary.md"), filepath.Join(runner, "output")
	env := s.env(append([]string{
		"ARENA=" + arenaBinary(s.t),
		"GITHUB_ACTIONS=true", "CI=true",
		"GITHUB_EVENT_NAME=pull_request", "GITHUB_REF=refs/pull/42/merge", "GITHUB_REF_NAME=42/merge",
		"GITHUB_BASE_REF=main", "GITHUB_HEAD_REF=feature", "GITHUB_WORKSPACE=" + repo,
		"GITHUB_STEP_SUMMARY=" + summary, "GITHUB_OUTPUT=" + output, "RUNNER_TEMP=" + runner,
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
	}, extra...)...)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", filepath.Join(root, "scripts", "ci-gate"))
	cmd.Dir, cmd.Env = s.t.TempDir(), env // not the repository: the script goes there itself
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	r := gateResult{code: exitCodeOf(cmd.Run()), stdout: out.String(), outputs: map[string]string{}}
	b, _ := os.ReadFile(summary)
	r.summary = string(b)
	b, _ = os.ReadFile(output)
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			r.outputs[k] = v
		}
	}
	return r
}

func TestCIGateVerdictOnAPullRequest(t *testing.T) {
	t.Parallel()
	s := newVerdictSandbox(t)
	repo := prRepo(t, false)
	r := s.gate(repo, "GATE_TASK=list the users")
	if r.code != exitAccept || r.outputs["exit-code"] != "0" || r.outputs["decision"] != "accept" {
		t.Fatalf("exit %d, outputs %v\n%s", r.code, r.outputs, r.stdout)
	}
	if !strings.HasPrefix(r.summary, "### arena verdict: accept (exit 0)\n") || !strings.Contains(r.summary, "# Verdict: ACCEPT") {
		t.Fatalf("summary:\n%s", r.summary)
	}
	lc, err := runlog.ReadFile(r.outputs["log"])
	if err != nil || !lc.Complete || r.outputs["document"] != strings.TrimSuffix(r.outputs["log"], ".jsonl")+".md" {
		t.Fatalf("log %s: %v %+v", r.outputs["log"], err, r.outputs)
	}
	if st := lc.Events[0].Payload.(engine.DebateStarted); !strings.HasPrefix(st.Topic, "pr-42") {
		t.Fatalf("task id %q", st.Topic)
	}
	// The judges saw the pull request's change, as a diff against main.
	calls := s.fakes.Calls()
	if len(calls) == 0 || !strings.Contains(calls[0].Prompt, `+func Users() []string { return []string{"ada"} } // the pull request's line`) || !strings.Contains(calls[0].Prompt, "-func Users() []string { return nil }") {
		t.Fatalf("the judge's prompt lacks the diff:\n%v", calls)
	}
	// A rejected change fails the job with the verdict's own code.
	s.fakes.SetScript(judges(map[string]map[string][]clitest.Step{"gemini": {"verdict.quick": {jReject}}}))
	r = s.gate(repo)
	if r.code != exitReject || r.outputs["exit-code"] != "5" || !strings.Contains(r.summary, "### arena verdict: reject (exit 5)") {
		t.Fatalf("reject: exit %d %v\n%s\n%s", r.code, r.outputs, r.stdout, r.summary)
	}
}

func TestCIGateJudge(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	r := s.gate(prRepo(t, false), "GATE_PROTOCOL=judge", "GATE_TASK=return the users", "GATE_ARGS=--criteria correctness:60,design:40")
	if r.code != 0 || r.outputs["decision"] != "consensus" || !strings.Contains(r.summary, "# Judging outcome: consensus") {
		t.Fatalf("exit %d %v\n%s\n%s", r.code, r.outputs, r.stdout, r.summary)
	}
	if !strings.Contains(r.stdout, "--criteria correctness:60,design:40") {
		t.Fatalf("the extra arguments were not passed:\n%s", r.stdout)
	}
}

// Reading the pull request's diff runs nothing the repository names.
func TestCIGateRunsNothingTheRepositoryPlants(t *testing.T) {
	t.Parallel()
	s := newVerdictSandbox(t)
	repo := prRepo(t, true)
	r := s.gate(repo)
	if r.code != exitAccept {
		t.Fatalf("exit %d\n%s", r.code, r.stdout)
	}
	if planted, _ := filepath.Glob(filepath.Join(repo, "PWNED-*")); len(planted) != 0 {
		t.Fatalf("the repository's programs ran: %v", planted)
	}
	// The repository is as it was checked out.
	out, _ := exec.Command("git", "-C", repo, "-c", "core.fsmonitor=false", "status", "--porcelain").Output()
	if len(out) != 0 {
		t.Fatalf("the work tree changed:\n%s", out)
	}
}

func TestCIGateNothingToJudgeOrNoBase(t *testing.T) {
	t.Parallel()
	s := newVerdictSandbox(t)
	repo := prRepo(t, false)
	r := s.gate(repo, "GATE_BASE=feature")
	if r.code != 0 || r.outputs["decision"] != "empty" || !strings.Contains(r.summary, "nothing to judge") || len(s.fakes.Calls()) != 0 {
		t.Fatalf("empty diff: exit %d %v\n%s", r.code, r.outputs, r.summary)
	}
	r = s.gate(repo, "GITHUB_BASE_REF=release")
	if r.code != exitUsage || !strings.Contains(r.summary, "not run") || !strings.Contains(r.stdout, "no base to diff against") {
		t.Fatalf("no base: exit %d\n%s\n%s", r.code, r.stdout, r.summary)
	}
	r = s.gate(repo, "GATE_PROTOCOL=rank")
	if r.code != exitUsage {
		t.Fatalf("protocol rank: exit %d", r.code)
	}
}

// action.yml runs the script, gives it every input it reads, and uploads
// the log whatever the verdict.
func TestActionYAML(t *testing.T) {
	t.Parallel()
	root, err := clitest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]struct {
			Default string `yaml:"default"`
		} `yaml:"inputs"`
		Runs struct {
			Using string `yaml:"using"`
			Steps []struct {
				ID   string            `yaml:"id"`
				Uses string            `yaml:"uses"`
				Run  string            `yaml:"run"`
				If   string            `yaml:"if"`
				Env  map[string]string `yaml:"env"`
				With map[string]string `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(b, &action); err != nil {
		t.Fatal(err)
	}
	if action.Runs.Using != "composite" {
		t.Fatalf("runs.using %q", action.Runs.Using)
	}
	script, _ := os.ReadFile(filepath.Join(root, "scripts", "ci-gate"))
	read := regexp.MustCompile(`\$\{?(GATE_[A-Z_]+)`).FindAllStringSubmatch(string(script), -1)
	var gate, upload, fail bool
	for i, st := range action.Runs.Steps {
		switch {
		case st.ID == "gate":
			gate = strings.Contains(st.Run, "scripts/ci-gate") && st.Env["ARENA"] != ""
			for _, m := range read {
				if _, ok := st.Env[m[1]]; !ok {
					t.Errorf("the script reads %s, which the gate step does not set", m[1])
				}
			}
			for k, v := range st.Env {
				if in := regexp.MustCompile(`inputs\.([a-z-]+)`).FindStringSubmatch(v); in != nil {
					if _, ok := action.Inputs[in[1]]; !ok {
						t.Errorf("%s names the undeclared input %s", k, in[1])
					}
				}
			}
		case strings.HasPrefix(st.Uses, "actions/upload-artifact@"):
			upload = st.If == "always()" && strings.Contains(st.With["path"], "arena-logs") && i > 0
		case i == len(action.Runs.Steps)-1:
			fail = st.If == "always()" && strings.Contains(st.Run, "exit")
		}
	}
	if !gate || !upload || !fail {
		t.Fatalf("steps: gate %v, upload %v, fail by the exit code %v", gate, upload, fail)
	}
	if !slices.ContainsFunc(action.Runs.Steps, func(st struct {
		ID   string            `yaml:"id"`
		Uses string            `yaml:"uses"`
		Run  string            `yaml:"run"`
		If   string            `yaml:"if"`
		Env  map[string]string `yaml:"env"`
		With map[string]string `yaml:"with"`
	}) bool {
		return strings.Contains(st.Run, "go build") && strings.Contains(st.Run, "./cmd/arena")
	}) {
		t.Fatal("no step builds arena")
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"gopkg.in/yaml.v3"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
	"github.com/arenadebate/arena/tui/sarif"
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
	code           int
	out            string // stdout, then stderr
	stdout, stderr string
	summary        string
	outputs        map[string]string
	// annotations are the commands the runner carries out: the line
	// annotations arena made of the findings, nothing else.
	annotations []string
}

// annotationCommand is the one kind of command the gate lets the runner
// carry out, last: a level, the file, line and title properties with
// their values escaped (no ":" or ","), then the message.
var annotationCommand = regexp.MustCompile(`^::(error|warning|notice) (file=[^:,]*,(line=[0-9]+,)?)?title=[^:,]*::`)

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
	// Two pipes, as the runner reads a step: their order against each
	// other is not kept.
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	r := gateResult{code: exitCodeOf(cmd.Run()), stdout: stdout.String(), stderr: stderr.String(), outputs: map[string]string{}}
	r.out = r.stdout + r.stderr
	// Whatever the run, the runner carries out nothing it printed but
	// the findings' annotations, in either order of the two streams.
	for _, streams := range [][]string{{r.stdout, r.stderr}, {r.stderr, r.stdout}} {
		cmds := runnerCommands(streams...)
		for _, c := range cmds {
			if !annotationCommand.MatchString(c) {
				s.t.Errorf("the runner would carry out a command the gate printed that is no annotation: %q\n%s", c, r.out)
			}
		}
		r.annotations = cmds
	}
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
		t.Fatalf("exit %d, outputs %v\n%s", r.code, r.outputs, r.out)
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
		t.Fatalf("reject: exit %d %v\n%s\n%s", r.code, r.outputs, r.out, r.summary)
	}
}

func TestCIGateJudge(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	r := s.gate(prRepo(t, false), "GATE_PROTOCOL=judge", "GATE_TASK=return the users", "GATE_ARGS=--criteria correctness:60,design:40")
	if r.code != 0 || r.outputs["decision"] != "consensus" || !strings.Contains(r.summary, "# Judging outcome: consensus") {
		t.Fatalf("exit %d %v\n%s\n%s", r.code, r.outputs, r.out, r.summary)
	}
	if !strings.Contains(r.out, "--criteria correctness:60,design:40") {
		t.Fatalf("the extra arguments were not passed:\n%s", r.out)
	}
}

// Reading the pull request's diff runs nothing the repository names.
func TestCIGateRunsNothingTheRepositoryPlants(t *testing.T) {
	t.Parallel()
	s := newVerdictSandbox(t)
	repo := prRepo(t, true)
	r := s.gate(repo)
	if r.code != exitAccept {
		t.Fatalf("exit %d\n%s", r.code, r.out)
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
	if r.code != exitUsage || !strings.Contains(r.summary, "not run") || !strings.Contains(r.out, "no base to diff against") {
		t.Fatalf("no base: exit %d\n%s\n%s", r.code, r.out, r.summary)
	}
	r = s.gate(repo, "GATE_PROTOCOL=rank")
	if r.code != exitUsage {
		t.Fatalf("protocol rank: exit %d", r.code)
	}
}

// actionStep is a step of action.yml.
type actionStep struct {
	ID   string            `yaml:"id"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	If   string            `yaml:"if"`
	Env  map[string]string `yaml:"env"`
	With map[string]string `yaml:"with"`
	// ContinueOnError lets the job go on past the step.
	ContinueOnError bool `yaml:"continue-on-error"`
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
			Using string       `yaml:"using"`
			Steps []actionStep `yaml:"steps"`
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
	var gate, upload, fail, codeScanning bool
	for i, st := range action.Runs.Steps {
		// A title in a script's text is a script: inputs reach the
		// steps' scripts through the environment only.
		if strings.Contains(st.Run, "${{") {
			t.Errorf("step %d writes an expression into its script:\n%s", i, st.Run)
		}
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
		case strings.HasPrefix(st.Uses, "github/codeql-action/upload-sarif@"):
			// The findings go to code scanning whatever the verdict, when
			// the gate wrote them; a repository without code scanning
			// keeps its verdict.
			codeScanning = gate && strings.Contains(st.If, "always()") && strings.Contains(st.If, "steps.gate.outputs.sarif-upload") &&
				st.With["sarif_file"] == "${{ steps.gate.outputs.sarif-upload }}" && st.ContinueOnError
			if in := regexp.MustCompile(`inputs\.([a-z-]+)`).FindStringSubmatch(st.If); in == nil || action.Inputs[in[1]].Default != "true" {
				t.Errorf("the upload to code scanning is not an input that defaults to on: %q", st.If)
			}
		case strings.HasPrefix(st.Uses, "actions/upload-artifact@"):
			upload = st.If == "always()" && strings.Contains(st.With["path"], "arena-logs") && i > 0
		case i == len(action.Runs.Steps)-1:
			fail = st.If == "always()" && strings.Contains(st.Run, "exit")
		}
	}
	if !gate || !upload || !fail || !codeScanning {
		t.Fatalf("steps: gate %v, upload %v, fail by the exit code %v, SARIF to code scanning %v", gate, upload, fail, codeScanning)
	}
	if !slices.ContainsFunc(action.Runs.Steps, func(st actionStep) bool {
		return strings.Contains(st.Run, "go build") && strings.Contains(st.Run, "./cmd/arena")
	}) {
		t.Fatal("no step builds arena")
	}
}

// runnerCommands are the workflow commands GitHub's runner would carry
// out on reading a step's stdout and stderr (actions/runner,
// src/Runner.Worker/ActionCommandManager.cs TryProcessCommand and
// src/Runner.Common/ActionCommand.cs TryParseV2 and TryParse): a line is split at \n, \r\n or \r; once its leading
// whitespace is trimmed, a line starting with "::" and holding another
// "::" after it is the command named up to the first space or that "::"
// (::error file=a::text); "##[" anywhere in a line, up to the next "]",
// is one too (the legacy form: x ##[warning]text). A name counts when it
// is one the runner knows (in any case). ::stop-commands::TOKEN stops all
// of them until the command named TOKEN; the two streams share that
// state and are read at once, in no order against each other, so both
// orders are read here.
func runnerCommands(streams ...string) []string {
	known := map[string]bool{}
	for _, c := range []string{"add-mask", "add-path", "set-env", "set-output", "save-state", "add-matcher", "remove-matcher",
		"warning", "error", "notice", "debug", "group", "endgroup", "echo", "stop-commands"} {
		known[c] = true
	}
	var cmds []string
	stopToken := ""
	for _, stream := range streams {
		for _, line := range regexp.MustCompile(`\r\n|\r|\n`).Split(stream, -1) {
			name, data, ok := runnerParse(line)
			switch {
			case !ok:
			case stopToken != "":
				if strings.EqualFold(name, stopToken) {
					stopToken = ""
				}
			case strings.EqualFold(name, "stop-commands"):
				stopToken = data
			case known[strings.ToLower(name)]:
				cmds = append(cmds, strings.TrimSpace(line))
			}
		}
	}
	return cmds
}

// runnerParse reads a line as the runner does: the v2 form, else the
// legacy one.
func runnerParse(line string) (name, data string, ok bool) {
	if l := strings.TrimLeftFunc(line, unicode.IsSpace); strings.HasPrefix(l, "::") { // .NET's TrimStart
		if end := strings.Index(l[2:], "::"); end >= 0 {
			info := l[2 : 2+end]
			name, _, _ = strings.Cut(info, " ")
			return name, l[2+end+2:], true
		}
	}
	if i := strings.Index(line, "##["); i >= 0 {
		if end := strings.IndexByte(line[i:], ']'); end >= 0 {
			name, _, _ = strings.Cut(line[i+3:i+end], " ")
			return name, line[i+end+1:], true
		}
	}
	return "", "", false
}

// The parser finds what the runner would carry out, and no more.
func TestRunnerCommandsReadsAsTheRunner(t *testing.T) {
	t.Parallel()
	got := runnerCommands("text\n  ::add-mask::x\n\t::error file=a.go,line=1::forged\r::set-output name=a::b\nsee ##[warning]w\n::nonsense::x\n: :error::x\n::error no end\n" +
		"::stop-commands::t0k3n\n::error::stopped\n##[warning]stopped\n::T0K3N::\n::notice::again\n")
	want := []string{"::add-mask::x", "::error file=a.go,line=1::forged", "::set-output name=a::b", "see ##[warning]w", "::notice::again"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	// The state is shared: a stream read first can stop the other's.
	if got := runnerCommands("::stop-commands::k\n", "::error::x\n"); len(got) != 0 {
		t.Fatalf("after a stop in the other stream: %q", got)
	}
}

// A pull request's title and the judges' replies, holding workflow
// commands, reach the gate's output only where the runner carries out
// none of them: between ::stop-commands::TOKEN and ::TOKEN::, with a
// token of this run's own.
func TestCIGateLetsNoTitleOrReplyCommandTheRunner(t *testing.T) {
	t.Parallel()
	const forged = "::add-mask::hunter2\n  ::error file=api.go,line=1::forged error\n\t::set-output name=decision::accept\nsee ##[warning]forged warning\n"
	s := newVerdictSandbox(t)
	reply := func(v string) clitest.Step {
		b, _ := json.Marshal(map[string]any{
			"verdict": v, "scores": map[string]int{"semantic": 4, "pragmatic": 4, "syntactic": 5},
			"reasoning": "scored " + v + "\n" + forged, "improvements": []string{"tests\n" + forged, "##[error]in a list"},
		})
		return clitest.Step{Reply: json.RawMessage(b), Prose: "::warning::in the prose"}
	}
	s.fakes.SetScript(judges(map[string]map[string][]clitest.Step{
		"gemini": {"verdict.quick": {reply("improve")}}, "claude": {"verdict.deep": {reply("accept")}}, "codex": {"verdict.tiebreak": {reply("accept")}},
	}))
	repo := prRepo(t, false)
	var tokens []string
	for _, extra := range [][]string{{"GATE_TASK=list the users ##[warning]title\n" + forged}, {"GATE_TASK=::error::a title alone"}} {
		r := s.gate(repo, extra...)
		if r.code == exitUsage || r.outputs["decision"] == "" {
			t.Fatalf("exit %d %v\n%s", r.code, r.outputs, r.out)
		}
		if !strings.Contains(r.out, "forged") && !strings.Contains(r.out, "a title alone") {
			t.Fatalf("the hostile text never reached the output, so the test shows nothing:\n%s", r.out)
		}
		// The runner carries out the annotations alone (gate checks
		// their shape): one per finding, each the finding's words.
		if len(r.annotations) != 2 {
			t.Errorf("the runner would carry out %d commands, not the 2 findings' annotations: %q\n%s", len(r.annotations), r.annotations, r.out)
		}
		for _, a := range r.annotations {
			if !strings.Contains(a, "::tests ::add-mask::hunter2 ::error file=api.go,line=1::forged error ::set-output name=decision::accept see ##[warning]forged warning") && !strings.Contains(a, "::##[error]in a list") {
				t.Errorf("an annotation is not a finding's words, escaped: %q", a)
			}
		}
		// The stop comes first and processing resumes at the end, where
		// the annotations alone follow.
		m := regexp.MustCompile(`^::stop-commands::(arena-[0-9a-f]{32})\n`).FindStringSubmatch(r.stdout)
		if m == nil {
			t.Fatalf("the output is not wrapped:\n%s", r.out)
		}
		_, after, ok := strings.Cut(r.stdout, "\n::"+m[1]+"::\n")
		if !ok || strings.TrimSpace(after) != strings.Join(r.annotations, "\n") {
			t.Fatalf("after the stop ends comes more than the annotations:\n%s", after)
		}
		tokens = append(tokens, m[1])
	}
	if tokens[0] == tokens[1] {
		t.Fatalf("two runs used the same token %s", tokens[0])
	}
}

// On a pull request the gate writes the verdict's SARIF, a copy of the
// findings arena placed (what code scanning takes), and prints each
// finding as a line annotation on the diff: a quoted one at the line of
// the pull request's file that holds the quote, one not in the diff with
// no line. On a push it annotates nothing.
func TestCIGateAnnotatesTheDiffAndWritesSARIF(t *testing.T) {
	t.Parallel()
	s := newVerdictSandbox(t)
	s.fakes.SetScript(judges(map[string]map[string][]clitest.Step{
		"gemini": {"verdict.quick": {quotingReply("improve", 3, `return []string{"ada"}`)}},
		"claude": {"verdict.deep": {quotingReply("accept", 5, "func Users() []string")}},
	}))
	repo := prRepo(t, false)
	r := s.gate(repo)
	if r.code != exitAccept {
		t.Fatalf("exit %d\n%s", r.code, r.out)
	}
	want := []string{
		"::warning title=arena%3A improvement (gemini (quick judge)%2C claude (deep judge))::add tests for the edge cases",
		`::warning file=api.go,line=3,title=arena%3A improvement (gemini (quick judge))::say what an empty list means — “return []string{"ada"}”`,
		"::warning title=arena%3A improvement (gemini (quick judge)%2C claude (deep judge))::cite the spec — “a sentence nobody wrote” (arena: not found in the work)",
		"::notice file=api.go,line=3,title=arena%3A improvement (claude (deep judge))::say what an empty list means — “func Users() []string”",
	}
	if strings.Join(r.annotations, "\n") != strings.Join(want, "\n") {
		t.Errorf("annotations:\n%s\nwant:\n%s", strings.Join(r.annotations, "\n"), strings.Join(want, "\n"))
	}
	for _, k := range []string{"sarif", "sarif-upload"} {
		b, err := os.ReadFile(r.outputs[k])
		if err != nil {
			t.Fatalf("output %s: %v (%v)", k, err, r.outputs)
		}
		if err := sarif.Validate(b); err != nil {
			t.Errorf("%s: %v", k, err)
		}
		var l sarif.Log
		if err := json.Unmarshal(b, &l); err != nil {
			t.Fatal(err)
		}
		if n := len(l.Runs[0].Results); n != map[string]int{"sarif": 4, "sarif-upload": 2}[k] {
			t.Errorf("%s holds %d results", k, n)
		}
	}
	// A push is no pull request: no annotations.
	r = s.gate(repo, "GITHUB_EVENT_NAME=push", "GATE_BASE=main")
	if r.code != exitAccept || len(r.annotations) != 0 || r.outputs["sarif-upload"] == "" {
		t.Errorf("push: exit %d, annotations %q, outputs %v", r.code, r.annotations, r.outputs)
	}
}

package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine/runlog"
)

func TestUsageErrorsAreClearAndExit2(t *testing.T) {
	s := newSandbox(t)
	bad := filepath.Join(s.dir, "bad.yaml")
	os.WriteFile(bad, []byte("max_rounds: 5\nchallengers: [gemnii]\n"), 0o600)
	cases := []struct {
		args []string
		want string
	}{
		{nil, "no topic given"},
		{[]string{"--max-rounds", "-1", "a topic"}, "flag --max-rounds: must be at least 1, got -1"},
		{[]string{"--timeout", "ninety", "a topic"}, `flag --timeout: "ninety" is not a duration`},
		{[]string{"--challengers", "gpt5", "a topic"}, `flag --challengers: unknown agent "gpt5"`},
		{[]string{"--config", bad, "a topic"}, bad + `:2: challengers: unknown agent "gemnii"`},
		{[]string{"--config", filepath.Join(s.dir, "missing.yaml"), "a topic"}, "missing.yaml"},
		{[]string{"--context", "nope.txt", "a topic"}, "context file nope.txt: does not exist"},
		{[]string{"--bogus", "a topic"}, "unknown flag: --bogus\n"},
		{[]string{"--rounds", "2", "a topic"}, "unknown flag: --rounds (did you mean --max-rounds?)"},
		{[]string{"compare", "--options", "A", "which?"}, "unknown flag: --options (did you mean --option?)"},
		{[]string{"-f", "missing-topic.md"}, "topic file missing-topic.md: does not exist"},
		{[]string{"docter"}, `"docter" is not a command: did you mean arena doctor?`},
		{[]string{"replya"}, "did you mean arena replay?"},
		// A bare word is no topic: the verbs people reach for get their
		// command, any other word the way to ask it.
		{[]string{"version"}, `"version" is not a command: did you mean arena --version?`},
		{[]string{"list"}, "did you mean arena logs?"},
		{[]string{"history"}, "did you mean arena logs?"},
		{[]string{"show"}, "did you mean arena replay?"},
		{[]string{"update"}, `arena has no "update" command: to upgrade arena, run git pull && go install ./cmd/arena in your clone of arena`},
		{[]string{"init"}, "did you mean arena config init?"},
		// arena help with a word that names no command (cobra: exit 0).
		{[]string{"help", "me"}, `arena help me: no command is named "me" (arena help lists them)`},
		{[]string{"help", "doctr"}, "did you mean arena help doctor?"},
		{[]string{"help", "config", "nope"}, `no command is named "config nope"`},
		{[]string{"--dry-run", "banana"}, `"banana" is not a command, and one word is too little to debate: ask it as a question (arena "banana?")`},
	}
	for _, tc := range cases {
		r := s.run(tc.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("arena %q: exit %d, stderr %q; want exit 2 and %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
	if len(s.fakes.Calls()) != 0 {
		t.Fatal("an agent ran despite a usage error")
	}
	if _, err := os.Stat(filepath.Join(s.dir, "debate-logs")); err == nil {
		t.Fatal("a usage error wrote a log")
	}
}

func TestTopicFromStdinAndContextFiles(t *testing.T) {
	s := newSandbox(t)
	ctxFile := filepath.Join(s.dir, "schema.sql")
	os.WriteFile(ctxFile, []byte("CREATE TABLE sessions (id text primary key, data jsonb);"), 0o600)
	topic := "Is `$(whoami)` safe?\n'quoted' \"double\""
	r := s.runIn([]byte(topic), "-", "--no-tui", "--context", ctxFile)
	if r.code != exitConsensus {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	calls := s.fakes.CallsTo("gemini")
	if len(calls) == 0 || !strings.Contains(calls[0].Prompt, topic) || !strings.Contains(calls[0].Prompt, "CREATE TABLE sessions") {
		t.Fatalf("the topic or context did not reach gemini literally:\n%s", calls[0].Prompt)
	}
}

func TestJSONModePrintsEvents(t *testing.T) {
	s := newSandbox(t)
	r := s.run("--json", "a topic")
	if r.code != exitConsensus {
		t.Fatalf("exit %d %s", r.code, r.stderr)
	}
	lc, err := runlog.Read(strings.NewReader(r.stdout))
	if err != nil || !lc.Complete {
		t.Fatalf("stdout is not a complete event stream: %v %q", err, lc.Problem)
	}
	logged := s.onlyLog()
	if len(logged.Events) != len(lc.Events) {
		t.Fatalf("stdout has %d events, the log %d", len(lc.Events), len(logged.Events))
	}
}

func TestNoLogWritesNothing(t *testing.T) {
	s := newSandbox(t)
	if r := s.run("--no-tui", "--no-log", "a topic"); r.code != 0 {
		t.Fatalf("exit %d %s", r.code, r.stderr)
	}
	if len(s.logs()) != 0 {
		t.Fatal("a log was written with --no-log")
	}
}

func TestUnwritableLogDirIsAnErrorBeforeAnythingRuns(t *testing.T) {
	s := newSandbox(t)
	file := filepath.Join(s.dir, "not-a-dir")
	os.WriteFile(file, nil, 0o600)
	r := s.run("--no-tui", "--log-dir", filepath.Join(file, "logs"), "a topic")
	if r.code != exitUsage || !strings.Contains(r.stderr, "cannot save the debate log in") || !strings.Contains(r.stderr, "--no-log") {
		t.Fatalf("exit %d %q", r.code, r.stderr)
	}
	if len(s.fakes.Calls()) != 0 {
		t.Fatal("the debate started anyway")
	}
}

func TestDoctor(t *testing.T) {
	s := newSandbox(t, "claude", "gemini") // codex and qwen missing
	r := s.run("doctor")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"claude", "✓ ready", "codex", "✗ not installed", "install: npm install -g @openai/codex", "Usable challengers: gemini"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, r.stdout)
		}
	}
	cache, err := os.ReadFile(filepath.Join(s.home, ".cache", "arena", "challengers"))
	if err != nil || !strings.Contains(string(cache), "\ngemini\t# answered --version in ") || !strings.Contains(string(cache), "\n# out: codex: not found on PATH\n") {
		t.Fatalf("cache: %q %v", cache, err)
	}
	// The cache picks the default challengers.
	r = s.run("config")
	if !strings.Contains(r.stdout, "challengers") || !strings.Contains(r.stdout, "doctor cache") {
		t.Fatalf("config:\n%s", r.stdout)
	}

	r = s.run("doctor", "--json")
	var rep struct {
		Ready  bool     `json:"ready"`
		Usable []string `json:"usable_challengers"`
		Checks []struct {
			Agent  string `json:"agent"`
			Usable bool   `json:"usable"`
		} `json:"checks"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || !rep.Ready || len(rep.Usable) != 1 || len(rep.Checks) != 4 {
		t.Fatalf("doctor --json: %v %+v\n%s", err, rep, r.stdout)
	}
	// Its keys are snake_case and its durations seconds (issue 40, point
	// 13: "Name", "In", "Why", and version_took in nanoseconds).
	for _, want := range []string{`"agent": "gemini"`, `"in": true`, `"why": "answered --version in `, `"version_took_seconds": `, `"version_timeout_seconds": 30`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("doctor --json lacks %s:\n%s", want, r.stdout)
		}
	}
	for _, unwanted := range []string{`"Name"`, `"In"`, `"Why"`, `"version_took"`} {
		if strings.Contains(r.stdout, unwanted) {
			t.Errorf("doctor --json has %s:\n%s", unwanted, r.stdout)
		}
	}
}

// A doctor run before any challenger was installed must not make arena
// blind to those installed since (issue 40, point 1): the debate finds
// them, says so and how to refresh the list, and does not exit 4 with
// advice in the wrong order.
func TestDoctorCacheFromBeforeAnInstall(t *testing.T) {
	s := newSandbox(t, "claude")
	if r := s.run("doctor"); r.code == 0 {
		t.Fatalf("doctor with no challenger installed exited 0:\n%s", r.stdout)
	}
	if err := os.Symlink(clitest.Binary(t), s.fakes.Path("gemini")); err != nil {
		t.Fatal(err)
	}
	r := s.run("--no-tui", "--max-rounds", "1", "should we cache?")
	if r.code != 0 {
		t.Fatalf("exit %d after gemini was installed\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "gemini: installed since arena doctor last ran, so taken as a challenger; run `arena doctor` to check it") {
		t.Errorf("the run does not say where gemini came from:\n%s", r.stderr)
	}
	if len(s.fakes.CallsTo("gemini")) == 0 {
		t.Error("gemini was never asked")
	}
}

func TestDoctorNotReady(t *testing.T) {
	s := newSandbox(t, "claude")
	r := s.run("doctor")
	if r.code == 0 || !strings.Contains(r.stdout, "at least ONE external challenger") || !strings.Contains(r.stdout, "npm install -g @google/gemini-cli") {
		t.Fatalf("exit %d\n%s", r.code, r.stdout)
	}
}

func TestDoctorNeverPrintsSecrets(t *testing.T) {
	s := newSandbox(t)
	r := s.runWithEnv([]string{"ANTHROPIC_API_KEY=sk-ant-supersecret", "OPENAI_API_KEY=sk-openai-secret"}, "doctor", "--json")
	if strings.Contains(r.stdout+r.stderr, "supersecret") || strings.Contains(r.stdout+r.stderr, "openai-secret") {
		t.Fatal("doctor printed a credential value")
	}
	if !strings.Contains(r.stdout, `"name": "ANTHROPIC_API_KEY"`) {
		t.Fatalf("doctor does not report the variable's presence:\n%s", r.stdout)
	}
}

func TestConfigShowsSources(t *testing.T) {
	s := newSandbox(t)
	os.MkdirAll(filepath.Join(s.home, ".claude"), 0o700)
	os.WriteFile(filepath.Join(s.home, ".claude", "debate.local.md"), []byte("---\nmax_rounds: 3\n---\n# notes\n"), 0o600)
	cfgDir := filepath.Join(s.home, ".config", "arena")
	os.MkdirAll(cfgDir, 0o700)
	os.WriteFile(filepath.Join(cfgDir, "config.yaml"), []byte("timeout_per_cli: 90\nagents:\n  llama:\n    command: [ollama, run, llama3.2]\n    prompt: stdin\n    env: {OLLAMA_HOST: \"secret-host\"}\n"), 0o600)
	r := s.run("config", "--log-dir", "/tmp/x")
	sc := bufio.NewScanner(strings.NewReader(r.stdout))
	rows := map[string]string{}
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 3 {
			rows[f[0]] = sc.Text()
		}
	}
	for key, want := range map[string]string{
		"max_rounds": "debate.local.md:2", "timeout_per_cli": "config.yaml:1", "debate_log_path": "flag --log-dir", "skeptical_of_early_agreement": "default",
	} {
		if !strings.Contains(rows[key], want) {
			t.Errorf("%s row %q lacks %q", key, rows[key], want)
		}
	}
	if !strings.Contains(r.stdout, "llama") || strings.Contains(r.stdout, "secret-host") {
		t.Fatalf("config output:\n%s", r.stdout)
	}
}

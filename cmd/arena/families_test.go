package main

import (
	"strings"
	"syscall"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
)

// --min-families (and min_families in the config) refuses a run whose
// deciding seats span fewer vendor families, before any call, with exit
// 78 and the families named; so does a judging whose judges are all of
// the author's family.
func TestMinFamiliesRefusesBeforeAnyCall(t *testing.T) {
	s := newSandbox(t)
	// sonnet is Claude through a router: anthropic, as claude is. No call
	// reaches its address.
	s.writeConfig("agents:\n  sonnet: {api: openai, base_url: http://127.0.0.1:9/v1, model: anthropic/claude-sonnet-4.5}\n")
	sol := s.writeSolution(t)
	judgeArgs := []string{"judge", sol, "--task", "REST API for user management", "--criteria", judgeCriteria, "--no-tui"}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"judges of two families", append(judgeArgs, "--judges", "claude,sonnet,gemini", "--min-families", "3"),
			"arena: refused before any call: --min-families 3: the judges span 2 vendor families: anthropic (claude, sonnet), google (gemini)"},
		{"the author's family left out", append(judgeArgs, "--judges", "sonnet,gemini,codex", "--author", "claude", "--min-families", "3"),
			"the judges span 2 vendor families once the author's family is left out (anthropic: sonnet): google (gemini), openai (codex)"},
		{"only the author's family judges", append(judgeArgs, "--judges", "claude,sonnet", "--author", "claude"),
			"arena: refused before any call: no judge of another family than the author's"},
		{"a debate's seats", []string{"--no-tui", "--challengers", "sonnet", "--min-families", "2", "should we shard?"},
			"--min-families 2: the defender and challengers span 1 vendor family: anthropic (claude, sonnet)"},
		{"compare's judge of the author's family", []string{"compare", "--no-tui", "which queue?", "--option", "Kafka", "--option", "NATS", "--author", "claude", "--judge", "sonnet"},
			"no judge of another family than the author's: the judges span 0 vendor families once the author's family is left out (anthropic: sonnet)"},
		{"verdict's judges", []string{"verdict", "--no-tui", sol, "--task-id", "issue-18", "--task", "an API", "--quick-judge", "gemini", "--deep-judge", "claude", "--min-families", "3"},
			"--min-families 3: the judges span 2 vendor families: google (gemini), anthropic (claude)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := s.run(c.args...)
			if r.code != engine.ExitFamilies || !strings.Contains(r.stderr, c.want) {
				t.Fatalf("exit %d, want %d and %q:\n%s", r.code, engine.ExitFamilies, c.want, r.stderr)
			}
		})
	}
	if calls := s.fakes.Calls(); len(calls) > 0 || len(s.logs()) > 0 {
		t.Fatalf("a refused run made %d calls and left %v", len(calls), s.logs())
	}

	// The config's min_families does the same, and --min-families
	// lowers it.
	s.appendConfig("min_families: 3\n")
	r := s.run(append(judgeArgs, "--judges", "claude,gemini", "--dry-run")...)
	if r.code != engine.ExitFamilies || !strings.Contains(r.stderr, "anthropic (claude), google (gemini)") {
		t.Fatalf("min_families: 3 in the config: exit %d\n%s", r.code, r.stderr)
	}
	if r = s.run(append(judgeArgs, "--judges", "claude,gemini", "--dry-run", "--min-families", "2")...); r.code != 0 {
		t.Fatalf("--min-families 2 with two families: exit %d\n%s", r.code, r.stderr)
	}
}

// Every protocol's --help lists exit 78 with its deciding seats.
func TestMinFamiliesExitIsDeclared(t *testing.T) {
	s := newSandbox(t)
	for cmd, seats := range map[string]string{"debate": "the defender and the challengers", "compare": "the judge and the advocates", "judge": "the judges", "verdict": "the judges", "rank": "the dimension judges"} {
		r := s.run(cmd, "--help")
		if want := "78   refused before any call: " + seats + " span fewer vendor families"; !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, "--min-families") {
			t.Errorf("arena %s --help lacks %q or --min-families:\n%s", cmd, want, r.stdout)
		}
	}
}

// arena bench refuses a panel of too few families the same way.
func TestMinFamiliesRefusesABenchPanel(t *testing.T) {
	s := newSandbox(t)
	r := s.run("bench", benchSample(t, "judgebench-sample.jsonl"), "--judges", "claude,gemini", "--min-families", "3")
	if r.code != engine.ExitFamilies || !strings.Contains(r.stderr, "--min-families 3: the judges span 2 vendor families: anthropic (claude), google (gemini)") {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if n := benchCalls(t, s); n > 0 {
		t.Fatalf("%d calls", n)
	}
}

// The log records --min-families, and arena resume holds the run to it
// with the resumer's agents: once codex is configured as an Anthropic
// model, or its seat goes to one (--seat codex=sonnet), the judging's
// three families are two, and the resume is refused.
func TestResumeHoldsMinFamilies(t *testing.T) {
	for _, c := range []struct {
		name, config string
		seat         []string
		want         string
	}{
		{"codex an Anthropic model", "agents:\n  codex: {family: anthropic}\n", nil, "anthropic (claude, codex), google (gemini)"},
		{"codex's seat to one", "agents:\n  sonnet: {api: openai, base_url: http://127.0.0.1:9/v1, model: anthropic/claude-sonnet-4.5}\n", []string{"--seat", "codex=sonnet"}, "anthropic (claude, sonnet), google (gemini)"},
		// By the seat's name (--judges=claude,gemini,codex: codex is Judge
		// 3): codex holds no other seat, so it is gone.
		{"codex's seat by its name", "agents:\n  sonnet: {api: openai, base_url: http://127.0.0.1:9/v1, model: anthropic/claude-sonnet-4.5}\n", []string{"--seat", "Judge 3=sonnet"}, "anthropic (claude, sonnet), google (gemini)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, log := interruptedJudging(t)
			s.writeConfig(c.config)
			r := s.run(append([]string{"resume", "--no-tui", log}, c.seat...)...)
			if r.code != engine.ExitFamilies || !strings.Contains(r.stderr, "--min-families 3: the judges span 2 vendor families: "+c.want) {
				t.Fatalf("resume: exit %d\n%s", r.code, r.stderr)
			}
		})
	}
}

// interruptedJudging is a judging by claude, gemini and codex with
// --min-families 3, interrupted while codex's analysis hangs.
func interruptedJudging(t *testing.T) (*sandbox, string) {
	s := newSandbox(t)
	c := resumeCases[2] // judge: codex's analysis hangs
	s.fakes.SetScript(c.script(&clitest.Step{Mode: clitest.ModeHang}))
	cmd, out := s.start(append(c.setup(s), "--judges", "claude,gemini,codex", "--min-families", "3")...)
	waitForCall(t, s, c.cutAgent, c.cutKind)
	waitForFinished(t, s, c.finished)
	cmd.Process.Signal(syscall.SIGINT)
	if code := exitCodeOf(cmd.Wait()); code != exitInterrupted {
		t.Fatalf("exit %d after SIGINT\n%s", code, out)
	}
	start := s.onlyLog().Events[0].Payload.(engine.DebateStarted)
	if rs := start.Invocation.Settings; rs == nil || rs.MinFamilies == nil || *rs.MinFamilies != 3 {
		t.Fatalf("the log does not record --min-families 3: %+v", start.Invocation.Settings)
	}
	s.fakes.SetScript(nil)
	return s, s.logs()[0]
}

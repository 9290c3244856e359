package main

import (
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
)

// tradeoffInOneRound is fiveRoundScript cut to one round (run it with
// --max-rounds 1): gemini disagrees and maintains, so the debate reaches
// the final questions and the synthesis, with claude's steps in each phase
// replaced by steps.
func tradeoffInOneRound(steps map[string][]clitest.Step) *clitest.Script {
	s := fiveRoundScript()
	claude := s.Agents["claude"]
	for k, v := range steps {
		claude.Steps[k] = v
	}
	s.Agents["claude"] = claude
	return s
}

// TestDefenderFailsInEachPhase: the defender fails (in a different way)
// in each of its phases; it is retried once, then the debate aborts with
// exit 4 and an abort report that says where and why.
func TestDefenderFailsInEachPhase(t *testing.T) {
	cases := []struct {
		kind  string
		step  clitest.Step
		stage string // where the summary says it stopped
		why   string // how it failed
	}{
		{"opening", clitest.Step{Mode: clitest.ModeExit, ExitCode: 1}, "opening position (round 1)", "exited with status 1"},
		{"answer", clitest.Step{Mode: clitest.ModeCrash}, "confrontation (round 1)", "exited with status 2"},
		{"final", clitest.Step{Mode: clitest.ModeErrorInStream}, "assumption extraction (round 1)", "reported an error"},
		{"synthesis", clitest.Step{Mode: clitest.ModeHang}, "assumption extraction (round 1)", "timed out after 2s"},
	}
	for _, tc := range cases {
		t.Run(tc.kind, func(t *testing.T) {
			t.Parallel()
			s := newFaultSandbox(t)
			s.fakes.SetScript(tradeoffInOneRound(map[string][]clitest.Step{tc.kind: {tc.step}}))
			if tc.step.Mode == clitest.ModeHang {
				s.writeConfig(agentTimeout("claude", "2s"))
			}
			r := s.run("--no-tui", "--max-rounds", "1", "should we move sessions from Redis to Postgres?")
			if r.code != exitAborted {
				t.Fatalf("exit %d, want %d\n%s\n%s", r.code, exitAborted, tail(r.stdout, 4000), r.stderr)
			}
			// Two attempts of at most the timeout each, plus the rest.
			if r.took > 2*2*time.Second+loadedMachine {
				t.Errorf("took %v", r.took)
			}
			lc := s.onlyLog()
			o := outcomeOf(t, lc)
			wantSummary := "Aborted: the defender claude failed in " + tc.stage + " after a retry: " + tc.why
			if o.Result != engine.OutcomeAborted || !strings.HasPrefix(o.Summary, wantSummary) {
				t.Fatalf("outcome %s %q, want aborted %q", o.Result, o.Summary, wantSummary)
			}
			// The printed run says the summary once, as its last line.
			for _, want := range []string{"# Debate outcome: aborted", "**" + wantSummary, "**How far it got:** " + tc.stage} {
				if !strings.Contains(o.Markdown, want) || !strings.Contains(r.stdout, strings.TrimPrefix(want, "**")) {
					t.Errorf("the abort report lacks %q:\n%s\n%s", want, o.Markdown, tail(r.stdout, 2000))
				}
			}
			// Tried exactly twice, the first failure announced as retried.
			var fails []engine.AgentFailed
			for _, e := range lc.Events {
				if f, ok := e.Payload.(engine.AgentFailed); ok && f.Agent == "claude" {
					fails = append(fails, f)
				}
			}
			if len(fails) != 2 || !fails[0].WillRetry || fails[1].WillRetry || fails[1].Attempt != 2 {
				t.Fatalf("claude's failures: %+v", fails)
			}
			if n := countKind(s.fakes.CallsTo("claude"), tc.kind); n != 2 {
				t.Errorf("claude was asked for %s %d times, want 2", tc.kind, n)
			}
			assertTerminalSafe(t, "stdout", r.stdout)
			assertNothingLeft(t, s, 5*time.Second)
			assertReplays(t, s, s.logs()[0], wantSummary)
		})
	}
}

func countKind(calls []clitest.Call, kind string) int {
	n := 0
	for _, c := range calls {
		if string(c.Kind) == kind && !c.Repair {
			n++
		}
	}
	return n
}

// TestDefenderRecoversOnRetry: a defender that fails once in a phase and
// succeeds on the retry costs nothing but the retry.
func TestDefenderRecoversOnRetry(t *testing.T) {
	cases := []struct {
		kind string
		step clitest.Step
	}{
		{"opening", clitest.Step{Mode: clitest.ModeCrash}},
		{"synthesis", clitest.Step{Mode: clitest.ModeHang}},
	}
	for _, tc := range cases {
		t.Run(tc.kind, func(t *testing.T) {
			t.Parallel()
			s := newFaultSandbox(t)
			s.fakes.SetScript(tradeoffInOneRound(map[string][]clitest.Step{tc.kind: {tc.step, {}}}))
			if tc.step.Mode == clitest.ModeHang {
				s.writeConfig(agentTimeout("claude", "2s"))
			}
			r := s.run("--no-tui", "--max-rounds", "1", "should we move sessions from Redis to Postgres?")
			if r.code != exitTradeoff {
				t.Fatalf("exit %d, want %d\n%s\n%s", r.code, exitTradeoff, tail(r.stdout, 4000), r.stderr)
			}
			lc := s.onlyLog()
			o := outcomeOf(t, lc)
			if o.Result != engine.OutcomeKind("tradeoff") || len(o.Failures) != 0 {
				t.Fatalf("outcome %s, failures %q", o.Result, o.Failures)
			}
			var failed, finished bool
			for _, e := range lc.Events {
				switch p := e.Payload.(type) {
				case engine.AgentFailed:
					failed = failed || p.Agent == "claude" && string(p.Task) == tc.kind && p.Attempt == 1 && p.WillRetry
				case engine.AgentFinished:
					finished = finished || p.Agent == "claude" && string(p.Task) == tc.kind && p.Attempt == 2 && !p.Unparseable
				}
			}
			if !failed || !finished {
				t.Fatalf("the log does not show a failed first attempt (%v) and a good retry (%v)", failed, finished)
			}
			if !strings.Contains(r.stdout, "— retrying") {
				t.Error("the output does not say the defender is retried")
			}
			assertNothingLeft(t, s, 5*time.Second)
			assertReplays(t, s, s.logs()[0], o.Summary)
		})
	}
}

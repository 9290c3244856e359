package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine/demo"
	"github.com/arenadebate/arena/engine/enginetest"
	"github.com/arenadebate/arena/engine/judge"
)

// The judge demo: three judges disagree on security, codex crashes in
// the first debate round and succeeds on its retry, and the panel reaches
// consensus after two debate rounds.
func init() {
	demoRuns["judge"] = func(s *sandbox) ([]string, int) {
		sol := s.writeSolution(s.t)
		moved := `[{"criterion": "security", "from": 2, "to": 3, "reason": "Judge 3 points out the email check is the only untrusted input on this path", "evidence": ["if !validEmail(u.Email) {"]}]`
		slow := func(steps map[string][]clitest.Step) clitest.AgentScript {
			return clitest.AgentScript{DelayMS: 60, Chunks: 30, Steps: steps}
		}
		s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
			"gemini": slow(map[string][]clitest.Step{
				"judge.analysis": {judgeAnalysis(4, 2)},
				"judge.debate":   {judgeDebate(false, 4, 3, moved), judgeDebate(true, 4, 3, "")},
			}),
			"codex": slow(map[string][]clitest.Step{
				"judge.analysis": {judgeAnalysis(4, 5)},
				"judge.debate": {{Mode: clitest.ModeCrash}, judgeDebate(false, 4, 5, ""),
					judgeDebate(true, 4, 4, `[{"criterion": "security", "from": 5, "to": 4, "reason": "nothing checks that the caller may create users", "evidence": ["return store.Put(u)"]}]`)},
			}),
			"qwen": slow(map[string][]clitest.Step{
				"judge.analysis": {judgeAnalysis(4, 4)},
				"judge.debate":   {judgeDebate(true, 4, 4, "")},
			}),
		}})
		return []string{"judge", sol, "--task", "REST API for user management", "--criteria", judgeCriteria,
			"--reports-dir", ".specs/reports", "--timeout", "8s", "--no-tui"}, exitOK
	}
}

func TestJudgeDemo(t *testing.T) {
	lc, err := demo.Read("judge")
	if err != nil {
		t.Fatal(err)
	}
	o := enginetest.Outcome(t, lc)
	if o.Result != judge.OutcomeConsensus || o.Rounds != 2 || len(o.Failures) != 0 || !strings.Contains(o.Markdown, "Judge 2 (codex)") {
		t.Fatalf("outcome %s after %d, failures %q", o.Result, o.Rounds, o.Failures)
	}
	if !slices.Contains(demo.Protocols(), "judge") {
		t.Fatal("the judge demo is not bundled")
	}
}

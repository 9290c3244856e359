package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine/demo"
	"github.com/arenadebate/arena/engine/enginetest"
	"github.com/arenadebate/arena/engine/rank"
)

// The recorded rank demo: two real repositories, every phase, a fact seat
// that reports a test count and a file the measurements contradict, and a
// security judge that crashes once and answers on its retry.
func init() {
	demoRuns["rank"] = func(s *sandbox) ([]string, int) {
		root := s.t.TempDir()
		a := rankRepo(s.t, root, "claude-impl", passingTests)
		b := rankRepo(s.t, root, "codex-impl", failingTests)
		if err := os.WriteFile(filepath.Join(s.dir, "spec.md"), []byte("# Spec\n\nA Go package with Add(a, b int) int, tested.\n"), 0o644); err != nil {
			s.t.Fatal(err)
		}
		raw := func(j string) clitest.Step { return clitest.Step{Reply: json.RawMessage(j), Fence: true} }
		slow := clitest.AgentScript{DelayMS: 60, Chunks: 24}
		claude, gemini, codex, qwen := slow, slow, slow, slow
		gemini.Steps = map[string][]clitest.Step{"rank.facts": {raw(`{"functionality": {"spec_requirements": ["Add(a, b int) int", "tests"], "implemented": ["Add(a, b int) int", "tests"], "missing": []},
 "security": {"findings": [{"file": "add.go", "line": 4, "issue": "no overflow check on int addition"}, {"file": "internal/auth.go", "line": 12, "issue": "token compared with =="}], "patterns_observed": ["no input from outside the process"]},
 "tests": {"coverage_estimate": "high", "dry_violations": [], "test_count": 12, "mocking_approach": "no mocks"},
 "overengineering": {"abstractions": [], "defensive_code": [], "config_complexity": "low"},
 "dead_code": {"unused_imports": [], "unused_functions": [], "todo_comments": 0, "commented_code_blocks": 0}}`)}}
		qwen.Steps = map[string][]clitest.Step{"rank.judge": {{Mode: clitest.ModeCrash}, {}}}
		s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"claude": claude, "gemini": gemini, "codex": codex, "qwen": qwen}})
		return []string{"rank", "--no-tui", "--seed", "2026", "--run-tests", "--labels", "Claude,Codex", "spec.md", a, b}, exitOK
	}
}

func TestRankDemo(t *testing.T) {
	lc, err := demo.Read("rank")
	if err != nil {
		t.Fatal(err)
	}
	o := enginetest.Outcome(t, lc)
	if o.Result != rank.OutcomeRanked && o.Result != rank.OutcomeTie {
		t.Fatalf("outcome %s", o.Result)
	}
	for _, want := range []string{"## Fact checks", "internal/auth.go: no such file", "running them counted"} {
		if !strings.Contains(o.Markdown, want) {
			t.Errorf("the demo's outcome lacks %q", want)
		}
	}
}

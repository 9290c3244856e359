package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine/compare"
	"github.com/arenadebate/arena/engine/demo"
	"github.com/arenadebate/arena/engine/enginetest"
)

// The compare demo: the judge proposes criteria, gemini and codex argue
// for Kafka and Postgres, codex hangs on its rebuttal and qwen takes its
// seat, and the judge reads twice.
func init() {
	demoRuns["compare"] = func(s *sandbox) ([]string, int) {
		slow := clitest.AgentScript{DelayMS: 60, Chunks: 30}
		codex := slow
		codex.Steps = map[string][]clitest.Step{compare.ShapeRebuttal: {{Mode: clitest.ModeHang}}}
		s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
			"claude": slow, "gemini": slow, "codex": codex, "qwen": slow,
		}})
		s.writeConfig("agents:\n  codex: {timeout: 4s}\n")
		return []string{"compare", "--no-tui", "--timeout", "30s", "Which queue should carry our order events?",
			"--option", "Kafka", "--option", "Postgres LISTEN/NOTIFY",
			"--advocates", "gemini,codex", "--judge", "claude"}, exitOK
	}
}

func TestCompareDemo(t *testing.T) {
	lc, err := demo.Read("compare")
	if err != nil {
		t.Fatal(err)
	}
	o := enginetest.Outcome(t, lc)
	if o.Result != compare.OutcomeRecommendation || !slices.ContainsFunc(o.Failures, func(f string) bool { return strings.Contains(f, "codex") }) {
		t.Fatalf("outcome %s %q", o.Result, o.Failures)
	}
}

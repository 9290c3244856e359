package main

import (
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
)

// The live screen of arena verdict: the judges' panes stream, the
// scorecard and the verdict appear, q leaves with the summary and the
// decision's exit code.
func TestVerdictLiveScreenInTmux(t *testing.T) {
	s := newVerdictSandbox(t)
	sc := judges(map[string]map[string][]clitest.Step{"gemini": {"verdict.quick": {jImprove}}, "claude": {"verdict.deep": {jReject}}})
	for _, n := range []string{"gemini", "claude"} {
		a := sc.Agents[n]
		a.DelayMS, a.Chunks = 40, 20
		sc.Agents[n] = a
	}
	// The judges are asked one after the other; each holds its reply
	// before the last piece until the test has seen its pane.
	holding(sc, "verdict.quick", "quick", "gemini")
	s.fakes.SetScript(holding(sc, "verdict.deep", "deep", "claude"))
	ts := s.startTmux(120, 40, nil, "verdict", "report.md", "--task-id", "issue-18")
	ts.waitFor("the quick judge's pane streaming", 60*time.Second, func(sc string) bool {
		return strings.Contains(sc, "gemini · quick judge") && strings.Contains(sc, "claude · deep judge") &&
			strings.Contains(sc, "Reasoning: scored improve")
	})
	s.fakes.Release("quick")
	ts.waitFor("the deep judge's pane streaming", 60*time.Second, func(sc string) bool {
		return strings.Contains(sc, "Reasoning: scored improve") && strings.Contains(sc, "Reasoning: scored reject")
	})
	s.fakes.Release("deep")
	// The findings' introduction is in the outcome document only (and
	// above its fold on this screen); the panes also read "Verdict:
	// REJECT".
	out := ts.waitText("where in the work they quoted", 60*time.Second)
	if !strings.Contains(out, "REJECT") {
		t.Fatalf("outcome view:\n%s", out)
	}
	if code := ts.quitDone(30 * time.Second); code != "5" {
		t.Fatalf("exit %s\n%s", code, ts.scrollback())
	}
	if back := ts.scrollback(); !strings.Contains(back, "issue-18: REJECT") || !strings.Contains(back, "arena replay") {
		t.Fatalf("no summary after the screen closed:\n%s", back)
	}
}

func TestVerdictDemoPlaysInTmux(t *testing.T) {
	s := newSandbox(t)
	ts := s.startTmux(120, 40, nil, "demo", "verdict", "--speed", "50")
	ts.waitText("REPLAY", 10*time.Second)
	screen := ts.waitText("Verdict: REJECT", 60*time.Second)
	if !strings.Contains(screen, "REJECT") {
		t.Fatalf("%s", screen)
	}
	ts.keys("q")
	if code := ts.exitCode(10 * time.Second); code != "0" {
		t.Fatalf("exit %s", code)
	}
}

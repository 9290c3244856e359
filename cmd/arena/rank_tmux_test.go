package main

import (
	"strings"
	"testing"
	"time"
)

// The live screen of arena rank, in tmux: the fact panes stream, then the
// judge panes, then the outcome with the scores.
func TestRankLiveScreenInTmux(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	spec, repos := rankSetup(t, s, "alpha", "beta")
	// claude and gemini gather the facts; claude, gemini and qwen judge
	// as they write (codex's CLI prints whole messages). Each phase's
	// streaming seats hold before their last piece until the test has
	// seen their panes.
	sc := holding(streamingScript(), "rank.facts", "facts", "claude", "gemini")
	s.fakes.SetScript(holding(sc, "rank.judge", "judges", "claude", "gemini", "qwen"))
	ts := s.startTmux(140, 45, nil, "rank", spec, repos[0], repos[1], "--seed", "9")

	// Every seat's pane is there from the start: the fact panes show
	// their streamed facts ("Overengineering:" heads a section of each).
	screen := ts.waitFor("the fact panes streaming", 60*time.Second, func(sc string) bool {
		return strings.Contains(sc, "facts: alpha") && strings.Contains(sc, "facts: beta") && strings.Count(sc, "Overengineering:") >= 2
	})
	if strings.Contains(screen, "Traceback") || strings.Contains(screen, "panic") {
		t.Fatalf("screen:\n%s", screen)
	}
	if strings.Contains(screen, "Ranking:") {
		t.Fatalf("a judge wrote before the facts were in:\n%s", screen)
	}
	s.fakes.Release("facts")
	// The judges' panes: the six that stream show their rankings while
	// the judging phase goes on.
	ts.waitFor("the judge panes streaming", 60*time.Second, func(sc string) bool {
		return strings.Contains(sc, "functionality judge") && strings.Contains(sc, "security judge") &&
			strings.Contains(sc, "● Dimension judges") && strings.Count(sc, "Ranking:") >= 6
	})
	s.fakes.Release("judges")
	out := ts.waitText("Ranking: alpha first", 90*time.Second)
	if !strings.Contains(out, "Scores") {
		t.Fatalf("the outcome view shows no scores:\n%s", out)
	}
	if code := ts.quitDone(30 * time.Second); code != "0" {
		t.Fatalf("exit %s\n%s", code, ts.scrollback())
	}
	back := ts.scrollback()
	if !strings.Contains(back, "ranks first") || !strings.Contains(back, "JSON report:") {
		t.Fatalf("no account after the screen closed:\n%s", back)
	}
}

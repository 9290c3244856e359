package main

import (
	"strings"
	"testing"
	"time"
)

// The live screen of arena rank, in tmux: the fact panes stream, then the
// judge panes, then the outcome with the scores.
func TestRankLiveScreenInTmux(t *testing.T) {
	s := newSandbox(t)
	spec, repos := rankSetup(t, s, "alpha", "beta")
	s.fakes.SetScript(streamingScript())
	ts := s.startTmux(140, 45, nil, "rank", spec, repos[0], repos[1], "--seed", "9")

	screen := ts.waitFor("the fact panes streaming", 30*time.Second, func(sc string) bool {
		return strings.Contains(sc, "facts: alpha") && strings.Contains(sc, "facts: beta") && strings.Contains(sc, "Fact")
	})
	if strings.Contains(screen, "Traceback") || strings.Contains(screen, "panic") {
		t.Fatalf("screen:\n%s", screen)
	}
	ts.waitFor("the judge panes", 60*time.Second, func(sc string) bool {
		return strings.Contains(sc, "functionality judge") && strings.Contains(sc, "security judge")
	})
	out := ts.waitText("Ranking: ranked", 90*time.Second)
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

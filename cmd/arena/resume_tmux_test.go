package main

import (
	"os"
	"strings"
	"testing"
	"time"
)

// The live screen of a resumed run first shows the earlier part at once,
// marked where it resumed, then goes on live; the log then replays whole.
func TestResumeOnTheLiveScreenInTmux(t *testing.T) {
	s, log := interruptedDebate(t)
	// qwen, whose critique was cut off, is asked again and holds, before
	// it writes anything, until the test has seen the resumed screen.
	sc := holding(streamingScript(), "critique", "resumed", "qwen")
	sc.Agents["qwen"].Steps["critique"][0].Chunks = 1
	s.fakes.SetScript(sc)
	ts := s.startTmux(120, 40, nil, "resume", log)
	// What it will run is shown first, and the person says yes.
	prompt := ts.waitText("Resume it? [Y/n]", 30*time.Second)
	if !strings.Contains(prompt, "seats:") || !strings.Contains(prompt, "schema.sql") || !strings.Contains(prompt, "written by arena on this machine") {
		t.Fatalf("the plan before the prompt:\n%s", prompt)
	}
	ts.keys("Enter")
	screen := ts.waitFor("the resumed marker while the run goes on", 60*time.Second, func(sc string) bool {
		return strings.Contains(sc, "↻ resumed from Parallel challenge (round 1)") && strings.Contains(sc, "left")
	})
	// The earlier replies are on screen at once: gemini's and codex's
	// critiques (the defender's position says "Assumptions:", and qwen,
	// cut off before, has not written its own again yet). Which
	// lines of a critique a pane shows depends on where it has scrolled
	// to, so the test looks for a heading every critique has.
	if strings.Count(screen, "Assumptions challenged:") < 2 {
		t.Fatalf("the earlier part is not on screen:\n%s", screen)
	}
	s.fakes.Release("resumed")
	ts.waitText("Debate outcome: consensus", 60*time.Second)
	ts.keys("q")
	if code := ts.exitCode(10 * time.Second); code != "0" {
		t.Fatalf("exit %s\n%s", code, ts.scrollback())
	}
	if back := ts.scrollback(); !strings.Contains(back, "(resumed: 3 replies reused)") {
		t.Fatalf("the account left behind does not say what was reused:\n%s", back)
	}

	// The whole log replays, start to end: the first run, the gap, the rest.
	rp := s.startTmux(120, 40, nil, "replay", "--instant", log)
	rp.waitText("Debate outcome: consensus", 30*time.Second)
	rp.keys("q")
	if code := rp.exitCode(10 * time.Second); code != "0" {
		t.Fatalf("replay exit %s\n%s", code, rp.scrollback())
	}
}

// On a terminal, a log arena did not sign here is shown and asked about,
// with no as the answer Enter gives: nothing runs, the log is unchanged.
func TestResumeAsksAboutAnUnsignedLogInTmux(t *testing.T) {
	s, log := interruptedDebate(t)
	rewriteStart(t, log, func(d map[string]any) { delete(d["invocation"].(map[string]any), "mac") })
	before, _ := os.ReadFile(log)
	calls := len(s.fakes.Calls())
	ts := s.startTmux(120, 40, nil, "resume", log)
	prompt := ts.waitText("Resume it anyway? [y/N]", 30*time.Second)
	if !strings.Contains(prompt, "NOT written by arena on this machine") || !strings.Contains(prompt, "schema.sql") {
		t.Fatalf("the plan before the prompt:\n%s", prompt)
	}
	ts.keys("Enter")
	if code := ts.exitCode(10 * time.Second); code != "0" {
		t.Fatalf("exit %s\n%s", code, ts.scrollback())
	}
	if after, _ := os.ReadFile(log); string(after) != string(before) {
		t.Fatal("a resume answered no changed the log")
	}
	if len(s.fakes.Calls()) != calls {
		t.Fatal("a resume answered no asked a model")
	}
}

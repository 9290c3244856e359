package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
)

// A reply the earlier run left half written reads, once the run is
// resumed, as it read while it streamed: its fields as words, never the
// raw JSON the model wrote (issue 40, item 6; docs/usage.md promises it).
func TestAResumedScreenShowsACutReplyAsWordsInTmux(t *testing.T) {
	t.Parallel()
	needTmux(t)
	s := newSandbox(t)
	if err := os.WriteFile(filepath.Join(s.dir, "schema.sql"), []byte(schemaSQL), 0o600); err != nil {
		t.Fatal(err)
	}
	// qwen's critique stops after its first third, a piece of JSON; the
	// person stops the run once that piece is on the screen.
	c := resumeCases[0]
	s.fakes.SetScript(c.script(&clitest.Step{Mode: clitest.ModeHang, Chunks: 3}))
	first := s.startTmux(120, 40, nil, "--context", "schema.sql", "should we move sessions?")
	first.waitText("Qwen agrees", 60*time.Second)
	first.keys("q")
	first.waitText("Stop the debate?", 30*time.Second)
	first.keys("y")
	if code := first.exitCode(30 * time.Second); code != fmt.Sprint(exitInterrupted) {
		t.Fatalf("exit %s after stopping\n%s", code, first.scrollback())
	}
	log := s.logs()[0]

	// Asked again, qwen holds before it writes anything until the test
	// has looked at its pane.
	sc := holding(streamingScript(), "critique", "resumed", "qwen")
	sc.Agents["qwen"].Steps["critique"][0].Chunks = 1
	s.fakes.SetScript(sc)
	ts := s.startTmux(120, 40, nil, "resume", log)
	ts.waitText("Resume it? [Y/n]", 30*time.Second)
	ts.keys("Enter")
	ts.waitText("↻ resumed from", 60*time.Second)
	ts.keys("Tab", "Tab", "Tab", "Enter") // qwen's pane, zoomed
	screen := ts.waitFor("qwen's pane, zoomed, with its cut-off critique", 30*time.Second, func(sc string) bool {
		return strings.Contains(sc, "━ qwen") && strings.Contains(sc, "cut off: asked again")
	})
	if !strings.Contains(screen, "Qwen agrees with the goal") {
		t.Errorf("the cut-off critique's words are not in qwen's pane:\n%s", screen)
	}
	for _, raw := range []string{`"verdict"`, `"critique"`, `{"`} {
		if strings.Contains(screen, raw) {
			t.Errorf("qwen's pane shows raw JSON (%s):\n%s", raw, screen)
		}
	}
	s.fakes.Release("resumed")
	ts.waitText("Debate outcome: consensus", 60*time.Second)
	ts.keys("q")
	if code := ts.exitCode(10 * time.Second); code != "0" {
		t.Fatalf("exit %s\n%s", code, ts.scrollback())
	}
}

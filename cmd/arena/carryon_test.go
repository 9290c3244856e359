package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
)

// TestAnInterruptedRunSaysHowToCarryOn: Ctrl+C on a headless run ends
// with the command that carries it on, and the outcome document says it
// too (issue 32, point 3); once resumed, the document named after the log
// is the final one, the interrupted text kept inside it, with no -2.md
// beside it (point 4).
func TestAnInterruptedRunSaysHowToCarryOn(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"codex": {Mode: clitest.ModeHang}}})
	cmd, out := s.start("--no-tui", "--max-rounds", "1", "should we move sessions to Postgres?")
	waitForCalls(t, s, 4)
	cmd.Process.Signal(syscall.SIGINT)
	if code := exitCodeOf(cmd.Wait()); code != exitInterrupted {
		t.Fatalf("exit %d\n%s", code, out)
	}
	log := s.logs()[0]
	rel, _ := filepath.Rel(s.dir, log)
	want := "arena resume " + rel
	if !strings.Contains(out.String(), "carry on with "+want) {
		t.Fatalf("the printed run does not say %q:\n%s", want, tail(out.String(), 1500))
	}
	doc := strings.TrimSuffix(log, ".jsonl") + ".md"
	if b, _ := os.ReadFile(doc); !strings.Contains(string(b), "`"+want+"`") {
		t.Fatalf("the document does not say %q:\n%s", want, b)
	}

	s.fakes.SetScript(nil)
	if r := s.run("resume", "--no-tui", log); r.code != exitConsensus {
		t.Fatalf("resume: exit %d\n%s\n%s", r.code, tail(r.stdout, 1500), r.stderr)
	}
	b, _ := os.ReadFile(doc)
	got := string(b)
	if o := outcomeOf(t, s.onlyLog()); !strings.HasPrefix(got, o.Markdown) || o.Result != engine.OutcomeKind("consensus") {
		t.Fatalf("the document named after the log is not the final outcome (%s):\n%s", o.Result, tail(got, 1500))
	}
	if !strings.Contains(got, "## Before the resume") || !strings.Contains(got, "interrupted") {
		t.Fatalf("the interrupted text is not kept as history:\n%s", got)
	}
	if others, _ := filepath.Glob(filepath.Join(s.dir, "debate-logs", "*-2.md")); len(others) != 0 {
		t.Fatalf("a second document beside it: %v", others)
	}
}

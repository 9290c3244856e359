package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
)

// Issue 36, item 11: a log deleted during its run, and its name taken by
// another file meanwhile, is written again beside it (-2.jsonl), and
// everything that names the run's log names that file: the closing line,
// the outcome, the document beside it and the Saved event, arena mcp's
// results. It used to name the other file as the log.

// heldDebate scripts the challengers to hold their critique until
// released ("go").
func heldDebate(s *sandbox) {
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
		"gemini": {Hold: "go"}, "codex": {Hold: "go"}, "qwen": {Hold: "go"},
	}})
}

// takeTheLogsName deletes the log at log and puts another file in its
// place, returning what that file holds.
func takeTheLogsName(t *testing.T, log string) string {
	t.Helper()
	const foreign = "someone else's file\n"
	if err := os.Remove(log); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(log, []byte(foreign), 0o600); err != nil {
		t.Fatal(err)
	}
	return foreign
}

// movedLog checks the run's log was written again at the -2 name, its
// outcome and document naming it, and the file that took its name left
// alone; it returns the -2 log's path.
func movedLog(t *testing.T, log, foreign string) string {
	t.Helper()
	if b, _ := os.ReadFile(log); string(b) != foreign {
		t.Fatalf("the file that took the log's name was written: %q", b)
	}
	moved := strings.TrimSuffix(log, ".jsonl") + "-2.jsonl"
	lc := mustRead(t, moved)
	o := outcomeOf(t, lc)
	if !lc.Complete || filepath.Base(o.LogPath) != filepath.Base(moved) {
		t.Fatalf("the log written again: complete %v, its outcome names %q", lc.Complete, o.LogPath)
	}
	if doc := latestDocument(lc); filepath.Base(doc) != filepath.Base(engine.DocumentPath(moved)) {
		t.Errorf("the outcome document is saved as %s, not beside the log it belongs to", doc)
	}
	return moved
}

func TestTheClosingLineNamesTheLogArenaWrote(t *testing.T) {
	t.Parallel()
	s := newFaultSandbox(t)
	heldDebate(s)
	cmd, out := s.start("--no-tui", "a topic")
	waitForCall(t, s, "gemini", "critique")
	logs := s.logs()
	if len(logs) != 1 {
		t.Fatalf("logs %v", logs)
	}
	foreign := takeTheLogsName(t, logs[0])
	s.fakes.Release("go")
	if code := exitCodeOf(cmd.Wait()); code != exitConsensus {
		t.Fatalf("exit %d\n%s", code, tail(out.String(), 2000))
	}
	moved := movedLog(t, logs[0], foreign)
	rel := "debate-logs/" + filepath.Base(moved)
	if want := "Log of this debate: " + rel + "  (arena replay " + rel + ")"; !strings.Contains(out.String(), want) {
		t.Errorf("the closing line does not name %s:\n%s", rel, tail(out.String(), 1500))
	}
	if strings.Contains(out.String(), "Log of this debate: debate-logs/"+filepath.Base(logs[0])) {
		t.Errorf("the closing line names the other file as the log:\n%s", tail(out.String(), 1500))
	}
	if want := "arena wrote it again, with every event, at " + rel; !strings.Contains(out.String(), want) {
		t.Errorf("arena does not say it wrote the log again:\n%s", tail(out.String(), 1500))
	}
}

func TestMCPNamesTheLogArenaWrote(t *testing.T) {
	t.Parallel()
	s := newFaultSandbox(t)
	heldDebate(s)
	ms := s.mcp("arena-test")
	ctx := bg(t)
	res, st := ms.call(ctx, "debate", map[string]any{"topic": "a topic", "wait_seconds": 0})
	if res.IsError || st.State != "running" {
		t.Fatalf("%s\n%+v", textOf(res), st)
	}
	waitForCall(t, s, "gemini", "critique")
	log := st.LogPath
	foreign := takeTheLogsName(t, log)
	s.fakes.Release("go")
	for st.State != "finished" {
		if res, st = ms.call(ctx, "run_status", map[string]any{"run_id": st.RunID, "wait_seconds": 5}); res.IsError {
			t.Fatalf("run_status: %s", textOf(res))
		}
	}
	moved := movedLog(t, log, foreign)
	if st.LogPath != moved || st.Outcome == nil || st.Outcome.Document != engine.DocumentPath(moved) {
		t.Fatalf("run_status names the log %s and the document %+v, not %s", st.LogPath, st.Outcome, moved)
	}
	if !strings.Contains(textOf(res), filepath.Base(moved)) {
		t.Errorf("the result's text does not name %s:\n%s", moved, textOf(res))
	}
}

package stats

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/inputs"
	"github.com/arenadebate/arena/engine/runlog"
)

// writeLog writes events as a log named name in dir, numbered from 1.
func writeLog(t *testing.T, dir, name string, start time.Time, ps ...engine.Payload) string {
	t.Helper()
	w, err := runlog.Create(dir, name)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		w.Handle(engine.Event{Seq: int64(i + 1), Time: start.Add(time.Duration(i) * time.Second), Payload: p})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w.Path()
}

func started(protocol string) engine.DebateStarted {
	return engine.DebateStarted{Version: engine.LogVersion, ID: "x", Protocol: protocol, Title: "t", Topic: "t"}
}

func TestReadTakesWhatStatsNeedAndSkipsWhatIsNotALog(t *testing.T) {
	dir := t.TempDir()
	day := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	call := engine.CallInfo{Seat: "judge", Agent: "claude\x1b]0;PWNED\x07", Task: "judge", Attempt: 1}
	repair := call
	repair.Attempt = 2
	writeLog(t, dir, "a.jsonl", day,
		started("compare"),
		engine.AgentStarted{CallInfo: call},
		engine.AgentFinished{CallInfo: call, Unparseable: true, Duration: engine.Duration(2 * time.Second)},
		engine.AgentStarted{CallInfo: repair},
		engine.AgentFinished{CallInfo: repair, Duration: engine.Duration(3 * time.Second), Usage: &challengers.Usage{InputTokens: 5}},
		engine.AgentFinished{CallInfo: call, Reused: true},
		engine.AgentFailed{CallInfo: engine.CallInfo{Seat: "for A", Agent: "gemini"}, Reason: challengers.ReasonTimeout},
		engine.Scored{Agent: "claude", Judgement: "q", Candidates: []engine.Candidate{{ID: "A"}, {ID: "B"}}},
		engine.ModeratorNote{Text: "Verdict: winner b, score 4"},
		engine.Outcome{Result: "recommendation"},
	)
	writeLog(t, dir, "b.jsonl", day.AddDate(0, 0, -10), started("rank"), engine.Outcome{Result: "ranked"},
		engine.Label{By: "person", Winner: "alpha"})
	os.WriteFile(filepath.Join(dir, "verdicts.jsonl"), []byte(`{"task_id":"x"}`+"\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "junk.jsonl"), []byte("\x00\x01 not json\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("ignored"), 0o600)

	runs, logs, skipped, err := Read([]string{dir}, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if logs != 2 || len(runs) != 2 || len(skipped) != 2 {
		t.Fatalf("logs %d runs %d skipped %+v", logs, len(runs), skipped)
	}
	for _, s := range skipped {
		if !strings.Contains(s.Why, "not an arena debate log") {
			t.Fatalf("skipped %+v", s)
		}
	}
	r := runs[1] // oldest first
	if r.Protocol != "compare" || len(r.Calls) != 3 || !r.Calls[0].Unparseable || !r.Calls[1].Repair || r.Calls[2].Failed != challengers.ReasonTimeout {
		t.Fatalf("calls %+v", r.Calls)
	}
	if strings.ContainsAny(r.Calls[0].Agent, "\x1b\x07") {
		t.Fatalf("an escape reached the figures: %q", r.Calls[0].Agent)
	}
	if r.Label == nil || r.Label.By != "moderator" || r.Label.Winner != "b" || *r.Label.Score != 4 {
		t.Fatalf("label %+v", r.Label)
	}
	if got := r.Candidates(); len(got) != 2 || got[0] != "A" {
		t.Fatalf("candidates %q", got)
	}
	if runs[0].Label == nil || runs[0].Label.Winner != "alpha" {
		t.Fatalf("label %+v", runs[0].Label)
	}
	// Filters.
	runs, _, _, _ = Read([]string{dir}, Filter{Since: day.AddDate(0, 0, -1)})
	if len(runs) != 1 || runs[0].Protocol != "compare" {
		t.Fatalf("since: %d runs", len(runs))
	}
	runs, _, _, _ = Read([]string{dir}, Filter{Protocols: []string{"rank"}})
	if len(runs) != 1 || runs[0].Protocol != "rank" {
		t.Fatalf("protocol: %d runs", len(runs))
	}
	if _, _, _, err := Read([]string{filepath.Join(dir, "missing")}, Filter{}); !errors.Is(err, ErrNoSuchPath) {
		t.Fatalf("missing: %v", err)
	}
}

func TestParseLabel(t *testing.T) {
	l, err := ParseLabel("winner Alpha, score 4.5, accept", []string{"alpha", "beta"})
	if err != nil || l.Winner != "alpha" || *l.Score != 4.5 || l.Verdict != "accept" {
		t.Fatalf("%+v %v", l, err)
	}
	for in, want := range map[string]string{
		"winner gamma": `winner "gamma" is not one of the run's candidates (alpha, beta)`,
		"score 9":      `score "9": give a number from 1 to 5`,
		"maybe":        `"maybe" is not a verdict`,
		"":             "no verdict given",
	} {
		if _, err := ParseLabel(in, []string{"alpha", "beta"}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
	if _, err := ParseLabel("winner x", nil); err == nil || !strings.Contains(err.Error(), "no candidates") {
		t.Fatalf("%v", err)
	}
	if _, ok := ModeratorLabel("assume no DBA"); ok {
		t.Fatal("a plain note is not a verdict")
	}
	if l, ok := ModeratorLabel("verdict: reject"); !ok || l.Verdict != "reject" || l.By != "moderator" {
		t.Fatalf("%+v", l)
	}
	if _, ok := ModeratorLabel("verdict: it is complicated"); ok {
		t.Fatal("an unreadable verdict counts as none")
	}
}

// A log named on its own must be one: a FIFO, or a file that is not a
// log, is an error naming it (and a FIFO is never opened for reading, so
// nothing waits for a writer). In a directory both are skipped.
func TestReadRefusesANamedFileThatIsNotALog(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	other := filepath.Join(dir, "notes.jsonl")
	if err := os.WriteFile(other, []byte("not a log\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, other} {
		if _, _, _, err := Read([]string{p}, Filter{}); err == nil || !strings.HasPrefix(err.Error(), p+": ") {
			t.Errorf("Read(%s): %v, want an error naming it", p, err)
		}
	}
	_, logs, skipped, err := Read([]string{dir}, Filter{})
	if err != nil || logs != 0 || len(skipped) != 2 {
		t.Fatalf("Read(dir): %d logs, skipped %v, %v", logs, skipped, err)
	}
}

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"7d":                   now.AddDate(0, 0, -7),
		"36h":                  now.Add(-36 * time.Hour),
		"2026-03-01T00:00:00Z": time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC),
	} {
		if got, err := ParseSince(in, now); err != nil || !got.Equal(want) {
			t.Errorf("%s: %v %v", in, got, err)
		}
	}
	if got, err := ParseSince("2026-03-01", now); err != nil || got.Format(time.DateOnly) != "2026-03-01" {
		t.Errorf("a date: %v %v", got, err)
	}
	for _, bad := range []string{"yesterday", "-3d", "", "7x"} {
		if _, err := ParseSince(bad, now); !errors.Is(err, inputs.ErrInput) {
			t.Errorf("%q was accepted", bad)
		}
	}
}

// A directory's logs are read beneath it (issue 36, item 3): a link among
// them, to a log elsewhere, is named and not read; a log named on its own
// is the person's, link or not.
func TestReadFollowsNoLinkInADirectoryOfLogs(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	day := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	writeLog(t, dir, "own.jsonl", day, started("compare"), engine.Outcome{Result: "recommendation"})
	outside := writeLog(t, elsewhere, "outside.jsonl", day, started("rank"), engine.Outcome{Result: "ranked"})
	if err := os.Symlink(outside, filepath.Join(dir, "linked.jsonl")); err != nil {
		t.Fatal(err)
	}
	runs, logs, skipped, err := Read([]string{dir}, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if logs != 1 || len(runs) != 1 || runs[0].Protocol != "compare" {
		t.Fatalf("logs %d runs %+v", logs, runs)
	}
	if len(skipped) != 1 || !strings.HasSuffix(skipped[0].Path, "linked.jsonl") || !strings.Contains(skipped[0].Why, "is a symbolic link, not followed") {
		t.Fatalf("skipped %+v", skipped)
	}
	if runs, _, _, err := Read([]string{filepath.Join(dir, "linked.jsonl")}, Filter{}); err != nil || len(runs) != 1 || runs[0].Protocol != "rank" {
		t.Fatalf("a log named through a link: %+v %v", runs, err)
	}
}

// A verdict run's judges' parsed judgements and its decision are read;
// a judgement whose scores are off the 1–5 scale (a hand-edited log) is
// left out, and a later reply of a seat replaces its earlier one.
func TestReadTakesAVerdictRunsJudgements(t *testing.T) {
	dir := t.TempDir()
	quick := engine.CallInfo{Seat: "quick", Agent: "gemini", Task: "judge", Attempt: 1}
	deep := engine.CallInfo{Seat: "deep", Agent: "claude", Task: "judge", Attempt: 1}
	path := writeLog(t, dir, "v.jsonl", time.Now(),
		started("verdict"),
		engine.AgentFinished{CallInfo: quick, Reply: []byte(`{"verdict":"improve","scores":{"semantic":3,"pragmatic":2,"syntactic":9},"improvements":[]}`)},
		engine.AgentFinished{CallInfo: deep, Reply: []byte(`{"verdict":"improve","scores":{"semantic":3,"pragmatic":3,"syntactic":3},"improvements":["a"]}`)},
		engine.AgentFinished{CallInfo: deep, Reply: []byte(`{"verdict":"accept","scores":{"semantic":4,"pragmatic":4,"syntactic":4},"improvements":["a","b"]}`)},
		engine.Outcome{Result: "accept"},
	)
	runs, _, _, err := Read([]string{path}, Filter{})
	if err != nil || len(runs) != 1 {
		t.Fatalf("%v %d", err, len(runs))
	}
	r := runs[0]
	if r.Result != "accept" || len(r.Verdicts) != 1 || r.Verdicts[0].Seat != "deep" || len(r.Verdicts[0].Judgement.Improvements) != 2 {
		t.Fatalf("%+v", r)
	}
}

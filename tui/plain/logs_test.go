package plain

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
)

// sampleLogs are three saved runs: a finished one, one still being
// written, and a file that is no log.
func sampleLogs() []runlog.Summary {
	started := time.Date(2026, 3, 1, 9, 30, 0, 0, time.Local)
	return []runlog.Summary{
		{Path: "logs/a.jsonl", Started: started, Protocol: "adversarial", Topic: "Should we move sessions\nto Postgres?", Result: "consensus",
			Rounds: 2, Took: 93400 * time.Millisecond, Usage: engine.Usage{Replies: 3, Reported: 3, InputTokens: 1200, OutputTokens: 300},
			Seats: []engine.Seat{{Agent: "claude"}, {Agent: "gemini"}, {Agent: "claude"}}},
		{Path: "logs/b.jsonl", Started: started.Add(time.Hour), Protocol: "rank", Topic: "Rank\x1b[31m two", Rounds: 1, Writing: true, WriterPID: 4242,
			Seats: []engine.Seat{{Agent: "qwen"}}, Sequence: []string{"events 4 to 5 are missing between lines 3 and 4"}},
		{Path: "logs/junk.jsonl", Problem: "not an arena debate log: line 1 is not a valid event"},
	}
}

// The listing is a row per log: its outcome, or that it is being
// written, or that it cannot be read; its topic on one line, cleaned.
func TestLogs(t *testing.T) {
	colourless(t)
	want := strings.Join([]string{
		"DATE                 PROTOCOL     OUTCOME                 ROUNDS  TOOK   TOKENS             AGENTS         TOPIC                                 LOG              \n",
		"2026-03-01 09:30:00  adversarial  consensus               2       1m33s  1.2k in · 300 out  claude,gemini  Should we move sessions to Postgres?  logs/a.jsonl     \n",
		"2026-03-01 10:30:00  rank         running (process 4242)  1       —      not reported       qwen           Rank two                              logs/b.jsonl     \n",
		"?                    —            unreadable              0       —      not reported                                                            logs/junk.jsonl  \n",
	}, "")
	if got := LogsAt("logs", sampleLogs(), io.Discard, 200); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got, want := Logs("logs", nil, io.Discard), "No saved debates in logs.\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// What is wrong with each log is a line of its own; nothing for a sound one.
func TestLogProblems(t *testing.T) {
	logs := sampleLogs()
	logs[1].Sequence = append(logs[1].Sequence, "b", "c", "d")
	for i, want := range []string{
		"",
		"event numbers: events 4 to 5 are missing between lines 3 and 4; event numbers: b; event numbers: c; and 1 more breaks in the event numbers",
		"not an arena debate log: line 1 is not a valid event",
	} {
		if got := LogProblems(logs[i]); got != want {
			t.Errorf("%s: got %q, want %q", logs[i].Path, got, want)
		}
	}
}

func TestEndNote(t *testing.T) {
	for _, c := range []struct {
		lc   runlog.Contents
		want string
	}{
		{runlog.Contents{Complete: true}, ""},
		{runlog.Contents{Events: make([]engine.Event, 3), Count: 3}, "the log ends after event 3 without an outcome: the debate was cut short"},
		{runlog.Contents{Complete: true, Sequence: []string{"line 5 repeats event number 4 (of line 4)"}, Writing: true},
			"the log's event numbers are broken: line 5 repeats event number 4 (of line 4); an arena (process unknown) is writing this log now: what it held when read was replayed"},
	} {
		if got := EndNote(c.lc); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

// At 80 columns the listing is three lines a run, none wider (issue 32,
// point 6), with the whole log path to copy.
func TestLogsAt80Columns(t *testing.T) {
	colourless(t)
	logs := sampleLogs()
	logs[0].Topic = "Should we move the sessions of every user from Redis to Postgres before the launch in March?"
	logs[0].Path = "debate-logs/20261126-174014.640-should-we-move-the-sessions-of-every-u.jsonl"
	got := LogsAt("logs", logs, io.Discard, 80)
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) != 3*len(logs) {
		t.Fatalf("%d lines for %d runs:\n%s", len(lines), len(logs), got)
	}
	for _, l := range lines {
		if w := lipgloss.Width(l); w > 80 {
			t.Errorf("%d columns: %q", w, l)
		}
	}
	want := []string{
		"2026-03-01 09:30  adversarial · consensus · Should we move the sessions of ever…",
		"  2 rounds · 1m33s · 1.2k in · 300 out · claude, gemini",
		"  debate-logs/20261126-174014.640-should-we-move-the-sessions-of-every-u.jsonl",
		"2026-03-01 10:30  rank · running (process 4242) · Rank two",
	}
	for i, w := range want {
		if lines[i] != w {
			t.Errorf("line %d:\n got %q\nwant %q", i+1, lines[i], w)
		}
	}
	if wide := LogsAt("logs", sampleLogs(), io.Discard, 200); !strings.HasPrefix(wide, "DATE ") {
		t.Errorf("a wide terminal does not get the table:\n%s", wide)
	}
}

func TestLogsJSON(t *testing.T) {
	b, err := LogsJSON(sampleLogs())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines:\n%s", len(lines), b)
	}
	var first, second LogJSON
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	json.Unmarshal([]byte(lines[1]), &second)
	if first.Path != "logs/a.jsonl" || first.Result != "consensus" || first.TokensIn != 1200 || first.TookMS != 93400 ||
		strings.Join(first.Agents, ",") != "claude,gemini" || second.Result != "running" || second.WriterPID != 4242 || strings.Contains(lines[1], "\x1b") {
		t.Fatalf("%+v\n%+v\n%s", first, second, b)
	}
}

// TestLogsPaged: more logs than a page are written a page at a time, each
// log read only when its page is due, under one header, every page
// aligned with the first; a page's logs are handed over once written.
func TestLogsPaged(t *testing.T) {
	colourless(t)
	t.Setenv("COLUMNS", "400")
	sample := sampleLogs()
	n := 2*logsPage + 7
	read := 0
	summary := func(i int) runlog.Summary {
		read++
		s := sample[i%2]
		s.Path = fmt.Sprintf("logs/%d.jsonl", i)
		return s
	}
	var out strings.Builder
	pages := 0
	err := LogsPaged(&out, "logs", n, summary, false, func(page []runlog.Summary) {
		pages++
		if read != min(pages*logsPage, n) {
			t.Errorf("page %d: %d logs read", pages, read)
		}
	})
	if err != nil || pages != 3 {
		t.Fatalf("%v, %d pages", err, pages)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != n+1 || !strings.HasPrefix(lines[0], "DATE") || strings.Count(out.String(), "DATE") != 1 {
		t.Fatalf("%d lines:\n%s", len(lines), out.String()[:500])
	}
	col := lipgloss.Width(lines[0][:strings.Index(lines[0], "LOG")])
	for i, l := range lines[1:] {
		if at := strings.Index(l, "logs/"); at < 0 || lipgloss.Width(l[:at]) != col {
			t.Fatalf("row %d is not aligned with the header: %q", i, l)
		}
	}
	// One page: the listing Logs writes; at 80 columns, blocks.
	out.Reset()
	LogsPaged(&out, "logs", 3, func(i int) runlog.Summary { return sampleLogs()[i] }, false, func([]runlog.Summary) {})
	if out.String() != Logs("logs", sampleLogs(), io.Discard) {
		t.Errorf("one page differs from Logs:\n%s", out.String())
	}
	t.Setenv("COLUMNS", "80")
	out.Reset()
	LogsPaged(&out, "logs", n, summary, false, func([]runlog.Summary) {})
	if strings.Contains(out.String(), "DATE") || strings.Count(out.String(), "\n") != 3*n {
		t.Errorf("at 80 columns, %d lines", strings.Count(out.String(), "\n"))
	}
}

// A run whose outcome is in while its arena still holds the log (the live
// screen left open on the outcome) is listed by its outcome, not as
// running: a comparison finished minutes before read "running (process
// 19585)" to a newcomer. Its JSON gives the outcome, writer_pid that it
// is open.
func TestLogsFinishedButOpen(t *testing.T) {
	colourless(t)
	logs := sampleLogs()[1:2]
	logs[0].Result = "recommendation"
	got := LogsAt("logs", logs, io.Discard, 80)
	if want := "2026-03-01 10:30  rank · recommendation (still open in process 4242) · Rank two\n"; !strings.HasPrefix(got, want) {
		t.Errorf("got\n%s\nwant it to begin\n%s", got, want)
	}
	b, err := LogsJSON(logs)
	if err != nil {
		t.Fatal(err)
	}
	var l LogJSON
	if err := json.Unmarshal(b, &l); err != nil || l.Result != "recommendation" || l.WriterPID != 4242 {
		t.Errorf("%+v (%v) from %s", l, err, b)
	}
}

package runlog

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/arenadebate/arena/engine"
)

// TestGlanceAgreesWithSummarize: what a glance reads of a log (its first
// line, its end read backward) is what reading it whole says, for a
// finished log, one with a follow-up after the outcome, an interrupted one
// resumed to an outcome, one resumed and cut again, one cut mid-stream,
// one whose last line is cut short, and a version 1 log.
func TestGlanceAgreesWithSummarize(t *testing.T) {
	events := sampleEvents()
	t0 := events[len(events)-1].Time
	more := func(base []engine.Event, ps ...engine.Payload) []engine.Event {
		out := append([]engine.Event(nil), base...)
		for _, p := range ps {
			out = append(out, engine.Event{Seq: int64(len(out) + 1), Time: t0.Add(time.Duration(len(out)) * time.Second), Payload: p})
		}
		return out
	}
	followUp := engine.CallInfo{Seat: "claude", Agent: "claude", Phase: engine.PhaseFollowUp, Task: "follow-up", Attempt: 1}
	cut := events[:4] // in the middle of the opening's stream
	interrupted := more(events[:8], engine.Outcome{Result: engine.OutcomeInterrupted, Rounds: 1})
	cases := map[string][]byte{
		"finished": lines(t, events),
		"a follow-up after the outcome": lines(t, more(events, engine.FollowUp{Seat: "claude", Question: "why?"},
			engine.AgentStarted{CallInfo: followUp}, engine.Chunk{Seat: "claude", Text: "because"}, engine.AgentFinished{CallInfo: followUp, Text: "because"})),
		"resumed to an outcome": lines(t, more(interrupted, engine.Resumed{After: 9}, engine.PhaseStarted{Phase: "confront", Round: 2},
			engine.Outcome{Result: "consensus", Rounds: 2})),
		"resumed and cut again": lines(t, more(interrupted, engine.Resumed{After: 9}, engine.PhaseStarted{Phase: "confront", Round: 2},
			engine.AgentStarted{CallInfo: engine.CallInfo{Seat: "claude", Phase: "confront", Round: 2}}, engine.Chunk{Seat: "claude", Text: "x"})),
		"cut mid-stream":    lines(t, cut),
		"last line cut":     append(lines(t, cut), `{"seq":5,"t":"2026-11-21T15:30:04Z","type":"chu`...),
		"version 1 log":     mustReadFile(t, filepath.Join("testdata", "v1-adversarial.jsonl")),
		"only its start":    lines(t, events[:1]),
		"a long last reply": lines(t, more(cut, repeat(engine.Chunk{Seat: "claude", Text: "a few words "}, 30000)...)),
	}
	for name, b := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.jsonl")
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			g, s := Glance(path), Summarize(path)
			if !g.Started.Equal(s.Started) || g.Protocol != s.Protocol || g.Topic != s.Topic || len(g.Seats) != len(s.Seats) ||
				g.Result != s.Result || g.Rounds != s.Rounds || g.Took != s.Took {
				t.Errorf("glance %+v\nwhole  %+v", brief(g), brief(s))
			}
			if (g.Problem == "") != (s.Problem == "") {
				t.Errorf("problem: glance %q, whole %q", g.Problem, s.Problem)
			}
		})
	}
}

func repeat(p engine.Payload, n int) []engine.Payload {
	out := make([]engine.Payload, n)
	for i := range out {
		out[i] = p
	}
	return out
}

func mustReadFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type briefSummary struct {
	Started          time.Time
	Protocol, Result string
	Rounds           int
	Took             time.Duration
}

func brief(s Summary) briefSummary {
	return briefSummary{s.Started, s.Protocol, string(s.Result), s.Rounds, s.Took}
}

// TestListDirReadsOnlyWhatItShows: a listing is newest first by the
// time each run started, and a log that changes is read again.
func TestListDirReadsOnlyWhatItShows(t *testing.T) {
	dir := t.TempDir()
	events := sampleEvents()
	var paths []string
	for i, name := range []string{"b.jsonl", "a.jsonl", "c.jsonl"} {
		es := append([]engine.Event(nil), events...)
		for j := range es {
			es[j].Time = es[j].Time.Add(time.Duration(i) * time.Hour)
		}
		path := filepath.Join(dir, name)
		os.WriteFile(path, lines(t, es), 0o600)
		paths = append(paths, path)
	}
	os.WriteFile(filepath.Join(dir, "junk.jsonl"), []byte("not a log\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not listed\n"), 0o600)
	l, err := ListDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{paths[2], paths[1], paths[0], filepath.Join(dir, "junk.jsonl")}
	if l.Len() != len(want) {
		t.Fatalf("%d logs listed", l.Len())
	}
	for i, p := range want {
		if l.Path(i) != p {
			t.Errorf("log %d is %s, want %s", i, l.Path(i), p)
		}
	}
	if s := l.Glance(0); s.Result != "tradeoff" || l.Summary(3).Problem == "" {
		t.Errorf("glance %+v, junk %+v", s, l.Summary(3))
	}
	// The newest log is cut short: listed again, it is read again.
	cut := append([]engine.Event(nil), events[:4]...)
	for j := range cut {
		cut[j].Time = cut[j].Time.Add(2 * time.Hour)
	}
	os.WriteFile(paths[2], lines(t, cut), 0o600)
	l, _ = ListDir(dir)
	if s := l.Summary(0); s.Result != "" || l.Glance(0).Result != "" {
		t.Errorf("a changed log was not read again: %+v", s)
	}
}

// lines writes events as a log's lines.
func lines(t *testing.T, events []engine.Event) []byte {
	t.Helper()
	var b []byte
	for _, e := range events {
		line, err := e.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		b = append(append(b, line...), '\n')
	}
	return b
}

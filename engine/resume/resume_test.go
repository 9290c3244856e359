package resume

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
)

var rankRule = engine.ResumeRule{Reads: []string{"spec", "repos"}, First: "spec", Attached: []string{"context"},
	Writes: []string{"out"},
	Runs:   map[string]string{"run_tests": "each repository's own tests"}}

// rankish is a request shaped like a ranking's.
type rankish struct {
	Spec     string   `json:"spec,omitempty"`
	Repos    []string `json:"repos,omitempty"`
	Context  []string `json:"context,omitempty"`
	Out      string   `json:"out,omitempty"`
	RunTests bool     `json:"run_tests,omitempty"`
	Labels   []string `json:"labels,omitempty"`
}

func (*rankish) Prepare(engine.Setup) (*engine.Prepared, error) { return nil, nil }

func started(dir string) engine.DebateStarted {
	return engine.DebateStarted{Protocol: "rank", Topic: "spec",
		Context:    []engine.ContextFile{{Name: "spec.md", SHA256: "a"}, {Name: "notes.md", SHA256: "b"}},
		Seats:      []engine.Seat{{Name: "security judge", Agent: "codex"}, {Name: "facts 1", Agent: "claude"}},
		Invocation: &engine.Invocation{Args: []string{"rank", "spec.md", "a", "b"}, Dir: dir}}
}

func TestCheckRefusesWhatTheRunDidNotDo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st := started(dir)
	if why := Check(rankRule, st, &rankish{Spec: "spec.md", Repos: []string{"a"}, Context: []string{"notes.md"}}); len(why) != 0 {
		t.Fatalf("the run as it was: %q", why)
	}
	why := Check(rankRule, st, &rankish{Spec: "other.md", Context: []string{"/etc/passwd"}})
	want := []string{
		"context /etc/passwd: the run this log records attached no such file",
		"the specification it names is not the one the run judged against",
	}
	if !slices.Equal(why, want) {
		t.Fatalf("got %q\nwant %q", why, want)
	}
	st.Invocation.Dir = "relative/dir"
	if why := Check(rankRule, st, &rankish{Spec: "spec.md"}); len(why) != 1 || !strings.Contains(why[0], "is not an absolute path") {
		t.Fatalf("a relative directory: %q", why)
	}
	st.Invocation.Dir = dir + "/gone"
	if why := Check(rankRule, st, &rankish{Spec: "spec.md"}); len(why) != 1 || !strings.Contains(why[0], "is not a directory here") {
		t.Fatalf("a directory that is gone: %q", why)
	}
}

func TestPlanShowsWhatItReadsWritesAndRuns(t *testing.T) {
	t.Parallel()
	p := Plan{Args: []string{"rank", "--out=r.json", "--run-tests", "--", "spec.md", "a dir"}, Dir: "/w", Stdin: 12,
		Left: []string{"--config=/etc/arena.yaml: resumed with your own settings"}}
	p.Touches(rankRule, "/w", &rankish{Spec: "spec.md", Repos: []string{"-"}, Out: "r.json", RunTests: true})
	got := p.Show("/w/log.jsonl", started("/w"), map[string]string{"codex": "qwen"})
	want := `arena resume /w/log.jsonl
  the run:    rank: spec
  runs:       arena rank --out=r.json --run-tests -- spec.md "a dir"
  in:         /w
  seats:      security judge (qwen, was codex), facts 1 (claude)
  reads:      /w/spec.md, stdin (sent to the seats)
  stdin:      12 bytes the log recorded
  writes to:  /w/r.json
  runs:       each repository's own tests
  left out:   --config=/etc/arena.yaml: resumed with your own settings
  the log was NOT written by arena on this machine, or was changed since: check the above
`
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	// Its files named as the run's lines name them (issue 40, item 12).
	p.Path = func(path string) string { return strings.TrimPrefix(path, "/w/") }
	got = p.Show("/w/log.jsonl", started("/w"), nil)
	for _, want := range []string{"arena resume log.jsonl\n", "  in:         /w\n", "  reads:      spec.md, stdin (sent", "  writes to:  r.json\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("the plan lacks %q:\n%s", want, got)
		}
	}
}

func TestQuoteArgsShowsEachArgumentAsOne(t *testing.T) {
	t.Parallel()
	got := QuoteArgs([]string{"plain", "two words", "", "$(rm)", "a\x1b[31mred"})
	want := `plain "two words" "" "$(rm)" "a\x1b[31mred"`
	if got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

func TestLatestIsTheNewestRunThatCanGoOn(t *testing.T) {
	t.Parallel()
	now := time.Now()
	logs := []runlog.Summary{
		{Path: "writing", Started: now, Writing: true},
		{Path: "unreadable"},
		{Path: "finished", Started: now, Result: "consensus"},
		{Path: "interrupted", Started: now, Result: engine.OutcomeInterrupted},
		{Path: "older", Started: now, Result: engine.OutcomeAborted},
	}
	read := 0
	at := func(i int) runlog.Summary { read++; return logs[i] }
	if l, ok := Latest(len(logs), at); !ok || l.Path != "interrupted" || read != 4 {
		t.Fatalf("latest %q %v, %d logs read", l.Path, ok, read)
	}
	if _, ok := Latest(3, at); ok {
		t.Fatal("a finished run was taken for one to resume")
	}
}

func TestSwapGivesASeatAnotherAgent(t *testing.T) {
	t.Parallel()
	agents := map[string]challengers.Agent{"qwen": {Name: "qwen"}, "gemini": {Name: "gemini"}}
	swap, changed, err := Swap(started("/w"), []string{"codex=qwen", " facts 1 = gemini "}, agents)
	if err != nil || swap["codex"].Name != "qwen" || swap["facts 1"].Name != "gemini" || len(changed) != 2 || changed[0].Name != "seat codex" {
		t.Fatalf("swap %v, changed %v, err %v", swap, changed, err)
	}
	for spec, want := range map[string]string{
		"codex":       `--seat "codex": want SEAT=AGENT, e.g. --seat codex=qwen`,
		"judge=qwen":  `--seat "judge=qwen": the run has no seat or agent "judge" (its seats: security judge, facts 1)`,
		"codex=grok4": `--seat "codex=grok4": unknown agent "grok4"`,
	} {
		if _, _, err := Swap(started("/w"), []string{spec}, agents); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %s", spec, err, want)
		}
	}
}

func TestChangedNamesWhatTheRepliesNoLongerAnswer(t *testing.T) {
	t.Parallel()
	was := started("/w")
	now := started("/w")
	if c := Changed(was, now); len(c) != 0 {
		t.Fatalf("the same run: %q", c)
	}
	now.Context = []engine.ContextFile{{Name: "spec.md", SHA256: "z"}}
	now.Topic = "another"
	want := []string{"spec.md changed since the run", "notes.md is no longer attached", "the topic is not the same"}
	if c := Changed(was, now); !slices.Equal(c, want) {
		t.Fatalf("got %q, want %q", c, want)
	}
}

func TestHistoryGoesOnFromThePhaseTheRunWasIn(t *testing.T) {
	t.Parallel()
	events := []engine.Event{
		{Seq: 1, Payload: started("/w")},
		{Seq: 2, Payload: engine.PhaseStarted{Phase: "facts", Title: "Facts", Round: 1}},
		{Seq: 3, Payload: engine.PhaseStarted{Phase: engine.PhaseOutcome, Title: "Outcome"}},
		{Seq: 4, Payload: engine.Outcome{Result: engine.OutcomeInterrupted}},
	}
	h := NewHistory("/nowhere")
	for _, e := range events {
		h.Add(e, 0)
	}
	changed := []engine.Setting{{Name: "timeout", Value: "5m"}}
	r, after := h.Resume(runlog.Contents{LastSeq: 4, Problem: "line 3 is cut short"}, changed, nil)
	if after != 4 || r.Event.From != "Facts" || r.Event.Phase != "facts" || r.Event.After != 4 || r.Event.Problem != "line 3 is cut short" || len(r.Event.Settings) != 1 {
		t.Fatalf("after %d, resumed %+v", after, r.Event)
	}
	if h.Outcome == nil || h.Outcome.Result != engine.OutcomeInterrupted {
		t.Fatalf("outcome %+v", h.Outcome)
	}
}

// TestHistoryHoldsWhereTheRepliesAre (issue 29): a history holds no reply
// text; each reply is read back from the log when it is reused.
func TestHistoryHoldsWhereTheRepliesAre(t *testing.T) {
	t.Parallel()
	call := engine.CallInfo{Seat: "claude", Agent: "claude", Phase: "opening", Round: 1, Task: "opening", Attempt: 1}
	long := strings.Repeat("a long reply ", 10000)
	var b []byte
	st := started("/w")
	st.Version = engine.LogVersion
	for i, p := range []engine.Payload{
		st,
		engine.AgentStarted{CallInfo: call, PromptHash: "h"},
		engine.AgentFinished{CallInfo: call, Text: long, Display: long},
	} {
		line, _ := engine.Event{Seq: int64(i + 1), Payload: p}.MarshalJSON()
		b = append(append(b, line...), '\n')
	}
	path := filepath.Join(t.TempDir(), "x.jsonl")
	os.WriteFile(path, b, 0o600)
	h := NewHistory(path)
	lc, err := runlog.ScanFileAt(path, h.Add)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := h.Resume(lc, nil, nil)
	if r.Cache.Len() != 1 {
		t.Fatalf("%d replies to reuse", r.Cache.Len())
	}
	for _, e := range r.Events {
		if f, ok := e.Payload.(engine.AgentFinished); ok && (f.Text != "" || f.Display != "") {
			t.Fatal("the history holds a reply's text")
		}
	}
	got, err := h.loader(int64(bytes.Index(b, []byte(`{"seq":3`))))()
	if err != nil || got.Text != long {
		t.Fatalf("read back %d bytes, %v", len(got.Text), err)
	}
}

// A finished run, one of a protocol this arena does not know, and one
// whose log does not say how it was started cannot be resumed.
func TestRefusalSaysWhyALogCannotBeResumed(t *testing.T) {
	t.Parallel()
	history := func(outcome engine.OutcomeKind, st engine.DebateStarted) *History {
		h := NewHistory("/nowhere")
		h.Add(engine.Event{Seq: 1, Payload: st}, 0)
		if outcome != "" {
			h.Add(engine.Event{Seq: 2, Payload: engine.Outcome{Result: outcome, Summary: "Ranked."}}, 0)
		}
		return h
	}
	knows := func(p string) bool { return p == "rank" }
	if err := history(engine.OutcomeInterrupted, started("/w")).Refusal("r.jsonl", knows); err != nil {
		t.Fatal(err)
	}
	unrecorded := started("/w")
	unrecorded.Invocation = nil
	for want, h := range map[string]*History{
		"cannot resume r.jsonl: the run is finished (ranked): Ranked.; watch it again with arena replay r.jsonl":                    history("ranked", started("/w")),
		"cannot resume r.jsonl: this arena cannot resume a chess run":                                                               history("", engine.DebateStarted{Protocol: "chess"}),
		"cannot resume r.jsonl: the log does not record how the run was started (it was written by an older arena); start it again": history("", unrecorded),
	} {
		if err := h.Refusal("r.jsonl", knows); err == nil || err.Error() != want {
			t.Errorf("got %v, want %s", err, want)
		}
	}
}

func TestCheckStartStopsARunThatIsNoLongerTheSame(t *testing.T) {
	t.Parallel()
	was, now := started("/w"), started("/w")
	if err := CheckStart("r.jsonl", was, now, false); err != nil {
		t.Fatal(err)
	}
	now.Context = now.Context[:1]
	want := "cannot resume r.jsonl: notes.md is no longer attached; the replies in the log answered the earlier version (resume with --force to go on anyway)"
	if err := CheckStart("r.jsonl", was, now, false); err == nil || err.Error() != want {
		t.Fatalf("got %v", err)
	}
	if err := CheckStart("r.jsonl", was, now, true); err != nil {
		t.Fatalf("forced: %v", err)
	}
	now.Protocol = "compare"
	if err := CheckStart("r.jsonl", was, now, true); err == nil || err.Error() != "cannot resume r.jsonl: it is a rank run, and its command now starts a compare run" {
		t.Fatalf("got %v", err)
	}
}

package plain

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/layout"
	"github.com/arenadebate/arena/engine/runlog"
	"github.com/arenadebate/arena/tui/tuitest"
)

func printAll(events []engine.Event) string {
	var b bytes.Buffer
	p := New(&b)
	for _, e := range events {
		p.Handle(e)
	}
	return b.String()
}

func TestPrinterShowsTheWholeDebate(t *testing.T) {
	out := printAll(tuitest.Debate())
	for _, want := range []string{
		"(DEBATE)", "  Topic: ", "  Seats: claude (defender), gemini (challenger), codex (challenger),\n         qwen (challenger)", "  Max rounds: ",
		"── ", "gemini │ ", "codex  │ ", "✗", "timed out", "Challenger  Verdict", "   → ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if !strings.Contains(out, "# Debate outcome: tradeoff identified") {
		t.Error("the outcome document is missing")
	}
	// Replies print as readable text, field by field, not as raw JSON.
	for _, want := range []string{"gemini │ Verdict: DISAGREE · strong objection · high confidence", "claude │ Position: Move sessions into Postgres"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	for _, raw := range []string{`"verdict":`, `{"`, "```json"} {
		if strings.Contains(out, raw) {
			t.Errorf("raw JSON %q printed", raw)
		}
	}
}

// A reply that is prose, not JSON, still prints line by line as it
// streams, once it has shown it is not an object.
func TestPrinterStreamsProseRepliesAsLines(t *testing.T) {
	start := engine.Event{Payload: engine.DebateStarted{Layouts: map[string]layout.Layout{"critique": {}}}}
	call := engine.CallInfo{Seat: "qwen", Task: "critique"}
	var b strings.Builder
	p := New(&b)
	p.Handle(start)
	p.Handle(engine.Event{Payload: engine.AgentStarted{CallInfo: call, Shape: "critique"}})
	for i := 0; i < 100; i++ {
		p.Handle(engine.Event{Payload: engine.Chunk{Seat: "qwen", Text: fmt.Sprintf("line %d of a reply that is all prose, no JSON here\n", i)}})
	}
	if !strings.Contains(b.String(), "qwen   │ line 50 of a reply") {
		t.Fatalf("prose did not stream before the reply ended:\n%s", b.String())
	}
}

// Agents stream in parallel: each one's text must come out a whole line at
// a time behind its own name, never two agents' words on one line.
func TestPrinterNeverMixesAgentsOnALine(t *testing.T) {
	ev := func(agent, text string) engine.Event {
		return engine.Event{Payload: engine.Chunk{Seat: agent, Text: text}}
	}
	out := printAll([]engine.Event{
		ev("gemini", "The write "), ev("codex", "Unlogged tables "), ev("gemini", "rate is high.\nNext"),
		ev("codex", "are truncated.\n"), {Payload: engine.AgentFinished{CallInfo: engine.CallInfo{Seat: "gemini", Task: "critique"}}},
	})
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := []string{"codex  │ Unlogged tables are truncated.", "gemini │ The write rate is high.", "gemini │ Next", "gemini ✓ critique in 0s"}
	for _, w := range want {
		found := false
		for _, l := range lines {
			if l == w {
				found = true
			}
		}
		if !found {
			t.Errorf("no line %q in:\n%s", w, out)
		}
	}
}

func TestPrinterWrapsAnEndlessLine(t *testing.T) {
	long := strings.Repeat("word ", 100) + strings.Repeat("é", 300)
	out := printAll([]engine.Event{{Payload: engine.Chunk{Seat: "qwen", Text: long}}, {Payload: engine.AgentFinished{CallInfo: engine.CallInfo{Seat: "qwen"}}}})
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		body := strings.TrimPrefix(l, "qwen   │ ")
		if len(body) > wrapAt || !utf8.ValidString(l) {
			t.Fatalf("line of %d bytes (or cut inside a character): %q", len(body), l)
		}
	}
	if got := strings.Count(out, "é"); got != 300 {
		t.Fatalf("%d of 300 characters printed", got)
	}
}

func TestJSONPrinterWritesTheLogFormat(t *testing.T) {
	var b bytes.Buffer
	j := NewJSON(&b)
	events := tuitest.Debate()
	for _, e := range events {
		j.Handle(e)
	}
	lc, err := runlog.Read(&b)
	if err != nil || j.Err() != nil || len(lc.Events) != len(events) {
		t.Fatalf("read back %d of %d events: %v %v", len(lc.Events), len(events), err, j.Err())
	}
}

// The printer's words for a run come from its protocol: every recorded
// demo's banner and closing line say what the run is, and none of the
// other protocols' runs is called a debate.
func TestPrinterWordsComeFromTheProtocol(t *testing.T) {
	for name, want := range map[string]string{
		"adversarial": "DEBATE", "compare": "COMPARISON", "judge": "JUDGING", "verdict": "VERDICT", "rank": "RANKING",
	} {
		t.Run(name, func(t *testing.T) {
			events := tuitest.Run(name)
			for i, e := range events { // as a run saved in a log ends
				if o, ok := e.Payload.(engine.Outcome); ok {
					o.LogPath = "debate-logs/x.jsonl"
					events[i].Payload = o
				}
			}
			out := printAll(events)
			if !strings.HasPrefix(out, "("+want+") ═") {
				t.Errorf("banner %q", strings.SplitN(out, "\n", 2)[0])
			}
			noun := strings.ToLower(want)
			if !strings.Contains(out, "\nLog of this "+noun+": debate-logs/x.jsonl  (arena replay debate-logs/x.jsonl)\n") {
				t.Errorf("no closing line naming the %s's log", noun)
			}
			if name != "adversarial" && strings.Contains(out, "(DEBATE)") {
				t.Error("called a debate")
			}
		})
	}
}

package page

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
)

// hostile is a reply that tries every way a model's words could become
// markup, a script, a style, a fetch or hidden text on the page; url is
// a server that counts what is fetched from it.
func hostile(url string) string {
	return strings.Join([]string{
		"<script>window.pwned = 1</script>",
		"An image: <img src=x onerror=\"window.pwned = 2\"> inline.",
		"<img src=\"" + url + "/img\">",
		"[click me](javascript:window.pwned=3) and [again](JaVaScRiPt:window.pwned=3)",
		"<a href=\"javascript:window.pwned=4\">a link</a>",
		"<style>body { display: none }</style>",
		"<iframe src=\"" + url + "/frame\"></iframe>",
		"![a picture](" + url + "/pic.png)",
		"<svg onload=\"window.pwned = 5\"><circle r=5></circle></svg>",
		"Spelled: &#x202E;evil&#x202C; and &lt;script&gt; and &#60;b&#62;",
		"Bidi: \u202eesrever\u202c and isolates \u2066x\u2069 zero\u200bwidth",
		"Tags: hidden\U000E0041\U000E0042\U000E0043 words",
		"<details open ontoggle=\"window.pwned = 6\"><summary>x</summary></details>",
		"<meta http-equiv=\"refresh\" content=\"0;url=" + url + "/meta\">",
		"<base href=\"" + url + "/\"><link rel=stylesheet href=\"" + url + "/css\">",
		"<form action=\"" + url + "/form\"><button>send</button></form>",
		"<javascript:window.pwned=7> and " + url + "/auto linked",
		"```html\n<script>window.pwned = 8</script>\n```",
		"| a | <b>b</b> |\n|---|---|\n| <i onclick=x>c</i> | [d](data:text/html,x) |",
		"# A heading id=\"phases\"",
	}, "\n\n")
}

// benign is hostile with nothing in it that could be markup: the same
// Markdown blocks, its tags and schemes spelled otherwise.
func benign(s string) string {
	r := strings.NewReplacer("<", "‹", ">", "›", "&", "+", "javascript:", "javascript-", "JaVaScRiPt:", "javascript-", "data:", "data-",
		"\u202e", "?", "\u202c", "?", "\u2066", "?", "\u2069", "?", "\u200b", "?", "\U000E0041", "?", "\U000E0042", "?", "\U000E0043", "?")
	return r.Replace(s)
}

// sampleRun is a short comparison whose seats reply with the replies
// given, and whose topic, table and note carry text of their own.
func sampleRun(topic, first, second, cell, note string) []engine.Payload {
	start := engine.DebateStarted{
		Version: engine.LogVersion, ID: "sample", Protocol: "compare", Title: "Comparative debate", Noun: "comparison", Topic: topic,
		Seats: []engine.Seat{{Name: "for Kafka", Agent: "gemini", Role: "advocate for Kafka"}, {Name: "for Postgres", Agent: "codex", Role: "advocate for Postgres"}},
		Agents: []engine.AgentInfo{
			{Name: "gemini", Command: []string{"gemini", "-p", "{prompt}"}, Family: "google"},
			{Name: "codex", Format: "api:openai", Endpoint: "https://api.example.com/v1 (gpt-5)", Family: "openai"},
		},
		Phases: []engine.PhaseInfo{{Phase: "opening", Title: "Openings"}, {Phase: engine.PhaseOutcome, Title: "Outcome"}},
	}
	call := func(seat, agent string) engine.CallInfo {
		return engine.CallInfo{Seat: seat, Agent: agent, Role: "advocate", Phase: "opening", Round: 1, Task: "opening", Attempt: 1}
	}
	return []engine.Payload{
		start,
		engine.PhaseStarted{Phase: "opening", Round: 1, Title: "Openings"},
		engine.AgentStarted{CallInfo: call("for Kafka", "gemini")},
		engine.AgentStarted{CallInfo: call("for Postgres", "codex")},
		engine.AgentFinished{CallInfo: call("for Kafka", "gemini"), Text: first, Display: first, Badge: "for Kafka", Stance: engine.StanceNeutral, Duration: engine.Duration(time.Second)},
		engine.AgentFinished{CallInfo: call("for Postgres", "codex"), Text: second, Display: second, Badge: "for Postgres", Stance: "x\" onclick=\"window.pwned=9", Duration: engine.Duration(time.Second)},
		engine.Table{Phase: "opening", Round: 1, Title: "Order receipts", Columns: []string{"judgement", "receipt"}, Rows: []engine.Row{{Cells: []string{"throughput", cell}, Stance: engine.StanceAgree}}, Decision: "held in both orders"},
		engine.Note{Level: engine.NoteWarn, Message: note},
		engine.PhaseStarted{Phase: engine.PhaseOutcome, Title: "Outcome"},
		engine.Outcome{Result: "recommendation", Stance: engine.StanceAgree, Rounds: 1, Summary: "Recommendation: Kafka", Markdown: "# Comparison: Kafka\n"},
	}
}

// writeLog writes a log of payloads in dir, as arena writes one, and
// returns its path.
func writeLog(t testing.TB, dir string, payloads []engine.Payload) string {
	t.Helper()
	w, err := runlog.Create(dir, runlog.Name(time.Date(2026, 11, 24, 1, 20, 0, 0, time.UTC), "sample"))
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 24, 1, 20, 0, 0, time.UTC)
	for i, p := range payloads {
		w.Handle(engine.Event{Seq: int64(i + 1), Time: at.Add(time.Duration(i) * time.Second), Payload: p})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return filepath.Clean(w.Path())
}

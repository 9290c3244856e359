package plain

import (
	"testing"

	"github.com/arenadebate/arena/engine"
)

func TestAccountAlignsWhatWasSaved(t *testing.T) {
	out := engine.Outcome{Summary: "Tradeoff after 2 rounds", Failures: []string{"qwen timed out"}, LogPath: "logs/x.jsonl"}
	saved := []engine.Saved{{What: "outcome document", Path: "logs/x.md"}, {What: "report", Path: "r.json"}}
	want := "arena: Tradeoff after 2 rounds\n" +
		"  ✗ qwen timed out\n" +
		"  outcome document:    logs/x.md\n" +
		"  report:              r.json\n" +
		"  log of this ranking: logs/x.jsonl  (arena replay logs/x.jsonl)\n"
	if got := Account("ranking", out, saved, nil); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if got := Account("", engine.Outcome{Summary: "Interrupted"}, nil, nil); got != "arena: Interrupted\n" {
		t.Fatalf("without a log: %q", got)
	}
}

// --brief's line: the summary and the log, from home as ~.
func TestBriefLine(t *testing.T) {
	out := engine.Outcome{Summary: "main: ACCEPT (the quick judge said accept)", LogPath: "/home/u/.local/state/arena/verdict-logs/x.jsonl"}
	if got, want := BriefLine(out, "/home/u"), "main: ACCEPT (the quick judge said accept) · log ~/.local/state/arena/verdict-logs/x.jsonl"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got := BriefLine(engine.Outcome{Summary: "t: REJECT (x)"}, "/home/u"); got != "t: REJECT (x)" {
		t.Fatalf("without a log: %q", got)
	}
}

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
	if got := Account("ranking", out, saved); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if got := Account("", engine.Outcome{Summary: "Interrupted"}, nil); got != "arena: Interrupted\n" {
		t.Fatalf("without a log: %q", got)
	}
}

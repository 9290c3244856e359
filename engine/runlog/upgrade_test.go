package runlog

import (
	"strings"
	"testing"

	"github.com/arenadebate/arena/engine"
)

// testdata/v1-adversarial.jsonl is a debate recorded by arena with log
// format version 1 (the demo of that day). It must keep replaying.
func TestVersion1LogReadsAsVersion2(t *testing.T) {
	lc, err := ReadFile("testdata/v1-adversarial.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if lc.Problem != "" || !lc.Complete || lc.Version != 1 {
		t.Fatalf("problem %q complete %v version %d", lc.Problem, lc.Complete, lc.Version)
	}
	ds := lc.Events[0].Payload.(engine.DebateStarted)
	if ds.Version != engine.LogVersion || ds.Protocol != "adversarial" || len(ds.Seats) != 4 || ds.Seats[0].Role != "defender" || ds.Seats[1].Name != "gemini" {
		t.Fatalf("start: %+v", ds)
	}
	if len(ds.Phases) == 0 || ds.Phases[1].Title != "Opening position" {
		t.Fatalf("phases: %+v", ds.Phases)
	}
	var chunks, tables, finished int
	for _, e := range lc.Events {
		switch p := e.Payload.(type) {
		case engine.Chunk:
			chunks++
			if p.Seat == "" {
				t.Fatalf("chunk %d has no seat", e.Seq)
			}
		case engine.AgentFinished:
			finished++
			if p.Seat != p.Agent || p.Seat == "" {
				t.Fatalf("finished %d: seat %q agent %q", e.Seq, p.Seat, p.Agent)
			}
		case engine.Table:
			tables++
			if len(p.Columns) != len(p.Rows[0].Cells) || p.Rows[0].Stance == "" {
				t.Fatalf("table: %+v", p)
			}
		case engine.Outcome:
			if p.Result != "tradeoff" || p.Stance != engine.StancePartial || !strings.HasPrefix(p.Markdown, "# Debate outcome") {
				t.Fatalf("outcome: %+v", p)
			}
		}
	}
	if chunks != 420 || tables != 4 || finished != 14 {
		t.Fatalf("chunks %d tables %d finished %d", chunks, tables, finished)
	}
}

package engine

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine/doc"
)

func TestLedgerAndCostSection(t *testing.T) {
	cost := 0.0125
	var l Ledger
	l.Record(AgentFinished{CallInfo: CallInfo{Agent: "claude"}, Duration: Duration(2 * time.Second),
		Usage: &challengers.Usage{InputTokens: 1200, OutputTokens: 300, CostUSD: &cost}})
	l.Record(AgentFailed{CallInfo: CallInfo{Agent: "gemini"}, Duration: Duration(time.Second)})
	l.Record(AgentFinished{CallInfo: CallInfo{Agent: "gemini"}, Duration: Duration(time.Second)})
	l.Record(Note{})
	accts := l.Accounts()
	if len(accts) != 2 || accts[0].Agent != "claude" || accts[1].Calls != 2 || accts[1].Failures != 1 {
		t.Fatalf("%+v", accts)
	}
	if got := accts[0].Short(); got != "1 call · 1.2k in · 300 out · $0.0125 · 2s" {
		t.Fatalf("short %q", got)
	}
	if got := accts[1].Short(); got != "2 calls · 1 failed · tokens not reported · 2s" {
		t.Fatalf("short %q", got)
	}
	sec, _ := CostSection(accts, l.Total())
	md := doc.Markdown(doc.Document{Sections: []doc.Section{sec}})
	for _, want := range []string{"| claude | 1 | 0 | 2s | 1.2k in · 300 out | $0.0125 |", "| gemini | 2 | 1 | 2s | not reported | not reported |", "| **total** | 3 | 1 | 4s | 1.2k in · 300 out (1 of 2 replies) | $0.0125 (1 of 2 replies) |"} {
		if !strings.Contains(md, want) {
			t.Errorf("cost section lacks %q:\n%s", want, md)
		}
	}
}

// No amount of dollars is written as NaN or Inf, however it was reached,
// nor as a line of hundreds of digits.
func TestUSDNeverWritesInfOrNaN(t *testing.T) {
	for _, v := range []float64{math.Inf(1), math.Inf(-1), math.NaN(), math.MaxFloat64, -math.MaxFloat64, 2e9} {
		for _, s := range []string{USD(v), USD4(v), Usage{Costed: 1, Replies: 1, CostUSD: v}.Cost(), Account{Calls: 1, Usage: Usage{Costed: 1, CostUSD: v}}.Short()} {
			if strings.Contains(s, "Inf") || strings.Contains(s, "NaN") || len(s) > 60 {
				t.Errorf("%v written %q", v, s)
			}
		}
	}
	if got := USD4(0.0421); got != "$0.0421" {
		t.Errorf("USD4(0.0421) = %q", got)
	}
}

// A reply whose usage was clamped is named in a warning, with what its
// agent reported; one within bounds is not.
func TestUsageNoteNamesTheSeatAndWhatItReported(t *testing.T) {
	u := (&challengers.Usage{InputTokens: -40}).Clamp()
	n, ok := usageNote("critic", "gemini", u)
	if !ok || n.Level != NoteWarn || !strings.HasPrefix(n.Message, "critic (gemini) reported usage no call can have: -40 input tokens (counted as 0)") {
		t.Fatalf("%v %+v", ok, n)
	}
	if _, ok := usageNote("gemini", "gemini", &challengers.Usage{InputTokens: 40}); ok {
		t.Fatal("a note for usage within bounds")
	}
}

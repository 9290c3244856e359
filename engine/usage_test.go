package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers"
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
	doc := CostSection(accts, l.Total())
	for _, want := range []string{"| claude | 1 | 0 | 2s | 1.2k in · 300 out | $0.0125 |", "| gemini | 2 | 1 | 2s | not reported | not reported |", "| **total** | 3 | 1 | 4s | 1.2k in · 300 out (1 of 2 replies) | $0.0125 (1 of 2 replies) |"} {
		if !strings.Contains(doc, want) {
			t.Errorf("cost section lacks %q:\n%s", want, doc)
		}
	}
}

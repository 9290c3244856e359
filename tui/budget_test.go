package tui

import (
	"strings"
	"testing"

	"github.com/arenadebate/arena/engine"
)

// The header shows where the run's budget stands from the budget events,
// whatever the protocol; the limited amounts are not shown twice, and the
// status line says what a stop over budget did not start.
func TestHeaderShowsTheBudget(t *testing.T) {
	limit := engine.Budget{MaxCostUSD: 1, MaxCalls: 30}
	used := func(calls int, usd float64, over string) engine.Event {
		return engine.Event{Payload: engine.BudgetUsed{Budget: limit, Spent: engine.Spending{Calls: calls, CostUSD: usd}, Over: over}}
	}
	h := newHarness(t, Options{}, append(round2(t), used(12, 0.42, "")), 120, 40)
	head := plain(strings.Split(h.view(), "\n")[0])
	if !strings.Contains(head, "$0.42 of $1.00 · 12 of 30 calls") {
		t.Fatalf("header: %q", head)
	}
	if strings.Count(head, "$") != 2 {
		t.Fatalf("the cost is shown twice: %q", head)
	}
	h.events(used(30, 0.97, "all 30 calls of the budget made, so codex's rebuttal (round 2) was not started"))
	v := plain(h.view())
	if !strings.Contains(strings.Split(v, "\n")[0], "$0.97 of $1.00 · 30 of 30 calls") || !strings.Contains(v, "over budget: all 30 calls of the budget made") {
		t.Fatalf("over budget:\n%s", v)
	}
	// Without a budget, the header is as it was: no budget words.
	h = newHarness(t, Options{}, round2(t), 120, 40)
	if head := plain(strings.Split(h.view(), "\n")[0]); strings.Contains(head, "calls") || strings.Count(head, "$") != 1 {
		t.Fatalf("header without a budget: %q", head)
	}
}

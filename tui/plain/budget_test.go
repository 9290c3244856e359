package plain

import (
	"strings"
	"testing"

	"github.com/arenadebate/arena/engine"
)

// The printer shows the budget when the run starts, with the seats it
// cannot hold, and once, when it stops the run; not every call between.
func TestPrinterShowsTheBudgetAtItsStartAndStop(t *testing.T) {
	limit := engine.Budget{MaxCalls: 3}
	ev := func(calls int, over string, warnings ...string) engine.Event {
		return engine.Event{Payload: engine.BudgetUsed{Budget: limit, Spent: engine.Spending{Calls: calls}, Over: over, Warnings: warnings}}
	}
	over := "all 3 calls of the budget made, so codex's next call (critique, round 1) was not started"
	out := printAll([]engine.Event{
		ev(0, "", "--max-cost cannot hold gemini: its CLI reports no cost"), ev(1, ""), ev(2, ""), ev(3, ""),
		ev(3, over), ev(3, over), // a reply of a call still running
	})
	want := "  Budget: 0 of 3 calls\n! warning: --max-cost cannot hold gemini: its CLI reports no cost\n! over budget: " + over + " (3 of 3 calls)\n"
	if out != want {
		t.Fatalf("printed:\n%s\nwant:\n%s", out, want)
	}
	if strings.Count(out, "over budget") != 1 {
		t.Fatal("over budget printed more than once")
	}
}

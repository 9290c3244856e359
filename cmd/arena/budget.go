package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/engine"
)

// A run's budget comes from the settings (max_cost, max_calls,
// max_tokens; --max-cost, --max-calls, --max-tokens) and is kept by the
// engine for every protocol (engine/budget.go): a run that spends it
// stops before its next call, exits 75, and leaves a log arena resume
// carries on from, with the same flags to raise the limit.

// budgetFlags are the budget's flags, as arena resume passes them on.
var budgetFlags = []struct{ flag, name string }{
	{"max-cost", "max cost"}, {"max-calls", "max calls"}, {"max-tokens", "max tokens"},
}

// withBudget gives a run the budget of the settings it was started with,
// and the agents they define (how each is billed).
func (a *app) withBudget(opts *engine.Options) {
	s := a.settings
	if s == nil {
		return
	}
	opts.Budget = engine.Budget{MaxCostUSD: s.MaxCostUSD, MaxCalls: s.MaxCalls, MaxTokens: s.MaxTokens}
	opts.Agents = s.Agents
}

// budgetOverrides are the budget flags given to arena resume, for the
// resumed command: a higher limit lets an over-budget run go on.
func (rr *resumeRun) budgetOverrides(cmd *cobra.Command) []string {
	var out []string
	for _, b := range budgetFlags {
		if f := cmd.Flags().Lookup(b.flag); f != nil && f.Changed {
			out = append(out, "--"+b.flag, f.Value.String())
			rr.changed = append(rr.changed, engine.Setting{Name: b.name, Value: fmt.Sprint(f.Value.String())})
		}
	}
	return out
}

package main

import (
	"fmt"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/settings"
)

// A run's budget comes from the settings (max_cost, max_calls,
// max_tokens; --max-cost, --max-calls, --max-tokens) and is kept by the
// engine for every protocol (engine/budget.go): a run that spends it
// stops before its next call, exits 75, and leaves a log arena resume
// carries on from, with the same flags to raise the limit.

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

// budgetOverrides are the budget flags given to arena resume (given), on
// top of what the log records (sf): a higher limit lets an over-budget
// run go on.
func (rr *resumeRun) budgetOverrides(given settings.Flags, sf *settings.Flags) {
	if v := given.MaxCost; v != nil {
		sf.MaxCost = v
		rr.changed = append(rr.changed, engine.Setting{Name: "max cost", Value: *v})
	}
	if v := given.MaxCalls; v != nil {
		sf.MaxCalls = v
		rr.changed = append(rr.changed, engine.Setting{Name: "max calls", Value: fmt.Sprint(*v)})
	}
	if v := given.MaxTokens; v != nil {
		sf.MaxTokens = v
		rr.changed = append(rr.changed, engine.Setting{Name: "max tokens", Value: *v})
	}
}

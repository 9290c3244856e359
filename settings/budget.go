package settings

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/arenadebate/arena/challengers"
)

// A run's budget: max_cost (USD), max_calls and max_tokens in arena's
// config file, --max-cost, --max-calls and --max-tokens on the command
// line; 0 is no limit (a flag's 0 lifts the file's limit). Each agent's
// billing (metered | subscription) says what its calls count against; an
// agent whose billing is not set gets arena doctor's guess, made from how
// its CLI is logged in (challengers.GuessBilling).

// Budget keys, as written in arena's config file.
const (
	keyMaxCost   = "max_cost"
	keyMaxCalls  = "max_calls"
	keyMaxTokens = "max_tokens"
)

var budgetKeys = []string{keyMaxCost, keyMaxCalls, keyMaxTokens}

func init() {
	arenaKeys[keyMaxCost] = setter(costValue, func(s *Settings) *float64 { return &s.MaxCostUSD })
	arenaKeys[keyMaxCalls] = setter(callsValue, func(s *Settings) *int { return &s.MaxCalls })
	arenaKeys[keyMaxTokens] = setter(tokensValue, func(s *Settings) *int64 { return &s.MaxTokens })
	agentFields["billing"] = func(_ *loader, a *challengers.Agent, n *yaml.Node) (err error) {
		a.Billing, err = enumValue(n, challengers.Billings)
		return err
	}
}

func costValue(_ *loader, n *yaml.Node) (float64, error) {
	s, err := scalar(n, "an amount of US dollars")
	if err != nil {
		return 0, err
	}
	return ParseCost(s)
}

func callsValue(_ *loader, n *yaml.Node) (int, error) {
	v, err := intValue(n)
	if err == nil && v < 0 {
		err = fmt.Errorf("must be 0 (no limit) or more, got %d", v)
	}
	return v, err
}

func tokensValue(_ *loader, n *yaml.Node) (int64, error) {
	s, err := scalar(n, "a number of tokens")
	if err != nil {
		return 0, err
	}
	return ParseTokens(s)
}

// ParseCost reads an amount of US dollars: 2, 0.50, $1.50; 0 is no limit.
func ParseCost(s string) (float64, error) {
	t := strings.TrimPrefix(strings.TrimSpace(s), "$")
	v, err := strconv.ParseFloat(t, 64)
	switch {
	case err != nil || math.IsNaN(v) || math.IsInf(v, 0):
		return 0, fmt.Errorf("%q is not an amount of US dollars (use 2, 0.50 or $1.50)", s)
	case v < 0:
		return 0, fmt.Errorf("must be 0 (no limit) or more, got %q", s)
	}
	return v, nil
}

// tokenUnits are decimal: token counts are quoted as 200k, 1M.
var tokenUnits = map[string]float64{"": 1, "k": 1e3, "m": 1e6}

// ParseTokens reads a number of tokens: 200000, 200k, 1.5M; 0 is no
// limit.
func ParseTokens(s string) (int64, error) {
	t := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(s), "_", ""))
	num := strings.TrimRight(t, "km")
	mult, ok := tokenUnits[t[len(num):]]
	v, err := strconv.ParseFloat(num, 64)
	switch {
	case !ok || err != nil || math.IsNaN(v) || math.IsInf(v, 0):
		return 0, fmt.Errorf("%q is not a number of tokens (use 200000, 200k or 1.5M)", s)
	case v < 0:
		return 0, fmt.Errorf("must be 0 (no limit) or more, got %q", s)
	case v*mult > 1e15:
		return 0, fmt.Errorf("%q is too large", s)
	}
	return int64(math.Round(v * mult)), nil
}

// budgetFlags applies --max-cost, --max-calls and --max-tokens.
func (l *loader) budgetFlags() error {
	if p := l.flags.MaxCost; p != nil {
		o := flagOrigin("max-cost")
		v, err := ParseCost(*p)
		if err != nil {
			return o.err(keyMaxCost, err.Error(), err)
		}
		l.s.MaxCostUSD, l.s.src[keyMaxCost] = v, o
	}
	if p := l.flags.MaxCalls; p != nil {
		o := flagOrigin("max-calls")
		if *p < 0 {
			return o.errorf(keyMaxCalls, "must be 0 (no limit) or more, got %d", *p)
		}
		l.s.MaxCalls, l.s.src[keyMaxCalls] = *p, o
	}
	if p := l.flags.MaxTokens; p != nil {
		o := flagOrigin("max-tokens")
		v, err := ParseTokens(*p)
		if err != nil {
			return o.err(keyMaxTokens, err.Error(), err)
		}
		l.s.MaxTokens, l.s.src[keyMaxTokens] = v, o
	}
	return nil
}

// guessBilling gives an agent whose billing is not set the guess arena
// doctor makes, and remembers what it rests on for arena config.
func (l *loader) guessBilling(a *challengers.Agent, m *agentMeta) {
	if a.Billing != "" {
		return
	}
	b, why := challengers.GuessBilling(*a, l.env.Getenv, l.env.Home)
	a.Billing, m.billing = b, "guessed: "+why
}

// BillingSource says where an agent's billing comes from: "guessed: …"
// (what the guess rests on), or the config line that sets it.
func (s *Settings) BillingSource(name string) string {
	m, ok := s.agents[name]
	switch {
	case !ok:
		return ""
	case m.billing != "":
		return m.billing
	}
	return "set at " + m.def.String()
}

// budgetRows are arena config's rows of the budget.
func (s *Settings) budgetRows() []Row {
	limit := func(set bool, v string) string {
		if !set {
			return "0 (no limit)"
		}
		return v
	}
	rows := []Row{
		{keyMaxCost, limit(s.MaxCostUSD > 0, "$"+strconv.FormatFloat(s.MaxCostUSD, 'f', -1, 64)), ""},
		{keyMaxCalls, limit(s.MaxCalls > 0, strconv.Itoa(s.MaxCalls)), ""},
		{keyMaxTokens, limit(s.MaxTokens > 0, strconv.FormatInt(s.MaxTokens, 10)), ""},
	}
	for i := range rows {
		rows[i].Source = s.Source(rows[i].Key)
	}
	return rows
}

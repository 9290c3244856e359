package challengers

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The usage an agent reports (a CLI's stream, an endpoint's usage chunk)
// is data like the rest of what it sends: a count below zero would lift
// --max-tokens, a cost of 1e308 adds up to +Inf. Run takes it in through
// Usage.Clamp, the one place usage enters arena, and so does a log read
// back: what no call can have used is counted as what one can, and the
// Usage says what was reported instead.

// Bounds on what one call can use. The largest context windows hold a
// few million tokens, and the dearest models cost some dollars a call;
// a report past these is not believed.
const (
	// MaxCallTokens is the most tokens, in or out, one call is counted for.
	MaxCallTokens = 10_000_000
	// MaxCallCostUSD is the most dollars one call is counted for.
	MaxCallCostUSD = 1_000.0
)

// Clamp is the usage as arena counts it: a count or a cost below zero is
// 0, one past MaxCallTokens or MaxCallCostUSD (or a cost that is not a
// number) is that bound; Clamped then says what was reported. It returns
// u itself when there is nothing to change (nil stays nil).
func (u *Usage) Clamp() *Usage {
	if u == nil {
		return nil
	}
	var said []string
	tokens := func(name string, n int64) int64 {
		switch {
		case n < 0:
			said = append(said, fmt.Sprintf("%d %s tokens (counted as 0)", n, name))
			return 0
		case n > MaxCallTokens:
			said = append(said, fmt.Sprintf("%d %s tokens (counted as %d, the most one call is believed to use)", n, name, MaxCallTokens))
			return MaxCallTokens
		}
		return n
	}
	c := *u
	c.InputTokens = tokens("input", u.InputTokens)
	c.OutputTokens = tokens("output", u.OutputTokens)
	if u.CostUSD != nil {
		v := *u.CostUSD
		what := "a cost of $" + strconv.FormatFloat(v, 'g', 6, 64)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			what = "a cost that is not a number"
		}
		switch {
		case v < 0:
			said = append(said, what+" (counted as $0)")
			v = 0
		case math.IsNaN(v) || v > MaxCallCostUSD:
			said = append(said, what+fmt.Sprintf(" (counted as $%.0f, the most one call is believed to cost)", MaxCallCostUSD))
			v = MaxCallCostUSD
		}
		c.CostUSD = &v
	}
	if len(said) == 0 {
		return u
	}
	c.Clamped = strings.Join(said, ", ")
	if u.Clamped != "" {
		c.Clamped = u.Clamped + "; " + c.Clamped
	}
	return &c
}

// UnmarshalJSON reads a usage from a log as Run counts an agent's: a
// hand-edited log's -1000000 tokens lift no budget on resume either.
func (u *Usage) UnmarshalJSON(b []byte) error {
	type plain Usage // drops the method, so decoding does not recurse
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*u = *(*Usage)(&p).Clamp()
	return nil
}

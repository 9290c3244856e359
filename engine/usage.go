package engine

import (
	"fmt"

	"github.com/arenadebate/arena/challengers"
)

// Usage adds up what replies cost, telling apart calls whose stream
// reported nothing: "not reported" is never shown as 0.
type Usage struct {
	Replies      int // replies counted
	Reported     int // of which the stream reported tokens
	InputTokens  int64
	OutputTokens int64
	Costed       int // of which the stream reported a cost
	CostUSD      float64
}

// Add counts one reply's usage (nil: the stream reported none).
func (u *Usage) Add(c *challengers.Usage) {
	u.Replies++
	if c == nil {
		return
	}
	u.Reported++
	u.InputTokens += c.InputTokens
	u.OutputTokens += c.OutputTokens
	if c.CostUSD != nil {
		u.Costed++
		u.CostUSD += *c.CostUSD
	}
}

// Tokens says the tokens in and out: "12.3k in · 4.1k out", "not
// reported", or with "(3 of 5 replies)" when only some reported.
func (u Usage) Tokens() string {
	if u.Reported == 0 {
		return "not reported"
	}
	s := fmt.Sprintf("%s in · %s out", count(u.InputTokens), count(u.OutputTokens))
	if u.Reported < u.Replies {
		s += fmt.Sprintf(" (%d of %d replies)", u.Reported, u.Replies)
	}
	return s
}

// Cost says the cost in USD: "$0.0421", or "not reported".
func (u Usage) Cost() string {
	if u.Costed == 0 {
		return "not reported"
	}
	s := fmt.Sprintf("$%.4f", u.CostUSD)
	if u.Costed < u.Replies {
		s += fmt.Sprintf(" (%d of %d replies)", u.Costed, u.Replies)
	}
	return s
}

func count(n int64) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 10_000:
		return fmt.Sprintf("%.0fk", float64(n)/1e3)
	case n >= 1_000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

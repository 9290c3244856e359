package engine

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine/doc"
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

// usageNote is the warning that an agent's reply reported usage no call
// can have used, and what arena counted instead (challengers.Usage.Clamp);
// false when it reported none such.
func usageNote(seat, agent string, u *challengers.Usage) (Note, bool) {
	if u == nil || u.Clamped == "" {
		return Note{}, false
	}
	who := seat
	if agent != seat {
		who += " (" + agent + ")"
	}
	return Note{Level: NoteWarn, Message: who + " reported usage no call can have: " + u.Clamped}, true
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
	s := USD4(u.CostUSD)
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

// Account is what one agent's calls cost in a run.
type Account struct {
	Agent    string
	Calls    int // calls made, failed ones included
	Failures int
	Time     time.Duration // the calls' time, summed
	Usage    Usage         // of the replies
}

// Short says it in one line: "2 calls · 3.1k in · 940 out · $0.0123 · 14s".
func (a Account) Short() string {
	parts := []string{Plural(a.Calls, "call")}
	if a.Failures > 0 {
		parts = append(parts, fmt.Sprintf("%d failed", a.Failures))
	}
	switch {
	case a.Usage.Reported > 0:
		parts = append(parts, fmt.Sprintf("%s in · %s out", count(a.Usage.InputTokens), count(a.Usage.OutputTokens)))
	case a.Usage.Replies > 0:
		parts = append(parts, "tokens not reported")
	}
	if a.Usage.Costed > 0 {
		parts = append(parts, USD4(a.Usage.CostUSD))
	}
	return strings.Join(append(parts, a.Time.Round(100*time.Millisecond).String()), " · ")
}

// Ledger adds up each agent's calls as they finish or fail.
type Ledger struct {
	mu    sync.Mutex
	order []string
	by    map[string]*Account
}

// Record counts a finished or failed call; other events are ignored.
func (l *Ledger) Record(p Payload) {
	var agent string
	var took time.Duration
	var usage *challengers.Usage
	failed, replied := false, false
	switch v := p.(type) {
	case AgentFinished:
		agent, took, usage, replied = v.Agent, v.Duration.D(), v.Usage, true
	case AgentFailed:
		agent, took, failed = v.Agent, v.Duration.D(), true
	default:
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.by == nil {
		l.by = map[string]*Account{}
	}
	a := l.by[agent]
	if a == nil {
		a = &Account{Agent: agent}
		l.by[agent] = a
		l.order = append(l.order, agent)
	}
	a.Calls++
	a.Time += took
	if failed {
		a.Failures++
	}
	if replied {
		a.Usage.Add(usage)
	}
}

// Accounts lists the agents' accounts in the order they were first seen.
func (l *Ledger) Accounts() []Account {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Account, 0, len(l.order))
	for _, n := range l.order {
		out = append(out, *l.by[n])
	}
	return out
}

// Total adds every account up.
func (l *Ledger) Total() Account {
	t := Account{Agent: "total"}
	for _, a := range l.Accounts() {
		t.Calls += a.Calls
		t.Failures += a.Failures
		t.Time += a.Time
		t.Usage.Replies += a.Usage.Replies
		t.Usage.Reported += a.Usage.Reported
		t.Usage.InputTokens += a.Usage.InputTokens
		t.Usage.OutputTokens += a.Usage.OutputTokens
		t.Usage.Costed += a.Usage.Costed
		t.Usage.CostUSD += a.Usage.CostUSD
	}
	return t
}

// CostSection is the outcome document's account of what each agent cost:
// calls, failures, time, tokens and cost as the CLIs reported them ("not
// reported" where they did not, never 0). ok is false when no agent was
// asked.
func CostSection(accts []Account, total Account) (sec doc.Section, ok bool) {
	if len(accts) == 0 {
		return doc.Section{}, false
	}
	rows := [][]string{}
	row := func(a Account, bold bool) {
		name := a.Agent
		if bold {
			name = "**" + name + "**"
		}
		rows = append(rows, []string{name, fmt.Sprint(a.Calls), fmt.Sprint(a.Failures),
			a.Time.Round(100 * time.Millisecond).String(), a.Usage.Tokens(), a.Usage.Cost()})
	}
	for _, a := range accts {
		row(a, false)
	}
	if len(accts) > 1 {
		row(total, true)
	}
	return doc.Section{ID: doc.SectionCosts, Heading: "What each agent cost", Blocks: []doc.Block{
		doc.TableOf([]string{"Agent", "Calls", "Failed", "Time", "Tokens in · out", "Cost (USD)"}, rows),
		doc.Para("Time is the calls' own, summed: calls in parallel overlap. Tokens and cost are what each CLI's or endpoint's stream reported."),
	}}, true
}

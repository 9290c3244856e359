package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine/doc"
)

// A run's budget is what it may spend: calls, tokens, dollars. The
// runtime checks it once, for every protocol, as each call is about to
// start (Runtime.call): a call the budget is already spent for is not
// started, and the run is stopped as over budget, an outcome every
// protocol shares, resumable like an interrupted one.
//
// What counts: every call started (retries and repair requests too, never
// a reply a resumed run takes from its log) against the calls; the
// tokens in and out and the cost that a metered agent's CLI reports
// against the tokens and the dollars. A subscription seat's calls count
// against the calls only: it pays with a plan's quota, not per token.
//
// The check is made per call start, and a cost or a token count is known
// only once a call has finished. So calls started together (a parallel
// ask) are all started while the budget holds, and a run can end above
// its dollars or tokens by what the calls already running when it ran out
// cost; they finish, and their replies are kept for the resumed run. The
// calls limit is never passed: calls are counted as they start.

// ErrOverBudget is the cause a run's context is cancelled with when its
// budget is spent.
var ErrOverBudget = errors.New("over budget")

// OutcomeOverBudget: the run was stopped because its budget was spent.
// Like an interrupted run, it can be resumed (with a higher budget).
const OutcomeOverBudget OutcomeKind = "over_budget"

// Resumable reports whether a run that ended so can be taken up again:
// interrupted, aborted or over budget.
func (k OutcomeKind) Resumable() bool {
	return k == OutcomeInterrupted || k == OutcomeAborted || k == OutcomeOverBudget
}

// Budget is what a run may spend; a zero limit is no limit.
type Budget struct {
	MaxCostUSD float64 `json:"max_cost_usd,omitempty"`
	MaxCalls   int     `json:"max_calls,omitempty"`
	MaxTokens  int64   `json:"max_tokens,omitempty"`
}

// Set reports whether any limit is set.
func (b Budget) Set() bool { return b.MaxCostUSD > 0 || b.MaxCalls > 0 || b.MaxTokens > 0 }

// Spending is what a run has spent, as its budget counts it.
type Spending struct {
	Calls   int     `json:"calls"`
	Tokens  int64   `json:"tokens"`
	CostUSD float64 `json:"cost_usd"`
}

// KindBudget is a BudgetUsed's kind (no version bump: older readers skip
// it).
const KindBudget Kind = "budget"

// BudgetUsed is where a run with a budget stands: emitted when it starts
// (or resumes: with what the earlier run spent), each time a call starts
// or a reply reports its usage, and when the budget stops the run.
type BudgetUsed struct {
	Budget Budget   `json:"budget"`
	Spent  Spending `json:"spent"`
	// Warnings, on the first, name the seats a limit cannot hold (a CLI
	// that reports no cost, a subscription seat).
	Warnings []string `json:"warnings,omitempty"`
	// Over says the budget stopped the run, and which call it did not
	// start.
	Over string `json:"over,omitempty"`
}

func (BudgetUsed) Kind() Kind { return KindBudget }

func init() {
	payloadTypes[KindBudget] = func() Payload { return &BudgetUsed{} }
}

// Words say where the budget stands, each limit set: "$0.42 of $1.00 ·
// 12 of 30 calls · 41k of 100k tokens".
func (u BudgetUsed) Words() string {
	var parts []string
	if u.Budget.MaxCostUSD > 0 {
		parts = append(parts, USD(u.Spent.CostUSD)+" of "+USD(u.Budget.MaxCostUSD))
	}
	if u.Budget.MaxCalls > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d calls", u.Spent.Calls, u.Budget.MaxCalls))
	}
	if u.Budget.MaxTokens > 0 {
		parts = append(parts, count(u.Spent.Tokens)+" of "+count(u.Budget.MaxTokens)+" tokens")
	}
	return strings.Join(parts, " · ")
}

// Share is how much of its tightest limit is spent: 0.5 for half, 1 or
// more once one is spent (0 without a limit).
func (u BudgetUsed) Share() float64 {
	var f float64
	if l := u.Budget.MaxCostUSD; l > 0 {
		f = max(f, u.Spent.CostUSD/l)
	}
	if l := u.Budget.MaxCalls; l > 0 {
		f = max(f, float64(u.Spent.Calls)/float64(l))
	}
	if l := u.Budget.MaxTokens; l > 0 {
		f = max(f, float64(u.Spent.Tokens)/float64(l))
	}
	return f
}

// USD writes dollars for a person: "$1.00", "$0.42", "$0.0042" (a cent's
// fractions where they are all there is). It never writes NaN or Inf
// (oddUSD).
func USD(v float64) string {
	if s, odd := oddUSD(v); odd {
		return s
	}
	switch {
	case v == 0:
		return "$0"
	case math.Abs(v) < 0.1:
		s := strings.TrimRight(strconv.FormatFloat(v, 'f', 4, 64), "0")
		for len(s)-strings.IndexByte(s, '.') < 3 {
			s += "0"
		}
		return "$" + s
	}
	return "$" + strconv.FormatFloat(v, 'f', 2, 64)
}

// USD4 writes dollars to the fraction of a cent, as the cost section
// does: "$0.0421". It never writes NaN or Inf (oddUSD).
func USD4(v float64) string {
	if s, odd := oddUSD(v); odd {
		return s
	}
	return "$" + strconv.FormatFloat(v, 'f', 4, 64)
}

// oddUSD writes an amount no sum of clamped usage reaches (each call
// counts at most challengers.MaxCallCostUSD): one that is not a number
// as such, and one of a billion dollars or more in powers of ten rather
// than in a line of digits.
func oddUSD(v float64) (string, bool) {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "$(not a number)", true
	case math.Abs(v) >= 1e9:
		return "$" + strconv.FormatFloat(v, 'e', 2, 64), true
	}
	return "", false
}

// meter keeps a run's account against its budget.
type meter struct {
	bus    *Bus
	ctx    context.Context         // the protocol's: stop cancels it
	root   context.Context         // the run's own: its end ends every call
	stop   context.CancelCauseFunc // stops the protocol, with ErrOverBudget
	agents map[string]challengers.Agent

	mu       sync.Mutex // held while emitting, so the events come in order
	limit    Budget
	spent    Spending
	warnings []string
	hit      string // the limit that stopped the run: "calls", "cost" or "tokens"
	reason   string // in words ("all 12 calls of the budget made")
	over     string // and what it did not start
}

// startBudget sets up the run's budget (none when opts set no limit),
// emits where it stands, and returns the context the protocol runs in:
// ctx, which the budget cancels when it is spent.
func (rt *Runtime) startBudget(ctx context.Context, opts Options, start DebateStarted) context.Context {
	if !opts.Budget.Set() {
		return ctx
	}
	pctx, stop := context.WithCancelCause(ctx)
	m := &meter{bus: rt.Bus, ctx: pctx, root: ctx, stop: stop, agents: opts.Agents, limit: opts.Budget}
	if r := opts.Resume; r != nil {
		m.spent = spentIn(r.Events, m.billing)
	}
	m.warnings = rt.budgetWarnings(m, start.Seats)
	rt.budget = m
	m.mu.Lock()
	m.bus.Emit(m.event(m.warnings))
	m.mu.Unlock()
	return pctx
}

// billing is how the agent of that name is billed, as the settings say
// (metered when they do not).
func (m *meter) billing(agent string) challengers.Billing {
	return billingOf(m.agents[agent])
}

func billingOf(a challengers.Agent) challengers.Billing {
	if a.Billing == "" {
		return challengers.BillingMetered
	}
	return a.Billing
}

func (m *meter) event(warnings []string) BudgetUsed {
	return BudgetUsed{Budget: m.limit, Spent: m.spent, Warnings: warnings, Over: m.over}
}

// exhausted says which limit is spent, if one is, and in words.
func (m *meter) exhausted() (hit, why string) {
	l, s := m.limit, m.spent
	switch {
	case l.MaxCalls > 0 && s.Calls >= l.MaxCalls:
		return "calls", fmt.Sprintf("all %d calls of the budget made", l.MaxCalls)
	case l.MaxCostUSD > 0 && s.CostUSD >= l.MaxCostUSD:
		return "cost", fmt.Sprintf("%s spent of a %s budget", USD(s.CostUSD), USD(l.MaxCostUSD))
	case l.MaxTokens > 0 && s.Tokens >= l.MaxTokens:
		return "tokens", fmt.Sprintf("%s tokens used of a %s budget", count(s.Tokens), count(l.MaxTokens))
	}
	return "", ""
}

// start counts a call that is about to start, or, when the budget is
// spent, refuses it and stops the run. Safe on a nil meter (no budget).
func (m *meter) start(c CallInfo) bool {
	if m == nil {
		return true
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.over != "" {
		return false
	}
	if hit, why := m.exhausted(); hit != "" {
		what := c.Seat + "'s next call (" + string(c.Task)
		if c.Round > 0 {
			what += ", round " + strconv.Itoa(c.Round)
		}
		what += ")"
		m.hit, m.reason, m.over = hit, why, why+", so "+what+" was not started"
		m.bus.Emit(m.event(nil))
		m.stop(ErrOverBudget)
		return false
	}
	m.spent.Calls++
	m.bus.Emit(m.event(nil))
	return true
}

// ranOut reports whether the budget is spent: the next call would not be
// started. Safe on a nil meter.
func (m *meter) ranOut() bool {
	if m == nil {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	hit, _ := m.exhausted()
	return hit != "" || m.over != ""
}

// replied counts what a reply reports it cost, if its agent is metered.
func (m *meter) replied(a challengers.Agent, u *challengers.Usage) {
	if m == nil || u == nil || billingOf(a) == challengers.BillingSubscription {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.spent.Tokens += u.InputTokens + u.OutputTokens
	if u.CostUSD != nil {
		m.spent.CostUSD += *u.CostUSD
	}
	m.bus.Emit(m.event(nil))
}

// stopped reports whether the budget stopped the run (and not something
// else first: a person's Ctrl+C).
func (m *meter) stopped() bool {
	return m != nil && errors.Is(context.Cause(m.ctx), ErrOverBudget)
}

// stoppedByBudget reports whether ctx (the protocol's, or one it made
// from it) ended because the budget was spent.
func stoppedByBudget(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), ErrOverBudget)
}

// callContext is the context a call runs in: ctx, except that the budget
// running out does not cut off a call already running (it was started
// while the budget held; what it costs is paid either way, and its reply
// is kept). Anything else that ends ctx, and the end of the run, ends it.
func (rt *Runtime) callContext(ctx context.Context) (context.Context, func()) {
	m := rt.budget
	if m == nil {
		return ctx, func() {}
	}
	c, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stopCtx := context.AfterFunc(ctx, func() {
		if !stoppedByBudget(ctx) {
			cancel()
		}
	})
	stopRoot := context.AfterFunc(m.root, cancel)
	return c, func() {
		stopCtx()
		stopRoot()
		cancel()
	}
}

// spentIn is what the calls of a log's events spent: every call started
// (a reply a resumed run reused was not a call), and the tokens and cost
// of the metered agents' replies.
func spentIn(events []Event, billing func(agent string) challengers.Billing) Spending {
	var s Spending
	open := map[string]bool{} // seat → its started call has not ended
	for _, e := range events {
		switch p := e.Payload.(type) {
		case AgentStarted:
			s.Calls++
			open[p.Seat] = true
		case AgentFinished:
			if p.Reused {
				if open[p.Seat] { // its start was the copy's, not a call
					s.Calls--
				}
			} else if u := p.Usage; u != nil && billing(p.Agent) != challengers.BillingSubscription {
				s.Tokens += u.InputTokens + u.OutputTokens
				if u.CostUSD != nil {
					s.CostUSD += *u.CostUSD
				}
			}
			delete(open, p.Seat)
		case AgentFailed:
			delete(open, p.Seat)
		}
	}
	return s
}

// budgetWarnings name the seats' agents a limit cannot hold: a metered
// CLI that reports no cost (or no tokens) escapes --max-cost (or
// --max-tokens); a subscription seat counts against --max-calls only.
func (rt *Runtime) budgetWarnings(m *meter, seats []Seat) []string {
	var noCost, noCostAPI, noTokens, subscribed []string
	seen := map[string]bool{}
	for _, s := range seats {
		a, ok := m.agents[s.Agent]
		if !ok {
			a = challengers.Agent{Name: s.Agent}
		}
		a = rt.swapped(Question{Seat: s.Name, Agent: a}).Agent
		if seen[a.Name] {
			continue
		}
		seen[a.Name] = true
		tokens, cost := a.Reports()
		switch {
		case billingOf(a) == challengers.BillingSubscription:
			subscribed = append(subscribed, a.Name)
		default:
			if !cost && a.IsAPI() {
				noCostAPI = append(noCostAPI, a.Name)
			} else if !cost {
				noCost = append(noCost, a.Name)
			}
			if !tokens {
				noTokens = append(noTokens, a.Name)
			}
		}
	}
	l := m.limit
	var out []string
	unlimited := func(others bool, n int) string {
		if others {
			return ""
		}
		return "; no such limit is set, so nothing limits " + them(n)
	}
	if l.MaxCostUSD > 0 && len(noCost) > 0 {
		out = append(out, fmt.Sprintf("--max-cost cannot hold %s: %s no cost, so only --max-calls and --max-tokens limit %s%s",
			names(noCost), reports(len(noCost)), them(len(noCost)), unlimited(l.MaxCalls > 0 || l.MaxTokens > 0, len(noCost))))
	}
	if l.MaxCostUSD > 0 && len(noCostAPI) > 0 {
		out = append(out, fmt.Sprintf("--max-cost may not hold %s: only some endpoints report a cost (OpenRouter does; OpenAI, Ollama and llama.cpp's server do not), and a call whose endpoint reports none counts no dollars, so only --max-calls and --max-tokens limit %s%s",
			names(noCostAPI), them(len(noCostAPI)), unlimited(l.MaxCalls > 0 || l.MaxTokens > 0, len(noCostAPI))))
	}
	if l.MaxTokens > 0 && len(noTokens) > 0 {
		out = append(out, fmt.Sprintf("--max-tokens cannot hold %s: %s no tokens, so only --max-calls limits %s%s",
			names(noTokens), reports(len(noTokens)), them(len(noTokens)), unlimited(l.MaxCalls > 0, len(noTokens))))
	}
	if (l.MaxCostUSD > 0 || l.MaxTokens > 0) && len(subscribed) > 0 {
		w := fmt.Sprintf("%s billed by subscription (see arena config): %s calls count against --max-calls only, not dollars or tokens",
			names(subscribed)+is(len(subscribed)), their(len(subscribed)))
		if l.MaxCalls == 0 {
			w += "; no --max-calls is set, so nothing limits " + them(len(subscribed))
		}
		out = append(out, w)
	}
	return out
}

func names(ns []string) string {
	if len(ns) <= 1 {
		return strings.Join(ns, "")
	}
	return strings.Join(ns[:len(ns)-1], ", ") + " and " + ns[len(ns)-1]
}

func reports(n int) string {
	if n == 1 {
		return "its CLI reports"
	}
	return "their CLIs report"
}

func them(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

func their(n int) string {
	if n == 1 {
		return "its"
	}
	return "their"
}

func is(n int) string {
	if n == 1 {
		return " is"
	}
	return " are"
}

// budgetOutcome makes the outcome of a run the budget stopped say so: a
// protocol that saw its context end reports an interrupted (or aborted)
// run, and this one was stopped over budget. A protocol that reached a
// decision anyway keeps it. Its document says so first (overBudgetNotice).
func (rt *Runtime) budgetOutcome(out Outcome, logPath string) Outcome {
	m := rt.budget
	if !m.stopped() || (out.Result != OutcomeInterrupted && out.Result != OutcomeAborted) {
		return out
	}
	m.mu.Lock()
	reason := m.reason
	m.mu.Unlock()
	out.Result, out.Stance = OutcomeOverBudget, StancePartial
	out.Summary = overBudgetWords(out) + ": " + reason
	return out
}

// overBudgetWords say where the budget stopped the run: "Over budget
// during the judgement", from where the protocol says it stopped; a
// protocol that says no such thing has its summary said to be over budget.
func overBudgetWords(out Outcome) string {
	if out.Where != "" {
		return "Over budget " + out.Where
	}
	return "Over budget (" + out.Summary + ")"
}

// overBudgetNotice is what the document of a run the budget stopped says
// first: what was not started, and how to carry on with a higher budget.
func (rt *Runtime) overBudgetNotice(logPath string) doc.Notice {
	m := rt.budget
	m.mu.Lock()
	hit, over, limit := m.hit, m.over, m.limit
	m.mu.Unlock()
	resume := "arena resume"
	if logPath != "" {
		resume += " " + logPath
	}
	return doc.Notice{Label: "Over budget", Text: over + ". Calls already running finished, and their replies are in the log. " +
		"Carry on with a higher budget: `" + resume + " " + raised(limit, hit) + "`."}
}

// raised is the flag that raises the limit that was hit: twice as high.
func raised(l Budget, hit string) string {
	switch hit {
	case "calls":
		return "--max-calls " + strconv.Itoa(2*l.MaxCalls)
	case "tokens":
		return "--max-tokens " + strconv.FormatInt(2*l.MaxTokens, 10)
	}
	return "--max-cost " + strconv.FormatFloat(2*l.MaxCostUSD, 'f', -1, 64)
}

// budgetSection says, for the outcome document, what the budget was
// and what of it was spent, and how it was counted (ok false without a
// budget).
func (rt *Runtime) budgetSection() (doc.Section, bool) {
	m := rt.budget
	if m == nil {
		return doc.Section{}, false
	}
	m.mu.Lock()
	u := m.event(nil)
	warnings, over := m.warnings, m.over
	m.mu.Unlock()
	spent := "**Budget:** " + u.Words()
	if rt.resume != nil {
		spent += " (the whole run: its earlier part included)"
	}
	if over != "" {
		spent += ". Stopped over budget: " + over
	}
	blocks := []doc.Block{
		doc.Para(spent + "."),
		doc.Para("Every call started counts against the calls (retries and repair requests too, never a reply reused from the log); " +
			"the tokens and the cost that metered agents' CLIs report count against the tokens and the dollars. " +
			"The budget is checked as each call starts, so calls already running when it ran out finish: " +
			"a run can end above its dollars or tokens by what they cost, never above its calls."),
	}
	if len(warnings) > 0 {
		blocks = append(blocks, doc.Bullets("", warnings...))
	}
	return doc.Section{ID: doc.SectionBudget, Heading: "Budget", Blocks: blocks}, true
}

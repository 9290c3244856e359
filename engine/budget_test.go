package engine_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/arenadebate/arena/engine/doc"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/shape"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/enginetest"
)

// toy is a protocol for the budget's tests: round 1 asks its three seats
// at once, round 2 asks them one after the other. It reports an
// interrupted run when its context ends, as every protocol does.
type toy struct{ agents []challengers.Agent }

func (t toy) Start() engine.DebateStarted {
	st := engine.DebateStarted{Protocol: "toy", Title: "Toy", Topic: "budgets"}
	for _, a := range t.agents {
		st.Seats = append(st.Seats, engine.Seat{Name: a.Name, Agent: a.Name, Role: "seat"})
	}
	return st
}

type text string

func (s text) Display() string                 { return string(s) }
func (s text) Badge() (string, engine.Stance)  { return "ok", engine.StanceNeutral }
func parseText(s string) (engine.Reply, error) { return text(s), nil }
func (t toy) question(a challengers.Agent, round int) engine.Question {
	return engine.Question{Agent: a, Role: "seat", Phase: "ask", Round: round, Task: "ask",
		Prompt: fmt.Sprintf("%s, round %d: %s", a.Name, round, shape.Tag("toy")), Parse: parseText}
}

func (t toy) Run(ctx context.Context, rt *engine.Runtime) engine.Outcome {
	stopped := func(round int) engine.Outcome {
		d := doc.Document{Title: "Toy", Result: "interrupted"}
		d.Add("How far", doc.Para("It stopped."))
		where := fmt.Sprintf("in round %d", round)
		return engine.Outcome{Result: engine.OutcomeInterrupted, Summary: "Interrupted " + where, Where: where, Document: &d}
	}
	rt.Bus.Emit(engine.PhaseStarted{Phase: "ask", Round: 1, Title: "Round 1"})
	var qs []engine.Question
	for _, a := range t.agents {
		qs = append(qs, t.question(a, 1))
	}
	for _, ans := range rt.AskAll(ctx, qs) {
		if ans.Cancelled || ctx.Err() != nil {
			return stopped(1)
		}
	}
	rt.Bus.Emit(engine.PhaseStarted{Phase: "ask", Round: 2, Title: "Round 2"})
	for _, a := range t.agents {
		if ans := rt.Ask(ctx, t.question(a, 2)); ans.Cancelled || ctx.Err() != nil {
			return stopped(2)
		}
	}
	return engine.Outcome{Result: "done", Summary: "Done", Document: &doc.Document{Title: "Toy", Result: "done"}}
}

// costly is a scripted agent whose every reply reports usage.
func costly(name string, billing challengers.Billing) challengers.Agent {
	a := enginetest.Agent(name)
	a.Format, a.Billing = challengers.FormatClaudeStreamJSON, billing
	return a
}

func usage(tokens int64, usd float64) *challengers.Usage {
	return &challengers.Usage{InputTokens: tokens / 2, OutputTokens: tokens - tokens/2, CostUSD: &usd}
}

// script answers every seat's every call, each reply reporting u.
func script(u *challengers.Usage, names ...string) *enginetest.Script {
	s := enginetest.NewScript()
	for _, n := range names {
		s.On(n, "toy", enginetest.Step{Reply: "reply of " + n, Usage: u})
	}
	return s
}

func lastBudget(t *testing.T, events []engine.Event) engine.BudgetUsed {
	t.Helper()
	b := enginetest.Payloads[engine.BudgetUsed](events)
	if len(b) == 0 {
		t.Fatal("no budget event")
	}
	return b[len(b)-1]
}

// Each limit stops the run at the call it has been spent for, and no
// later: round 1's three parallel calls and round 2's first are made,
// round 2's second is not started.
func TestBudgetStopsAtTheRightCall(t *testing.T) {
	agents := []challengers.Agent{costly("a", ""), costly("b", ""), costly("c", "")}
	for _, c := range []struct {
		name   string
		budget engine.Budget
		words  string
	}{
		// 3 calls in round 1 and a's in round 2 make 4.
		{"calls", engine.Budget{MaxCalls: 4}, "4 of 4 calls"},
		// $0.30 a reply: $0.90 after round 1 is under $1, $1.20 after a's is not.
		{"cost", engine.Budget{MaxCostUSD: 1}, "$1.20 of $1.00"},
		// 300 tokens a reply: 900 then 1,200 of 1,000.
		{"tokens", engine.Budget{MaxTokens: 1000}, "1.2k of 1.0k tokens"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := script(usage(300, 0.30), "a", "b", "c")
			out, events := enginetest.RunWith(t, context.Background(), toy{agents}, s, engine.Options{Budget: c.budget, Agents: byName(agents)})
			if out.Result != engine.OutcomeOverBudget {
				t.Fatalf("outcome %s (%s), want over budget", out.Result, out.Summary)
			}
			if n := len(s.Calls()); n != 4 {
				t.Fatalf("%d calls made, want 4", n)
			}
			if got := enginetest.Payloads[engine.AgentStarted](events); len(got) != 4 || got[3].Seat != "a" || got[3].Round != 2 {
				t.Fatalf("calls started: %+v", got)
			}
			b := lastBudget(t, events)
			if b.Words() != c.words || !strings.Contains(b.Over, "b's next call (ask, round 2) was not started") {
				t.Fatalf("budget at the end: %q, over: %q", b.Words(), b.Over)
			}
			if !strings.HasPrefix(out.Summary, "Over budget in round 2: ") {
				t.Fatalf("summary %q", out.Summary)
			}
			for _, want := range []string{"# Toy: over budget\n\n**Over budget in round 2: ", "\n\n> **Over budget:** ", "**Budget:** " + c.words, "Stopped over budget: "} {
				if !strings.Contains(out.Markdown, want) {
					t.Fatalf("the outcome document lacks %q:\n%s", want, out.Markdown)
				}
			}
		})
	}
}

// A budget the run stays within changes nothing but the document's
// account of it; no budget, no budget event.
func TestBudgetThatHoldsLetsTheRunFinish(t *testing.T) {
	agents := []challengers.Agent{costly("a", ""), costly("b", ""), costly("c", "")}
	s := script(usage(300, 0.30), "a", "b", "c")
	out, events := enginetest.RunWith(t, context.Background(), toy{agents}, s, engine.Options{Budget: engine.Budget{MaxCalls: 6, MaxCostUSD: 5}})
	if out.Result != "done" || len(s.Calls()) != 6 {
		t.Fatalf("outcome %s after %d calls", out.Result, len(s.Calls()))
	}
	if b := lastBudget(t, events); b.Words() != "$1.80 of $5.00 · 6 of 6 calls" || b.Over != "" {
		t.Fatalf("budget at the end: %q over %q", b.Words(), b.Over)
	}
	if !strings.Contains(out.Markdown, "**Budget:** $1.80 of $5.00 · 6 of 6 calls.") {
		t.Fatalf("document:\n%s", out.Markdown)
	}
	s = script(usage(300, 0.30), "a", "b", "c")
	_, events = enginetest.RunWith(t, context.Background(), toy{agents}, s, engine.Options{})
	if n := len(enginetest.Payloads[engine.BudgetUsed](events)); n != 0 {
		t.Fatalf("%d budget events in a run without a budget", n)
	}
}

// gated runs the toy with a budget, holding every call that starts until
// the budget has refused one: the calls in flight when it ran out must
// finish, with their replies, and must be all the calls made.
func gated(t *testing.T, agents []challengers.Agent, s *enginetest.Script, budget engine.Budget) (engine.Outcome, []engine.Event) {
	t.Helper()
	gate := make(chan struct{})
	var once sync.Once
	s.Before = func(string, string) { <-gate }
	var mu sync.Mutex
	var events []engine.Event
	bus := engine.NewBus(engine.SinkFunc(func(e engine.Event) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
		if b, ok := e.Payload.(engine.BudgetUsed); ok && b.Over != "" {
			once.Do(func() { close(gate) })
		}
	}))
	out := engine.Run(context.Background(), toy{agents}, bus, engine.Options{Run: s.Run, Budget: budget})
	bus.Close()
	once.Do(func() { close(gate) })
	return out, events
}

// In a parallel ask the calls limit is exact: of three calls asked at
// once with two left, two start and finish, the third is not started.
func TestBudgetInAParallelAskCallsLimit(t *testing.T) {
	agents := []challengers.Agent{costly("a", ""), costly("b", ""), costly("c", "")}
	s := script(usage(300, 0.30), "a", "b", "c")
	out, events := gated(t, agents, s, engine.Budget{MaxCalls: 2})
	if out.Result != engine.OutcomeOverBudget || len(s.Calls()) != 2 {
		t.Fatalf("outcome %s after %d calls", out.Result, len(s.Calls()))
	}
	fin := enginetest.Payloads[engine.AgentFinished](events)
	if len(fin) != 2 || fin[0].Unparseable || fin[1].Unparseable {
		t.Fatalf("the calls in flight did not finish with their replies: %+v", fin)
	}
	if n := len(enginetest.Payloads[engine.AgentFailed](events)); n != 0 {
		t.Fatalf("%d calls failed", n)
	}
	if b := lastBudget(t, events); b.Spent.Calls != 2 || !strings.Contains(b.Over, "round 1) was not started") {
		t.Fatalf("budget %+v", b)
	}
}

// The dollars are known once replies are in: three calls started
// together with the budget unspent all run, and the run ends above it by
// what they cost, as the document says; no call starts after.
func TestBudgetInAParallelAskOvershootsByTheCallsInFlight(t *testing.T) {
	agents := []challengers.Agent{costly("a", ""), costly("b", ""), costly("c", "")}
	s := script(usage(300, 0.30), "a", "b", "c")
	// Round 1's three calls are all running before any replies.
	var mu sync.Mutex
	started, all := 0, make(chan struct{})
	s.Before = func(string, string) {
		mu.Lock()
		started++
		if started == 3 {
			close(all)
		}
		mu.Unlock()
		<-all
	}
	out, events := enginetest.RunWith(t, context.Background(), toy{agents}, s, engine.Options{Budget: engine.Budget{MaxCostUSD: 0.5}})
	if out.Result != engine.OutcomeOverBudget || len(s.Calls()) != 3 {
		t.Fatalf("outcome %s after %d calls", out.Result, len(s.Calls()))
	}
	if b := lastBudget(t, events); b.Words() != "$0.90 of $0.50" || !strings.Contains(b.Over, "a's next call (ask, round 2) was not started") {
		t.Fatalf("budget %q over %q", b.Words(), b.Over)
	}
	if !strings.Contains(out.Markdown, "calls already running when it ran out finish") {
		t.Fatalf("the document does not say how the budget is checked:\n%s", out.Markdown)
	}
}

// A subscription seat's calls count against the calls, never the dollars
// or tokens its CLI reports; the run says so up front.
func TestBudgetSubscriptionSeatCountsCallsOnly(t *testing.T) {
	agents := []challengers.Agent{costly("a", challengers.BillingSubscription), costly("b", challengers.BillingSubscription), costly("c", "")}
	s := script(usage(300, 0.30), "a", "b", "c")
	out, events := enginetest.RunWith(t, context.Background(), toy{agents}, s, engine.Options{Budget: engine.Budget{MaxCostUSD: 1, MaxCalls: 5}, Agents: byName(agents)})
	if out.Result != engine.OutcomeOverBudget || len(s.Calls()) != 5 {
		t.Fatalf("outcome %s after %d calls", out.Result, len(s.Calls()))
	}
	// c's one reply (round 1) cost $0.30; a's and b's are not counted.
	b := lastBudget(t, events)
	if b.Words() != "$0.30 of $1.00 · 5 of 5 calls" || !strings.Contains(b.Over, "c's next call (ask, round 2)") {
		t.Fatalf("budget %q", b.Words())
	}
	first := enginetest.Payloads[engine.BudgetUsed](events)[0]
	if len(first.Warnings) != 1 || !strings.HasPrefix(first.Warnings[0], "a and b are billed by subscription") {
		t.Fatalf("warnings %q", first.Warnings)
	}
}

// A seat whose CLI reports no cost cannot be held to --max-cost: the run
// names it before any call, rather than pretend.
func TestBudgetWarnsOfSeatsItCannotHold(t *testing.T) {
	plain := enginetest.Agent("p") // text: reports nothing
	gem := costly("g", "")
	gem.Format = challengers.FormatGeminiStreamJSON // tokens, no cost
	s := script(nil, "p")
	s.On("g", "toy", enginetest.Step{Reply: "g", Usage: &challengers.Usage{InputTokens: 1}})
	_, events := enginetest.RunWith(t, context.Background(), toy{[]challengers.Agent{plain, gem}}, s, engine.Options{Budget: engine.Budget{MaxCostUSD: 1, MaxTokens: 100}, Agents: byName([]challengers.Agent{plain, gem})})
	b := enginetest.Payloads[engine.BudgetUsed](events)
	if len(b) == 0 || events[1].Kind() != engine.KindBudget {
		t.Fatalf("the budget is not the event after the start: %v", events[1].Kind())
	}
	want := []string{
		"--max-cost cannot hold p and g: their CLIs report no cost, so only --max-calls and --max-tokens limit them",
		"--max-tokens cannot hold p: its CLI reports no tokens, so only --max-calls limits it; no such limit is set, so nothing limits it",
	}
	if strings.Join(b[0].Warnings, "\n") != strings.Join(want, "\n") {
		t.Fatalf("warnings:\n%s", strings.Join(b[0].Warnings, "\n"))
	}
}

// A call that fails is not tried again once the budget is spent.
func TestBudgetStopsARetry(t *testing.T) {
	a := costly("a", "")
	s := enginetest.NewScript().On("a", "toy", enginetest.Step{Reason: challengers.ReasonExit})
	p := protocolFunc(func(ctx context.Context, rt *engine.Runtime) engine.Outcome {
		q := toy{}.question(a, 1)
		q.Retries = 3
		if ans := rt.Ask(ctx, q); !ans.Cancelled {
			t.Errorf("answer %+v: want cancelled (its retry was not started)", ans)
		}
		return engine.Outcome{Result: engine.OutcomeInterrupted, Summary: "Interrupted"}
	})
	out, events := enginetest.RunWith(t, context.Background(), p, s, engine.Options{Budget: engine.Budget{MaxCalls: 2}})
	if out.Result != engine.OutcomeOverBudget || len(s.Calls()) != 2 {
		t.Fatalf("outcome %s after %d calls", out.Result, len(s.Calls()))
	}
	if f := enginetest.Payloads[engine.AgentFailed](events); len(f) != 2 || !f[0].WillRetry || f[1].WillRetry {
		t.Fatalf("failures: %+v", f)
	}
}

// A person's Ctrl+C is an interruption, budget or not: the calls running
// are stopped, and the outcome does not blame the budget.
func TestBudgetInterruptedIsNotOverBudget(t *testing.T) {
	agents := []challengers.Agent{costly("a", ""), costly("b", ""), costly("c", "")}
	s := script(usage(300, 0.30), "a", "b", "c")
	ctx, cancel := context.WithCancel(context.Background())
	s.Before = func(agent, _ string) {
		if agent == "b" {
			cancel()
		}
	}
	out, _ := enginetest.RunWith(t, ctx, toy{agents}, s, engine.Options{Budget: engine.Budget{MaxCalls: 10}})
	if out.Result != engine.OutcomeInterrupted {
		t.Fatalf("outcome %s (%s), want interrupted", out.Result, out.Summary)
	}
}

// Resuming a run stopped over budget with a higher budget finishes it,
// asking nothing twice: the budget is the whole run's, so the earlier
// calls count, and the reused replies do not count again. Resumed with
// the same budget, it stops again at once, asking nothing.
func TestBudgetResume(t *testing.T) {
	agents := []challengers.Agent{costly("a", ""), costly("b", ""), costly("c", "")}
	s := script(usage(300, 0.30), "a", "b", "c")
	out, events := enginetest.RunWith(t, context.Background(), toy{agents}, s, engine.Options{Budget: engine.Budget{MaxCalls: 4}})
	if out.Result != engine.OutcomeOverBudget || !out.Result.Resumable() {
		t.Fatalf("outcome %s", out.Result)
	}
	events = renumber(events)
	resume := func(b engine.Budget) (engine.Outcome, []engine.Event, *enginetest.Script) {
		s := script(usage(300, 0.30), "a", "b", "c")
		r := &engine.Resume{Events: events, Event: engine.Resumed{After: int64(len(events)), Reusable: engine.NewReplayCache(events).Len()}}
		out, evs := enginetest.RunWith(t, context.Background(), toy{agents}, s, engine.Options{Budget: b, Resume: r})
		return out, evs, s
	}

	again, evs, s2 := resume(engine.Budget{MaxCalls: 4})
	if again.Result != engine.OutcomeOverBudget || len(s2.Calls()) != 0 {
		t.Fatalf("resumed with the same budget: %s after %d calls", again.Result, len(s2.Calls()))
	}
	if b := enginetest.Payloads[engine.BudgetUsed](evs); len(b) != 2 || b[0].Spent.Calls != 4 || b[1].Over == "" {
		t.Fatalf("budget events: %+v", b)
	}

	done, evs, s3 := resume(engine.Budget{MaxCalls: 6})
	if done.Result != "done" {
		t.Fatalf("resumed with a higher budget: %s (%s)", done.Result, done.Summary)
	}
	asked := map[string]int{}
	for _, c := range append(s.Calls(), s3.Calls()...) {
		asked[c.Prompt]++
	}
	for p, n := range asked {
		if n != 1 {
			t.Errorf("%q asked %d times", p, n)
		}
	}
	if len(s3.Calls()) != 2 {
		t.Fatalf("the resumed run made %d calls, want 2", len(s3.Calls()))
	}
	if b := lastBudget(t, evs); b.Words() != "$1.80 of $0 · 6 of 6 calls" && b.Words() != "6 of 6 calls" {
		t.Fatalf("budget at the end of the resumed run: %q", b.Words())
	}
	if !strings.Contains(done.Markdown, "6 of 6 calls (the whole run: its earlier part included)") {
		t.Fatalf("document:\n%s", done.Markdown)
	}
}

func byName(agents []challengers.Agent) map[string]challengers.Agent {
	m := map[string]challengers.Agent{}
	for _, a := range agents {
		m[a.Name] = a
	}
	return m
}

// renumber gives events the sequence numbers a log would.
func renumber(events []engine.Event) []engine.Event {
	out := make([]engine.Event, len(events))
	for i, e := range events {
		e.Seq = int64(i + 1)
		out[i] = e
	}
	return out
}

type protocolFunc func(ctx context.Context, rt *engine.Runtime) engine.Outcome

func (protocolFunc) Start() engine.DebateStarted {
	return engine.DebateStarted{Protocol: "x", Seats: []engine.Seat{{Name: "a", Agent: "a"}}}
}
func (f protocolFunc) Run(ctx context.Context, rt *engine.Runtime) engine.Outcome { return f(ctx, rt) }

func TestUSD(t *testing.T) {
	for v, want := range map[float64]string{0: "$0", 1: "$1.00", 0.42: "$0.42", 0.05: "$0.05", 0.0053: "$0.0053", 0.0001: "$0.0001", 12.345: "$12.35", 0.1: "$0.10"} {
		if got := engine.USD(v); got != want {
			t.Errorf("USD(%v) = %s, want %s", v, got, want)
		}
	}
}

// A retry an API agent's busy server asks for is a call: the busy answer
// a failed call that will be retried, the retry a call started, both in
// the events and against --max-calls, which may refuse it.
func TestBusyServersRetryIsACall(t *testing.T) {
	agents := []challengers.Agent{costly("a", ""), costly("b", ""), costly("c", "")}
	busy := func() *enginetest.Script {
		s := script(usage(300, 0.30), "b", "c")
		return s.On("a", "toy", enginetest.Step{Reply: "reply of a", Busy: 1}, enginetest.Step{Reply: "reply of a"})
	}
	out, events := enginetest.RunWith(t, context.Background(), toy{agents}, busy(), engine.Options{Agents: byName(agents)})
	if out.Result != "done" {
		t.Fatalf("outcome %s (%s)", out.Result, out.Summary)
	}
	var aStarts []int
	for _, s := range enginetest.Payloads[engine.AgentStarted](events) {
		if s.Seat == "a" {
			aStarts = append(aStarts, s.Attempt)
		}
	}
	failed := enginetest.Payloads[engine.AgentFailed](events)
	if len(aStarts) != 3 || aStarts[0] != 1 || aStarts[1] != 2 || len(failed) != 1 || failed[0].Attempt != 1 || !failed[0].WillRetry ||
		failed[0].Message != enginetest.BusyWords+"; trying again in 1s, as it asked" {
		t.Fatalf("a's calls started %v, failures %+v", aStarts, failed)
	}
	for _, f := range enginetest.Payloads[engine.AgentFinished](events) {
		if f.Seat == "a" && f.Round == 1 && f.Attempt != 2 {
			t.Fatalf("a's reply in round 1 is attempt %d, want the retry's, 2", f.Attempt)
		}
	}
	if !strings.Contains(out.Markdown, "| a | 3 | 1 |") {
		t.Fatalf("the costs do not count the busy answer as a call:\n%s", out.Markdown)
	}
	// Three calls allowed: round 1's three start, and a's retry is the
	// fourth: refused, the run stops over budget with a's call failed.
	out, events = enginetest.RunWith(t, context.Background(), toy{agents}, busy(), engine.Options{Budget: engine.Budget{MaxCalls: 3}, Agents: byName(agents)})
	if out.Result != engine.OutcomeOverBudget || len(enginetest.Payloads[engine.AgentStarted](events)) != 3 {
		t.Fatalf("outcome %s (%s), %d calls started", out.Result, out.Summary, len(enginetest.Payloads[engine.AgentStarted](events)))
	}
}

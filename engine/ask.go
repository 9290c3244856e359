package engine

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/shape"
)

// This file is the machinery every protocol shares: asking an agent with
// its timeout, streaming its text as events, retrying a failed call,
// asking once more when a reply does not parse, and asking several agents
// in parallel.

// RunFunc runs one agent call; challengers.Run in production.
type RunFunc func(context.Context, challengers.Request) challengers.Result

// Reply is a parsed reply that can show itself: as readable Markdown, and
// as a short badge with the stance a front end colours it by.
type Reply interface {
	Display() string
	Badge() (string, Stance)
}

// Question is one thing to ask one seat.
type Question struct {
	Seat   string // "" means the agent's name
	Agent  challengers.Agent
	Role   Role
	Phase  Phase
	Round  int
	Task   Task
	Shape  string // the reply shape the prompt names (package shape)
	Prompt string
	// Retries is how many times a failed call (timeout, crash, error in
	// the stream) is tried again.
	Retries int
	// Parse reads the reply. An error asks once more with a repair
	// request that quotes it.
	Parse func(text string) (Reply, error)
}

func (q Question) seat() string {
	if q.Seat != "" {
		return q.Seat
	}
	return q.Agent.Name
}

func (q Question) info(attempt int) CallInfo {
	return CallInfo{Seat: q.seat(), Agent: q.Agent.Name, Role: q.Role, Phase: q.Phase, Round: q.Round, Task: q.Task, Attempt: attempt}
}

// Answer is what came of a question.
type Answer struct {
	Reply       Reply // nil when failed or unparseable
	Text        string
	Failed      *challengers.Result // the last failed call, when it failed
	Unparseable bool
	Cancelled   bool
}

// OK reports whether the question got a parsed reply.
func (a Answer) OK() bool { return a.Reply != nil }

// Runtime asks agents and reports every step on the bus.
type Runtime struct {
	Bus *Bus
	Run RunFunc  // nil: challengers.Run
	Env []string // for the agents (nil: this process's)
	// Ledger counts every call it reports (nil: not counted).
	Ledger *Ledger

	budget    *meter // nil: no budget (budget.go)
	mu        sync.Mutex
	resume    *resumeState // nil: not a resumed run
	notesMu   sync.Mutex   // held from taking the notes to publishing what took them
	notes     []ModeratorNote
	lastPhase Phase // of the latest question, to place a moderator's note
	lastRound int
	// asked says a model was asked (or a resumed run's reply reused):
	// a run that never did keeps no log (Run).
	asked atomic.Bool
	keep  []func(Outcome) // what keeps a copy of the outcome (KeepDocument)
}

// emit publishes a call's end and counts it.
func (rt *Runtime) emit(p Payload) {
	if rt.Ledger != nil {
		rt.Ledger.Record(p)
	}
	rt.Bus.Emit(p)
}

// Ask asks one question: one call, a retry after a failure if allowed, a
// repair request if the reply does not parse.
func (rt *Runtime) Ask(ctx context.Context, q Question) Answer {
	q = rt.swapped(q)
	rt.mu.Lock()
	rt.lastPhase, rt.lastRound = q.Phase, q.Round
	rt.mu.Unlock()
	prompt, repaired, attempt := q.Prompt, false, 0
	for {
		attempt++
		if ctx.Err() != nil {
			return Answer{Cancelled: true}
		}
		res, reused := rt.call(ctx, q, prompt, &attempt)
		// A call the budget's end did not cut off (it was running) still
		// counts: its reply is kept, and what comes next is not asked.
		if res.Reason == challengers.ReasonCancelled || ctx.Err() != nil && !stoppedByBudget(ctx) {
			return Answer{Cancelled: true, Failed: &res}
		}
		if !res.OK() {
			stopped := ctx.Err() != nil || rt.budget.ranOut()
			retry := q.Retries > 0 && !stopped && !res.Final
			rt.failed(q, res, attempt, retry)
			switch {
			case stopped && q.Retries > 0:
				rt.budget.start(q.info(attempt + 1)) // refused: the run stops
				return Answer{Cancelled: true, Failed: &res}
			case !retry:
				return Answer{Failed: &res}
			}
			q.Retries--
			continue
		}
		r, err := q.Parse(res.Text)
		if err == nil {
			rt.finished(q, res, attempt, r, nil, reused)
			return Answer{Reply: r, Text: res.Text}
		}
		rt.finished(q, res, attempt, nil, err, reused)
		if repaired {
			return Answer{Text: res.Text, Unparseable: true}
		}
		repaired = true
		prompt = RepairFor(q.Prompt, res.Text, err)
	}
}

// call runs one call, or, in a resumed run, takes its reply from the
// log when the log has it (reused). attempt is the call's number, which
// the retries a busy API server asks for advance (retryHook).
func (rt *Runtime) call(ctx context.Context, q Question, prompt string, attempt *int) (res challengers.Result, reused bool) {
	sh := q.Shape
	if sh == "" {
		sh = shape.Of(q.Prompt) // the tag the prompt carries
	}
	started := AgentStarted{CallInfo: q.info(*attempt), Shape: sh, Timeout: Duration(q.Agent.Timeout), PromptHash: Hash(prompt)}
	rt.asked.Store(true)
	if f, ok := rt.reuse(q, prompt); ok {
		rt.Bus.Emit(started)
		return challengers.Result{Reason: challengers.ReasonOK, Text: f.Text, Usage: f.Usage, Duration: f.Duration.D()}, true
	}
	if !rt.budget.start(started.CallInfo) {
		return challengers.Result{Agent: q.Agent.Name, Reason: challengers.ReasonCancelled, ExitCode: -1}, false
	}
	rt.goLive()
	// A prompt carries exactly the notes published before its
	// AgentStarted: the log says which prompts a note reached.
	rt.notesMu.Lock()
	sent := rt.withNotes(prompt)
	rt.Bus.Emit(started)
	rt.notesMu.Unlock()
	seat := q.seat()
	run := rt.Run
	if run == nil {
		run = challengers.Run
	}
	cctx, done := rt.callContext(ctx)
	defer done()
	return run(cctx, challengers.Request{
		Agent:   q.Agent,
		Prompt:  sent,
		Env:     rt.Env,
		OnChunk: func(text string) { rt.Bus.Emit(Chunk{Seat: seat, Text: text}) },
		Retry:   rt.retryHook(q, started, attempt),
	}), false
}

// retryHook is asked before an API agent's call is tried again because
// its server said it was busy (429, 503): the retry is one more call,
// started like any other. The budget may refuse it (the call then ends
// with the server's answer, and the run stops over budget); else the
// busy answer is a failed call, and the retry a call started, in the
// events, the ledger and the budget.
func (rt *Runtime) retryHook(q Question, started AgentStarted, attempt *int) func(string, time.Duration) bool {
	return func(why string, wait time.Duration) bool {
		next := started
		next.CallInfo = q.info(*attempt + 1)
		if !rt.budget.start(next.CallInfo) {
			return false
		}
		rt.emit(AgentFailed{
			CallInfo: q.info(*attempt), Reason: challengers.ReasonEndpoint, ExitCode: -1, WillRetry: true,
			Message: fmt.Sprintf("%s; trying again in %s, as it asked", why, wait.Round(100*time.Millisecond)),
		})
		*attempt++
		rt.Bus.Emit(next)
		return true
	}
}

func (rt *Runtime) failed(q Question, res challengers.Result, attempt int, retry bool) {
	rt.emit(AgentFailed{
		CallInfo: q.info(attempt), Reason: res.Reason, Message: res.Describe(),
		ExitCode: res.ExitCode, Stderr: Tail(res.Stderr, 2000), WillRetry: retry,
		Duration: Duration(res.Duration),
	})
}

func (rt *Runtime) finished(q Question, res challengers.Result, attempt int, r Reply, perr error, reused bool) {
	ev := AgentFinished{
		CallInfo: q.info(attempt), Text: res.Text, Usage: res.Usage,
		Duration: Duration(res.Duration), Reused: reused,
	}
	if r != nil {
		ev.Reply = CompactJSON(r)
		ev.Display = r.Display()
		ev.Badge, ev.Stance = r.Badge()
	} else {
		ev.Unparseable = true
		ev.ParseError = perr.Error()
		ev.Display = res.Text
		ev.Badge, ev.Stance = "unparseable reply", StanceNeutral
	}
	rt.emit(ev)
	if !reused {
		if n, ok := usageNote(q.seat(), q.Agent.Name, res.Usage); ok {
			rt.Bus.Emit(n)
		}
		rt.budget.replied(q.Agent, res.Usage)
	}
}

// AskAll asks every question at once and returns the answers in order.
// Each call has its own timeout, so the slowest agent, not the sum, sets
// the pace.
//
// A panic in one of them cancels the others and is raised again here,
// once they have returned, for engine.Run to turn into an outcome.
func (rt *Runtime) AskAll(ctx context.Context, qs []Question) []Answer {
	out := make([]Answer, len(qs))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var g Group
	for i, q := range qs {
		g.Go("asking "+q.seat(), cancel, func() { out[i] = rt.Ask(ctx, q) })
	}
	g.Wait()
	return out
}

// Group runs goroutines whose panics are not lost: Wait raises the first
// one again in the waiting goroutine, once every one has returned.
type Group struct {
	wg    sync.WaitGroup
	mu    sync.Mutex
	first *challengers.Panic
}

// Go runs f in a goroutine; if f panics, the panic is said to have
// happened in where ("asking gemini"), unless it says better, and onPanic
// (nil: nothing) is called, to stop the others.
func (g *Group) Go(where string, onPanic func(), f func()) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if p := challengers.Catch(f); p != nil {
			if p.Where == "" {
				p.Where = where
			}
			g.mu.Lock()
			if g.first == nil {
				g.first = p
			}
			g.mu.Unlock()
			if onPanic != nil {
				onPanic()
			}
		}
	}()
}

// Wait waits for every goroutine, then raises the first panic again.
func (g *Group) Wait() {
	g.wg.Wait()
	if g.first != nil {
		panic(g.first)
	}
}

// Note emits a message for the person watching.
func (rt *Runtime) Note(level, format string, args ...any) {
	rt.Bus.Emit(Note{Level: level, Message: fmt.Sprintf(format, args...)})
}

// FailureWords is how an outcome names a failure: "codex timed out in
// round 2" (without the round when round is 0).
func FailureWords(name string, res *challengers.Result, round int) string {
	what := "failed"
	switch {
	case res == nil:
		what = "returned an unparseable reply"
	case res.Reason == challengers.ReasonTimeout:
		what = "timed out"
	case res.Reason == challengers.ReasonNotFound:
		what = "was not found"
	default:
		what = res.Describe()
	}
	if round == 0 {
		return name + " " + what
	}
	return name + " " + what + " in round " + strconv.Itoa(round)
}

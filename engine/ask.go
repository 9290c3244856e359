package engine

import (
	"context"
	"strconv"
	"sync"

	"github.com/arenadebate/arena/challengers"
)

// This file is the machinery every protocol shares: asking an agent with
// its timeout, streaming its text as events, retrying a failed call,
// asking once more when a reply does not parse, and asking several agents
// in parallel.

// RunFunc runs one agent call; challengers.Run in production.
type RunFunc func(context.Context, challengers.Request) challengers.Result

// reply is a parsed reply that can show itself.
type reply interface {
	display() string
	badge() (string, Stance)
}

// question is one thing to ask one agent.
type question struct {
	agent  challengers.Agent
	role   Role
	phase  Phase
	round  int
	task   Task
	prompt string
	// retries is how many times a failed call (timeout, crash, error in
	// the stream) is tried again: the defender gets one, challengers none.
	retries int
	parse   func(text string) (reply, error)
}

// answer is what came of a question.
type answer struct {
	reply       reply // nil when failed or unparseable
	text        string
	failed      *challengers.Result // the last failed call, when it failed
	unparseable bool
	cancelled   bool
}

// asker asks agents and reports every step on the bus.
type asker struct {
	bus *Bus
	run RunFunc
	env []string
}

// ask asks one question: one call, a retry after a failure if allowed, a
// repair request if the reply does not parse.
func (a *asker) ask(ctx context.Context, q question) answer {
	prompt, repaired, attempt := q.prompt, false, 0
	for {
		attempt++
		if ctx.Err() != nil {
			return answer{cancelled: true}
		}
		res := a.call(ctx, q, prompt, attempt)
		if res.Reason == challengers.ReasonCancelled || ctx.Err() != nil {
			return answer{cancelled: true, failed: &res}
		}
		if !res.OK() {
			retry := q.retries > 0
			a.failed(q, res, attempt, retry)
			if !retry {
				return answer{failed: &res}
			}
			q.retries--
			continue
		}
		r, err := q.parse(res.Text)
		if err == nil {
			a.finished(q, res, attempt, r, nil)
			return answer{reply: r, text: res.Text}
		}
		a.finished(q, res, attempt, nil, err)
		if repaired {
			return answer{text: res.Text, unparseable: true}
		}
		repaired = true
		prompt = repairFor(q.prompt, res.Text, err)
	}
}

func (a *asker) call(ctx context.Context, q question, prompt string, attempt int) challengers.Result {
	a.bus.Emit(AgentStarted{
		Agent: q.agent.Name, Role: q.role, Phase: q.phase, Round: q.round,
		Task: q.task, Attempt: attempt, Timeout: Duration(q.agent.Timeout),
	})
	name := q.agent.Name
	return a.run(ctx, challengers.Request{
		Agent:   q.agent,
		Prompt:  prompt,
		Env:     a.env,
		OnChunk: func(text string) { a.bus.Emit(Chunk{Agent: name, Text: text}) },
	})
}

func (a *asker) failed(q question, res challengers.Result, attempt int, retry bool) {
	a.bus.Emit(AgentFailed{
		Agent: q.agent.Name, Role: q.role, Phase: q.phase, Round: q.round,
		Task: q.task, Attempt: attempt, Reason: res.Reason, Message: res.Describe(),
		ExitCode: res.ExitCode, Stderr: tail(res.Stderr, 2000), WillRetry: retry,
		Duration: Duration(res.Duration),
	})
}

func (a *asker) finished(q question, res challengers.Result, attempt int, r reply, perr error) {
	ev := AgentFinished{
		Agent: q.agent.Name, Role: q.role, Phase: q.phase, Round: q.round,
		Task: q.task, Attempt: attempt, Text: res.Text, Usage: res.Usage,
		Duration: Duration(res.Duration),
	}
	if r != nil {
		ev.Reply = compactJSON(r)
		ev.Display = r.display()
		ev.Badge, ev.Stance = r.badge()
	} else {
		ev.Unparseable = true
		ev.ParseError = perr.Error()
		ev.Display = res.Text
		ev.Badge, ev.Stance = "unparseable reply", StanceNeutral
	}
	a.bus.Emit(ev)
}

// askAll asks every question at once and returns the answers in order.
// Each call has its own timeout, so the slowest agent, not the sum, sets
// the pace.
func (a *asker) askAll(ctx context.Context, qs []question) []answer {
	out := make([]answer, len(qs))
	var wg sync.WaitGroup
	for i, q := range qs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = a.ask(ctx, q)
		}()
	}
	wg.Wait()
	return out
}

// failureWords is how the outcome names a failure: "codex timed out in
// round 2".
func failureWords(name string, res *challengers.Result, round int) string {
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
	return name + " " + what + " in round " + strconv.Itoa(round)
}

// Package enginetest runs protocols against scripted agents in unit tests,
// and gives the end-to-end tests and benchmarks, which run the real fake
// CLIs instead, their Sandbox (sandbox.go). A request is recognised
// by the reply shape its prompt names (package shape), as the fake CLIs
// recognise it.
package enginetest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/shape"
	"github.com/arenadebate/arena/engine"
)

// Script stands in for challengers.Run. Each agent has, per reply shape,
// a list of steps: the Nth call gets the Nth, the last repeats. A repair
// request for shape S is looked up as "S.repair", then as S.
type Script struct {
	mu    sync.Mutex
	steps map[string]map[string][]Step // agent → shape → steps
	calls map[string]int               // "agent/shape" → count
	log   []Call
	// Before is called before each call answers, e.g. to cancel mid-run.
	Before func(agent, shape string)
}

// Step is one scripted call.
type Step struct {
	// Reply is marshalled to JSON inside a fence; a string is sent as is;
	// a func(prompt string) any is called with the prompt and its result
	// sent so (a reply that depends on what was asked).
	Reply  any
	Reason challengers.Reason // not ok: the call fails so
	Delay  time.Duration
	// Usage is what the reply reports it cost (nil: nothing, as plain
	// text reports).
	Usage *challengers.Usage
	// Busy is how many times the call's server says it is busy first
	// (an API agent's 429): each time the request's Retry is asked, and a
	// refusal ends the call failed, with the server's words.
	Busy int
}

// BusyWords are what a busy scripted server says.
const BusyWords = "the endpoint is rate limiting (429 Too Many Requests)"

// Call is one call the script answered.
type Call struct {
	Agent, Shape string
	Prompt       string
}

// NewScript returns an empty script.
func NewScript() *Script {
	return &Script{steps: map[string]map[string][]Step{}, calls: map[string]int{}}
}

// On adds steps for an agent's requests of a shape.
func (s *Script) On(agent, replyShape string, steps ...Step) *Script {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.steps[agent] == nil {
		s.steps[agent] = map[string][]Step{}
	}
	s.steps[agent][replyShape] = append(s.steps[agent][replyShape], steps...)
	return s
}

// KindOf is the shape a prompt asks for, with ".repair" for a repair
// request.
func KindOf(prompt string) string {
	k := shape.Of(prompt)
	if k == "" {
		k = "other"
	}
	if shape.IsRepair(prompt) {
		k += ".repair"
	}
	return k
}

// Run answers one call; pass it as engine.Options.Run.
func (s *Script) Run(ctx context.Context, req challengers.Request) challengers.Result {
	kind := KindOf(req.Prompt)
	s.mu.Lock()
	key := req.Agent.Name + "/" + kind
	n := s.calls[key]
	s.calls[key]++
	s.log = append(s.log, Call{Agent: req.Agent.Name, Shape: kind, Prompt: req.Prompt})
	steps := s.steps[req.Agent.Name][kind]
	if len(steps) == 0 && strings.HasSuffix(kind, ".repair") {
		steps = s.steps[req.Agent.Name][strings.TrimSuffix(kind, ".repair")]
	}
	hook := s.Before
	s.mu.Unlock()
	if hook != nil {
		hook(req.Agent.Name, kind)
	}
	if len(steps) == 0 {
		panic(fmt.Sprintf("no script for %s %s", req.Agent.Name, kind))
	}
	st := steps[min(n, len(steps)-1)]
	if st.Delay > 0 {
		select {
		case <-time.After(st.Delay):
		case <-ctx.Done():
		}
	}
	if ctx.Err() != nil {
		return challengers.Result{Agent: req.Agent.Name, Reason: challengers.ReasonCancelled, ExitCode: -1}
	}
	for range st.Busy {
		if req.Retry == nil || !req.Retry(BusyWords, time.Second) {
			return challengers.Result{Agent: req.Agent.Name, Reason: challengers.ReasonEndpoint, Detail: BusyWords, ExitCode: -1}
		}
	}
	if st.Reason != "" && st.Reason != challengers.ReasonOK {
		return challengers.Result{Agent: req.Agent.Name, Reason: st.Reason, ExitCode: 2, Timeout: req.Agent.Timeout}
	}
	reply := st.Reply
	if f, ok := reply.(func(string) any); ok {
		reply = f(req.Prompt)
	}
	text, ok := reply.(string)
	if !ok {
		b, _ := json.Marshal(reply)
		text = "Here is my reply:\n```json\n" + string(b) + "\n```"
	}
	if req.OnChunk != nil {
		half := len(text) / 2
		req.OnChunk(text[:half])
		req.OnChunk(text[half:])
	}
	return challengers.Result{Agent: req.Agent.Name, Reason: challengers.ReasonOK, Text: text, Usage: st.Usage}
}

// Count is how many calls of a shape an agent got ("critique",
// "critique.repair").
func (s *Script) Count(agent, kind string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[agent+"/"+kind]
}

// Calls returns every call, in the order they came.
func (s *Script) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.log...)
}

// Agent is an agent for a script: its command is never run.
func Agent(name string) challengers.Agent {
	return challengers.Agent{Name: name, Command: []string{"true"}, Prompt: challengers.PromptArgv, Format: challengers.FormatText, Timeout: time.Second}
}

// Run runs a protocol against the script and returns its outcome and every
// event it emitted.
func Run(t testing.TB, ctx context.Context, p engine.Protocol, s *Script) (engine.Outcome, []engine.Event) {
	t.Helper()
	return RunWith(t, ctx, p, s, engine.Options{})
}

// RunWith is Run with options of the caller's (a budget, a resume); the
// script answers every call and the environment is a bare one.
func RunWith(t testing.TB, ctx context.Context, p engine.Protocol, s *Script, opts engine.Options) (engine.Outcome, []engine.Event) {
	t.Helper()
	var mu sync.Mutex
	var events []engine.Event
	bus := engine.NewBus(engine.SinkFunc(func(e engine.Event) { mu.Lock(); events = append(events, e); mu.Unlock() }))
	if opts.Resume != nil {
		bus.ContinueAfter(opts.Resume.Event.After)
	}
	opts.Run, opts.Env = s.Run, []string{"PATH=/usr/bin:/bin"}
	out := engine.Run(ctx, p, bus, opts)
	bus.Close()
	mu.Lock()
	defer mu.Unlock()
	return out, events
}

// Payloads picks the payloads of one type out of events.
func Payloads[T engine.Payload](events []engine.Event) []T {
	var out []T
	for _, e := range events {
		if p, ok := e.Payload.(T); ok {
			out = append(out, p)
		}
	}
	return out
}

// Phases lists the phases started, as "phase/round".
func Phases(events []engine.Event) []string {
	var out []string
	for _, p := range Payloads[engine.PhaseStarted](events) {
		out = append(out, fmt.Sprintf("%s/%d", p.Phase, p.Round))
	}
	return out
}

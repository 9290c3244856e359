package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers"
)

// scriptRunner stands in for challengers.Run in unit tests of the protocol
// (end-to-end tests run real fake CLIs). Each agent has, per kind of
// request, a list of outcomes: the Nth call gets the Nth, the last repeats.
type scriptRunner struct {
	mu     sync.Mutex
	steps  map[string]map[string][]step // agent → kind → steps
	calls  map[string]int               // "agent/kind" → count
	log    []call
	before func(agent, kind string) // hook, e.g. to cancel mid-debate
}

type step struct {
	reply  any                // marshalled to JSON; a string is sent as is
	reason challengers.Reason // non-ok: the call fails so
	delay  time.Duration
}

type call struct {
	agent, kind string
	prompt      string
}

func newScript() *scriptRunner {
	return &scriptRunner{steps: map[string]map[string][]step{}, calls: map[string]int{}}
}

func (s *scriptRunner) on(agent, kind string, steps ...step) *scriptRunner {
	if s.steps[agent] == nil {
		s.steps[agent] = map[string][]step{}
	}
	s.steps[agent][kind] = append(s.steps[agent][kind], steps...)
	return s
}

// kindOf reads the shape asked for after the last REQUIRED RESPONSE FORMAT,
// as the fake CLIs do.
func kindOf(prompt string) string {
	i := strings.LastIndex(prompt, "REQUIRED RESPONSE FORMAT")
	tail := prompt[i+1:]
	for _, k := range []struct{ key, kind string }{
		{`"why_disagree"`, "final"}, {`"options"`, "synthesis"}, {`"responses"`, "answer"},
		{`"choice"`, "rebuttal"}, {`"verdict"`, "critique"}, {`"position"`, "opening"},
	} {
		if strings.Contains(tail, k.key) {
			kind := k.kind
			if strings.Contains(prompt, "could not be parsed") {
				kind += ".repair"
			}
			return kind
		}
	}
	return "other"
}

func (s *scriptRunner) run(ctx context.Context, req challengers.Request) challengers.Result {
	kind := kindOf(req.Prompt)
	s.mu.Lock()
	key := req.Agent.Name + "/" + kind
	n := s.calls[key]
	s.calls[key]++
	s.log = append(s.log, call{agent: req.Agent.Name, kind: kind, prompt: req.Prompt})
	steps := s.steps[req.Agent.Name][kind]
	if len(steps) == 0 && strings.HasSuffix(kind, ".repair") {
		steps = s.steps[req.Agent.Name][strings.TrimSuffix(kind, ".repair")]
	}
	hook := s.before
	s.mu.Unlock()
	if hook != nil {
		hook(req.Agent.Name, kind)
	}
	if len(steps) == 0 {
		panic(fmt.Sprintf("no script for %s %s", req.Agent.Name, kind))
	}
	st := steps[min(n, len(steps)-1)]
	if st.delay > 0 {
		select {
		case <-time.After(st.delay):
		case <-ctx.Done():
		}
	}
	if ctx.Err() != nil {
		return challengers.Result{Agent: req.Agent.Name, Reason: challengers.ReasonCancelled, ExitCode: -1}
	}
	if st.reason != "" && st.reason != challengers.ReasonOK {
		return challengers.Result{Agent: req.Agent.Name, Reason: st.reason, ExitCode: 2, Timeout: req.Agent.Timeout}
	}
	text, ok := st.reply.(string)
	if !ok {
		b, _ := json.Marshal(st.reply)
		text = "Here is my reply:\n```json\n" + string(b) + "\n```"
	}
	if req.OnChunk != nil {
		half := len(text) / 2
		req.OnChunk(text[:half])
		req.OnChunk(text[half:])
	}
	return challengers.Result{Agent: req.Agent.Name, Reason: challengers.ReasonOK, Text: text}
}

func (s *scriptRunner) count(agent, kind string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[agent+"/"+kind]
}

// Canned replies.
func openingReply() Opening {
	return Opening{Position: "Move sessions to Postgres.", Reasoning: []string{"one fewer system"}, Confidence: "high",
		Weaknesses: []string{"latency"}, Assumptions: []string{"low write rate"}}
}

func critiqueReply(verdict, strength, confidence string) Critique {
	return Critique{Verdict: verdict, Critique: "the write rate is " + verdict, Evidence: "e", Alternative: "keep Redis",
		Confidence: confidence, ObjectionStrength: strength, AssumptionsChallenged: []string{"low write rate"}}
}

func answerReply(position string, decisions map[string]string) Answer {
	a := Answer{UpdatedPosition: position}
	for _, name := range []string{"gemini", "codex", "qwen"} {
		if d, ok := decisions[name]; ok {
			a.Responses = append(a.Responses, Response{Challenger: name, Decision: d, Explanation: d + " because"})
		}
	}
	return a
}

func rebuttalReply(choice string) Rebuttal {
	return Rebuttal{Choice: choice, Explanation: choice + " because"}
}

func finalReply(who string) Final {
	return Final{WhyDisagree: who + " core", WhatWouldMakeOtherRight: "if x", MyAssumption: who + " assumes y"}
}

func synthesisReply() Synthesis {
	return Synthesis{Options: []Option{{Name: "Postgres", Summary: "s", ChooseIf: []string{"low writes"}}, {Name: "Redis", Summary: "r", ChooseIf: []string{"high writes"}}},
		Recommendation: "Postgres for most", OpenQuestions: []string{"write rate?"}}
}

func agentNamed(name string) challengers.Agent {
	return challengers.Agent{Name: name, Command: []string{"true"}, Prompt: challengers.PromptArgv, Format: challengers.FormatText, Timeout: time.Second}
}

// runDebate runs a debate with the script and returns the outcome and every
// event.
func runDebate(t *testing.T, ctx context.Context, s *scriptRunner, maxRounds int, skeptical bool, names ...string) (Outcome, []Event) {
	t.Helper()
	var mu sync.Mutex
	var events []Event
	bus := NewBus(SinkFunc(func(e Event) { mu.Lock(); events = append(events, e); mu.Unlock() }))
	cfg := Config{
		ID: "test", Topic: "Should we move sessions from Redis to Postgres?",
		Defender: agentNamed("claude"), MaxRounds: maxRounds, Skeptical: skeptical, Run: s.run,
		Env: []string{"PATH=/usr/bin:/bin"},
	}
	for _, n := range names {
		cfg.Challengers = append(cfg.Challengers, agentNamed(n))
	}
	out := Run(ctx, cfg, bus)
	return out, events
}

func payloads[T Payload](events []Event) []T {
	var out []T
	for _, e := range events {
		if p, ok := e.Payload.(T); ok {
			out = append(out, p)
		}
	}
	return out
}

func phases(events []Event) []string {
	var out []string
	for _, p := range payloads[PhaseStarted](events) {
		out = append(out, fmt.Sprintf("%s/%d", p.Phase, p.Round))
	}
	return out
}

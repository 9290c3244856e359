package adversarial

import (
	"context"
	"testing"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/enginetest"
)

type step = enginetest.Step

func newScript() *enginetest.Script { return enginetest.NewScript() }

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

func agentNamed(name string) challengers.Agent { return enginetest.Agent(name) }

// runDebate runs a debate with the script and returns the outcome and every
// event.
func runDebate(t *testing.T, ctx context.Context, s *enginetest.Script, maxRounds int, skeptical bool, names ...string) (engine.Outcome, []engine.Event) {
	t.Helper()
	cfg := Config{
		ID: "test", Topic: "Should we move sessions from Redis to Postgres?",
		Defender: agentNamed("claude"), MaxRounds: maxRounds, Skeptical: skeptical,
	}
	for _, n := range names {
		cfg.Challengers = append(cfg.Challengers, agentNamed(n))
	}
	return enginetest.Run(t, ctx, New(cfg), s)
}

func payloads[T engine.Payload](events []engine.Event) []T { return enginetest.Payloads[T](events) }

func phases(events []engine.Event) []string { return enginetest.Phases(events) }

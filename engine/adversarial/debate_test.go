package engine

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers"
)

var three = []string{"gemini", "codex", "qwen"}

func scriptAll(s *scriptRunner, kind string, st ...step) {
	for _, n := range three {
		s.on(n, kind, st...)
	}
}

func TestFastExitWhenAllAgreeWithHighConfidence(t *testing.T) {
	s := newScript().on("claude", "opening", step{reply: openingReply()})
	scriptAll(s, "critique", step{reply: critiqueReply("agree", "minor", "high")})
	out, events := runDebate(t, context.Background(), s, 5, false, three...)
	if out.Result != OutcomeConsensus {
		t.Fatalf("result = %s (%s)", out.Result, out.Summary)
	}
	want := []string{"preflight/1", "opening/1", "challenge/1", "consensus_check/1", "outcome/1"}
	if got := phases(events); !slices.Equal(got, want) {
		t.Fatalf("phases = %v, want %v", got, want)
	}
	if s.count("claude", "answer") != 0 {
		t.Fatal("the defender was asked to answer on a fast exit")
	}
	if !strings.Contains(out.Markdown, "# Debate outcome: consensus") || !strings.Contains(out.Summary, "agreed with high confidence") {
		t.Fatalf("unexpected report: %s\n%s", out.Summary, out.Markdown)
	}
}

func TestSkepticalRoundOneAgreeCountsAsPartial(t *testing.T) {
	s := newScript().on("claude", "opening", step{reply: openingReply()}).
		on("claude", "answer", step{reply: answerReply("Move sessions to Postgres, with a TTL sweeper.", map[string]string{"gemini": "accept", "codex": "partial", "qwen": "accept"})})
	scriptAll(s, "critique", step{reply: critiqueReply("agree", "minor", "high")})
	out, events := runDebate(t, context.Background(), s, 5, true, three...)
	if out.Result != OutcomeConsensus {
		t.Fatalf("result = %s", out.Result)
	}
	table := payloads[VerdictTable](events)[0]
	for _, r := range table.Rows {
		if r.Verdict != "partial" {
			t.Errorf("%s verdict %q, want partial under skepticism", r.Challenger, r.Verdict)
		}
	}
	if !strings.Contains(table.Decision, "skeptical") || !strings.Contains(table.Decision, "briefly") {
		t.Errorf("decision = %q", table.Decision)
	}
	// All partial + minor: the defender addresses them briefly, then exit.
	started := payloads[AgentStarted](events)
	if !slices.ContainsFunc(started, func(a AgentStarted) bool { return a.Task == TaskAddress }) {
		t.Fatal("the defender was not asked to address the objections briefly")
	}
	if s.count("gemini", "rebuttal") != 0 {
		t.Fatal("a rebuttal was asked after a brief-address exit")
	}
	if got := phases(events); got[len(got)-2] != "confront/1" {
		t.Fatalf("phases = %v", got)
	}
}

func TestBriefAddressExitWithMinorPartials(t *testing.T) {
	s := newScript().on("claude", "opening", step{reply: openingReply()}).
		on("claude", "answer", step{reply: answerReply("Move, with care.", map[string]string{"gemini": "accept", "codex": "reject"})})
	s.on("gemini", "critique", step{reply: critiqueReply("partial", "minor", "medium")})
	s.on("codex", "critique", step{reply: critiqueReply("partial", "minor", "low")})
	out, events := runDebate(t, context.Background(), s, 5, false, "gemini", "codex")
	if out.Result != OutcomeConsensus || !strings.Contains(out.Summary, "minor objections") {
		t.Fatalf("%s: %s", out.Result, out.Summary)
	}
	pos := payloads[PositionUpdated](events)
	if pos[len(pos)-1].Position != "Move, with care." || pos[len(pos)-1].Version != 2 {
		t.Fatalf("position = %+v", pos[len(pos)-1])
	}
}

func TestConfrontAcceptReachesConsensus(t *testing.T) {
	s := newScript().on("claude", "opening", step{reply: openingReply()}).
		on("claude", "answer", step{reply: answerReply("v2", map[string]string{"gemini": "accept", "codex": "reject", "qwen": "partial"})})
	s.on("gemini", "critique", step{reply: critiqueReply("disagree", "strong", "high")})
	s.on("codex", "critique", step{reply: critiqueReply("disagree", "moderate", "high")})
	s.on("qwen", "critique", step{reply: critiqueReply("partial", "moderate", "medium")})
	s.on("codex", "rebuttal", step{reply: rebuttalReply("accept")})
	out, events := runDebate(t, context.Background(), s, 5, false, three...)
	if out.Result != OutcomeConsensus || out.Rounds != 1 {
		t.Fatalf("%s after %d rounds: %s", out.Result, out.Rounds, out.Summary)
	}
	// Only codex disagreed and was rejected; gemini's critique was
	// accepted and qwen's verdict was partial.
	if s.count("codex", "rebuttal") != 1 || s.count("gemini", "rebuttal") != 0 || s.count("qwen", "rebuttal") != 0 {
		t.Fatalf("rebuttals: gemini %d codex %d qwen %d", s.count("gemini", "rebuttal"), s.count("codex", "rebuttal"), s.count("qwen", "rebuttal"))
	}
	if !strings.Contains(out.Markdown, "From gemini:** accept because") {
		t.Errorf("report does not say what the defender learned from gemini:\n%s", out.Markdown)
	}
	want := []string{"preflight/1", "opening/1", "challenge/1", "consensus_check/1", "confront/1", "rebuttal/1", "iteration_check/1", "outcome/1"}
	if got := phases(events); !slices.Equal(got, want) {
		t.Fatalf("phases = %v", got)
	}
}

func TestMaintainToMaxRoundsGivesTradeoff(t *testing.T) {
	s := newScript().on("claude", "opening", step{reply: openingReply()}).
		on("claude", "answer", step{reply: answerReply("v1 still", map[string]string{"gemini": "reject", "codex": "accept"})}, step{reply: answerReply("v1 still", map[string]string{"gemini": "reject"})}).
		on("claude", "final", step{reply: finalReply("claude")}).
		on("claude", "synthesis", step{reply: synthesisReply()})
	s.on("gemini", "critique", step{reply: critiqueReply("disagree", "strong", "high")})
	s.on("codex", "critique", step{reply: critiqueReply("disagree", "strong", "high")})
	s.on("gemini", "rebuttal", step{reply: rebuttalReply("maintain")})
	s.on("gemini", "final", step{reply: finalReply("gemini")})
	out, events := runDebate(t, context.Background(), s, 3, false, "gemini", "codex")
	if out.Result != OutcomeTradeoff || out.Rounds != 3 {
		t.Fatalf("%s after %d rounds", out.Result, out.Rounds)
	}
	if n := s.count("gemini", "rebuttal"); n != 3 {
		t.Fatalf("gemini rebutted %d times, want 3 (one per round)", n)
	}
	if s.count("codex", "final") != 0 {
		t.Fatal("codex was resolved but was asked the final questions")
	}
	for _, want := range []string{"tradeoff identified", "| claude | claude assumes y |", "| gemini | gemini assumes y |", "### Option A: Postgres", "## Recommendation", "write rate?"} {
		if !strings.Contains(out.Markdown, want) {
			t.Errorf("tradeoff document lacks %q:\n%s", want, out.Markdown)
		}
	}
	// Round 2 and 3 prompts tell the defender that gemini maintains.
	var answerPrompts []string
	for _, c := range s.log {
		if c.agent == "claude" && c.kind == "answer" {
			answerPrompts = append(answerPrompts, c.prompt)
		}
	}
	if len(answerPrompts) != 3 || !strings.Contains(answerPrompts[1], "gemini MAINTAINS") || strings.Contains(answerPrompts[1], "CRITIQUE FROM codex") {
		t.Fatalf("round-2 answer prompt does not carry gemini's maintained objection only")
	}
	if got := phases(events); got[len(got)-2] != "assumption_extraction/3" {
		t.Fatalf("phases = %v", got)
	}
}

func TestEscalateGoesBackToConfrontWithClarification(t *testing.T) {
	s := newScript().on("claude", "opening", step{reply: openingReply()}).
		on("claude", "answer", step{reply: answerReply("v1", map[string]string{"gemini": "reject"})}, step{reply: answerReply("v2: add a TTL sweeper", map[string]string{"gemini": "accept"})})
	s.on("gemini", "critique", step{reply: critiqueReply("disagree", "strong", "high")})
	s.on("gemini", "rebuttal", step{reply: Rebuttal{Choice: "ESCALATE", Explanation: "You missed it: expired rows pile up."}})
	out, _ := runDebate(t, context.Background(), s, 5, false, "gemini")
	if out.Result != OutcomeConsensus || out.Rounds != 2 {
		t.Fatalf("%s after %d rounds", out.Result, out.Rounds)
	}
	var second string
	for _, c := range s.log {
		if c.agent == "claude" && c.kind == "answer" {
			second = c.prompt
		}
	}
	if !strings.Contains(second, "Critique: You missed it: expired rows pile up.") {
		t.Fatalf("the escalated clarification is not the critique in round 2:\n%s", second)
	}
	if !strings.Contains(out.Markdown, "v1 → v2") {
		t.Fatalf("position evolution missing:\n%s", out.Markdown)
	}
}

func TestPartialFailuresAreNamedAndTheDebateGoesOn(t *testing.T) {
	s := newScript().on("claude", "opening", step{reply: openingReply()}).
		on("claude", "answer", step{reply: answerReply("v2", map[string]string{"gemini": "reject"})})
	s.on("gemini", "critique", step{reply: critiqueReply("disagree", "strong", "high")})
	s.on("codex", "critique", step{reason: challengers.ReasonTimeout})
	s.on("qwen", "critique", step{reply: "I will not answer in JSON."})
	s.on("gemini", "rebuttal", step{reply: rebuttalReply("accept")})
	out, events := runDebate(t, context.Background(), s, 5, false, three...)
	if out.Result != OutcomeConsensus {
		t.Fatalf("result %s: %s", out.Result, out.Summary)
	}
	if !slices.Contains(out.Failures, "codex timed out in round 1") || !slices.Contains(out.Failures, "qwen returned an unparseable reply in round 1") {
		t.Fatalf("failures = %q", out.Failures)
	}
	if !strings.Contains(out.Markdown, "codex timed out in round 1") {
		t.Fatal("the report does not name the timeout")
	}
	if s.count("qwen", "critique.repair") != 1 {
		t.Fatal("qwen's unparseable critique was not sent a repair request")
	}
	failed := payloads[AgentFailed](events)
	if len(failed) != 1 || failed[0].Agent != "codex" || failed[0].WillRetry {
		t.Fatalf("failures = %+v", failed)
	}
}

func TestEveryChallengerFailingAborts(t *testing.T) {
	s := newScript().on("claude", "opening", step{reply: openingReply()})
	scriptAll(s, "critique", step{reason: challengers.ReasonExit})
	out, _ := runDebate(t, context.Background(), s, 5, false, three...)
	if out.Result != OutcomeAborted || !strings.Contains(out.Summary, "every challenger failed") {
		t.Fatalf("%s: %s", out.Result, out.Summary)
	}
	if !strings.Contains(out.Markdown, "# Debate outcome: aborted") || !strings.Contains(out.Markdown, "How far it got") {
		t.Fatalf("abort report:\n%s", out.Markdown)
	}
}

func TestDefenderFailureIsRetriedOnceThenAborts(t *testing.T) {
	s := newScript().on("claude", "opening", step{reason: challengers.ReasonStreamError}, step{reply: openingReply()})
	scriptAll(s, "critique", step{reply: critiqueReply("agree", "minor", "high")})
	out, events := runDebate(t, context.Background(), s, 5, false, three...)
	if out.Result != OutcomeConsensus {
		t.Fatalf("one defender failure should be retried: %s %s", out.Result, out.Summary)
	}
	if f := payloads[AgentFailed](events); len(f) != 1 || !f[0].WillRetry {
		t.Fatalf("failures = %+v", f)
	}

	s = newScript().on("claude", "opening", step{reply: openingReply()}).
		on("claude", "answer", step{reason: challengers.ReasonTimeout})
	scriptAll(s, "critique", step{reply: critiqueReply("disagree", "strong", "high")})
	out, _ = runDebate(t, context.Background(), s, 5, false, three...)
	if out.Result != OutcomeAborted || s.count("claude", "answer") != 2 {
		t.Fatalf("%s after %d answers: %s", out.Result, s.count("claude", "answer"), out.Summary)
	}
	if !strings.Contains(out.Summary, "defender claude failed in confrontation (round 1) after a retry") {
		t.Fatalf("summary = %q", out.Summary)
	}
}

func TestUnparseableThenRepairedReply(t *testing.T) {
	s := newScript().on("claude", "opening", step{reply: "My position: yes. (no JSON, sorry)"}).
		on("claude", "opening.repair", step{reply: openingReply()})
	scriptAll(s, "critique", step{reply: critiqueReply("agree", "minor", "high")})
	out, events := runDebate(t, context.Background(), s, 5, false, three...)
	if out.Result != OutcomeConsensus {
		t.Fatalf("%s", out.Result)
	}
	fin := payloads[AgentFinished](events)
	if !fin[0].Unparseable || fin[0].ParseError != ErrNoJSON.Error() || fin[1].Unparseable || fin[1].Attempt != 2 {
		t.Fatalf("finished events = %+v / %+v", fin[0], fin[1])
	}
	var repair string
	for _, c := range s.log {
		if c.kind == "opening.repair" {
			repair = c.prompt
		}
	}
	if !strings.Contains(repair, "could not be parsed: no JSON object found") || !strings.Contains(repair, "(no JSON, sorry)") {
		t.Fatalf("repair prompt:\n%s", repair)
	}
}

func TestInterruptedMidDebate(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := newScript().on("claude", "opening", step{reply: openingReply()})
	scriptAll(s, "critique", step{reply: critiqueReply("disagree", "strong", "high"), delay: 10_000_000_000})
	s.before = func(agent, kind string) {
		if kind == "critique" {
			cancel()
		}
	}
	out, events := runDebate(t, ctx, s, 5, false, three...)
	if out.Result != OutcomeInterrupted || !strings.Contains(out.Summary, "parallel challenge") {
		t.Fatalf("%s: %s", out.Result, out.Summary)
	}
	if last := events[len(events)-1]; last.Kind() != KindOutcome {
		t.Fatalf("last event is %s", last.Kind())
	}
	if len(out.Failures) != 0 {
		t.Fatalf("an interruption is not a challenger failure: %q", out.Failures)
	}
}

func TestNoChallengersInstalledAbortsWithTheProtocolMessage(t *testing.T) {
	s := newScript()
	var events []Event
	bus := NewBus(SinkFunc(func(e Event) { events = append(events, e) }))
	missing := agentNamed("gemini")
	missing.Command = []string{"definitely-not-installed-arena-test"}
	out := Run(context.Background(), Config{Topic: "t", Defender: agentNamed("claude"), Challengers: []challengers.Agent{missing}, MaxRounds: 5, Run: s.run, Env: []string{"PATH=/usr/bin:/bin"}}, bus)
	if out.Result != OutcomeAborted || !strings.Contains(out.Summary, "no external challengers available") {
		t.Fatalf("%s: %s", out.Result, out.Summary)
	}
	if len(s.log) != 0 {
		t.Fatal("an agent was asked something in an aborted debate")
	}
}

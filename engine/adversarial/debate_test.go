package adversarial

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/enginetest"
)

var three = []string{"gemini", "codex", "qwen"}

func scriptAll(s *enginetest.Script, kind string, st ...step) {
	for _, n := range three {
		s.On(n, kind, st...)
	}
}

func TestFastExitWhenAllAgreeWithHighConfidence(t *testing.T) {
	s := newScript().On("claude", "opening", step{Reply: openingReply()})
	scriptAll(s, "critique", step{Reply: critiqueReply("agree", "minor", "high")})
	out, events := runDebate(t, context.Background(), s, 5, false, three...)
	if out.Result != OutcomeConsensus {
		t.Fatalf("result = %s (%s)", out.Result, out.Summary)
	}
	want := []string{"preflight/1", "opening/1", "challenge/1", "consensus_check/1", "outcome/1"}
	if got := phases(events); !slices.Equal(got, want) {
		t.Fatalf("phases = %v, want %v", got, want)
	}
	if s.Count("claude", "answer") != 0 {
		t.Fatal("the defender was asked to answer on a fast exit")
	}
	if !strings.Contains(out.Markdown, "# Debate outcome: consensus") || !strings.Contains(out.Summary, "agreed with high confidence") {
		t.Fatalf("unexpected report: %s\n%s", out.Summary, out.Markdown)
	}
}

func TestSkepticalRoundOneAgreeCountsAsPartial(t *testing.T) {
	s := newScript().On("claude", "opening", step{Reply: openingReply()}).
		On("claude", "answer", step{Reply: answerReply("Move sessions to Postgres, with a TTL sweeper.", map[string]string{"gemini": "accept", "codex": "partial", "qwen": "accept"})})
	scriptAll(s, "critique", step{Reply: critiqueReply("agree", "minor", "high")})
	out, events := runDebate(t, context.Background(), s, 5, true, three...)
	if out.Result != OutcomeConsensus {
		t.Fatalf("result = %s", out.Result)
	}
	tables := payloads[engine.Table](events)
	if !strings.Contains(tables[0].Decision, "briefly") {
		t.Errorf("decision = %q", tables[0].Decision)
	}
	// Each table shows what the challenger said beside what it counts as
	// (its pane says AGREE), and says why.
	for _, table := range tables {
		if !strings.HasPrefix(table.Title, "Verdicts") {
			continue
		}
		for _, r := range table.Rows {
			if r.Cells[1] != "agree → partial" || r.Stance != engine.StancePartial {
				t.Errorf("%s: %s verdict %q (%s), want agree → partial under skepticism", table.Title, r.Cells[0], r.Cells[1], r.Stance)
			}
		}
		if !strings.Contains(table.Decision, "skeptical of early agreement: a round-1 agree counts as partial") {
			t.Errorf("%s: decision %q does not say why an agree counts as partial", table.Title, table.Decision)
		}
	}
	// All partial + minor: the defender addresses them briefly, then exit.
	started := payloads[engine.AgentStarted](events)
	if !slices.ContainsFunc(started, func(a engine.AgentStarted) bool { return a.Task == TaskAddress }) {
		t.Fatal("the defender was not asked to address the objections briefly")
	}
	if s.Count("gemini", "rebuttal") != 0 {
		t.Fatal("a rebuttal was asked after a brief-address exit")
	}
	if got := phases(events); got[len(got)-2] != "confront/1" {
		t.Fatalf("phases = %v", got)
	}
}

func TestBriefAddressExitWithMinorPartials(t *testing.T) {
	s := newScript().On("claude", "opening", step{Reply: openingReply()}).
		On("claude", "answer", step{Reply: answerReply("Move, with care.", map[string]string{"gemini": "accept", "codex": "reject"})})
	s.On("gemini", "critique", step{Reply: critiqueReply("partial", "minor", "medium")})
	s.On("codex", "critique", step{Reply: critiqueReply("partial", "minor", "low")})
	out, events := runDebate(t, context.Background(), s, 5, false, "gemini", "codex")
	if out.Result != OutcomeConsensus || !strings.Contains(out.Summary, "minor objections") {
		t.Fatalf("%s: %s", out.Result, out.Summary)
	}
	pos := payloads[engine.PositionUpdated](events)
	if pos[len(pos)-1].Position != "Move, with care." || pos[len(pos)-1].Version != 2 {
		t.Fatalf("position = %+v", pos[len(pos)-1])
	}
}

func TestConfrontAcceptReachesConsensus(t *testing.T) {
	s := newScript().On("claude", "opening", step{Reply: openingReply()}).
		On("claude", "answer", step{Reply: answerReply("v2", map[string]string{"gemini": "accept", "codex": "reject", "qwen": "partial"})})
	s.On("gemini", "critique", step{Reply: critiqueReply("disagree", "strong", "high")})
	s.On("codex", "critique", step{Reply: critiqueReply("disagree", "moderate", "high")})
	s.On("qwen", "critique", step{Reply: critiqueReply("partial", "moderate", "medium")})
	s.On("codex", "rebuttal", step{Reply: rebuttalReply("accept")})
	out, events := runDebate(t, context.Background(), s, 5, false, three...)
	if out.Result != OutcomeConsensus || out.Rounds != 1 {
		t.Fatalf("%s after %d rounds: %s", out.Result, out.Rounds, out.Summary)
	}
	// Only codex disagreed and was rejected; gemini's critique was
	// accepted and qwen's verdict was partial.
	if s.Count("codex", "rebuttal") != 1 || s.Count("gemini", "rebuttal") != 0 || s.Count("qwen", "rebuttal") != 0 {
		t.Fatalf("rebuttals: gemini %d codex %d qwen %d", s.Count("gemini", "rebuttal"), s.Count("codex", "rebuttal"), s.Count("qwen", "rebuttal"))
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
	s := newScript().On("claude", "opening", step{Reply: openingReply()}).
		On("claude", "answer", step{Reply: answerReply("v1 still", map[string]string{"gemini": "reject", "codex": "accept"})}, step{Reply: answerReply("v1 still", map[string]string{"gemini": "reject"})}).
		On("claude", "final", step{Reply: finalReply("claude")}).
		On("claude", "synthesis", step{Reply: synthesisReply()})
	s.On("gemini", "critique", step{Reply: critiqueReply("disagree", "strong", "high")})
	s.On("codex", "critique", step{Reply: critiqueReply("disagree", "strong", "high")})
	s.On("gemini", "rebuttal", step{Reply: rebuttalReply("maintain")})
	s.On("gemini", "final", step{Reply: finalReply("gemini")})
	out, events := runDebate(t, context.Background(), s, 3, false, "gemini", "codex")
	if out.Result != OutcomeTradeoff || out.Rounds != 3 {
		t.Fatalf("%s after %d rounds", out.Result, out.Rounds)
	}
	if n := s.Count("gemini", "rebuttal"); n != 3 {
		t.Fatalf("gemini rebutted %d times, want 3 (one per round)", n)
	}
	if s.Count("codex", "final") != 0 {
		t.Fatal("codex was resolved but was asked the final questions")
	}
	for _, want := range []string{"tradeoff identified", "| claude | claude assumes y |", "| gemini | gemini assumes y |", "### Option A: Postgres", "## Recommendation", "write rate?"} {
		if !strings.Contains(out.Markdown, want) {
			t.Errorf("tradeoff document lacks %q:\n%s", want, out.Markdown)
		}
	}
	// Round 2 and 3 prompts tell the defender that gemini maintains.
	var answerPrompts []string
	for _, c := range s.Calls() {
		if c.Agent == "claude" && c.Shape == "answer" {
			answerPrompts = append(answerPrompts, c.Prompt)
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
	s := newScript().On("claude", "opening", step{Reply: openingReply()}).
		On("claude", "answer", step{Reply: answerReply("v1", map[string]string{"gemini": "reject"})}, step{Reply: answerReply("v2: add a TTL sweeper", map[string]string{"gemini": "accept"})})
	s.On("gemini", "critique", step{Reply: critiqueReply("disagree", "strong", "high")})
	s.On("gemini", "rebuttal", step{Reply: Rebuttal{Choice: "ESCALATE", Explanation: "You missed it: expired rows pile up."}})
	out, _ := runDebate(t, context.Background(), s, 5, false, "gemini")
	if out.Result != OutcomeConsensus || out.Rounds != 2 {
		t.Fatalf("%s after %d rounds", out.Result, out.Rounds)
	}
	var second string
	for _, c := range s.Calls() {
		if c.Agent == "claude" && c.Shape == "answer" {
			second = c.Prompt
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
	s := newScript().On("claude", "opening", step{Reply: openingReply()}).
		On("claude", "answer", step{Reply: answerReply("v2", map[string]string{"gemini": "reject"})})
	s.On("gemini", "critique", step{Reply: critiqueReply("disagree", "strong", "high")})
	s.On("codex", "critique", step{Reason: challengers.ReasonTimeout})
	s.On("qwen", "critique", step{Reply: "I will not answer in JSON."})
	s.On("gemini", "rebuttal", step{Reply: rebuttalReply("accept")})
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
	if s.Count("qwen", "critique.repair") != 1 {
		t.Fatal("qwen's unparseable critique was not sent a repair request")
	}
	failed := payloads[engine.AgentFailed](events)
	if len(failed) != 1 || failed[0].Agent != "codex" || failed[0].WillRetry {
		t.Fatalf("failures = %+v", failed)
	}
}

func TestEveryChallengerFailingAborts(t *testing.T) {
	s := newScript().On("claude", "opening", step{Reply: openingReply()})
	scriptAll(s, "critique", step{Reason: challengers.ReasonExit})
	out, _ := runDebate(t, context.Background(), s, 5, false, three...)
	if out.Result != engine.OutcomeAborted || !strings.Contains(out.Summary, "every challenger failed") {
		t.Fatalf("%s: %s", out.Result, out.Summary)
	}
	if !strings.Contains(out.Markdown, "# Debate outcome: aborted") || !strings.Contains(out.Markdown, "How far it got") {
		t.Fatalf("abort report:\n%s", out.Markdown)
	}
}

func TestDefenderFailureIsRetriedOnceThenAborts(t *testing.T) {
	s := newScript().On("claude", "opening", step{Reason: challengers.ReasonStreamError}, step{Reply: openingReply()})
	scriptAll(s, "critique", step{Reply: critiqueReply("agree", "minor", "high")})
	out, events := runDebate(t, context.Background(), s, 5, false, three...)
	if out.Result != OutcomeConsensus {
		t.Fatalf("one defender failure should be retried: %s %s", out.Result, out.Summary)
	}
	if f := payloads[engine.AgentFailed](events); len(f) != 1 || !f[0].WillRetry {
		t.Fatalf("failures = %+v", f)
	}

	s = newScript().On("claude", "opening", step{Reply: openingReply()}).
		On("claude", "answer", step{Reason: challengers.ReasonTimeout})
	scriptAll(s, "critique", step{Reply: critiqueReply("disagree", "strong", "high")})
	out, _ = runDebate(t, context.Background(), s, 5, false, three...)
	if out.Result != engine.OutcomeAborted || s.Count("claude", "answer") != 2 {
		t.Fatalf("%s after %d answers: %s", out.Result, s.Count("claude", "answer"), out.Summary)
	}
	if !strings.Contains(out.Summary, "defender claude failed in confrontation (round 1) after a retry") {
		t.Fatalf("summary = %q", out.Summary)
	}
}

func TestUnparseableThenRepairedReply(t *testing.T) {
	s := newScript().On("claude", "opening", step{Reply: "My position: yes. (no JSON, sorry)"}).
		On("claude", "opening.repair", step{Reply: openingReply()})
	scriptAll(s, "critique", step{Reply: critiqueReply("agree", "minor", "high")})
	out, events := runDebate(t, context.Background(), s, 5, false, three...)
	if out.Result != OutcomeConsensus {
		t.Fatalf("%s", out.Result)
	}
	fin := payloads[engine.AgentFinished](events)
	if !fin[0].Unparseable || fin[0].ParseError != engine.ErrNoJSON.Error() || fin[1].Unparseable || fin[1].Attempt != 2 {
		t.Fatalf("finished events = %+v / %+v", fin[0], fin[1])
	}
	var repair string
	for _, c := range s.Calls() {
		if c.Shape == "opening.repair" {
			repair = c.Prompt
		}
	}
	if !strings.Contains(repair, "could not be used: no JSON object found") || !strings.Contains(repair, "(no JSON, sorry)") {
		t.Fatalf("repair prompt:\n%s", repair)
	}
}

func TestInterruptedMidDebate(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := newScript().On("claude", "opening", step{Reply: openingReply()})
	scriptAll(s, "critique", step{Reply: critiqueReply("disagree", "strong", "high"), Delay: 10_000_000_000})
	s.Before = func(agent, kind string) {
		if kind == "critique" {
			cancel()
		}
	}
	out, events := runDebate(t, ctx, s, 5, false, three...)
	if out.Result != engine.OutcomeInterrupted || !strings.Contains(out.Summary, "parallel challenge") {
		t.Fatalf("%s: %s", out.Result, out.Summary)
	}
	if last := events[len(events)-1]; last.Kind() != engine.KindOutcome {
		t.Fatalf("last event is %s", last.Kind())
	}
	if len(out.Failures) != 0 {
		t.Fatalf("an interruption is not a challenger failure: %q", out.Failures)
	}
}

func TestNoChallengersInstalledAbortsWithTheProtocolMessage(t *testing.T) {
	s := newScript()
	missing := agentNamed("gemini")
	missing.Command = []string{"definitely-not-installed-arena-test"}
	out, _ := enginetest.Run(t, context.Background(), New(Config{Topic: "t", Defender: agentNamed("claude"), Challengers: []challengers.Agent{missing}, MaxRounds: 5}), s)
	if out.Result != engine.OutcomeAborted || !strings.Contains(out.Summary, "no external challengers available") {
		t.Fatalf("%s: %s", out.Result, out.Summary)
	}
	if len(s.Calls()) != 0 {
		t.Fatal("an agent was asked something in an aborted debate")
	}
}

// The ledger on a scripted debate: after round one the defender and qwen
// (partial) are for the position, gemini and codex against: no majority.
// The defender amends its position taking up qwen's critique, which
// brought a figure nobody had given; gemini accepts after an answer that
// brings a new figure; codex accepts after an answer that brings nothing
// new, and is flagged as conformity. The debate changed the result.
func TestTheLedgerTellsEvidenceFromConformity(t *testing.T) {
	crit := func(verdict, text, evidence string) Critique {
		return Critique{Verdict: verdict, Critique: text, Evidence: evidence, Alternative: "keep Redis",
			Confidence: "high", ObjectionStrength: "strong", AssumptionsChallenged: []string{}}
	}
	ans := Answer{UpdatedPosition: "Move sessions to Postgres, with a cache in front.", Responses: []Response{
		{Challenger: "gemini", Decision: "reject", Explanation: "The pool is sized for 400 connections; reads take 0.4 ms."},
		{Challenger: "codex", Decision: "reject", Explanation: "We simply disagree on the risk."},
		{Challenger: "qwen", Decision: "partial", Explanation: "A cache absorbs the login storm."},
	}}
	s := newScript().On("claude", "opening", step{Reply: openingReply()}).
		On("claude", "answer", step{Reply: ans})
	s.On("gemini", "critique", step{Reply: crit("disagree", "the pool will saturate", "no numbers given")})
	s.On("codex", "critique", step{Reply: crit("disagree", "too risky", "gut feeling")})
	s.On("qwen", "critique", step{Reply: crit("partial", "login storms hurt", "after a deploy 1,800 logins/s hit the primary")})
	s.On("gemini", "rebuttal", step{Reply: Rebuttal{Choice: "accept", Explanation: "Those numbers settle it."}})
	s.On("codex", "rebuttal", step{Reply: Rebuttal{Choice: "accept", Explanation: "Fine, I go along with the others."}})
	out, events := runDebate(t, context.Background(), s, 3, false, three...)
	if out.Result != OutcomeConsensus {
		t.Fatalf("%s: %s", out.Result, out.Summary)
	}
	ls := payloads[engine.DebateLedger](events)
	if len(ls) != 1 {
		t.Fatalf("%d ledgers", len(ls))
	}
	l := ls[0]
	if l.Vote != "no majority (2 for, 2 against)" || !l.Changed || l.Result != "consensus on the position as amended (version 2)" || len(l.Positions) != 4 ||
		l.VoteVerdict != "" || l.ResultVerdict != "improve" {
		t.Fatalf("ledger %+v", l)
	}
	if l.Positions[1].Seat != "gemini" || l.Positions[1].Position != "disagree (strong objection)" {
		t.Fatalf("positions %+v", l.Positions)
	}
	if len(l.Moves) != 3 {
		t.Fatalf("moves %+v", l.Moves)
	}
	def, g, c := l.Moves[0], l.Moves[1], l.Moves[2]
	if def.Seat != "claude" || def.On != "position" || def.From != "version 1" || def.To != "version 2" || def.Conformity || !slices.Equal(def.Evidence, []string{"figure 1,800"}) {
		t.Fatalf("the defender's move %+v", def)
	}
	if g.Seat != "gemini" || g.From != "disagree" || g.Conformity || !slices.Equal(g.Evidence, []string{"figure 400", "figure 0.4 ms"}) {
		t.Fatalf("gemini's move %+v", g)
	}
	if c.Seat != "codex" || !c.Conformity || c.Toward != "claude" {
		t.Fatalf("codex's move %+v", c)
	}
	for _, w := range []string{"## Debate ledger", "**The debate changed the result.**", "- codex (codex): verdict disagree → accepts the position (version 2) (round 1), toward claude — ⚠ **no new evidence (conformity)**"} {
		if !strings.Contains(out.Markdown, w) {
			t.Errorf("document lacks %q\n%s", w, out.Markdown)
		}
	}
	tables := payloads[engine.Table](events)
	if lt := tables[len(tables)-1]; !strings.HasPrefix(lt.Title, "Debate ledger") || !strings.Contains(lt.Decision, "3 moves, 1 without new evidence (conformity)") {
		t.Fatalf("ledger table %+v", lt)
	}
}

// A fast exit debated nothing: no ledger.
func TestNoLedgerWithoutADebate(t *testing.T) {
	s := newScript().On("claude", "opening", step{Reply: openingReply()})
	scriptAll(s, "critique", step{Reply: critiqueReply("agree", "minor", "high")})
	_, events := runDebate(t, context.Background(), s, 5, false, three...)
	if n := len(payloads[engine.DebateLedger](events)); n != 0 {
		t.Fatalf("%d ledgers", n)
	}
}

package adversarial

import (
	"testing"

	"github.com/arenadebate/arena/engine"
)

func TestConsensusCheck(t *testing.T) {
	c := func(v, s, conf string) Critique { return Critique{Verdict: v, ObjectionStrength: s, Confidence: conf} }
	cases := []struct {
		name string
		in   []Critique
		want ConsensusDecision
	}{
		{"all agree high", []Critique{c("agree", "minor", "high"), c("agree", "minor", "high")}, DecideFastExit},
		{"agree but one medium confidence, minor", []Critique{c("agree", "minor", "high"), c("agree", "minor", "medium")}, DecideBriefAddress},
		{"all partial minor", []Critique{c("partial", "minor", "high"), c("partial", "minor", "low")}, DecideBriefAddress},
		{"partial moderate", []Critique{c("partial", "minor", "high"), c("partial", "moderate", "high")}, DecideConfront},
		{"any disagree strong", []Critique{c("agree", "minor", "high"), c("disagree", "strong", "high")}, DecideConfront},
		{"disagree minor is still a disagreement", []Critique{c("partial", "minor", "high"), c("disagree", "minor", "low")}, DecideConfront},
		{"mixed", []Critique{c("agree", "minor", "high"), c("partial", "moderate", "medium"), c("disagree", "moderate", "low")}, DecideConfront},
		{"nobody answered", nil, DecideConfront},
	}
	for _, tc := range cases {
		if got := consensusCheck(tc.in); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestEffectiveVerdict(t *testing.T) {
	if effectiveVerdict("agree", 1, true) != "partial" {
		t.Error("skeptical round 1 agree should count as partial")
	}
	if effectiveVerdict("agree", 1, false) != "agree" || effectiveVerdict("agree", 2, true) != "agree" || effectiveVerdict("disagree", 1, true) != "disagree" {
		t.Error("skepticism applies to round-1 agreement only")
	}
}

func TestAfterAnswerAndRebuttal(t *testing.T) {
	cases := []struct {
		verdict, decision string
		want              seatStatus
	}{
		{"disagree", "reject", seatAnswered},
		{"disagree", "partial", seatAnswered},
		{"disagree", "accept", seatResolved},
		{"partial", "reject", seatResolved},
		{"agree", "partial", seatResolved},
	}
	for _, tc := range cases {
		if got := afterAnswer(tc.verdict, tc.decision); got != tc.want {
			t.Errorf("afterAnswer(%s, %s) = %s, want %s", tc.verdict, tc.decision, got, tc.want)
		}
	}
	for choice, want := range map[string]seatStatus{"accept": seatResolved, "maintain": seatMaintains, "escalate": seatEscalated} {
		if got := afterRebuttal(choice); got != want {
			t.Errorf("afterRebuttal(%s) = %s", choice, got)
		}
	}
}

func TestIterationCheck(t *testing.T) {
	if iterationCheck(2, 5, 0) != IterConsensus || iterationCheck(2, 5, 1) != IterNextRound ||
		iterationCheck(5, 5, 1) != IterExtract || iterationCheck(5, 5, 0) != IterConsensus {
		t.Fatal("iteration check rules broken")
	}
}

func TestNext(t *testing.T) {
	live := func() []*seat { return []*seat{{name: "g", status: seatActive}} }
	cases := []struct {
		name  string
		state state
		want  engine.Phase
	}{
		{"preflight", state{phase: PhasePreflight, seats: live()}, PhaseOpening},
		{"abort wins", state{phase: PhaseOpening, abort: "x", seats: live()}, engine.PhaseOutcome},
		{"interrupted wins", state{phase: PhaseChallenge, interrupted: true, seats: live()}, engine.PhaseOutcome},
		{"all failed after challenge", state{phase: PhaseChallenge, seats: []*seat{{status: seatFailed}}}, engine.PhaseOutcome},
		{"challenge", state{phase: PhaseChallenge, seats: live()}, PhaseConsensusCheck},
		{"fast exit", state{phase: PhaseConsensusCheck, decision: DecideFastExit, seats: live()}, engine.PhaseOutcome},
		{"brief address confronts", state{phase: PhaseConsensusCheck, decision: DecideBriefAddress, seats: live()}, PhaseConfront},
		{"brief address then exits", state{phase: PhaseConfront, decision: DecideBriefAddress, seats: live()}, engine.PhaseOutcome},
		{"rebuttal when answered", state{phase: PhaseConfront, decision: DecideConfront, seats: []*seat{{status: seatAnswered}}}, PhaseRebuttal},
		{"no rebuttal when all resolved", state{phase: PhaseConfront, decision: DecideConfront, seats: []*seat{{status: seatResolved}}}, PhaseIterationCheck},
		{"rebuttal to check", state{phase: PhaseRebuttal, seats: live()}, PhaseIterationCheck},
		{"next round", state{phase: PhaseIterationCheck, iter: IterNextRound, seats: live()}, PhaseConfront},
		{"extract", state{phase: PhaseIterationCheck, iter: IterExtract, seats: live()}, PhaseAssumptionExtraction},
		{"consensus", state{phase: PhaseIterationCheck, iter: IterConsensus, seats: live()}, engine.PhaseOutcome},
		{"extraction ends", state{phase: PhaseAssumptionExtraction, seats: live()}, engine.PhaseOutcome},
	}
	for _, tc := range cases {
		s := tc.state
		if got := next(&s); got != tc.want {
			t.Errorf("%s: next = %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestOutcomeKind(t *testing.T) {
	live := []*seat{{status: seatResolved}}
	if outcomeKind(&state{interrupted: true, abort: "x", seats: live}) != engine.OutcomeInterrupted ||
		outcomeKind(&state{abort: "x", seats: live}) != engine.OutcomeAborted ||
		outcomeKind(&state{seats: []*seat{{status: seatFailed}}}) != engine.OutcomeAborted ||
		outcomeKind(&state{iter: IterExtract, seats: live}) != OutcomeTradeoff ||
		outcomeKind(&state{seats: live}) != OutcomeConsensus {
		t.Fatal("outcome kinds wrong")
	}
}

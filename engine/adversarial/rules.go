package adversarial

// The rules of the adversarial protocol, as pure functions of the debate
// state: no processes, no I/O, no events. debate.go does the asking and
// calls these to decide what happens next.

// ConsensusDecision is what the consensus check after the challenge decides.
type ConsensusDecision string

const (
	DecideFastExit     ConsensusDecision = "fast-exit"     // all agree with high confidence
	DecideBriefAddress ConsensusDecision = "brief-address" // all partial with minor objections
	DecideConfront     ConsensusDecision = "confront"      // any strong disagreement, or mixed verdicts
)

// seatStatus is where a challenger stands.
type seatStatus string

const (
	seatActive    seatStatus = "active"    // its critique awaits the defender's answer
	seatAnswered  seatStatus = "answered"  // answered; awaiting its rebuttal
	seatResolved  seatStatus = "resolved"  // nothing left to settle
	seatMaintains seatStatus = "maintains" // still disagrees; back to confront
	seatEscalated seatStatus = "escalated" // says the defender missed the point; back to confront
	seatFailed    seatStatus = "failed"    // timed out, crashed or replied nonsense
)

// open reports whether the seat's disagreement is unresolved.
func (s seatStatus) open() bool {
	return s == seatActive || s == seatAnswered || s == seatMaintains || s == seatEscalated
}

// effectiveVerdict applies skepticism of early agreement: with it, an
// "agree" in round 1 counts as "partial" (did they engage seriously or
// rubber-stamp?).
func effectiveVerdict(verdict string, round int, skeptical bool) string {
	if skeptical && round == 1 && verdict == "agree" {
		return "partial"
	}
	return verdict
}

// consensusCheck applies the protocol's consensus rules to the verdicts of
// the challengers that answered (verdicts already made effective):
//   - all agree with high confidence → fast exit;
//   - all partial (or agree) with minor objections → address briefly, exit;
//   - any disagree, any stronger objection, or mixed → confront.
func consensusCheck(critiques []Critique) ConsensusDecision {
	if len(critiques) == 0 {
		return DecideConfront
	}
	allAgreeHigh, allMinor := true, true
	for _, c := range critiques {
		if c.Verdict != "agree" || c.Confidence != "high" {
			allAgreeHigh = false
		}
		if c.Verdict == "disagree" || c.ObjectionStrength != "minor" {
			allMinor = false
		}
	}
	switch {
	case allAgreeHigh:
		return DecideFastExit
	case allMinor:
		return DecideBriefAddress
	}
	return DecideConfront
}

// blocking says whether a critique blocks consensus in the verdict table.
func blocking(c Critique) bool {
	return c.Verdict == "disagree" || c.ObjectionStrength == "strong"
}

// afterAnswer is where a challenger stands once the defender has answered
// its critique. Only a challenger that disagreed and whose critique was
// rejected is asked for a rebuttal; a partial acceptance counts as a
// rejection of the rest (the protocol's rebuttal prompt shows "Claude's
// rejection/partial acceptance"). An accepted critique, or a partial or
// agreeing verdict that the defender has answered, is resolved.
func afterAnswer(verdict, decision string) seatStatus {
	if verdict == "disagree" && decision != "accept" {
		return seatAnswered
	}
	return seatResolved
}

// afterRebuttal is where a challenger stands after its rebuttal.
func afterRebuttal(choice string) seatStatus {
	switch choice {
	case "accept":
		return seatResolved
	case "escalate":
		return seatEscalated
	}
	return seatMaintains
}

// IterationDecision is what the iteration check decides.
type IterationDecision string

const (
	IterConsensus IterationDecision = "consensus"  // all issues resolved
	IterNextRound IterationDecision = "next-round" // unresolved, rounds left
	IterExtract   IterationDecision = "extract"    // unresolved at the limit
)

// iterationCheck decides after a round's rebuttals.
func iterationCheck(round, maxRounds, unresolved int) IterationDecision {
	switch {
	case unresolved == 0:
		return IterConsensus
	case round < maxRounds:
		return IterNextRound
	}
	return IterExtract
}

package adversarial

import (
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/doc"

	"github.com/arenadebate/arena/challengers"
)

// seat is one challenger's place in the debate.
type seat struct {
	name     string
	agent    challengers.Agent
	status   seatStatus
	critique Critique // what the defender answers: the critique, or its escalation
	verdict  string   // effective verdict
	followup string   // what it said after the defender's last answer
	response *Response
	failure  string   // "timed out in round 2"
	learned  []string // what the defender accepted from it
}

// state is everything the rules look at.
type state struct {
	phase       engine.Phase
	round       int
	maxRounds   int
	skeptical   bool
	defender    string
	seats       []*seat
	opening     *Opening
	positions   []string // v1, v2, ...
	decision    ConsensusDecision
	iter        IterationDecision
	abort       string // why the debate was aborted
	interrupted bool
	synthesis   *Synthesis
	finals      map[string]Final // party → answers to the final questions
	audit       []auditEntry
	ledger      *doc.Section // the outcome document's debate ledger section (nil for none)
}

// auditEntry is one reply (or failure) for the audit trail.
type auditEntry struct {
	Round int
	Phase engine.Phase
	Agent string
	Task  engine.Task
	Body  string
}

func (s *state) live() []*seat {
	var out []*seat
	for _, st := range s.seats {
		if st.status != seatFailed {
			out = append(out, st)
		}
	}
	return out
}

func (s *state) withStatus(statuses ...seatStatus) []*seat {
	var out []*seat
	for _, st := range s.seats {
		for _, want := range statuses {
			if st.status == want {
				out = append(out, st)
				break
			}
		}
	}
	return out
}

func (s *state) unresolved() []*seat {
	var out []*seat
	for _, st := range s.seats {
		if st.status.open() {
			out = append(out, st)
		}
	}
	return out
}

func (s *state) position() string {
	if len(s.positions) == 0 {
		return ""
	}
	return s.positions[len(s.positions)-1]
}

func (s *state) failures() []string {
	var out []string
	for _, st := range s.seats {
		if st.failure != "" {
			out = append(out, st.failure)
		}
	}
	return out
}

// next is the protocol's transition function: given the state at the end
// of a phase, the phase that comes next.
func next(s *state) engine.Phase {
	if s.interrupted || s.abort != "" {
		return engine.PhaseOutcome
	}
	if s.phase != PhasePreflight && s.phase != PhaseOpening && len(s.live()) == 0 {
		return engine.PhaseOutcome // every challenger has failed
	}
	switch s.phase {
	case PhasePreflight:
		return PhaseOpening
	case PhaseOpening:
		return PhaseChallenge
	case PhaseChallenge:
		return PhaseConsensusCheck
	case PhaseConsensusCheck:
		if s.decision == DecideFastExit {
			return engine.PhaseOutcome
		}
		return PhaseConfront
	case PhaseConfront:
		if s.decision == DecideBriefAddress {
			return engine.PhaseOutcome
		}
		if len(s.withStatus(seatAnswered)) > 0 {
			return PhaseRebuttal
		}
		return PhaseIterationCheck
	case PhaseRebuttal:
		return PhaseIterationCheck
	case PhaseIterationCheck:
		switch s.iter {
		case IterNextRound:
			return PhaseConfront
		case IterExtract:
			return PhaseAssumptionExtraction
		}
	}
	return engine.PhaseOutcome
}

// outcomeKind says how a debate that reached the outcome phase ended.
func outcomeKind(s *state) engine.OutcomeKind {
	switch {
	case s.interrupted:
		return engine.OutcomeInterrupted
	case s.abort != "":
		return engine.OutcomeAborted
	case len(s.live()) == 0:
		return engine.OutcomeAborted
	case s.iter == IterExtract:
		return OutcomeTradeoff
	}
	return OutcomeConsensus
}

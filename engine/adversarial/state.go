package engine

import (
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
	phase       Phase
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
}

// auditEntry is one reply (or failure) for the audit trail.
type auditEntry struct {
	Round int
	Phase Phase
	Agent string
	Task  Task
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
func next(s *state) Phase {
	if s.interrupted || s.abort != "" {
		return PhaseOutcome
	}
	if s.phase != PhasePreflight && s.phase != PhaseOpening && len(s.live()) == 0 {
		return PhaseOutcome // every challenger has failed
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
			return PhaseOutcome
		}
		return PhaseConfront
	case PhaseConfront:
		if s.decision == DecideBriefAddress {
			return PhaseOutcome
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
	return PhaseOutcome
}

// outcomeKind says how a debate that reached the outcome phase ended.
func outcomeKind(s *state) OutcomeKind {
	switch {
	case s.interrupted:
		return OutcomeInterrupted
	case s.abort != "":
		return OutcomeAborted
	case len(s.live()) == 0:
		return OutcomeAborted
	case s.iter == IterExtract:
		return OutcomeTradeoff
	}
	return OutcomeConsensus
}

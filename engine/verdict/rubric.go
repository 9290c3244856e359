// Package verdict is arena's quality gate: judges score a finished piece
// of work on the three KLS dimensions (semantic, pragmatic, syntactic),
// and arena — never the model — turns the scores into accept, improve or
// reject, then into a final decision by the quick → deep → tiebreaker
// protocol, escalating to a human where the models cannot settle it.
package verdict

import (
	"fmt"
	"math"
)

// Verdict is a judge's verdict, or the final decision.
type Verdict string

const (
	Accept  Verdict = "accept"
	Improve Verdict = "improve"
	Reject  Verdict = "reject"
	// Escalate hands the decision to a human; only a final decision is
	// escalate, never one judge's verdict.
	Escalate Verdict = "escalate"
)

// judgeVerdicts are the verdicts a model may state.
var judgeVerdicts = []string{string(Accept), string(Improve), string(Reject)}

// Scores are one judge's scores, each 1–5:
// 1 poor (major issues, blocks use), 2 below standard (significant gaps),
// 3 adequate (meets the minimum bar), 4 good (clear, useful, few issues),
// 5 excellent (exemplary, no issues).
type Scores struct {
	Semantic  int `json:"semantic"`  // accurate to the domain: facts, terminology, no contradictions
	Pragmatic int `json:"pragmatic"` // enables the intended decision or action
	Syntactic int `json:"syntactic"` // consistent and well-structured: format, completeness, no broken references
}

// Thresholds of the rubric.
const (
	acceptFloor   = 3   // every dimension at least this for accept
	acceptAverage = 3.5 // and the average at least this
	rejectBelow   = 2   // any dimension below this rejects
)

// Average is the scores' mean, rounded to two decimals as the log
// records it. The accept threshold compares the exact mean (in thirds, so
// 3.5 cannot be met by rounding up 3.33).
func (s Scores) Average() float64 {
	return math.Round(float64(s.sum())*100/3) / 100
}

func (s Scores) sum() int { return s.Semantic + s.Pragmatic + s.Syntactic }

func (s Scores) min() int { return min(s.Semantic, s.Pragmatic, s.Syntactic) }

// Decide applies the rubric's thresholds: any dimension below 2 rejects;
// every dimension at least 3 with an average of at least 3.5 accepts;
// anything else asks for improvement.
func Decide(s Scores) Verdict {
	return threshold(s.min(), float64(s.sum())/3)
}

// threshold is the rule on the lowest score and the exact mean. With
// three whole scores the mean is never 3.5 itself (10/3 improves, 11/3
// accepts); the rule is written, and tested, for the mean as the seed
// states it.
func threshold(lowest int, mean float64) Verdict {
	switch {
	case lowest < rejectBelow:
		return Reject
	case lowest >= acceptFloor && mean >= acceptAverage:
		return Accept
	}
	return Improve
}

// Why says in words why the thresholds gave v for s.
func Why(s Scores, v Verdict) string {
	switch v {
	case Reject:
		return fmt.Sprintf("a dimension scored %d, below %d", s.min(), rejectBelow)
	case Accept:
		return fmt.Sprintf("every dimension at least %d and an average of %.2f ≥ %.1f", acceptFloor, s.Average(), acceptAverage)
	}
	if s.min() < acceptFloor {
		return fmt.Sprintf("a dimension scored %d, below %d", s.min(), acceptFloor)
	}
	return fmt.Sprintf("an average of %.2f, below %.1f", s.Average(), acceptAverage)
}

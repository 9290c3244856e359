package verdict

import "fmt"

// Mode is a judge's seat: quick, deep or tiebreaker.
type Mode string

const (
	Quick      Mode = "quick"
	Deep       Mode = "deep"
	Tiebreaker Mode = "tiebreaker"
)

// MaxCalls is the most judges one run asks. A retry after a failed call
// and the one repair request for a reply that is not valid JSON belong to
// the call they repeat.
const MaxCalls = 3

// Judged is what came of asking one judge: its verdict (by the
// thresholds), or why it gave none.
type Judged struct {
	Verdict Verdict
	// Failed says why the judge gave no verdict ("timed out after one
	// retry"); "" when it gave one.
	Failed string
}

// Step is what the protocol does next: ask judges (in parallel), or stop
// with a final decision.
type Step struct {
	Ask    []Mode
	Final  Verdict // set when Ask is empty
	Reason string  // how the final decision was reached
}

// Done reports whether the step is a final decision.
func (s Step) Done() bool { return len(s.Ask) == 0 }

// Next is the protocol's rule: given the judges heard so far, whom to ask
// next or what the final decision is.
//
// Sequential: quick accept or reject is final; improve goes to deep; deep
// accept or reject is final; deep improve escalates. Thorough: quick and
// deep in parallel; the same verdict is final (both improve escalates);
// different verdicts go to the tiebreaker, whose verdict is final if it
// matches one of them, and escalates if it matches neither. A judge that
// gives no verdict escalates at once.
func Next(thorough bool, got map[Mode]Judged) Step {
	for _, m := range []Mode{Quick, Deep, Tiebreaker} {
		if j, ok := got[m]; ok && j.Failed != "" {
			return Step{Final: Escalate, Reason: fmt.Sprintf("the %s judge %s", m, j.Failed)}
		}
	}
	q, hasQ := got[Quick]
	d, hasD := got[Deep]
	t, hasT := got[Tiebreaker]
	if thorough {
		switch {
		case !hasQ && !hasD:
			return Step{Ask: []Mode{Quick, Deep}}
		case !hasQ:
			return Step{Ask: []Mode{Quick}}
		case !hasD:
			return Step{Ask: []Mode{Deep}}
		case q.Verdict == d.Verdict && q.Verdict == Improve:
			return Step{Final: Escalate, Reason: "quick and deep both say improve: the quality is ambiguous"}
		case q.Verdict == d.Verdict:
			return Step{Final: q.Verdict, Reason: fmt.Sprintf("quick and deep agree: %s", q.Verdict)}
		case !hasT:
			return Step{Ask: []Mode{Tiebreaker}}
		case t.Verdict == q.Verdict || t.Verdict == d.Verdict:
			return Step{Final: t.Verdict, Reason: fmt.Sprintf("quick said %s, deep %s; the tiebreaker sided with %s", q.Verdict, d.Verdict, t.Verdict)}
		}
		return Step{Final: Escalate, Reason: fmt.Sprintf("three judges without consensus: quick %s, deep %s, tiebreaker %s", q.Verdict, d.Verdict, t.Verdict)}
	}
	switch {
	case !hasQ:
		return Step{Ask: []Mode{Quick}}
	case q.Verdict != Improve:
		return Step{Final: q.Verdict, Reason: fmt.Sprintf("the quick judge said %s", q.Verdict)}
	case !hasD:
		return Step{Ask: []Mode{Deep}}
	case d.Verdict != Improve:
		return Step{Final: d.Verdict, Reason: fmt.Sprintf("the quick judge said improve; the deep judge said %s", d.Verdict)}
	}
	return Step{Final: Escalate, Reason: "quick and deep both say improve: the quality is ambiguous"}
}

// Sensitive applies --sensitive to a final step: security- or
// compliance-critical work always goes to a human, with what the judges
// decided kept in the reason.
func Sensitive(s Step) Step {
	if !s.Done() || s.Final == Escalate {
		if s.Done() {
			s.Reason = "sensitive work goes to a human; " + s.Reason
		}
		return s
	}
	return Step{Final: Escalate, Reason: fmt.Sprintf("sensitive work goes to a human; the judges decided %s (%s)", s.Final, s.Reason)}
}

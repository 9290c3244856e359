package judge

import (
	"fmt"
	"math"
	"strings"

	"github.com/arenadebate/arena/engine/doc"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/ledger"
)

// What arena stats reads of a judging, and the debate-versus-vote ledger.

// verdictOf is a recommendation as a verdict arena stats compares with a
// person's: accept, improve or reject.
func verdictOf(rec string) string {
	switch rec {
	case "pass":
		return "accept"
	case "fail":
		return "reject"
	}
	return "improve"
}

// emitScored records a judge's independent analysis for arena stats: its
// score on each criterion, and its weighted overall with the verdict it
// leads to, for the one candidate, the solution.
func (r *run) emitScored(s *seat) {
	cand := func(v float64) []engine.Candidate {
		return []engine.Candidate{{ID: "solution", Author: r.cfg.Author, Bytes: r.cfg.Solution.Bytes(), Score: engine.Float(v)}}
	}
	for i, c := range r.cfg.Criteria {
		r.rt.Bus.Emit(engine.Scored{Seat: s.name, Agent: s.agent.Name, Judgement: c.Name, Orders: 1, Min: 1, Max: 5, Candidates: cand(float64(s.initial[i]))})
	}
	w := Weighted(r.cfg.Criteria, s.initial)
	r.rt.Bus.Emit(engine.Scored{Seat: s.name, Agent: s.agent.Name, Judgement: "overall", Orders: 1, Min: 1, Max: 5,
		Candidates: cand(math.Round(w*100) / 100), Verdict: verdictOf(Recommendation(w, r.passMark()))})
}

// debateLedger is what the debate changed: each judge's round-one overall,
// what the mean of those would have recommended, what the debate
// concluded, and every criterion score a judge moved, with the new
// evidence it gave or flagged as conformity.
func (r *run) debateLedger(kind engine.OutcomeKind, last Check) (engine.DebateLedger, bool) {
	var first []*seat
	for _, s := range r.seats {
		if s.initial != nil {
			first = append(first, s)
		}
	}
	if r.round == 0 || len(first) < 2 || (kind != OutcomeConsensus && kind != OutcomeBelowMin && kind != OutcomeNoConsensus) {
		return engine.DebateLedger{}, false
	}
	cs := r.cfg.Criteria
	l := engine.DebateLedger{VoteRule: "mean of the judges' round-one overalls"}
	sum := 0.0
	for _, s := range first {
		w := Weighted(cs, s.initial)
		sum += w
		var parts []string
		for i, c := range cs {
			parts = append(parts, fmt.Sprintf("%s %d", c.Name, s.initial[i]))
		}
		l.Positions = append(l.Positions, engine.Stand{Seat: s.name, Agent: s.agent.Name, Score: engine.Float(math.Round(w*100) / 100),
			Position: fmt.Sprintf("overall %.2f — %s", w, RecommendationWords(Recommendation(w, r.passMark()))), Detail: strings.Join(parts, ", ")})
	}
	mean0 := sum / float64(len(first))
	vote := Recommendation(mean0, r.passMark())
	l.Vote = fmt.Sprintf("%s (%.2f)", RecommendationWords(vote), mean0)
	l.VoteVerdict = verdictOf(vote)
	final := Recommendation(last.overall(), r.passMark())
	switch kind {
	case OutcomeNoConsensus:
		l.Result = fmt.Sprintf("no consensus (the final scores' mean, %.2f, would say %s)", last.overall(), RecommendationWords(final))
		l.Changed = true
	default:
		l.Result = fmt.Sprintf("%s (consensus overall %.2f)", RecommendationWords(final), last.overall())
		l.ResultVerdict = verdictOf(final)
		l.Changed = final != vote
	}
	l.Moves = r.moves(first)
	return l, true
}

// moves are the criterion scores each judge ended the debate on that
// differ from its round-one scores.
func (r *run) moves(first []*seat) []engine.Move {
	cs := r.cfg.Criteria
	t := newMoveTrail(cs, r.cfg.Solution.Text(), first)
	for k := 0; k < r.round; k++ {
		for _, s := range first {
			if k < len(s.rounds) {
				t.moved(s, k)
			}
		}
		// What this round said is said for the next.
		for _, s := range first {
			if k < len(s.rounds) {
				t.heard(s, s.rounds[k])
			}
		}
	}
	var out []engine.Move
	for _, s := range first {
		if len(s.rounds) == 0 {
			continue
		}
		end := ScoresOf(cs, s.rounds[len(s.rounds)-1].Scores)
		for i, c := range cs {
			if end[i] == s.initial[i] {
				continue
			}
			key := moveKey{s, i}
			m := engine.Move{Seat: s.name, Agent: s.agent.Name, Round: t.lastRound[key], On: c.Name,
				From: fmt.Sprint(s.initial[i]), To: fmt.Sprint(end[i]), Evidence: dedupe(t.evidence[key])}
			m.Conformity = len(m.Evidence) == 0
			m.Toward = toward(s, i, first, end[i])
			out = append(out, m)
		}
	}
	return out
}

// moveKey is one judge's score on one criterion.
type moveKey struct {
	s *seat
	i int
}

// moveTrail follows a debate round by round: what had been said before
// a round, the quotes each judge had cited, and, for every score a judge
// moved, the last round it moved in and the new evidence it gave.
type moveTrail struct {
	cs        []Criterion
	material  []string // where a quote must be found to count
	said      ledger.Seen
	cited     map[*seat]*ledger.Seen
	evidence  map[moveKey][]string
	lastRound map[moveKey]int
}

// newMoveTrail starts a trail with what the judges of first said in
// their independent analyses of the solution.
func newMoveTrail(cs []Criterion, solution string, first []*seat) *moveTrail {
	t := &moveTrail{cs: cs, material: []string{solution}, cited: map[*seat]*ledger.Seen{},
		evidence: map[moveKey][]string{}, lastRound: map[moveKey]int{}}
	for _, s := range first {
		t.cited[s] = &ledger.Seen{}
		for _, sc := range s.analysis.Scores {
			t.cited[s].Add(sc.Evidence...)
			t.said.Add(sc.Justification)
			t.said.Add(sc.Evidence...)
		}
		t.said.Add(s.analysis.Strengths...)
		t.said.Add(s.analysis.Weaknesses...)
	}
	return t
}

// moved records the scores judge s changed in debate round k (from
// 0) against the round before, with the new evidence its reasons for
// each change gave.
func (t *moveTrail) moved(s *seat, k int) {
	prev := s.initial
	if k > 0 {
		prev = ScoresOf(t.cs, s.rounds[k-1].Scores)
	}
	d := s.rounds[k]
	cur := ScoresOf(t.cs, d.Scores)
	for i := range t.cs {
		if prev[i] == cur[i] {
			continue
		}
		key := moveKey{s, i}
		t.lastRound[key] = k + 1
		t.evidence[key] = append(t.evidence[key], ledger.NewEvidence(changeText(t.cs, d.Changes, i), t.material, t.cited[s], &t.said)...)
	}
}

// changeText is what a round's changes say of criterion i: each reason
// on a line, followed by its quotes, each quoted on a line.
func changeText(cs []Criterion, changes []Change, i int) string {
	var text strings.Builder
	for _, ch := range changes {
		if j, ok := matchCriterion(cs, ch.Criterion); !ok || j != i {
			continue
		}
		text.WriteString(ch.Reason + "\n")
		for _, q := range ch.Evidence {
			text.WriteString("\"" + q + "\"\n")
		}
	}
	return text.String()
}

// heard adds what judge s wrote in debate round d to what has been
// said, and its quotes to what it has cited.
func (t *moveTrail) heard(s *seat, d *Debate) {
	for _, sc := range d.Scores {
		t.cited[s].Add(sc.Evidence...)
		t.said.Add(sc.Justification)
		t.said.Add(sc.Evidence...)
	}
	for _, ch := range d.Changes {
		t.cited[s].Add(ch.Evidence...)
		t.said.Add(ch.Reason)
		t.said.Add(ch.Evidence...)
	}
	for _, x := range d.Disagreements {
		t.said.Add(x.Defense, x.Challenge)
	}
}

// toward names the other judges when a judge's move brought it closer to
// their round-one mean on the criterion.
func toward(s *seat, i int, first []*seat, to int) string {
	var names []string
	sum := 0.0
	for _, o := range first {
		if o != s {
			names = append(names, o.name)
			sum += float64(o.initial[i])
		}
	}
	if len(names) == 0 {
		return ""
	}
	mean := sum / float64(len(names))
	if math.Abs(float64(to)-mean) < math.Abs(float64(s.initial[i])-mean) {
		return strings.Join(names, ", ")
	}
	return ""
}

func dedupe(xs []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// emitLedger shows the ledger and returns its section of the outcome
// document (nil when there was no debate to account for).
func (r *run) emitLedger(kind engine.OutcomeKind, last Check) *doc.Section {
	l, ok := r.debateLedger(kind, last)
	if !ok {
		return nil
	}
	r.rt.Bus.Emit(l)
	r.rt.Bus.Emit(ledger.Table(l, PhaseCheck, r.round))
	sec := ledger.Section(l)
	return &sec
}

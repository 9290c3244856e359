package stats

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/receipt"
)

// A judge's agreement with the person's own verdicts: each kind of
// verdict apart, each coded by what it names, never by a position.

// The kinds of a person's verdict a judge is compared on.
const (
	kindWinner  = "winner"
	kindVerdict = "verdict"
	kindScore   = "score"
)

// PersonFigure is a judge's agreement with the person, by kind of
// verdict: on the winner, for each pair of the person's winner and
// another candidate, which one the judge's headline judgement preferred
// in every reading ("tie" otherwise), coded by candidate; on accept,
// improve or reject, its own verdict; on a score, its overall, rounded.
type PersonFigure struct {
	Winner  Agreement `json:"winner"`
	Verdict Agreement `json:"verdict"`
	Score   Agreement `json:"score"`
}

// Agreement is Cohen's kappa between a judge's and the person's verdicts
// of one kind, with its bootstrap interval over runs, and the raw share
// they agree on, with its Wilson interval. N counts the verdicts
// compared.
type Agreement struct {
	Kappa     Figure `json:"kappa"`
	Agreement Figure `json:"agreement"`
}

// verdictPair is the person's verdict beside a judge's, in a run.
type verdictPair struct {
	person, own string
	run         int
}

// person adds, for every model that judged a labelled run, its verdicts
// beside the person's, by kind.
func person(ri int, r Run, get func(string) *accum) {
	l := r.Label
	ids := r.Candidates()
	winner := slices.IndexFunc(ids, func(id string) bool { return strings.EqualFold(id, l.Winner) })
	byAgent := map[string][]*group{}
	var agents []string
	for _, g := range groups(r) {
		if byAgent[g.agent] == nil {
			agents = append(agents, g.agent)
		}
		byAgent[g.agent] = append(byAgent[g.agent], g)
	}
	for _, agent := range agents {
		a := get(agent)
		gs := byAgent[agent]
		if winner >= 0 {
			a.winnerBeside(ri, gs, ids, winner)
		}
		a.verdictsBeside(ri, gs, l)
	}
}

// winnerBeside adds, for every pair of the person's winner (ids[w]) and
// another candidate, the winner beside the candidate the model's headline
// judgement preferred in every reading, or "tie" (the recommendation or
// overall score; any judgement when it gave neither), in the groups gs
// of its readings.
func (a *accum) winnerBeside(ri int, gs []*group, ids []string, w int) {
	headline := slices.DeleteFunc(slices.Clone(gs), func(g *group) bool { return g.judgement != "recommendation" && g.judgement != "overall" })
	if len(headline) == 0 {
		headline = gs
	}
	for _, g := range headline {
		for _, p := range receipt.Pairs(len(ids), receiptReadings(g.readings, ids)) {
			if (p.A != w && p.B != w) || p.Orders() == 0 {
				continue
			}
			own := "tie"
			if c := p.Winner(); c >= 0 {
				own = ids[c]
			}
			a.person[kindWinner] = append(a.person[kindWinner], verdictPair{ids[w], own, ri})
		}
	}
}

// verdictsBeside adds, for every reading in gs, the person's verdict of
// label l beside the model's, and the person's score beside the model's
// overall score of a single candidate, each rounded, where both gave one.
func (a *accum) verdictsBeside(ri int, gs []*group, l *engine.Label) {
	for _, g := range gs {
		for _, s := range g.readings {
			if l.Verdict != "" && s.Verdict != "" {
				a.person[kindVerdict] = append(a.person[kindVerdict], verdictPair{l.Verdict, s.Verdict, ri})
			}
			if l.Score != nil && s.Judgement == "overall" && len(s.Candidates) == 1 && s.Candidates[0].Score != nil {
				a.person[kindScore] = append(a.person[kindScore], verdictPair{
					fmt.Sprintf("%.0f", math.Round(*l.Score)), fmt.Sprintf("%.0f", math.Round(*s.Candidates[0].Score)), ri})
			}
		}
	}
}

func (a *accum) personFigure(name string) PersonFigure {
	return PersonFigure{
		Winner:  agreement(a.person[kindWinner], name+"/κ winner"),
		Verdict: agreement(a.person[kindVerdict], name+"/κ verdict"),
		Score:   agreement(a.person[kindScore], name+"/κ score"),
	}
}

// agreement is κ and the raw agreement of the verdict pairs.
func agreement(items []verdictPair, seed string) Agreement {
	if len(items) == 0 {
		none := Figure{Note: "no run it judged has a person's verdict of this kind"}
		return Agreement{Kappa: none, Agreement: none}
	}
	s := sample{seed: seed}
	agree := 0
	codes := map[string]int{}
	code := func(c string) int {
		if _, ok := codes[c]; !ok {
			codes[c] = len(codes)
		}
		return codes[c]
	}
	pc, oc := make([]int, len(items)), make([]int, len(items))
	for i, it := range items {
		s.run = append(s.run, it.run)
		pc[i], oc[i] = code(it.person), code(it.own)
		if it.person == it.own {
			agree++
		}
	}
	s.stat = func(idx []int) (float64, bool) {
		k, _, ok := kappaCodes(pc, oc, idx, len(codes))
		return k, ok
	}
	return Agreement{
		Kappa:     s.figure("undefined: both always said the same"),
		Agreement: rate(agree, len(items), s.runs()),
	}
}

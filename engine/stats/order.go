package stats

import (
	"cmp"
	"math"
	"slices"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/receipt"
)

// What the order a judge was shown the candidates in did to its
// preferences: flips, MT-Bench's swap classes, both by the score gap, and
// what asking the same order again did (repeats).

// OrdersFlip is the flip rate of the judgements asked in Orders orders
// (4: four or more).
type OrdersFlip struct {
	Orders   int    `json:"orders"`
	FlipRate Figure `json:"flip_rate"`
}

// SwapFigure is MT-Bench's account of position bias (Zheng et al. 2023,
// Table 2), over every pair of candidates and every two readings of a
// judgement that showed the pair in swapped positions, ties included:
// Consistency, the share where both readings gave the same preference
// (the same candidate, or a tie both times); FirstPosition, where each
// preferred the candidate it showed first of the two; SecondPosition,
// where each preferred the one it showed second; Other, a tie in one
// reading and a preference in the other (MT-Bench has no such column: its
// fourth, "error", counts unparseable replies, which arena repairs or
// counts as failures). The four add up to 1. N counts the swapped pairs.
type SwapFigure struct {
	Consistency    Figure `json:"consistency"`
	FirstPosition  Figure `json:"biased_toward_first"`
	SecondPosition Figure `json:"biased_toward_second"`
	Other          Figure `json:"tie_in_one_order"`
}

// GapBin is a range of score gaps, in points of the 1–5 scale: From <
// gap ≤ To (the first bin holds gap 0 alone).
type GapBin struct {
	Label    string  `json:"gap"`
	From, To float64 `json:"-"`
}

// GapBins are the bins of the score gap between two candidates: the
// absolute difference of the judge's mean scores of them over the orders.
var GapBins = []GapBin{{"0", -1, 1e-9}, {"(0,1]", 1e-9, 1}, {"(1,2]", 1, 2}, {"(2,4]", 2, math.Inf(1)}}

// GapFigure is a judge's flip rate and first-position preference within
// one bin of the score gap. FirstPreferred is, of its readings that
// scored the two apart, the share that scored higher the one it showed
// first (chance: 0.5).
type GapFigure struct {
	Gap            string `json:"gap"`
	FlipRate       Figure `json:"flip_rate"`
	FirstPreferred Figure `json:"first_preferred_rate"`
}

// RepeatFigure is how a judge answered the same order asked again (a
// reading's Repeat above 0).
//
// Stability is the share of the (pair of candidates, order) asked two or
// more times in which every repeat gave the same preference, ties
// included. FlipRate is, like the order's flip rate, the share of the
// decisive ones whose preference did not hold in every repeat. NetFlipRate
// is the order's flip rate net of that noise, (f − r)/(1 − r) with f the
// flip rate of the first readings and r the repeat flip rate of the same
// judgements: the share of preferences that repetition kept but the
// order changed, if the two are independent; below 0 when the order
// changed less than asking again did.
type RepeatFigure struct {
	Stability   Figure `json:"stability"`
	FlipRate    Figure `json:"flip_rate"`
	NetFlipRate Figure `json:"net_flip_rate"`
}

// group is one model's readings of one judgement in a run.
type group struct {
	agent, judgement string
	readings         []engine.Scored
}

// groups are a run's readings by model and judgement.
func groups(r Run) []*group {
	var out []*group
	for _, s := range r.Scored {
		i := slices.IndexFunc(out, func(g *group) bool { return g.agent == s.Agent && g.judgement == s.Judgement })
		if i < 0 {
			out = append(out, &group{agent: s.Agent, judgement: s.Judgement})
			i = len(out) - 1
		}
		out[i].readings = append(out[i].readings, s)
	}
	return out
}

// receiptReadings are a group's readings over the candidates ids.
func receiptReadings(rs []engine.Scored, ids []string) []receipt.Reading {
	var out []receipt.Reading
	for _, s := range rs {
		rr := receipt.Reading{Scores: receipt.NoScores(len(ids)), Pick: slices.Index(ids, s.Pick)}
		if s.Pick == "" {
			rr.Pick = -1
		}
		for _, c := range s.Candidates {
			i := slices.Index(ids, c.ID)
			if i < 0 {
				continue
			}
			rr.Shown = append(rr.Shown, i)
			if c.Score != nil {
				rr.Scores[i] = *c.Score
			}
		}
		out = append(out, rr)
	}
	return out
}

// firstReadings are the readings that are no repeat: each order as first
// asked.
func firstReadings(rs []engine.Scored) []engine.Scored {
	return slices.DeleteFunc(slices.Clone(rs), func(s engine.Scored) bool { return s.Repeat > 0 })
}

// ordered reports whether first readings are one judgement asked in
// several orders (and not, say, two seats of one model each asked once).
func ordered(rs []engine.Scored) bool {
	if len(rs) < 2 {
		return false
	}
	seen := map[int]bool{}
	for _, s := range rs {
		if s.Orders < 2 || seen[s.Order] {
			return false
		}
		seen[s.Order] = true
	}
	return true
}

// repeated are a group's readings by order, for the orders asked two or
// more times; nil when two readings claim the same order and repeat.
func repeated(rs []engine.Scored) map[int][]engine.Scored {
	type key struct{ order, repeat int }
	seen := map[key]bool{}
	byOrder := map[int][]engine.Scored{}
	for _, s := range rs {
		k := key{s.Order, s.Repeat}
		if seen[k] {
			return nil
		}
		seen[k] = true
		byOrder[s.Order] = append(byOrder[s.Order], s)
	}
	for o, xs := range byOrder {
		if len(xs) < 2 {
			delete(byOrder, o)
		}
	}
	return byOrder
}

// judging adds a run's readings to each model's cases.
func judging(ri int, r Run, get func(string) *accum) {
	ids := r.Candidates()
	runTally := map[string]*counter{}
	for _, g := range groups(r) {
		a := get(g.agent)
		a.readings += len(g.readings)
		var t receipt.Tally
		t.AddPicks(receiptReadings(g.readings, ids))
		a.tally.Add(t)
		if t.Picks > 0 {
			a.pickRuns[ri] = true
		}
		first := firstReadings(g.readings)
		if !ordered(first) {
			a.repeat.add(ri, g.readings, ids, nil)
			continue
		}
		rs := receiptReadings(first, ids)
		pairs := receipt.Pairs(len(ids), rs)
		if runTally[g.agent] == nil {
			runTally[g.agent] = &counter{}
		}
		bucket := min(first[0].Orders, 4)
		if a.byOrders[bucket] == nil {
			a.byOrders[bucket] = &counter{}
		}
		for _, p := range pairs {
			if p.Orders() >= 2 && p.Decisive() {
				a.flip.add(!p.Held(), ri)
				a.byOrders[bucket].add(!p.Held(), ri)
				runTally[g.agent].add(!p.Held(), ri)
			}
		}
		a.swap.add(ri, rs, len(ids))
		if sc := first[0]; sc.Max > sc.Min {
			addGaps(a.gaps, ri, rs, pairs, 4/float64(sc.Max-sc.Min))
		}
		a.repeat.add(ri, g.readings, ids, pairs)
	}
	for _, agent := range sortedKeys(runTally) {
		if t := runTally[agent]; t.n > 0 {
			get(agent).byRun = append(get(agent).byRun, float64(t.k)/float64(t.n))
		}
	}
	sc := scaleScoresOf(ri, r, get)
	panelScores(ri, sc.byUnit, get)
	selfPreference(ri, sc, get)
	familySelfPreference(ri, sc, r.Families, get)
}

// preference is which of candidates a and b a reading scored higher: a,
// b, or −1 for level; ok is false when it did not score both.
func preference(r receipt.Reading, a, b int) (int, bool) {
	if a >= len(r.Scores) || b >= len(r.Scores) || math.IsNaN(r.Scores[a]) || math.IsNaN(r.Scores[b]) {
		return 0, false
	}
	switch {
	case r.Scores[a] > r.Scores[b]:
		return a, true
	case r.Scores[b] > r.Scores[a]:
		return b, true
	}
	return -1, true
}

// earlier is whichever of a and b the reading showed first.
func earlier(r receipt.Reading, a, b int) int {
	if slices.Index(r.Shown, a) < slices.Index(r.Shown, b) {
		return a
	}
	return b
}

// swapCounts are MT-Bench's classes of swapped reading pairs.
type swapCounts struct{ consistent, first, second, other counter }

// add counts every pair of the n candidates in every two readings that
// showed it swapped.
func (s *swapCounts) add(ri int, rs []receipt.Reading, n int) {
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			for i := range rs {
				for j := i + 1; j < len(rs); j++ {
					pi, oki := preference(rs[i], a, b)
					pj, okj := preference(rs[j], a, b)
					ei, ej := earlier(rs[i], a, b), earlier(rs[j], a, b)
					if !oki || !okj || ei == ej {
						continue
					}
					class := &s.other
					switch {
					case pi == pj:
						class = &s.consistent
					case pi == ei && pj == ej:
						class = &s.first
					case pi >= 0 && pj >= 0:
						class = &s.second
					}
					for _, c := range []*counter{&s.consistent, &s.first, &s.second, &s.other} {
						c.add(c == class, ri)
					}
				}
			}
		}
	}
}

func (s *swapCounts) figure() SwapFigure {
	f := SwapFigure{Consistency: s.consistent.figure(), FirstPosition: s.first.figure(), SecondPosition: s.second.figure(), Other: s.other.figure()}
	if s.consistent.n == 0 {
		for _, x := range []*Figure{&f.Consistency, &f.FirstPosition, &f.SecondPosition, &f.Other} {
			x.Note = "never shown two candidates in swapped positions"
		}
	}
	return f
}

// gapCounts are a judge's flips and first-position preferences in one
// bin of the score gap.
type gapCounts struct{ flip, first counter }

// addGaps counts each pair of candidates asked in two or more orders in
// its bin of the score gap (scaled to the 1–5 scale by perPoint): whether
// a decisive preference held, and, in each reading that scored the two
// apart, whether the one shown first was scored higher.
func addGaps(bins []gapCounts, ri int, rs []receipt.Reading, pairs []receipt.Pair, perPoint float64) {
	for _, p := range pairs {
		if p.Orders() < 2 {
			continue
		}
		var sa, sb float64
		k := 0
		for _, r := range rs {
			if _, ok := preference(r, p.A, p.B); ok {
				sa += r.Scores[p.A]
				sb += r.Scores[p.B]
				k++
			}
		}
		gap := math.Abs(sa-sb) / float64(k) * perPoint
		bin := slices.IndexFunc(GapBins, func(b GapBin) bool { return gap > b.From && gap <= b.To })
		if bin < 0 {
			continue
		}
		if p.Decisive() {
			bins[bin].flip.add(!p.Held(), ri)
		}
		for _, r := range rs {
			if pref, ok := preference(r, p.A, p.B); ok && pref >= 0 {
				bins[bin].first.add(pref == earlier(r, p.A, p.B), ri)
			}
		}
	}
}

func gapFigures(bins []gapCounts) []GapFigure {
	var out []GapFigure
	any := false
	for i, b := range bins {
		any = any || b.flip.n+b.first.n > 0
		out = append(out, GapFigure{Gap: GapBins[i].Label, FlipRate: b.flip.figure(), FirstPreferred: b.first.figure()})
	}
	if !any {
		return nil
	}
	return out
}

// repeatCounts are how a judge answered the same order asked again, and
// the cases of its net flip rate.
type repeatCounts struct {
	stable, flip counter
	net          []netCase
}

// netCase is a decisive preference of a judgement asked again: across its
// orders (repeat false) or across the repeats of one order (true), and
// whether it changed.
type netCase struct {
	repeat, changed bool
	run             int
}

// add counts a group's repeats: every pair of candidates in every order
// asked two or more times; and, when its first readings' pairs are given
// (it was asked in several orders), their decisive preferences as the
// order's side of the net flip rate.
func (c *repeatCounts) add(ri int, readings []engine.Scored, ids []string, firstPairs []receipt.Pair) {
	byOrder := repeated(readings)
	if len(byOrder) == 0 {
		return
	}
	for _, o := range sortedKeys(byOrder) {
		for _, p := range receipt.Pairs(len(ids), receiptReadings(byOrder[o], ids)) {
			n := p.Orders() // here: the repeats that scored both
			if n < 2 {
				continue
			}
			c.stable.add(p.AOver == n || p.BOver == n || p.Level == n, ri)
			if p.Decisive() {
				c.flip.add(!p.Held(), ri)
				c.net = append(c.net, netCase{repeat: true, changed: !p.Held(), run: ri})
			}
		}
	}
	for _, p := range firstPairs {
		if p.Orders() >= 2 && p.Decisive() {
			c.net = append(c.net, netCase{changed: !p.Held(), run: ri})
		}
	}
}

func (c *repeatCounts) figure(name string) RepeatFigure {
	f := RepeatFigure{Stability: c.stable.figure(), FlipRate: c.flip.figure()}
	s := sample{seed: name + "/net flip rate"}
	for _, x := range c.net {
		s.run = append(s.run, x.run)
	}
	s.stat = func(idx []int) (float64, bool) {
		var f, fn, r, rn float64
		for _, k := range idx {
			x := c.net[k]
			switch {
			case x.repeat:
				rn++
				if x.changed {
					r++
				}
			default:
				fn++
				if x.changed {
					f++
				}
			}
		}
		if fn == 0 || rn == 0 || r == rn {
			return 0, false
		}
		f, r = f/fn, r/rn
		return (f - r) / (1 - r), true
	}
	f.NetFlipRate = s.figure("undefined: every repeat changed, or no judgement asked again was also asked in several orders")
	if c.stable.n == 0 {
		for _, x := range []*Figure{&f.Stability, &f.FlipRate, &f.NetFlipRate} {
			x.Note = "never asked the same order twice (--repeats)"
		}
	}
	return f
}

// unit is one thing scored: one judgement of one candidate.
type unit struct{ judgement, id string }

// derived reports whether a reading is a figure arena derived from the
// judge's other scores (the judge protocol's weighted "overall" of its
// criteria), not a judgement of its own: counting it beside its criteria
// would count them twice.
func derived(s engine.Scored) bool { return s.Judgement == "overall" }

// scaleScores are a run's scores on a score scale, by what they score
// and by whom.
type scaleScores struct {
	byUnit   map[unit]map[string][]float64   // unit → model → scores
	centred  map[string]map[string][]float64 // candidate → model → scores less their reading's mean
	authorOf map[string]string               // candidate → the agent that wrote it
}

// scaleScoresOf gathers a run's scores on a score scale (not derived
// ones), and adds each to its model's scores beside the length of what it
// scored.
func scaleScoresOf(ri int, r Run, get func(string) *accum) scaleScores {
	sc := scaleScores{byUnit: map[unit]map[string][]float64{}, centred: map[string]map[string][]float64{}, authorOf: map[string]string{}}
	for _, s := range r.Scored {
		for _, c := range s.Candidates {
			if c.Author != "" {
				sc.authorOf[c.ID] = c.Author
			}
		}
		if s.Max == 0 || derived(s) {
			continue // not on a score scale (a compare judge's weighted totals), or derived
		}
		var vals []float64
		for _, c := range s.Candidates {
			if c.Score != nil {
				vals = append(vals, *c.Score)
			}
		}
		centre := 0.0
		if len(vals) > 1 {
			centre = mean(vals)
		}
		a := get(s.Agent)
		for _, c := range s.Candidates {
			if c.Score == nil {
				continue
			}
			a.lengths = append(a.lengths, paired{x: *c.Score, y: float64(c.Bytes), run: ri})
			u := unit{s.Judgement, c.ID}
			if sc.byUnit[u] == nil {
				sc.byUnit[u] = map[string][]float64{}
			}
			sc.byUnit[u][s.Agent] = append(sc.byUnit[u][s.Agent], *c.Score)
			if sc.centred[c.ID] == nil {
				sc.centred[c.ID] = map[string][]float64{}
			}
			sc.centred[c.ID][s.Agent] = append(sc.centred[c.ID][s.Agent], *c.Score-centre)
		}
	}
	return sc
}

// panelScores adds, for every unit two or more models scored, each
// model's mean score beside the mean of the others' means, units in
// order.
func panelScores(ri int, byUnit map[unit]map[string][]float64, get func(string) *accum) {
	units := make([]unit, 0, len(byUnit))
	for u := range byUnit {
		units = append(units, u)
	}
	slices.SortFunc(units, func(x, y unit) int {
		return cmp.Or(cmp.Compare(x.judgement, y.judgement), cmp.Compare(x.id, y.id))
	})
	for _, u := range units {
		models := byUnit[u]
		if len(models) < 2 {
			continue
		}
		for _, m := range sortedKeys(models) {
			rest, n := 0.0, 0
			for _, o := range sortedKeys(models) {
				if o != m {
					rest += mean(models[o])
					n++
				}
			}
			a := get(m)
			a.panel = append(a.panel, paired{x: mean(models[m]), y: rest / float64(n), run: ri})
		}
	}
}

// selfPreference adds, for every candidate whose author scored it beside
// another model, how far the author's centred scores of it stand above
// the others', candidates in order.
func selfPreference(ri int, sc scaleScores, get func(string) *accum) {
	for _, id := range sortedKeys(sc.centred) {
		author := sc.authorOf[id]
		own, ok := sc.centred[id][author]
		if author == "" || !ok || len(sc.centred[id]) < 2 {
			continue
		}
		var others []float64
		for _, m := range sortedKeys(sc.centred[id]) {
			if m != author {
				others = append(others, sc.centred[id][m]...)
			}
		}
		get(author).self = append(get(author).self, valued{mean(own) - mean(others), ri})
	}
}

// familySelfPreference adds, for every candidate whose author's vendor
// family is known, how far each judge of that family's centred scores of
// it stand above those of the judges of other families, candidates in
// order.
func familySelfPreference(ri int, sc scaleScores, families map[string]string, get func(string) *accum) {
	for _, id := range sortedKeys(sc.centred) {
		fam := families[sc.authorOf[id]]
		if fam == "" {
			continue
		}
		var kin []string
		var others []float64
		for _, m := range sortedKeys(sc.centred[id]) {
			if families[m] == fam {
				kin = append(kin, m)
			} else {
				others = append(others, sc.centred[id][m]...)
			}
		}
		if len(others) == 0 {
			continue
		}
		for _, m := range kin {
			get(m).familySelf = append(get(m).familySelf, valued{mean(sc.centred[id][m]) - mean(others), ri})
		}
	}
}

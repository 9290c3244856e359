package stats

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/receipt"
)

// MinCases is the fewest cases a rate, an agreement, a correlation or a
// percentile rests on before it is shown; MinP95 the fewest replies a
// 95th percentile of latency rests on (with fewer it is only the slowest).
const (
	MinCases = 5
	MinP95   = 20
)

// Figure is one statistic, with the count it rests on. Shown is false
// when the count is below the minimum, or the statistic is undefined for
// the data (Note says which); Value is then 0.
type Figure struct {
	Value float64 `json:"value"`
	N     int     `json:"n"`
	Shown bool    `json:"shown"`
	Note  string  `json:"note,omitempty"`
}

// figure is a statistic of n cases, shown if n reaches min and ok.
func figure(v float64, n, min int, ok bool, undefined string) Figure {
	switch {
	case n < min:
		return Figure{N: n, Note: fmt.Sprintf("fewer than %d cases", min)}
	case !ok || math.IsNaN(v) || math.IsInf(v, 0):
		return Figure{N: n, Note: undefined}
	}
	return Figure{Value: v, N: n, Shown: true}
}

// rate is k of n, as a figure.
func rate(k, n int) Figure { return figure(float64(k)/float64(max(n, 1)), n, MinCases, true, "") }

// Report is arena stats' account.
type Report struct {
	Logs     int       `json:"logs"` // arena logs read
	Runs     int       `json:"runs"` // of which the filters kept
	Skipped  []Skipped `json:"skipped,omitempty"`
	MinCases int       `json:"min_cases"`
	MinP95   int       `json:"min_cases_p95"`
	Labelled int       `json:"labelled_runs"` // runs with a person's verdict
	Models   []Model   `json:"models"`
	Authors  []Author  `json:"authors,omitempty"`
}

// Model is one model's figures.
type Model struct {
	Name  string      `json:"model"`
	Judge JudgeFigure `json:"as_judge"`
	Seat  SeatFigure  `json:"as_seat"`
}

// JudgeFigure is how a model judged.
type JudgeFigure struct {
	// Readings is how many judgements it gave (one per order).
	Readings int `json:"readings"`
	// PanelDifference is the mean absolute difference between its score
	// and the mean of the other judges' scores of the same thing in the
	// same run (leave-one-out), over the things two or more models
	// scored; PanelAlpha is Krippendorff's alpha (interval) of its scores
	// against that mean. N counts the things.
	PanelDifference Figure `json:"panel_difference"`
	PanelAlpha      Figure `json:"panel_alpha"`
	// FlipRate is the share of its decisive preferences between two
	// candidates, asked in two or more orders, that did not hold in every
	// order. N counts the preferences.
	FlipRate Figure `json:"flip_rate"`
	// FlipRateByRun is its flip rate in each run that asked it in several
	// orders, oldest first (for a sparkline; each rests on few cases).
	FlipRateByRun []float64 `json:"flip_rate_by_run,omitempty"`
	// FirstShown is the share of its picks that went to the candidate
	// shown first; FirstShownChance what chance would give (the mean of
	// 1/candidates). N counts the picks.
	FirstShown       Figure  `json:"first_shown_rate"`
	FirstShownChance float64 `json:"first_shown_chance"`
	// SelfPreference is its score of its own model's work minus the other
	// judges' scores of the same work, in points of the 1–5 scale, each
	// score taken relative to the judge's own mean over the candidates of
	// that judgement where there were several. N counts the works.
	SelfPreference Figure `json:"self_preference"`
	// FamilySelfPreference is the same of its own vendor family's work
	// (itself, or another model of its vendor: Claude through OpenRouter
	// judging claude's work) against the judges of other families. N
	// counts the works.
	FamilySelfPreference Figure `json:"family_self_preference"`
	// LengthCorrelation is Pearson's r between its scores and the length
	// (bytes) of what it judged. N counts the scores.
	LengthCorrelation Figure `json:"length_correlation"`
	// Conformity is the share of its moves in debates that came with no
	// new evidence. N counts the moves.
	Conformity Figure `json:"conformity_rate"`
	// PersonKappa is Cohen's kappa between its verdicts and the person's
	// (arena label, a moderator's "verdict:"), PersonAgreement the raw
	// share they agree on. N counts the verdicts compared.
	PersonKappa     Figure `json:"person_kappa"`
	PersonAgreement Figure `json:"person_agreement"`
}

// SeatFigure is how a model did as a seat.
type SeatFigure struct {
	Calls      int         `json:"calls"`
	Replies    int         `json:"replies"`
	Failures   int         `json:"failures"`
	ByKind     []KindCount `json:"failures_by_kind,omitempty"`
	Repairs    int         `json:"repair_requests"`
	Unparsed   int         `json:"unparseable_replies"`
	LatencyP50 Figure      `json:"latency_p50_seconds"`
	LatencyP95 Figure      `json:"latency_p95_seconds"`
	TokensIn   int64       `json:"tokens_in"`
	TokensOut  int64       `json:"tokens_out"`
	// TokensReported and CostReported count the replies whose stream
	// reported tokens, a cost.
	TokensReported int     `json:"tokens_reported"`
	CostUSD        float64 `json:"cost_usd"`
	CostReported   int     `json:"cost_reported"`
	// Latencies are its replies' times in seconds, oldest first (for a
	// sparkline).
	Latencies []float64 `json:"-"`
}

// KindCount is how many failures of one kind.
type KindCount struct {
	Kind  string `json:"kind"`
	Count int    `json:"count"`
}

// Author is a model as the author of work judged in runs: its
// Bradley–Terry rating from the pairwise results (see BradleyTerry),
// on the rating-points scale (EloScale), with a 95% interval.
type Author struct {
	Name   string  `json:"author"`
	Rating float64 `json:"rating"`
	Low    float64 `json:"low"`
	High   float64 `json:"high"`
	Theta  float64 `json:"theta"`
	SE     float64 `json:"se"`
	// Games counts its pairwise results; Wins, Losses, Ties them.
	Games  int    `json:"games"`
	Wins   int    `json:"wins"`
	Losses int    `json:"losses"`
	Ties   int    `json:"ties"`
	Shown  bool   `json:"shown"`
	Note   string `json:"note,omitempty"`
	// Group numbers the authors rated together: ratings compare only
	// within a group (authors whose work never met stand apart).
	Group int `json:"group"`
}

// Compute is the report of runs.
func Compute(runs []Run) Report {
	rep := Report{Runs: len(runs), MinCases: MinCases, MinP95: MinP95}
	acc := map[string]*accum{}
	get := func(name string) *accum {
		if acc[name] == nil {
			acc[name] = &accum{}
		}
		return acc[name]
	}
	for _, r := range runs {
		for _, c := range r.Calls {
			get(c.Agent).calls = append(get(c.Agent).calls, c)
		}
		judging(r, get)
		if r.Label != nil {
			rep.Labelled++
			person(r, get)
		}
		for _, l := range r.Ledgers {
			for _, m := range l.Moves {
				a := get(m.Agent)
				a.moves++
				if m.Conformity {
					a.conform++
				}
			}
		}
	}
	names := make([]string, 0, len(acc))
	for n := range acc {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		rep.Models = append(rep.Models, acc[n].model(n))
	}
	rep.Authors = authors(runs)
	return rep
}

// accum gathers one model's cases over the runs.
type accum struct {
	calls    []Call
	readings int
	tally    receipt.Tally
	byRun    []float64
	// mine and rest: its score and the others' mean, per thing scored by
	// two or more models.
	mine, rest []float64
	self       []float64
	familySelf []float64
	scores     []float64
	lengths    []float64
	moves      int
	conform    int
	// person and own: the person's and its verdicts, item by item.
	person, own []string
}

func (a *accum) model(name string) Model {
	m := Model{Name: name}
	j := &m.Judge
	j.Readings = a.readings
	if n := len(a.mine); n > 0 {
		sum := 0.0
		for i := range a.mine {
			sum += math.Abs(a.mine[i] - a.rest[i])
		}
		j.PanelDifference = figure(sum/float64(n), n, MinCases, true, "")
		alpha, _, ok := AlphaInterval([][]float64{a.mine, a.rest})
		j.PanelAlpha = figure(alpha, n, MinCases, ok, "undefined: no variation in the scores")
	} else {
		j.PanelDifference = Figure{Note: "no other model scored the same work"}
		j.PanelAlpha = j.PanelDifference
	}
	j.FlipRate = rate(a.tally.NotHeld, a.tally.Decisive)
	if a.tally.Decisive == 0 {
		j.FlipRate.Note = "never asked in two or more orders"
	}
	j.FlipRateByRun = a.byRun
	j.FirstShown = rate(a.tally.First, a.tally.Picks)
	if a.tally.Picks > 0 {
		j.FirstShownChance = a.tally.Chance / float64(a.tally.Picks)
	}
	if len(a.self) > 0 {
		j.SelfPreference = figure(mean(a.self), len(a.self), MinCases, true, "")
	} else {
		j.SelfPreference = Figure{Note: "authors unknown, or it judged no work of its own model's beside another judge"}
	}
	if len(a.familySelf) > 0 {
		j.FamilySelfPreference = figure(mean(a.familySelf), len(a.familySelf), MinCases, true, "")
	} else {
		j.FamilySelfPreference = Figure{Note: "authors or families unknown, or it judged no work of its family's beside a judge of another"}
	}
	r, ok := Pearson(a.scores, a.lengths)
	j.LengthCorrelation = figure(r, len(a.scores), MinCases, ok, "undefined: the scores or the lengths do not vary")
	j.Conformity = rate(a.conform, a.moves)
	if a.moves == 0 {
		j.Conformity.Note = "never moved in a debate"
	}
	k, po, ok := Kappa(a.person, a.own)
	j.PersonKappa = figure(k, len(a.person), MinCases, ok, "undefined: both always said the same")
	j.PersonAgreement = figure(po, len(a.person), MinCases, len(a.person) > 0, "")
	if len(a.person) == 0 {
		j.PersonKappa.Note, j.PersonAgreement.Note = "no run it judged has a person's verdict", "no run it judged has a person's verdict"
	}
	m.Seat = a.seat()
	return m
}

func (a *accum) seat() SeatFigure {
	var s SeatFigure
	kinds := map[string]int{}
	for _, c := range a.calls {
		s.Calls++
		if c.Repair {
			s.Repairs++
		}
		if c.Failed != "" {
			s.Failures++
			kinds[string(c.Failed)]++
			continue
		}
		s.Replies++
		if c.Unparseable {
			s.Unparsed++
		}
		s.Latencies = append(s.Latencies, c.Duration.Seconds())
		if u := c.Usage; u != nil {
			s.TokensReported++
			s.TokensIn += u.InputTokens
			s.TokensOut += u.OutputTokens
			if u.CostUSD != nil {
				s.CostReported++
				s.CostUSD += *u.CostUSD
			}
		}
	}
	for k, n := range kinds {
		s.ByKind = append(s.ByKind, KindCount{Kind: k, Count: n})
	}
	sort.Slice(s.ByKind, func(i, j int) bool {
		if s.ByKind[i].Count != s.ByKind[j].Count {
			return s.ByKind[i].Count > s.ByKind[j].Count
		}
		return s.ByKind[i].Kind < s.ByKind[j].Kind
	})
	n := len(s.Latencies)
	s.LatencyP50 = figure(Percentile(s.Latencies, 50), n, MinCases, n > 0, "")
	s.LatencyP95 = figure(Percentile(s.Latencies, 95), n, MinP95, n > 0, "")
	return s
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

// ordered reports whether a group's readings are one judgement asked in
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

// judging adds a run's readings to each model's cases.
func judging(r Run, get func(string) *accum) {
	flips(r, get)
	sc := scaleScoresOf(r, get)
	panelScores(sc.byUnit, get)
	selfPreference(sc, get)
	familySelfPreference(sc, r.Families, get)
}

// flips adds each model's readings of a run to its tally of picks of
// the candidate shown first and, where it was asked in several orders,
// of preferences that changed with the order; and the share that changed
// in this run to its flip rates run by run.
func flips(r Run, get func(string) *accum) {
	ids := r.Candidates()
	runTally := map[string]*receipt.Tally{}
	for _, g := range groups(r) {
		a := get(g.agent)
		a.readings += len(g.readings)
		rs := receiptReadings(g.readings, ids)
		var t receipt.Tally
		t.AddPicks(rs)
		if ordered(g.readings) {
			t.AddPairs(receipt.Pairs(len(ids), rs))
		}
		a.tally.Add(t)
		if runTally[g.agent] == nil {
			runTally[g.agent] = &receipt.Tally{}
		}
		runTally[g.agent].Add(t)
	}
	for agent, t := range runTally {
		if t.Decisive > 0 {
			get(agent).byRun = append(get(agent).byRun, float64(t.NotHeld)/float64(t.Decisive))
		}
	}
}

// unit is one thing scored: one judgement of one candidate.
type unit struct{ judgement, id string }

// scaleScores are a run's scores on a score scale, by what they score
// and by whom.
type scaleScores struct {
	byUnit   map[unit]map[string][]float64   // unit → model → scores
	centred  map[string]map[string][]float64 // candidate → model → scores less their reading's mean
	authorOf map[string]string               // candidate → the agent that wrote it
}

// scaleScoresOf gathers a run's scores on a score scale, and adds each
// to its model's scores beside the length of what it scored.
func scaleScoresOf(r Run, get func(string) *accum) scaleScores {
	sc := scaleScores{byUnit: map[unit]map[string][]float64{}, centred: map[string]map[string][]float64{}, authorOf: map[string]string{}}
	for _, s := range r.Scored {
		if s.Max == 0 {
			continue // not on a score scale (a compare judge's weighted totals)
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
			if c.Author != "" {
				sc.authorOf[c.ID] = c.Author
			}
			if c.Score == nil {
				continue
			}
			a.scores = append(a.scores, *c.Score)
			a.lengths = append(a.lengths, float64(c.Bytes))
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
func panelScores(byUnit map[unit]map[string][]float64, get func(string) *accum) {
	units := make([]unit, 0, len(byUnit))
	for u := range byUnit {
		units = append(units, u)
	}
	sort.Slice(units, func(i, j int) bool {
		if units[i].judgement != units[j].judgement {
			return units[i].judgement < units[j].judgement
		}
		return units[i].id < units[j].id
	})
	for _, u := range units {
		models := byUnit[u]
		if len(models) < 2 {
			continue
		}
		for m, vs := range models {
			rest, n := 0.0, 0
			for o, ws := range models {
				if o != m {
					rest += mean(ws)
					n++
				}
			}
			a := get(m)
			a.mine = append(a.mine, mean(vs))
			a.rest = append(a.rest, rest/float64(n))
		}
	}
}

// selfPreference adds, for every candidate whose author scored it beside
// another model, how far the author's centred scores of it stand above
// the others', candidates in order.
func selfPreference(sc scaleScores, get func(string) *accum) {
	cands := make([]string, 0, len(sc.centred))
	for id := range sc.centred {
		cands = append(cands, id)
	}
	sort.Strings(cands)
	for _, id := range cands {
		author := sc.authorOf[id]
		own, ok := sc.centred[id][author]
		if author == "" || !ok || len(sc.centred[id]) < 2 {
			continue
		}
		var others []float64
		for m, vs := range sc.centred[id] {
			if m != author {
				others = append(others, vs...)
			}
		}
		get(author).self = append(get(author).self, mean(own)-mean(others))
	}
}

// familySelfPreference adds, for every candidate whose author's vendor
// family is known, how far each judge of that family's centred scores of
// it stand above those of the judges of other families, candidates in
// order.
func familySelfPreference(sc scaleScores, families map[string]string, get func(string) *accum) {
	cands := make([]string, 0, len(sc.centred))
	for id := range sc.centred {
		cands = append(cands, id)
	}
	sort.Strings(cands)
	for _, id := range cands {
		fam := families[sc.authorOf[id]]
		if fam == "" {
			continue
		}
		var kin []string
		var others []float64
		for m, vs := range sc.centred[id] {
			if families[m] == fam {
				kin = append(kin, m)
			} else {
				others = append(others, vs...)
			}
		}
		if len(others) == 0 {
			continue
		}
		sort.Strings(kin)
		for _, m := range kin {
			get(m).familySelf = append(get(m).familySelf, mean(sc.centred[id][m])-mean(others))
		}
	}
}

// person adds, for every model that judged a labelled run, its verdicts
// beside the person's: on the winner, each pair of the winner and another
// candidate, which one its headline judgement preferred (in every order
// it was asked; a tie otherwise); on accept, improve or reject, its own
// verdict; on a score, its overall score, rounded.
func person(r Run, get func(string) *accum) {
	l := r.Label
	ids := r.Candidates()
	winner := ""
	for _, id := range ids {
		if strings.EqualFold(id, l.Winner) {
			winner = id
		}
	}
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
		if winner != "" {
			a.winnerBeside(gs, ids, slices.Index(ids, winner))
		}
		a.verdictsBeside(gs, l)
	}
}

// winnerBeside adds, for every pair of the person's winner (ids[w]) and
// another candidate, the side the person took beside the one the model's
// headline judgement took (the recommendation or overall score; any
// judgement when it gave neither) in the groups gs of its readings.
func (a *accum) winnerBeside(gs []*group, ids []string, w int) {
	headline := slices.DeleteFunc(slices.Clone(gs), func(g *group) bool { return g.judgement != "recommendation" && g.judgement != "overall" })
	if len(headline) == 0 {
		headline = gs
	}
	for _, g := range headline {
		for _, p := range receipt.Pairs(len(ids), receiptReadings(g.readings, ids)) {
			if (p.A != w && p.B != w) || p.Orders() == 0 {
				continue
			}
			a.person = append(a.person, side(p, w))
			a.own = append(a.own, side(p, p.Winner()))
		}
	}
}

// verdictsBeside adds, for every reading in gs, the person's verdict of
// label l beside the model's, and the person's score beside the model's
// overall score of a single candidate, each rounded, where both gave one.
func (a *accum) verdictsBeside(gs []*group, l *engine.Label) {
	for _, g := range gs {
		for _, s := range g.readings {
			if l.Verdict != "" && s.Verdict != "" {
				a.person = append(a.person, "verdict "+l.Verdict)
				a.own = append(a.own, "verdict "+s.Verdict)
			}
			if l.Score != nil && s.Judgement == "overall" && len(s.Candidates) == 1 && s.Candidates[0].Score != nil {
				a.person = append(a.person, fmt.Sprintf("score %.0f", math.Round(*l.Score)))
				a.own = append(a.own, fmt.Sprintf("score %.0f", math.Round(*s.Candidates[0].Score)))
			}
		}
	}
}

// side says which of a pair is preferred: "first", "second" (in the
// candidates' sorted order) or "tie" (c < 0).
func side(p receipt.Pair, c int) string {
	switch c {
	case p.A:
		return "first"
	case p.B:
		return "second"
	}
	return "tie"
}

// authors rates the authors of the runs' candidates: every pair of
// candidates of a run, by different known authors, is a game the better
// placed won (a tie when placed level).
func authors(runs []Run) []Author {
	names, games := authorGames(runs)
	if len(names) == 0 {
		return nil
	}
	out, wins := tallyGames(names, games)
	rateGroups(out, wins)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Group != out[j].Group {
			return out[i].Group < out[j].Group
		}
		return out[i].Theta > out[j].Theta
	})
	return out
}

// game is one pair of candidates by different authors, a and b indices
// of the authors' names.
type game struct {
	a, b   int
	result float64 // 1: a won, 0: b won, 0.5: a tie
}

// authorGames are the games of the runs' placed candidates, with the
// authors' names in the order they first played.
func authorGames(runs []Run) ([]string, []game) {
	var names []string
	idx := map[string]int{}
	var games []game
	for _, r := range runs {
		if r.Placed == nil {
			continue
		}
		cs := r.Placed.Candidates
		for i := range cs {
			for j := i + 1; j < len(cs); j++ {
				x, y := cs[i], cs[j]
				if x.Author == "" || y.Author == "" || x.Author == y.Author {
					continue
				}
				for _, n := range []string{x.Author, y.Author} {
					if _, ok := idx[n]; !ok {
						idx[n] = len(names)
						names = append(names, n)
					}
				}
				g := game{a: idx[x.Author], b: idx[y.Author], result: 0.5}
				switch {
				case x.Place < y.Place:
					g.result = 1
				case x.Place > y.Place:
					g.result = 0
				}
				games = append(games, g)
			}
		}
	}
	return names, games
}

// tallyGames counts each author's games, wins, losses and ties, and returns
// them with wins[i][j], the games author i won against j (a tie half to
// each).
func tallyGames(names []string, games []game) ([]Author, [][]float64) {
	n := len(names)
	wins := make([][]float64, n)
	for i := range wins {
		wins[i] = make([]float64, n)
	}
	out := make([]Author, n)
	for i := range out {
		out[i].Name = names[i]
	}
	for _, g := range games {
		wins[g.a][g.b] += g.result
		wins[g.b][g.a] += 1 - g.result
		out[g.a].Games++
		out[g.b].Games++
		switch g.result {
		case 1:
			out[g.a].Wins++
			out[g.b].Losses++
		case 0:
			out[g.b].Wins++
			out[g.a].Losses++
		default:
			out[g.a].Ties++
			out[g.b].Ties++
		}
	}
	return out, wins
}

// rateGroups numbers the groups of authors whose work met, and rates each
// group of two or more by Bradley–Terry, on the Elo scale with its 95%
// interval; an author alone, or in a group that cannot be rated, gets a
// note saying why instead.
func rateGroups(out []Author, wins [][]float64) {
	for gi, comp := range Components(wins) {
		for _, i := range comp {
			out[i].Group = gi + 1
		}
		if len(comp) < 2 {
			for _, i := range comp {
				out[i].Note = "its work never met another author's"
			}
			continue
		}
		sub := make([][]float64, len(comp))
		for x, i := range comp {
			sub[x] = make([]float64, len(comp))
			for y, j := range comp {
				sub[x][y] = wins[i][j]
			}
		}
		rs, err := BradleyTerry(sub)
		if err != nil {
			for _, i := range comp {
				out[i].Note = err.Error()
			}
			continue
		}
		for x, i := range comp {
			a := &out[i]
			a.Theta, a.SE = rs[x].Theta, rs[x].SE
			a.Rating = EloScale(a.Theta)
			a.Low, a.High = EloScale(a.Theta-1.96*a.SE), EloScale(a.Theta+1.96*a.SE)
			a.Shown = a.Games >= MinCases
			if !a.Shown {
				a.Note = fmt.Sprintf("fewer than %d games", MinCases)
			}
		}
	}
}

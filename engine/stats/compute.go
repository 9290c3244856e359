package stats

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"

	"github.com/arenadebate/arena/engine/receipt"
)

// MinCases is the fewest cases a rate, an agreement, a correlation or a
// percentile rests on before it is shown; MinRuns the fewest runs a
// figure with a bootstrap interval rests on (the bootstrap resamples
// runs); MinP95 the fewest replies a 95th percentile of latency rests on
// (with fewer it is only the slowest).
const (
	MinCases = 5
	MinRuns  = 5
	MinP95   = 20
)

// Report is arena stats' account.
type Report struct {
	Logs     int       `json:"logs"` // arena logs read
	Runs     int       `json:"runs"` // of which the filters kept
	Skipped  []Skipped `json:"skipped,omitempty"`
	MinCases int       `json:"min_cases"`
	MinRuns  int       `json:"min_runs"`
	MinP95   int       `json:"min_cases_p95"`
	// Bootstraps is how many resamples of the runs each bootstrap
	// interval drew.
	Bootstraps int      `json:"bootstraps"`
	Labelled   int      `json:"labelled_runs"` // runs with a person's verdict
	Models     []Model  `json:"models"`
	Authors    []Author `json:"authors,omitempty"`
	// Ledger is, for each protocol that debates, what the debates
	// changed of what a plain vote concluded, and whether the person's
	// verdicts bore the change out.
	Ledger []LedgerFigure `json:"ledger,omitempty"`
	// Gate is the learned escalation gate in shadow mode; nil unless the
	// person turned it on (Options.ShadowGate).
	Gate *GateFigure `json:"shadow_gate,omitempty"`
}

// Options are what Compute may add beyond the figures every report has.
type Options struct {
	// ShadowGate reports the learned escalation gate (the setting
	// shadow_escalation_gate).
	ShadowGate bool
}

// Model is one model's figures.
type Model struct {
	Name  string      `json:"model"`
	Judge JudgeFigure `json:"as_judge"`
	Seat  SeatFigure  `json:"as_seat"`
}

// JudgeFigure is how a model judged.
type JudgeFigure struct {
	// Readings is how many judgements it gave (one per order and repeat).
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
	// order (first readings only: a repeat is not another order). N counts
	// the preferences. It pools judgements asked in any number of orders;
	// FlipRateByOrders splits it by that number (4: four or more).
	FlipRate         Figure       `json:"flip_rate"`
	FlipRateByOrders []OrdersFlip `json:"flip_rate_by_orders,omitempty"`
	// FlipRateByRun is its flip rate in each run that asked it in several
	// orders, oldest first (for a sparkline; each rests on few cases).
	FlipRateByRun []float64 `json:"flip_rate_by_run,omitempty"`
	// Swap is MT-Bench's position-bias account (Zheng et al. 2023,
	// Table 2) of its swapped readings.
	Swap SwapFigure `json:"mt_bench_swap"`
	// ByGap is its flip rate and its first-position preference by the
	// score gap between the two candidates.
	ByGap []GapFigure `json:"by_score_gap,omitempty"`
	// Repeats is how it answered the same order asked again.
	Repeats RepeatFigure `json:"repeats"`
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
	// Person is its agreement with the person's own verdicts (arena
	// label, a moderator's "verdict:"), each kind of verdict apart.
	Person PersonFigure `json:"person"`
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

// Compute is the report of runs.
func Compute(runs []Run, opt Options) Report {
	rep := Report{Runs: len(runs), MinCases: MinCases, MinRuns: MinRuns, MinP95: MinP95, Bootstraps: Bootstraps}
	acc := map[string]*accum{}
	get := func(name string) *accum {
		if acc[name] == nil {
			acc[name] = newAccum()
		}
		return acc[name]
	}
	for ri, r := range runs {
		for _, c := range r.Calls {
			a := get(c.Agent)
			a.calls = append(a.calls, c)
			a.callRuns[ri] = true
		}
		judging(ri, r, get)
		if r.Label != nil {
			rep.Labelled++
			person(ri, r, get)
		}
		for _, l := range r.Ledgers {
			for _, m := range l.Moves {
				get(m.Agent).conform.add(m.Conformity, ri)
			}
		}
	}
	for _, n := range sortedKeys(acc) {
		rep.Models = append(rep.Models, acc[n].model(n))
	}
	rep.Authors = authors(runs)
	rep.Ledger = ledgers(runs)
	if opt.ShadowGate {
		g := shadowGate(runs)
		rep.Gate = &g
	}
	return rep
}

// counter counts cases of a rate and the runs they come from.
type counter struct {
	k, n int
	runs map[int]bool
}

func (c *counter) add(yes bool, run int) {
	if c.runs == nil {
		c.runs = map[int]bool{}
	}
	c.n++
	if yes {
		c.k++
	}
	c.runs[run] = true
}

func (c *counter) figure() Figure { return rate(c.k, c.n, len(c.runs)) }

// valued is a value from a run; paired two of them (x and y).
type (
	valued struct {
		v   float64
		run int
	}
	paired struct {
		x, y float64
		run  int
	}
)

// accum gathers one model's cases over the runs.
type accum struct {
	calls    []Call
	callRuns map[int]bool
	readings int
	tally    receipt.Tally
	pickRuns map[int]bool
	flip     counter
	byOrders map[int]*counter
	byRun    []float64
	swap     swapCounts
	gaps     []gapCounts
	repeat   repeatCounts
	// panel: its score (x) and the others' mean (y), per thing scored by
	// two or more models.
	panel      []paired
	self       []valued
	familySelf []valued
	// lengths: its scores (x) beside the length of what it scored (y).
	lengths []paired
	conform counter
	// person: the person's verdicts beside its own, by kind.
	person map[string][]verdictPair
}

func newAccum() *accum {
	return &accum{callRuns: map[int]bool{}, pickRuns: map[int]bool{}, byOrders: map[int]*counter{}, gaps: make([]gapCounts, len(GapBins)), person: map[string][]verdictPair{}}
}

func (a *accum) model(name string) Model {
	m := Model{Name: name}
	j := &m.Judge
	j.Readings = a.readings
	if len(a.panel) > 0 {
		j.PanelDifference = pairedSample(a.panel, name+"/panel Δ", meanAbsDifference).figure("")
		j.PanelAlpha = pairedSample(a.panel, name+"/panel α", pairedAlpha).figure("undefined: no variation in the scores")
	} else {
		j.PanelDifference = Figure{Note: "no other model scored the same work"}
		j.PanelAlpha = j.PanelDifference
	}
	j.FlipRate = a.flip.figure()
	if a.flip.n == 0 {
		j.FlipRate.Note = "never asked in two or more orders"
	}
	for _, k := range sortedKeys(a.byOrders) {
		j.FlipRateByOrders = append(j.FlipRateByOrders, OrdersFlip{Orders: k, FlipRate: a.byOrders[k].figure()})
	}
	j.FlipRateByRun = a.byRun
	j.Swap = a.swap.figure()
	j.ByGap = gapFigures(a.gaps)
	j.Repeats = a.repeat.figure(name)
	j.FirstShown = rate(a.tally.First, a.tally.Picks, len(a.pickRuns))
	if a.tally.Picks > 0 {
		j.FirstShownChance = a.tally.Chance / float64(a.tally.Picks)
	}
	j.SelfPreference = meanSample(a.self, name+"/self-preference").figure("")
	if len(a.self) == 0 {
		j.SelfPreference.Note = "authors unknown, or it judged no work of its own model's beside another judge"
	}
	j.FamilySelfPreference = meanSample(a.familySelf, name+"/family self-preference").figure("")
	if len(a.familySelf) == 0 {
		j.FamilySelfPreference.Note = "authors or families unknown, or it judged no work of its family's beside a judge of another"
	}
	j.LengthCorrelation = pairedSample(a.lengths, name+"/length r", pairedPearson).figure("undefined: the scores or the lengths do not vary")
	j.Conformity = a.conform.figure()
	if a.conform.n == 0 {
		j.Conformity.Note = "never moved in a debate"
	}
	j.Person = a.personFigure(name)
	m.Seat = a.seat()
	return m
}

// pairedSample is a statistic of the paired cases at idx, resampled by
// run.
func pairedSample(cases []paired, seed string, stat func(p []paired, idx []int) (float64, bool)) sample {
	s := sample{seed: seed}
	for _, c := range cases {
		s.run = append(s.run, c.run)
	}
	s.stat = func(idx []int) (float64, bool) { return stat(cases, idx) }
	return s
}

// meanAbsDifference is the mean of |x − y| over the cases at idx.
func meanAbsDifference(p []paired, idx []int) (float64, bool) {
	sum := 0.0
	for _, k := range idx {
		sum += math.Abs(p[k].x - p[k].y)
	}
	return sum / float64(len(idx)), len(idx) > 0
}

// pairedAlpha is AlphaInterval of two coders, x and y, who both valued
// every unit at idx, in two passes without a slice: with n = 2·units,
// Do = Σ 2(x−y)² / n and De = 2·Σ (v − v̄)² / (n − 1) over all 2·units
// values. A bootstrap calls it thousands of times.
func pairedAlpha(p []paired, idx []int) (float64, bool) {
	if len(idx) == 0 {
		return 0, false
	}
	n := 2 * float64(len(idx))
	do, sum := 0.0, 0.0
	first, varies := p[idx[0]].x, false
	for _, k := range idx {
		x, y := p[k].x, p[k].y
		do += 2 * (x - y) * (x - y)
		sum += x + y
		varies = varies || x != first || y != first
	}
	if !varies {
		return 0, false
	}
	m, ss := sum/n, 0.0
	for _, k := range idx {
		ss += (p[k].x-m)*(p[k].x-m) + (p[k].y-m)*(p[k].y-m)
	}
	return 1 - (do/n)/(2*ss/(n-1)), true
}

// pairedPearson is Pearson's r of x and y over the cases at idx.
func pairedPearson(p []paired, idx []int) (float64, bool) {
	if len(idx) < 2 {
		return 0, false
	}
	mx, my := 0.0, 0.0
	for _, k := range idx {
		mx += p[k].x
		my += p[k].y
	}
	mx, my = mx/float64(len(idx)), my/float64(len(idx))
	sxy, sxx, syy := 0.0, 0.0, 0.0
	for _, k := range idx {
		dx, dy := p[k].x-mx, p[k].y-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return 0, false
	}
	return sxy / math.Sqrt(sxx*syy), true
}

// meanSample is the mean of valued cases, resampled by run.
func meanSample(cases []valued, seed string) sample {
	s := sample{seed: seed}
	for _, c := range cases {
		s.run = append(s.run, c.run)
	}
	s.stat = func(idx []int) (float64, bool) {
		sum := 0.0
		for _, k := range idx {
			sum += cases[k].v
		}
		return sum / float64(len(idx)), len(idx) > 0
	}
	return s
}

// sortedKeys are a map's keys, sorted: figures summed in a fixed order
// come out the same, bit for bit, every time.
func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	return slices.Sorted(maps.Keys(m))
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
	s.LatencyP50 = latency(s.Latencies, 50, MinCases, len(a.callRuns))
	s.LatencyP95 = latency(s.Latencies, 95, MinP95, len(a.callRuns))
	return s
}

// latency is the p-th percentile of the latencies, with its interval by
// order statistics, shown from min of them.
func latency(xs []float64, p float64, min, runs int) Figure {
	n := len(xs)
	if n < min {
		return Figure{N: n, Runs: runs, Note: fmt.Sprintf("too few runs: %d replies, %d needed", n, min)}
	}
	f := Figure{Value: Percentile(xs, p), N: n, Runs: runs, Shown: true, Interval: IntervalOrder}
	f.Low, f.High = percentileInterval(xs, p)
	return f
}

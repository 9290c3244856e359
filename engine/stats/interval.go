package stats

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
)

// Every figure's 95% interval: Wilson's score interval for a rate, a
// seeded percentile bootstrap that resamples whole runs for everything
// else (α, κ, means, correlations), order statistics for a percentile.

// z95 is the standard normal's 97.5th percentile.
const z95 = 1.959963984540054

// Bootstraps is how many resamples a bootstrap interval draws.
const Bootstraps = 2000

// How an interval was computed, as Figure.Interval says it.
const (
	IntervalWilson    = "Wilson score, 95%"
	IntervalBootstrap = "bootstrap over runs, 95%"
	IntervalOrder     = "order statistics, 95%"
)

// Figure is one statistic, with the count it rests on and its 95%
// interval. Shown is false when the count is below the minimum, or the
// statistic is undefined for the data (Note says which); Value is then 0.
type Figure struct {
	Value float64 `json:"value"`
	N     int     `json:"n"`
	// Runs counts the runs its cases come from.
	Runs  int  `json:"runs"`
	Shown bool `json:"shown"`
	// Low and High bound its 95% interval, computed as Interval says
	// ("" when there is none: the figure is not shown, or a bootstrap
	// found it undefined in too many resamples, which Note says).
	Low      float64 `json:"low"`
	High     float64 `json:"high"`
	Interval string  `json:"interval,omitempty"`
	Note     string  `json:"note,omitempty"`
}

// tooFew is the figure of n cases from runs runs that are too few to show:
// "too few runs", and what is missing.
func tooFew(n, runs, minRuns int) Figure {
	f := Figure{N: n, Runs: runs}
	switch {
	case n < MinCases:
		f.Note = fmt.Sprintf("too few runs: %d cases, %d needed", n, MinCases)
	default:
		f.Note = fmt.Sprintf("too few runs: %d, %d needed to resample", runs, minRuns)
	}
	return f
}

// Wilson is the Wilson score interval of k successes in n trials.
func Wilson(k, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	p, nf := float64(k)/float64(n), float64(n)
	z2 := z95 * z95
	centre := (p + z2/(2*nf)) / (1 + z2/nf)
	half := z95 / (1 + z2/nf) * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return math.Max(0, centre-half), math.Min(1, centre+half)
}

// rate is k of n cases from runs runs, with its Wilson interval.
func rate(k, n, runs int) Figure {
	if n < MinCases {
		return tooFew(n, runs, 0)
	}
	f := Figure{Value: float64(k) / float64(n), N: n, Runs: runs, Shown: true, Interval: IntervalWilson}
	f.Low, f.High = Wilson(k, n)
	return f
}

// sample is a statistic of cases, each from a run (its index among the
// runs read), to be shown with a bootstrap interval over the runs.
type sample struct {
	run  []int // each case's run
	stat func(cases []int) (float64, bool)
	// seed names the figure, to seed its resampling: the same logs give
	// the same interval.
	seed string
}

// runs counts the distinct runs of the cases.
func (s sample) runs() int {
	seen := map[int]bool{}
	for _, r := range s.run {
		seen[r] = true
	}
	return len(seen)
}

// figure is the statistic of all the cases, shown with its bootstrap
// interval when there are MinCases cases from MinRuns runs, and it is
// defined (undefined says why not).
func (s sample) figure(undefined string) Figure {
	n, runs := len(s.run), s.runs()
	if n < MinCases || runs < MinRuns {
		return tooFew(n, runs, MinRuns)
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	v, ok := s.stat(all)
	if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
		return Figure{N: n, Runs: runs, Note: undefined}
	}
	f := Figure{Value: v, N: n, Runs: runs, Shown: true}
	if lo, hi, ok := s.bootstrap(); ok {
		f.Low, f.High, f.Interval = lo, hi, IntervalBootstrap
	} else {
		f.Note = "no interval: undefined in more than half the resamples of the runs"
	}
	return f
}

// bootstrap is the percentile interval of the statistic over Bootstraps
// resamples of the runs (each run drawn whole, with replacement); ok is
// false when it is undefined in half of them or more.
func (s sample) bootstrap() (lo, hi float64, ok bool) {
	byRun := map[int][]int{}
	var ids []int
	for i, r := range s.run {
		if byRun[r] == nil {
			ids = append(ids, r)
		}
		byRun[r] = append(byRun[r], i)
	}
	sort.Ints(ids)
	h := fnv.New64a()
	h.Write([]byte(s.seed))
	rng := rand.New(rand.NewPCG(h.Sum64(), 39))
	vals := make([]float64, 0, Bootstraps)
	var cases []int
	for range Bootstraps {
		cases = cases[:0]
		for range ids {
			cases = append(cases, byRun[ids[rng.IntN(len(ids))]]...)
		}
		if v, ok := s.stat(cases); ok && !math.IsNaN(v) && !math.IsInf(v, 0) {
			vals = append(vals, v)
		}
	}
	if len(vals)*2 <= Bootstraps {
		return 0, 0, false
	}
	slices.Sort(vals)
	return quantile(vals, 0.025), quantile(vals, 0.975), true
}

// quantile is the q-quantile of sorted xs, interpolated linearly between
// order statistics (R's type 7).
func quantile(xs []float64, q float64) float64 {
	h := q * float64(len(xs)-1)
	i := int(math.Floor(h))
	if i+1 >= len(xs) {
		return xs[len(xs)-1]
	}
	return xs[i] + (h-float64(i))*(xs[i+1]-xs[i])
}

// percentileInterval is the distribution-free 95% interval of the p-th
// percentile of n values: the order statistics at ranks n·p/100 ∓ 1.96
// binomial standard deviations (normal approximation), clamped.
func percentileInterval(xs []float64, p float64) (lo, hi float64) {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := float64(len(s))
	q := p / 100
	sd := math.Sqrt(n * q * (1 - q))
	l := int(math.Floor(n*q - z95*sd))
	u := int(math.Ceil(n*q + z95*sd))
	return s[min(max(l, 1), len(s))-1], s[min(max(u, 1), len(s))-1]
}

// Rate is k of n cases from runs runs, with its Wilson interval, or "too
// few runs" below MinCases: for a figure computed outside arena stats
// (arena bench), by the same rule.
func Rate(k, n, runs int) Figure { return rate(k, n, runs) }

// Resampled is stat over every case, each from a group (its index in
// groups: a run, a benchmark's pair), with its bootstrap interval over
// the groups, seeded by seed; undefined says why when stat has no value.
// For a figure computed outside arena stats (arena bench), by the same
// rule.
func Resampled(groups []int, seed string, stat func(cases []int) (float64, bool), undefined string) Figure {
	return sample{run: groups, stat: stat, seed: seed}.figure(undefined)
}

package stats

import (
	"math"
	"slices"
	"sort"
)

// The statistics, as pure functions over numbers: each is checked against
// values computed by hand in figures_test.go.

// AlphaInterval is Krippendorff's alpha with the interval metric.
// values[c][u] is coder c's value for unit u, NaN where it gave none. Only
// units with two or more values count (they are "pairable"). ok is false
// when alpha is undefined: no pairable unit, or no variation at all.
//
//	α = 1 − Do/De
//	Do = 1/n · Σ_u 1/(m_u−1) · Σ_{i≠j in u} (v_i − v_j)²
//	De = 1/(n(n−1)) · Σ_{i≠j over all pairable values} (v_i − v_j)²
//
// with m_u the values of unit u and n the pairable values in all.
func AlphaInterval(values [][]float64) (alpha float64, n int, ok bool) {
	if len(values) == 0 {
		return 0, 0, false
	}
	var all []float64
	do := 0.0
	for u := range values[0] {
		var vs []float64
		for c := range values {
			if u < len(values[c]) && !math.IsNaN(values[c][u]) {
				vs = append(vs, values[c][u])
			}
		}
		if len(vs) < 2 {
			continue
		}
		all = append(all, vs...)
		for i := range vs {
			for j := range vs {
				if i != j {
					d := vs[i] - vs[j]
					do += d * d / float64(len(vs)-1)
				}
			}
		}
	}
	n = len(all)
	if n < 2 {
		return 0, n, false
	}
	do /= float64(n)
	// Σ_{i≠j} (v_i − v_j)² = 2n·Σ (v_i − v̄)²: linear in n, so a bootstrap
	// can afford it, and without cancellation.
	m, ss := mean(all), 0.0
	for _, v := range all {
		ss += (v - m) * (v - m)
	}
	de := 2 * float64(n) * ss / (float64(n) * float64(n-1))
	if slices.Min(all) == slices.Max(all) {
		return 0, n, false
	}
	return 1 - do/de, n, true
}

// Kappa is Cohen's kappa of two raters' categories over the same items
// (a[i] and b[i] for item i): (po − pe) / (1 − pe), po the share of items
// they agree on, pe the agreement expected from each rater's own
// category shares. ok is false with no item, or when pe is 1 (both always
// said the same one category: kappa is undefined).
func Kappa(a, b []string) (kappa, po float64, ok bool) {
	n := min(len(a), len(b))
	codes := map[string]int{}
	ac, bc, idx := make([]int, n), make([]int, n), make([]int, n)
	for i := 0; i < n; i++ {
		for _, c := range []string{a[i], b[i]} {
			if _, seen := codes[c]; !seen {
				codes[c] = len(codes)
			}
		}
		ac[i], bc[i], idx[i] = codes[a[i]], codes[b[i]], i
	}
	return kappaCodes(ac, bc, idx, len(codes))
}

// kappaCodes is Kappa of the items at idx, their categories coded 0 to
// k−1 in a and b: a bootstrap calls it thousands of times.
func kappaCodes(a, b, idx []int, k int) (kappa, po float64, ok bool) {
	n := float64(len(idx))
	if n == 0 {
		return 0, 0, false
	}
	ca, cb := make([]float64, k), make([]float64, k)
	agree := 0.0
	for _, i := range idx {
		ca[a[i]]++
		cb[b[i]]++
		if a[i] == b[i] {
			agree++
		}
	}
	po = agree / n
	pe := 0.0
	for c := range ca {
		pe += ca[c] / n * cb[c] / n
	}
	if pe >= 1-1e-12 {
		return 0, po, false
	}
	return (po - pe) / (1 - pe), po, true
}

// Pearson is the correlation of x and y; ok is false with fewer than two
// points or when either does not vary.
func Pearson(x, y []float64) (r float64, ok bool) {
	n := min(len(x), len(y))
	p, idx := make([]paired, n), make([]int, n)
	for i := range p {
		p[i], idx[i] = paired{x: x[i], y: y[i]}, i
	}
	return pairedPearson(p, idx)
}

func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// Percentile is the p-th percentile of xs by the nearest-rank method: the
// smallest value with at least p% of the values at or below it. xs need
// not be sorted; it is not changed.
func Percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	sort.Float64s(s)
	k := int(math.Ceil(p / 100 * float64(len(s))))
	return s[min(max(k, 1), len(s))-1]
}

package stats

import (
	"errors"
	"fmt"
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
	de := 0.0
	for i := range all {
		for j := range all {
			if i != j {
				d := all[i] - all[j]
				de += d * d
			}
		}
	}
	de /= float64(n) * float64(n-1)
	if de == 0 {
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
	if n == 0 {
		return 0, 0, false
	}
	ca, cb := map[string]float64{}, map[string]float64{}
	agree := 0
	for i := 0; i < n; i++ {
		ca[a[i]]++
		cb[b[i]]++
		if a[i] == b[i] {
			agree++
		}
	}
	po = float64(agree) / float64(n)
	pe := 0.0
	for k, x := range ca {
		pe += x / float64(n) * cb[k] / float64(n)
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
	if n < 2 {
		return 0, false
	}
	mx, my := mean(x[:n]), mean(y[:n])
	sxy, sxx, syy := 0.0, 0.0, 0.0
	for i := 0; i < n; i++ {
		dx, dy := x[i]-mx, y[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return 0, false
	}
	return sxy / math.Sqrt(sxx*syy), true
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

// Prior is the pseudo-count Bradley–Terry adds to each pair of players
// that met, as a win of each over the other: without it a player that
// won every game has an infinite rating.
const Prior = 0.5

// Rating is a player's Bradley–Terry strength, on the log-odds scale
// (0 is the group's geometric mean), with its standard error.
type Rating struct {
	Theta, SE float64
}

// BradleyTerry rates n players from wins[i][j], the games i won against j
// (a tie counts half to each), with Prior added both ways to every pair
// that met. It finds the maximum-likelihood log-strengths θ, centred on
// 0, by Newton's method (fit), and takes standard errors from the
// inverse of the Fisher information (the Laplacian of n_ij·p_ij·(1−p_ij),
// inverted as (L + J/n)⁻¹ − J/n). The players must form one connected
// group (Components splits them). A fit that does not converge is an
// error, not a rating.
func BradleyTerry(wins [][]float64) ([]Rating, error) {
	n := len(wins)
	if n < 2 {
		return nil, errors.New("fewer than two players")
	}
	w, games := withPrior(wins)
	if len(Components(games)) != 1 {
		return nil, errors.New("the players do not form one connected group")
	}
	theta, err := fit(w, games, maxNewtonSteps)
	if err != nil {
		return nil, err
	}
	inv, err := invert(fisherInformation(theta, games))
	if err != nil {
		return nil, err
	}
	out := make([]Rating, n)
	for i := range out {
		out[i] = Rating{Theta: theta[i], SE: math.Sqrt(math.Max(inv[i][i]-1/float64(n), 0))}
	}
	return out, nil
}

// withPrior is wins with Prior added both ways to every pair that met,
// and the games each pair played, so counted.
func withPrior(wins [][]float64) (w, games [][]float64) {
	n := len(wins)
	w = make([][]float64, n)
	games = make([][]float64, n)
	for i := range w {
		w[i] = make([]float64, n)
		games[i] = make([]float64, n)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i == j {
				continue
			}
			w[i][j] = wins[i][j]
			if wins[i][j]+wins[j][i] > 0 {
				w[i][j] += Prior
			}
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			games[i][j] = w[i][j] + w[j][i]
		}
	}
	return w, games
}

// maxNewtonSteps bounds fit: from θ = 0 it took 6 to 16 steps on one-sided
// chains and round-robin sweeps of up to a hundred players, strengths
// spanning up to e^190, each step the solution of one n×n system.
const maxNewtonSteps = 200

// fitTolerance is fit's stop test, on the log scale: no θ moves by more
// (1e-10 is 4e-9 rating points).
const fitTolerance = 1e-10

// fit is the maximum-likelihood log-strengths θ of the players, centred
// on 0, by Newton's method on the log-likelihood, which is concave: each
// step solves (L + J/n)·δ = g, L the Fisher information (the Hessian's
// negative) and g the gradient (each player's wins less those the fit
// expects of it), and is halved until the likelihood does not fall. It
// works on θ, not on the strengths e^θ: Hunter's MM iteration on the
// strengths, with a stop test on them, could not stop once they passed
// about 1e8 (their rounding exceeds the test) and crept on long
// one-sided chains, thousands of rating points short after 10,000
// rounds. An error when it has not converged within steps.
func fit(w, games [][]float64, steps int) ([]float64, error) {
	n := len(w)
	theta := make([]float64, n)
	ll := logLikelihood(w, theta)
	moved := math.Inf(1)
	for range steps {
		inv, err := invert(fisherInformation(theta, games))
		if err != nil {
			return nil, err
		}
		delta := mulVec(inv, gradient(w, games, theta))
		next, nll := theta, ll
		for t := 1.0; t > 1e-12; t /= 2 {
			next = centred(theta, delta, t)
			if nll = logLikelihood(w, next); nll >= ll {
				break
			}
		}
		moved = maxDiff(next, theta)
		theta, ll = next, nll
		if moved < fitTolerance {
			return theta, nil
		}
	}
	return nil, fmt.Errorf("the Bradley–Terry fit did not converge in %d Newton steps (its last step moved a strength by %.2g on the log scale)", steps, moved)
}

// logistic is 1/(1+e^−x), the chance that a player x stronger wins.
func logistic(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// logLikelihood is Σ w_ij·ln σ(θ_i − θ_j), each term −softplus(θ_j − θ_i)
// written so that no exp overflows.
func logLikelihood(w [][]float64, theta []float64) float64 {
	ll := 0.0
	for i := range w {
		for j, wij := range w[i] {
			if i != j && wij > 0 {
				x := theta[j] - theta[i]
				ll -= wij * (math.Max(x, 0) + math.Log1p(math.Exp(-math.Abs(x))))
			}
		}
	}
	return ll
}

// gradient is the log-likelihood's: player i's wins less those the fit
// expects of it, Σ_j games_ij·σ(θ_i − θ_j).
func gradient(w, games [][]float64, theta []float64) []float64 {
	g := make([]float64, len(w))
	for i := range w {
		for j := range w[i] {
			if i != j && games[i][j] > 0 {
				g[i] += w[i][j] - games[i][j]*logistic(theta[i]-theta[j])
			}
		}
	}
	return g
}

func mulVec(m [][]float64, v []float64) []float64 {
	out := make([]float64, len(m))
	for i, row := range m {
		for j, x := range row {
			out[i] += x * v[j]
		}
	}
	return out
}

// centred is θ + t·δ, moved to a mean of 0.
func centred(theta, delta []float64, t float64) []float64 {
	out := make([]float64, len(theta))
	mean := 0.0
	for i := range out {
		out[i] = theta[i] + t*delta[i]
		mean += out[i]
	}
	mean /= float64(len(out))
	for i := range out {
		out[i] -= mean
	}
	return out
}

func maxDiff(a, b []float64) float64 {
	d := 0.0
	for i := range a {
		d = math.Max(d, math.Abs(a[i]-b[i]))
	}
	return d
}

// fisherInformation is the information matrix of the log-strengths θ, a
// Laplacian of games[i][j]·p_ij·(1−p_ij), with J/n added so that it
// inverts (the caller takes J/n off the inverse).
func fisherInformation(theta []float64, games [][]float64) [][]float64 {
	n := len(theta)
	L := make([][]float64, n)
	for i := range L {
		L[i] = make([]float64, n)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i == j || games[i][j] == 0 {
				continue
			}
			// p_ij and 1 − p_ij each from its own exp: 1 − q would be 0
			// for a pair far apart.
			v := games[i][j] * logistic(theta[i]-theta[j]) * logistic(theta[j]-theta[i])
			L[i][j] -= v
			L[i][i] += v
		}
	}
	for i := range L {
		for j := range L[i] {
			L[i][j] += 1 / float64(n)
		}
	}
	return L
}

// Components lists the connected groups of players, where games[i][j] > 0
// links i and j; each group sorted, groups by their first player.
func Components(games [][]float64) [][]int {
	n := len(games)
	seen := make([]bool, n)
	var out [][]int
	for s := 0; s < n; s++ {
		if seen[s] {
			continue
		}
		var g []int
		stack := []int{s}
		seen[s] = true
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			g = append(g, i)
			for j := 0; j < n; j++ {
				if !seen[j] && (games[i][j] > 0 || games[j][i] > 0) {
					seen[j] = true
					stack = append(stack, j)
				}
			}
		}
		sort.Ints(g)
		out = append(out, g)
	}
	return out
}

// invert inverts a small square matrix by Gauss–Jordan elimination with
// partial pivoting.
func invert(a [][]float64) ([][]float64, error) {
	n := len(a)
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, 2*n)
		copy(m[i], a[i])
		m[i][n+i] = 1
	}
	for c := 0; c < n; c++ {
		piv := c
		for r := c + 1; r < n; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[piv][c]) {
				piv = r
			}
		}
		if math.Abs(m[piv][c]) < 1e-12 {
			return nil, errors.New("singular matrix")
		}
		m[c], m[piv] = m[piv], m[c]
		d := m[c][c]
		for k := range m[c] {
			m[c][k] /= d
		}
		for r := 0; r < n; r++ {
			if r == c || m[r][c] == 0 {
				continue
			}
			f := m[r][c]
			for k := range m[r] {
				m[r][k] -= f * m[c][k]
			}
		}
	}
	out := make([][]float64, n)
	for i := range out {
		out[i] = m[i][n:]
	}
	return out, nil
}

// EloScale turns a log-odds strength into the familiar rating points of
// arena leaderboards: 1000 for the group's mean, 400 points for a tenfold
// odds.
func EloScale(theta float64) float64 { return 1000 + 400*theta/math.Ln10 }

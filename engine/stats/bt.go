package stats

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// Bradley–Terry ratings by maximum likelihood, written for the extremes
// arena's logs can hold: long one-sided chains (strengths spanning e^800)
// and pairs that met a billion times. Three choices keep it exact there:
//
//   - the gradient is summed as w_ij·σ(θ_j−θ_i) − w_ji·σ(θ_i−θ_j), never as
//     w_ij − n_ij·σ(θ_i−θ_j), whose two terms are each about n_ij and cancel
//     (at 10⁷ wins a link the difference lost 1e-9, more than the stop test);
//   - the information matrix, a Laplacian, is solved as its reduced (n−1)
//     system by Cholesky with a pivot test relative to its diagonal, not
//     inverted whole with J/n added and an absolute 1e-12 pivot test;
//   - the covariance is the reduced system's inverse, centred, never
//     (L + J/n)⁻¹ − J/n, whose diagonal is 1/n plus a variance a billion
//     times smaller.
//
// And the fit stops only when a full Newton step is negligible and the
// score equations hold: a step a line search has halved to nothing is not
// convergence.

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
// Fisher information's inverse on the centred strengths (covariance). The
// players must form one connected group (Components splits them). A fit
// that does not converge is an error, not a rating.
func BradleyTerry(wins [][]float64) ([]Rating, error) {
	n := len(wins)
	if n < 2 {
		return nil, errors.New("fewer than two players")
	}
	w, games := withPrior(wins)
	if len(Components(games)) != 1 {
		return nil, errors.New("the players do not form one connected group")
	}
	theta, err := fit(w, maxNewtonSteps)
	if err != nil {
		return nil, err
	}
	cov, err := covariance(information(w, theta))
	if err != nil {
		return nil, err
	}
	out := make([]Rating, n)
	for i := range out {
		out[i] = Rating{Theta: theta[i], SE: math.Sqrt(math.Max(cov[i], 0))}
	}
	return out, nil
}

// withPrior is wins with Prior added both ways to every pair that met,
// and the games each pair played, so counted.
func withPrior(wins [][]float64) (w, games [][]float64) {
	n := len(wins)
	w, games = square(n), square(n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i != j {
				w[i][j] = wins[i][j]
				if wins[i][j]+wins[j][i] > 0 {
					w[i][j] += Prior
				}
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

func square(n int) [][]float64 {
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
	}
	return m
}

// maxNewtonSteps bounds fit: from θ = 0 a Newton step gains about one
// unit of log-odds on a link far from its optimum, so a chain of links
// each won 10⁹ to 0.5 (21.4 each) takes some 25 steps; 200 leaves room.
const maxNewtonSteps = 200

// fitTolerance is fit's stop test on the full Newton step, on the log
// scale, relative to the largest strength (at least 1): 1e-12 of a
// strength of 1 is 4e-10 rating points.
const fitTolerance = 1e-12

// scoreTolerance is fit's stop test on the score equations: each
// player's gradient against the sum of the magnitudes of its terms.
const scoreTolerance = 1e-9

// fit is the maximum-likelihood log-strengths θ of the players, centred
// on 0, by Newton's method on the log-likelihood, which is concave: each
// step solves L·δ = g, L the Fisher information (the Hessian's negative,
// a Laplacian) and g the gradient, and is halved while the likelihood
// falls by more than its own rounding. It stops when the full step δ is
// below fitTolerance and every player's score equation holds to
// scoreTolerance, and returns θ + δ. An error when it has not converged
// within steps.
func fit(w [][]float64, steps int) ([]float64, error) {
	n := len(w)
	theta := make([]float64, n)
	var last, worst float64
	for range steps {
		g, scale := gradient(w, theta)
		delta, err := solveLaplacian(information(w, theta), g)
		if err != nil {
			return nil, err
		}
		last, worst = maxAbs(delta), 0.0
		for i := range g {
			worst = math.Max(worst, math.Abs(g[i])/math.Max(scale[i], math.SmallestNonzeroFloat64))
		}
		if last <= fitTolerance*math.Max(1, maxAbs(theta)) && worst <= scoreTolerance {
			return centred(theta, delta, 1), nil
		}
		theta = lineSearch(w, theta, delta)
	}
	return nil, fmt.Errorf("the Bradley–Terry fit did not converge in %d Newton steps (its last full step would move a strength by %.2g on the log scale; the score equations are off by %.2g of their terms)", steps, last, worst)
}

// lineSearch is θ + t·δ, centred, for the largest t of 1, ½, ¼, … at
// which the likelihood does not fall by more than its rounding.
func lineSearch(w [][]float64, theta, delta []float64) []float64 {
	ll, slack := logLikelihood(w, theta)
	next := centred(theta, delta, 1)
	for t := 1.0; t > 1e-12; t /= 2 {
		next = centred(theta, delta, t)
		if nll, _ := logLikelihood(w, next); nll >= ll-slack {
			break
		}
	}
	return next
}

// logistic is 1/(1+e^−x), the chance that a player x stronger wins.
func logistic(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// logLikelihood is Σ w_ij·ln σ(θ_i − θ_j), each term −softplus(θ_j − θ_i)
// written so that no exp overflows, and the rounding it carries (a few
// ulps of the sum of its terms' magnitudes).
func logLikelihood(w [][]float64, theta []float64) (ll, rounding float64) {
	for i := range w {
		for j, wij := range w[i] {
			if i != j && wij > 0 {
				x := theta[j] - theta[i]
				ll -= wij * (math.Max(x, 0) + math.Log1p(math.Exp(-math.Abs(x))))
			}
		}
	}
	return ll, 64 * 0x1p-52 * math.Abs(ll)
}

// gradient is the log-likelihood's: player i's wins less those the fit
// expects of it, summed as Σ_j w_ij·σ(θ_j−θ_i) − w_ji·σ(θ_i−θ_j) (the
// wins it got beyond the fit's odds less the losses beyond them), with
// scale_i the sum of those terms' magnitudes.
func gradient(w [][]float64, theta []float64) (g, scale []float64) {
	n := len(w)
	g, scale = make([]float64, n), make([]float64, n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i == j || w[i][j]+w[j][i] == 0 {
				continue
			}
			up, down := w[i][j]*logistic(theta[j]-theta[i]), w[j][i]*logistic(theta[i]-theta[j])
			g[i] += up - down
			scale[i] += up + down
		}
	}
	return g, scale
}

// information is the Fisher information of the log-strengths θ: the
// Laplacian of n_ij·p_ij·(1−p_ij), p_ij and 1 − p_ij each from its own
// exp (1 − p would be 0 for a pair far apart).
func information(w [][]float64, theta []float64) [][]float64 {
	n := len(theta)
	L := square(n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if games := w[i][j] + w[j][i]; i != j && games > 0 {
				v := games * logistic(theta[i]-theta[j]) * logistic(theta[j]-theta[i])
				L[i][j] -= v
				L[i][i] += v
			}
		}
	}
	return L
}

// reference is the player a Laplacian's reduced system leaves out: the
// one with the largest diagonal, which keeps the rest best conditioned.
func reference(L [][]float64) int {
	r := 0
	for i := range L {
		if L[i][i] > L[r][r] {
			r = i
		}
	}
	return r
}

// reduced is L without the reference's row and column.
func reduced(L [][]float64, r int) [][]float64 {
	var out [][]float64
	for i := range L {
		if i == r {
			continue
		}
		row := make([]float64, 0, len(L)-1)
		for j := range L[i] {
			if j != r {
				row = append(row, L[i][j])
			}
		}
		out = append(out, row)
	}
	return out
}

// solveLaplacian solves L·δ = g for a connected Laplacian L (g sums to 0):
// the reduced system with the reference's δ at 0, by Cholesky, then
// centred.
func solveLaplacian(L [][]float64, g []float64) ([]float64, error) {
	r := reference(L)
	c, err := cholesky(reduced(L, r))
	if err != nil {
		return nil, err
	}
	var gr []float64
	for i := range g {
		if i != r {
			gr = append(gr, g[i])
		}
	}
	x := c.solve(gr)
	delta := make([]float64, len(g))
	for i, k := 0, 0; i < len(g); i++ {
		if i != r {
			delta[i] = x[k]
			k++
		}
	}
	return centred(delta, nil, 0), nil
}

// covariance is the diagonal of the covariance of the centred strengths,
// L⁺ = C·E·L_r⁻¹·Eᵀ·C (L_r the reduced information, E putting the
// reference back as 0, C centring): with M = E·L_r⁻¹·Eᵀ,
// cov_ii = M_ii − 2·Σ_k M_ik / n + Σ_kl M_kl / n², all of one magnitude.
func covariance(L [][]float64) ([]float64, error) {
	n := len(L)
	r := reference(L)
	c, err := cholesky(reduced(L, r))
	if err != nil {
		return nil, err
	}
	inv := c.inverse()
	M := square(n)
	idx := make([]int, 0, n-1)
	for i := 0; i < n; i++ {
		if i != r {
			idx = append(idx, i)
		}
	}
	for a, i := range idx {
		for b, j := range idx {
			M[i][j] = inv[a][b]
		}
	}
	rows := make([]float64, n)
	total := 0.0
	for i := range M {
		for _, v := range M[i] {
			rows[i] += v
		}
		total += rows[i]
	}
	out := make([]float64, n)
	fn := float64(n)
	for i := range out {
		out[i] = M[i][i] - 2*rows[i]/fn + total/(fn*fn)
	}
	return out, nil
}

// chol is a Cholesky factor: the lower triangle of A = G·Gᵀ.
type chol [][]float64

// cholesky factors a symmetric positive definite matrix. A pivot at or
// below 1e-13 of the largest diagonal entry means the matrix is singular
// for this purpose (a group the information does not hold together).
func cholesky(a [][]float64) (chol, error) {
	n := len(a)
	big := 0.0
	for i := range a {
		big = math.Max(big, a[i][i])
	}
	g := chol(square(n))
	for j := 0; j < n; j++ {
		d := a[j][j]
		for k := 0; k < j; k++ {
			d -= g[j][k] * g[j][k]
		}
		if !(d > 1e-13*big) {
			return nil, errors.New("the players' Fisher information is singular: their results do not hold the ratings together")
		}
		g[j][j] = math.Sqrt(d)
		for i := j + 1; i < n; i++ {
			s := a[i][j]
			for k := 0; k < j; k++ {
				s -= g[i][k] * g[j][k]
			}
			g[i][j] = s / g[j][j]
		}
	}
	return g, nil
}

// solve is x with G·Gᵀ·x = b.
func (g chol) solve(b []float64) []float64 {
	n := len(g)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		s := b[i]
		for k := 0; k < i; k++ {
			s -= g[i][k] * y[k]
		}
		y[i] = s / g[i][i]
	}
	x := make([]float64, n)
	for i := n - 1; i >= 0; i-- {
		s := y[i]
		for k := i + 1; k < n; k++ {
			s -= g[k][i] * x[k]
		}
		x[i] = s / g[i][i]
	}
	return x
}

// inverse is (G·Gᵀ)⁻¹, a column at a time.
func (g chol) inverse() [][]float64 {
	n := len(g)
	out := square(n)
	e := make([]float64, n)
	for j := 0; j < n; j++ {
		clear(e)
		e[j] = 1
		for i, v := range g.solve(e) {
			out[i][j] = v
		}
	}
	return out
}

// centred is θ + t·δ (θ alone when δ is nil), moved to a mean of 0.
func centred(theta, delta []float64, t float64) []float64 {
	out := make([]float64, len(theta))
	mean := 0.0
	for i := range out {
		out[i] = theta[i]
		if delta != nil {
			out[i] += t * delta[i]
		}
		mean += out[i]
	}
	mean /= float64(len(out))
	for i := range out {
		out[i] -= mean
	}
	return out
}

func maxAbs(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = math.Max(m, math.Abs(x))
	}
	return m
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

// EloScale turns a log-odds strength into the familiar rating points of
// arena leaderboards: 1000 for the group's mean, 400 points for a tenfold
// odds.
func EloScale(theta float64) float64 { return 1000 + 400*theta/math.Ln10 }

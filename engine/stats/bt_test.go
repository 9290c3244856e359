package stats

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// The references below are written apart from bt.go: Hunter's MM
// iteration on the strengths for θ, and the covariance as
// (L + J/n)⁻¹ − J/n in 512-bit floats, where the subtraction that ruins
// it in float64 costs nothing; closed forms where they exist.

// mmReference is the maximum-likelihood θ, centred, by Hunter's (2004)
// MM iteration on the strengths π_i ← W_i / Σ_j n_ij/(π_i+π_j), from
// w with the prior already added. ok is false if it did not settle.
func mmReference(w [][]float64) (theta []float64, ok bool) {
	n := len(w)
	pi := make([]float64, n)
	for i := range pi {
		pi[i] = 1
	}
	next := make([]float64, n)
	for it := 0; it < 2_000_000; it++ {
		for i := 0; i < n; i++ {
			won, den := 0.0, 0.0
			for j := 0; j < n; j++ {
				if i != j && w[i][j]+w[j][i] > 0 {
					won += w[i][j]
					den += (w[i][j] + w[j][i]) / (pi[i] + pi[j])
				}
			}
			next[i] = won / den
		}
		logMean := 0.0
		for _, p := range next {
			logMean += math.Log(p)
		}
		logMean /= float64(n)
		change := 0.0
		for i := range next {
			p := next[i] / math.Exp(logMean)
			change = math.Max(change, math.Abs(math.Log(p)-math.Log(pi[i])))
			pi[i] = p
		}
		if change < 1e-15 {
			theta = make([]float64, n)
			for i := range pi {
				theta[i] = math.Log(pi[i])
			}
			return centred(theta, nil, 0), true
		}
	}
	return nil, false
}

// bigVariances is the diagonal of the centred strengths' covariance at
// θ, as (L + J/n)⁻¹ − J/n by Gauss–Jordan in 512-bit floats.
func bigVariances(w [][]float64, theta []float64) []float64 {
	const prec = 512
	n := len(theta)
	nf := func(v float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }
	m := make([][]*big.Float, n)
	for i := range m {
		m[i] = make([]*big.Float, 2*n)
		for j := range m[i] {
			m[i][j] = nf(0)
		}
		m[i][n+i] = nf(1)
	}
	inN := new(big.Float).SetPrec(prec).Quo(nf(1), nf(float64(n)))
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			m[i][j].Add(m[i][j], inN)
			if i == j || w[i][j]+w[j][i] == 0 {
				continue
			}
			p := 1 / (1 + math.Exp(theta[j]-theta[i]))
			q := 1 / (1 + math.Exp(theta[i]-theta[j]))
			v := new(big.Float).SetPrec(prec).Mul(nf(w[i][j]+w[j][i]), nf(p))
			v.Mul(v, nf(q))
			m[i][j].Sub(m[i][j], v)
			m[i][i].Add(m[i][i], v)
		}
	}
	for c := 0; c < n; c++ {
		piv := c
		for r := c + 1; r < n; r++ {
			if new(big.Float).Abs(m[r][c]).Cmp(new(big.Float).Abs(m[piv][c])) > 0 {
				piv = r
			}
		}
		m[c], m[piv] = m[piv], m[c]
		d := new(big.Float).SetPrec(prec).Set(m[c][c])
		for k := range m[c] {
			m[c][k].Quo(m[c][k], d)
		}
		for r := 0; r < n; r++ {
			if r == c {
				continue
			}
			f := new(big.Float).SetPrec(prec).Set(m[r][c])
			for k := range m[r] {
				t := new(big.Float).SetPrec(prec).Mul(f, m[c][k])
				m[r][k].Sub(m[r][k], t)
			}
		}
	}
	out := make([]float64, n)
	for i := range out {
		v := new(big.Float).SetPrec(prec).Sub(m[i][n+i], inN)
		out[i], _ = v.Float64()
	}
	return out
}

func relOff(got, want float64) float64 {
	return math.Abs(got-want) / math.Max(math.Abs(want), 1e-300)
}

// randomWins is a connected random tournament of 2 to 9 players: a random
// spanning tree plus random further pairs, each pair with games at one of
// several scales (a few, thousands, 10⁶, 10⁸ to 10⁹), won in a random share.
func randomWins(rng *rand.Rand) [][]float64 {
	n := 2 + rng.IntN(8)
	wins := square(n)
	scales := []float64{5, 40, 2e3, 1e6, 1e8, 1e9}
	scale := scales[rng.IntN(len(scales))]
	add := func(i, j int) {
		games := math.Ceil(scale * (0.2 + rng.Float64()))
		share := 0.05 + 0.9*rng.Float64()
		wins[i][j] = math.Round(games * share)
		wins[j][i] = games - wins[i][j]
	}
	for i := 1; i < n; i++ {
		add(i, rng.IntN(i))
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if wins[i][j]+wins[j][i] == 0 && rng.Float64() < 0.4 {
				add(i, j)
			}
		}
	}
	return wins
}

// Hundreds of random tournaments: the ratings match the MM reference,
// and the standard errors the 512-bit covariance, each to 1e-9 relative
// (θ to 1e-9 of the largest strength, at least 1). The former fit was off
// by more than 1e-10 in one case in ten while saying it had converged, and
// its standard errors by up to 470 % at 10⁸ to 10⁹ games a pair.
func TestBradleyTerryMatchesReferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 1))
	cases := 400
	if testing.Short() {
		cases = 120
	}
	for c := 0; c < cases; c++ {
		wins := randomWins(rng)
		r, err := BradleyTerry(wins)
		if err != nil {
			t.Fatalf("case %d (%d players): %v", c, len(wins), err)
		}
		w, _ := withPrior(wins)
		ref, ok := mmReference(w)
		if !ok {
			t.Fatalf("case %d: the MM reference did not settle", c)
		}
		scale := math.Max(1, maxAbs(ref))
		vars := bigVariances(w, ref)
		for i := range r {
			if d := math.Abs(r[i].Theta - ref[i]); d > 1e-9*scale {
				t.Fatalf("case %d, player %d of %d: θ %.15g, the reference %.15g (off by %.3g)", c, i, len(r), r[i].Theta, ref[i], d)
			}
			if off := relOff(r[i].SE, math.Sqrt(vars[i])); off > 1e-9 {
				t.Fatalf("case %d, player %d of %d: SE %.15g, the reference %.15g (%.3g relative)", c, i, len(r), r[i].SE, math.Sqrt(vars[i]), off)
			}
		}
	}
}

// Two players, in closed form: θ_A − θ_B = ln(w_AB/w_BA) with the prior,
// and SE = 1/√(4·n·p·(1−p)) for each centred strength, up to 10⁹ games.
func TestBradleyTerryTwoPlayersClosedFormAtEveryScale(t *testing.T) {
	for _, games := range []float64{1, 10, 1e4, 1e6, 1e7, 1e8, 3e8, 1e9} {
		for _, share := range []float64{0.5, 0.6, 0.9, 0.999} {
			a := math.Round(games * share)
			r, err := BradleyTerry([][]float64{{0, a}, {games - a, 0}})
			if err != nil {
				t.Fatalf("%g games, %g won: %v", games, a, err)
			}
			wa, wb := a+Prior, games-a+Prior
			n := wa + wb
			p := wa / n
			wantTheta := math.Log(wa/wb) / 2
			wantSE := 1 / math.Sqrt(4*n*p*(wb/n))
			if d := math.Abs(r[0].Theta - wantTheta); d > 1e-9*math.Max(1, wantTheta) {
				t.Errorf("%g games, %g won: θ %.15g, want %.15g", games, a, r[0].Theta, wantTheta)
			}
			if off := relOff(r[0].SE, wantSE); off > 1e-9 {
				t.Errorf("%g games, %g won: SE %.15g, want %.15g (%.3g relative)", games, a, r[0].SE, wantSE, off)
			}
		}
	}
}

// One-sided chains, in closed form: each link a tree edge, so each
// pair's odds are met exactly, θ_i − θ_{i+1} = ln((k+½)/½); and the
// centred variances are those of a tree's effective resistances R (the
// sum of 1/c along the path, c = n·p·(1−p) of each link):
// var_i = Σ_k R_ik/n − Σ_kl R_kl/(2n²). The 30- and 50-player chains at
// 10⁷ wins a link were refused before.
func TestBradleyTerryLongOneSidedChains(t *testing.T) {
	for _, c := range []struct{ players, wins int }{{12, 20}, {8, 200}, {50, 10}, {20, 1000}, {100, 3}, {30, 1e7}, {50, 1e7}, {12, 1e9}} {
		wins := square(c.players)
		for i := 0; i+1 < c.players; i++ {
			wins[i][i+1] = float64(c.wins)
		}
		r, err := BradleyTerry(wins)
		if err != nil {
			t.Fatalf("%d players, %d wins a link: %v", c.players, c.wins, err)
		}
		wa, wb := float64(c.wins)+Prior, Prior
		link := math.Log(wa / wb)
		res := 1 / ((wa + wb) * (wa / (wa + wb)) * (wb / (wa + wb))) // each link's 1/c
		n := float64(c.players)
		total := 0.0 // Σ_kl R_kl = Σ_kl |k−l|·res
		for k := 0; k < c.players; k++ {
			for l := 0; l < c.players; l++ {
				total += math.Abs(float64(k-l)) * res
			}
		}
		mean := link * (n - 1) / 2
		for i := range r {
			want := link*float64(c.players-1-i) - mean
			if d := math.Abs(r[i].Theta - want); d > 1e-9*math.Max(1, math.Abs(mean)) {
				t.Fatalf("%d players, %d wins a link: player %d θ %.15g, want %.15g", c.players, c.wins, i, r[i].Theta, want)
			}
			row := 0.0
			for k := 0; k < c.players; k++ {
				row += math.Abs(float64(i-k)) * res
			}
			wantSE := math.Sqrt(row/n - total/(2*n*n))
			if off := relOff(r[i].SE, wantSE); off > 1e-9 {
				t.Fatalf("%d players, %d wins a link: player %d SE %.15g, want %.15g (%.3g relative)", c.players, c.wins, i, r[i].SE, wantSE, off)
			}
		}
	}
}

package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arenadebate/arena/engine/judge"
)

func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-6 {
		t.Fatalf("%s = %.9f, want %.9f", what, got, want)
	}
}

// By hand: coders (1,2,3) and (1,2,4). Do = (1/6)·(1² + 1²)/1 = 1/3; the
// six values sum to 13 with squares summing to 35, so Σ_{i<j}(vi−vj)² =
// 6·35 − 13² = 41, Σ_{i≠j} = 82 and De = 82/30; α = 1 − 10/82 = 72/82.
func TestAlphaInterval(t *testing.T) {
	a, n, ok := AlphaInterval([][]float64{{1, 2, 3}, {1, 2, 4}})
	if !ok || n != 6 {
		t.Fatalf("ok %v n %d", ok, n)
	}
	near(t, "alpha", a, 72.0/82)
	// The same as the judge protocol's alpha over whole scores.
	j, _ := judge.Alpha([][]int{{1, 2, 3}, {1, 2, 4}})
	near(t, "judge.Alpha", a, j)
	// A unit only one coder valued is not pairable: it changes nothing.
	a2, n2, _ := AlphaInterval([][]float64{{1, 2, 3, 5}, {1, 2, 4, math.NaN()}, {math.NaN(), math.NaN(), math.NaN(), 1}})
	if n2 != 8 {
		t.Fatalf("n %d", n2)
	}
	// Unit 4 now has 5 and 1: Do adds (4²·2)/1 = 32; values 1,2,3,1,2,4,5,1.
	// Σv = 19, Σv² = 61: Σ_{i<j} = 8·61 − 361 = 127, De = 254/56.
	near(t, "alpha with a fourth unit", a2, 1-((2+32)/8.0)/(254.0/56))
	if _, _, ok := AlphaInterval([][]float64{{3, 3}, {3, 3}}); ok {
		t.Fatal("alpha without variation must be undefined")
	}
	if _, _, ok := AlphaInterval([][]float64{{3, math.NaN()}, {math.NaN(), 2}}); ok {
		t.Fatal("alpha without a pairable unit must be undefined")
	}
}

// By hand: po = 4/5; shares yes 3/5 and 2/5, no 2/5 and 3/5, so pe = 0.48;
// κ = 0.32/0.52.
func TestKappa(t *testing.T) {
	k, po, ok := Kappa([]string{"y", "y", "n", "n", "y"}, []string{"y", "n", "n", "n", "y"})
	if !ok {
		t.Fatal("undefined")
	}
	near(t, "po", po, 0.8)
	near(t, "kappa", k, 0.32/0.52)
	if _, _, ok := Kappa([]string{"a", "a"}, []string{"a", "a"}); ok {
		t.Fatal("kappa with one category on both sides must be undefined")
	}
	// Agreement no better than chance is 0; perfect agreement 1.
	k, _, _ = Kappa([]string{"a", "a", "b", "b"}, []string{"a", "b", "a", "b"})
	near(t, "chance", k, 0)
	k, _, _ = Kappa([]string{"a", "b"}, []string{"a", "b"})
	near(t, "perfect", k, 1)
}

// By hand: deviations (−1.5, −.5, .5, 1.5) and (−1.75, .25, 1.25, .25):
// Sxy = 3.5, Sxx = 5, Syy = 4.75.
func TestPearson(t *testing.T) {
	r, ok := Pearson([]float64{1, 2, 3, 4}, []float64{2, 4, 5, 4})
	if !ok {
		t.Fatal("undefined")
	}
	near(t, "r", r, 3.5/math.Sqrt(5*4.75))
	if _, ok := Pearson([]float64{1, 2}, []float64{3, 3}); ok {
		t.Fatal("r of a constant must be undefined")
	}
}

func TestPercentileNearestRank(t *testing.T) {
	xs := []float64{50, 15, 40, 20, 35}
	for p, want := range map[float64]float64{50: 35, 95: 50, 40: 20, 0: 15, 100: 50} {
		if got := Percentile(xs, p); got != want {
			t.Fatalf("p%v = %v, want %v", p, got, want)
		}
	}
	if xs[0] != 50 {
		t.Fatal("Percentile sorted its input")
	}
}

// By hand, two players: A won 3, B 1; with the prior 3.5 and 1.5 of 5
// games, so p = 0.7, θA − θB = ln(3.5/1.5), each ±half of it. The Fisher
// information of the difference is c = 5·0.7·0.3 = 1.05, and of a centred
// strength 4c: SE = √(1/4.2).
func TestBradleyTerryTwoPlayers(t *testing.T) {
	r, err := BradleyTerry([][]float64{{0, 3}, {1, 0}})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "theta A", r[0].Theta, math.Log(3.5/1.5)/2)
	near(t, "theta B", r[1].Theta, -math.Log(3.5/1.5)/2)
	near(t, "SE A", r[0].SE, math.Sqrt(1/4.2))
	near(t, "SE B", r[1].SE, math.Sqrt(1/4.2))
	// A clean sweep has a finite rating, thanks to the prior.
	r, err = BradleyTerry([][]float64{{0, 4}, {0, 0}})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "sweep", r[0].Theta, math.Log(4.5/0.5)/2)
}

func TestBradleyTerryOrdersAndCycles(t *testing.T) {
	// A cycle of equal records: everyone level.
	r, err := BradleyTerry([][]float64{{0, 2, 0}, {0, 0, 2}, {2, 0, 0}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range r {
		near(t, "cycle", r[i].Theta, 0)
	}
	// A transitive order: A > B > C, the centred strengths sum to 0.
	r, _ = BradleyTerry([][]float64{{0, 3, 3}, {1, 0, 3}, {1, 1, 0}})
	if !(r[0].Theta > r[1].Theta && r[1].Theta > r[2].Theta) {
		t.Fatalf("order %+v", r)
	}
	near(t, "sum", r[0].Theta+r[1].Theta+r[2].Theta, 0)
	// Two groups that never met cannot share a scale.
	if _, err := BradleyTerry([][]float64{{0, 1, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 1}, {0, 0, 1, 0}}); err == nil {
		t.Fatal("disconnected players were rated")
	}
	if got := Components([][]float64{{0, 1, 0}, {1, 0, 0}, {0, 0, 0}}); len(got) != 2 || len(got[0]) != 2 {
		t.Fatalf("components %v", got)
	}
	near(t, "elo", EloScale(math.Ln10), 1400)
}

// Everyone met everyone and the better always won: no closed form, but
// the maximum-likelihood strengths are where the likelihood's gradient is
// zero, each player's wins equal to the wins the fit expects of it
// (Σ_j n_ij·σ(θ_i − θ_j)). Computed here apart from the fit.
func TestBradleyTerryRoundRobinSweepsMeetTheScoreEquations(t *testing.T) {
	for _, c := range []struct{ players, wins int }{{10, 50}, {25, 8}} {
		wins := make([][]float64, c.players)
		for i := range wins {
			wins[i] = make([]float64, c.players)
			for j := i + 1; j < c.players; j++ {
				wins[i][j] = float64(c.wins)
			}
		}
		r, err := BradleyTerry(wins)
		if err != nil {
			t.Fatal(err)
		}
		for i := range r {
			won, expected := 0.0, 0.0
			for j := range r {
				if i == j {
					continue
				}
				won += wins[i][j] + Prior
				expected += (wins[i][j] + wins[j][i] + 2*Prior) / (1 + math.Exp(r[j].Theta-r[i].Theta))
			}
			if math.Abs(won-expected) > 1e-7*won {
				t.Errorf("%d players: player %d won %.9f, the fit expects %.9f", c.players, i, won, expected)
			}
		}
	}
}

// A fit that has not converged says so, rather than passing off where it
// stopped as the ratings.
func TestBradleyTerrySaysWhenItDidNotConverge(t *testing.T) {
	wins := [][]float64{{0, 30, 0}, {0, 0, 30}, {0, 0, 0}}
	w, _ := withPrior(wins)
	if _, err := fit(w, 1); err == nil || !strings.Contains(err.Error(), "did not converge") {
		t.Fatalf("one step: %v", err)
	}
	if _, err := fit(w, maxNewtonSteps); err != nil {
		t.Fatal(err)
	}
}

// The one-pass forms the bootstrap uses equal the general ones on random
// data: α of two coders, and κ of coded categories against its
// definition counted here.
func TestPairedFormsMatchTheGeneralOnes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 39))
	for c := 0; c < 300; c++ {
		n := 2 + rng.IntN(40)
		p := make([]paired, n)
		xs, ys, idx := make([]float64, n), make([]float64, n), make([]int, n)
		a, b := make([]string, n), make([]string, n)
		for i := range p {
			p[i] = paired{x: float64(1 + rng.IntN(5)), y: 1 + 4*rng.Float64()}
			xs[i], ys[i], idx[i] = p[i].x, p[i].y, i
			a[i], b[i] = fmt.Sprint(rng.IntN(3)), fmt.Sprint(rng.IntN(4))
		}
		want, _, okW := AlphaInterval([][]float64{xs, ys})
		got, ok := pairedAlpha(p, idx)
		if ok != okW || math.Abs(got-want) > 1e-12 {
			t.Fatalf("case %d: α %v (%v), general %v (%v)", c, got, ok, want, okW)
		}
		k, po, ok := Kappa(a, b)
		agree, pe := 0.0, 0.0
		for i := range a {
			if a[i] == b[i] {
				agree++
			}
		}
		for _, cat := range []string{"0", "1", "2", "3"} {
			pa, pb := 0.0, 0.0
			for i := range a {
				if a[i] == cat {
					pa++
				}
				if b[i] == cat {
					pb++
				}
			}
			pe += pa / float64(n) * pb / float64(n)
		}
		if !ok || math.Abs(po-agree/float64(n)) > 1e-12 || math.Abs(k-(po-pe)/(1-pe)) > 1e-12 {
			t.Fatalf("case %d: κ %v po %v", c, k, po)
		}
	}
}

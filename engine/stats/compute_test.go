package stats

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine"
)

func cand(id, author string, bytes int, score float64) engine.Candidate {
	return engine.Candidate{ID: id, Author: author, Bytes: bytes, Score: engine.Float(score)}
}

// reading is one order's scores of X (100 bytes, by "fair") and Y (300
// bytes, by "other"), shown in the order given.
func reading(agent string, order int, xFirst bool, x, y float64, pick string) engine.Scored {
	s := engine.Scored{Seat: agent, Agent: agent, Judgement: "q", Order: order, Orders: 2, Min: 1, Max: 5, Pick: pick}
	cx, cy := cand("X", "fair", 100, x), cand("Y", "other", 300, y)
	if xFirst {
		s.Candidates = []engine.Candidate{cx, cy}
	} else {
		s.Candidates = []engine.Candidate{cy, cx}
	}
	return s
}

// Five runs: "biased" scores whatever it is shown first 5 and the other 2
// and picks it; "fair" scores X 4 and Y 3 in either order and picks X.
func fiveRuns() []Run {
	var runs []Run
	for i := range 5 {
		r := Run{Path: "r", Started: time.Date(2026, 1, 1+i, 0, 0, 0, 0, time.UTC), Protocol: "compare"}
		r.Scored = []engine.Scored{
			reading("biased", 0, true, 5, 2, "X"), reading("biased", 1, false, 2, 5, "Y"),
			reading("fair", 0, true, 4, 3, "X"), reading("fair", 1, false, 4, 3, "X"),
		}
		place := []engine.Standing{{ID: "X", Author: "fair", Place: 1}, {ID: "Y", Author: "other", Place: 2}}
		if i == 4 {
			place[1].Place = 1
		}
		r.Placed = &engine.Placed{Candidates: place}
		w := "X"
		if i >= 3 {
			w = "y" // a person's casing is matched
		}
		r.Label = &engine.Label{By: "person", Winner: w}
		runs = append(runs, r)
	}
	return runs
}

func model(t *testing.T, rep Report, name string) Model {
	t.Helper()
	for _, m := range rep.Models {
		if m.Name == name {
			return m
		}
	}
	t.Fatalf("no model %s in %+v", name, rep.Models)
	return Model{}
}

func shown(t *testing.T, what string, f Figure, want float64, n int) {
	t.Helper()
	if !f.Shown || f.N != n || math.Abs(f.Value-want) > 1e-9 {
		t.Fatalf("%s = %+v, want %v of n=%d", what, f, want, n)
	}
}

func TestJudgeFiguresByHand(t *testing.T) {
	rep := Compute(fiveRuns(), Options{})
	b, f := model(t, rep, "biased").Judge, model(t, rep, "fair").Judge
	// One decisive pair a run: the biased judge's flips in all five, the
	// fair one's holds.
	shown(t, "biased flip rate", b.FlipRate, 1, 5)
	shown(t, "fair flip rate", f.FlipRate, 0, 5)
	if len(b.FlipRateByRun) != 5 || b.FlipRateByRun[0] != 1 {
		t.Fatalf("by run %v", b.FlipRateByRun)
	}
	// Ten picks each; the biased judge picked the first shown in all,
	// the fair one in half (X is shown second in every other reading).
	shown(t, "biased first shown", b.FirstShown, 1, 10)
	shown(t, "fair first shown", f.FirstShown, 0.5, 10)
	if b.FirstShownChance != 0.5 || b.Readings != 10 || b.FirstShown.Runs != 5 || b.FirstShown.Interval != IntervalWilson {
		t.Fatalf("chance %v readings %d", b.FirstShownChance, b.Readings)
	}
	// The panel: per run, biased 3.5 and 3.5 on X and Y against fair's 4
	// and 3: 0.5 apart on each of the ten things.
	shown(t, "biased panel difference", b.PanelDifference, 0.5, 10)
	shown(t, "fair panel difference", f.PanelDifference, 0.5, 10)
	// Fair (4,3 ×5) against the rest (3.5 ×10): Do = 10·2·0.25/20 = 0.25;
	// Σv = 70, Σv² = 247.5, so Σ_{i≠j} = 2(20·247.5 − 70²) = 100 and
	// De = 100/380; α = 1 − 0.25·380/100 = 0.05.
	shown(t, "fair alpha", f.PanelAlpha, 0.05, 10)
	// Self-preference: fair wrote X. Centred on its own mean it scores X
	// +0.5; the biased judge's centred X is +1.5 and −1.5: 0. Five runs.
	shown(t, "fair self-preference", f.SelfPreference, 0.5, 5)
	if b.SelfPreference.Shown {
		t.Fatalf("biased wrote nothing: %+v", b.SelfPreference)
	}
	// Length: fair gave the 100-byte X 4 and the 300-byte Y 3 every time:
	// r = −1; the biased judge's scores do not follow the length: 0.
	shown(t, "fair length r", f.LengthCorrelation, -1, 20)
	shown(t, "biased length r", b.LengthCorrelation, 0, 20)
	// The person: X, X, X, Y, Y. Fair says X every time: po = 3/5,
	// pe = 0.6·1 + 0.4·0 = 0.6, κ = 0. The biased judge flipped: a tie
	// each time, po = 0, pe = 0, κ = 0.
	shown(t, "fair agreement", f.Person.Winner.Agreement, 0.6, 5)
	shown(t, "fair kappa", f.Person.Winner.Kappa, 0, 5)
	shown(t, "biased agreement", b.Person.Winner.Agreement, 0, 5)
	if rep.Labelled != 5 {
		t.Fatalf("labelled %d", rep.Labelled)
	}
}

// Fewer cases than the minimum: counted, not shown.
func TestFewCasesAreNotShown(t *testing.T) {
	rep := Compute(fiveRuns()[:2], Options{})
	f := model(t, rep, "biased").Judge.FlipRate
	if f.Shown || f.N != 2 || f.Note != "too few runs: 2 cases, 5 needed" {
		t.Fatalf("%+v", f)
	}
}

// By hand: fair won 4 and tied 1 against other: 4.5 to 0.5, with the
// prior 5 to 1 of 6 games; θ = ln 5 / 2, SE = √(1/(4·6·(5/6)·(1/6))).
func TestAuthorsRating(t *testing.T) {
	rep := Compute(fiveRuns(), Options{})
	if len(rep.Authors) != 2 || rep.Authors[0].Name != "fair" {
		t.Fatalf("%+v", rep.Authors)
	}
	a := rep.Authors[0]
	if a.Games != 5 || a.Wins != 4 || a.Ties != 1 || !a.Shown || a.Group != 1 {
		t.Fatalf("%+v", a)
	}
	near(t, "theta", a.Theta, math.Log(5)/2)
	near(t, "se", a.SE, math.Sqrt(0.3))
	near(t, "rating", a.Rating, 1000+400*math.Log(5)/2/math.Ln10)
	near(t, "low by the standard error", a.SELow, EloScale(math.Log(5)/2-z95*math.Sqrt(0.3)))
	// Five runs: the interval resamples them. With k of the five draws
	// the tied run, θ = ln((5.5 − k/2)/(0.5 + k/2))/2; k ≥ 3 has chance
	// 5.8 % and k ≥ 4 0.7 %, so the 2.5th percentile is k = 3's ln 2 / 2;
	// k = 0 has chance 33 %, so the 97.5th is its ln 11 / 2.
	if a.Interval != IntervalBootstrap || a.Runs != 5 {
		t.Fatalf("%+v", a)
	}
	near(t, "low", a.Low, EloScale(math.Log(2)/2))
	near(t, "high", a.High, EloScale(math.Log(11)/2))
}

func TestSeatFigures(t *testing.T) {
	r := Run{Path: "r"}
	cost := 0.01
	for i := 1; i <= 20; i++ {
		r.Calls = append(r.Calls, Call{Agent: "gemini", Duration: time.Duration(i) * time.Second, Usage: &challengers.Usage{InputTokens: 100, OutputTokens: 10, CostUSD: &cost}})
	}
	r.Calls = append(r.Calls,
		Call{Agent: "gemini", Failed: challengers.ReasonTimeout}, Call{Agent: "gemini", Failed: challengers.ReasonTimeout},
		Call{Agent: "gemini", Failed: challengers.ReasonExit, Repair: true}, Call{Agent: "gemini", Unparseable: true, Duration: time.Second})
	s := Compute([]Run{r}, Options{}).Models[0].Seat
	if s.Calls != 24 || s.Replies != 21 || s.Failures != 3 || s.Repairs != 1 || s.Unparsed != 1 {
		t.Fatalf("%+v", s)
	}
	if len(s.ByKind) != 2 || s.ByKind[0] != (KindCount{Kind: "timeout", Count: 2}) {
		t.Fatalf("by kind %+v", s.ByKind)
	}
	// 21 replies: 1..20 s and another 1 s. Nearest rank: p50 is the 11th
	// (10 s), p95 the 20th (19 s).
	shown(t, "p50", s.LatencyP50, 10, 21)
	shown(t, "p95", s.LatencyP95, 19, 21)
	if s.TokensIn != 2000 || s.TokensReported != 20 || s.CostReported != 20 || math.Abs(s.CostUSD-0.2) > 1e-9 {
		t.Fatalf("usage %+v", s)
	}
	r.Calls = r.Calls[:10]
	if s := Compute([]Run{r}, Options{}).Models[0].Seat; !s.LatencyP50.Shown || s.LatencyP95.Shown || s.LatencyP95.Note != "too few runs: 10 replies, 20 needed" {
		t.Fatalf("%+v / %+v", s.LatencyP50, s.LatencyP95)
	}
}

func TestConformityAndVerdicts(t *testing.T) {
	var runs []Run
	for i := range 5 {
		r := Run{Path: "r", Ledgers: []engine.DebateLedger{{Moves: []engine.Move{
			{Agent: "qwen", Conformity: true}, {Agent: "qwen", Conformity: i == 0}, {Agent: "gemini", Evidence: []string{"figure 12"}},
		}}}}
		verdict := []string{"accept", "accept", "reject", "improve", "accept"}[i]
		r.Scored = []engine.Scored{{Agent: "qwen", Judgement: "overall", Orders: 1, Min: 1, Max: 5, Verdict: verdict,
			Candidates: []engine.Candidate{cand("solution", "", 10, 4)}}}
		r.Label = &engine.Label{By: "person", Verdict: []string{"accept", "reject", "reject", "improve", "accept"}[i], Score: engine.Float(4.4)}
		runs = append(runs, r)
	}
	rep := Compute(runs, Options{})
	q := model(t, rep, "qwen").Judge
	// Ten moves, six without evidence.
	shown(t, "qwen conformity", q.Conformity, 0.6, 10)
	shown(t, "gemini conformity", model(t, rep, "gemini").Judge.Conformity, 0, 5)
	// Verdicts: person a r r i a, qwen a a r i a: po = 4/5; person's
	// shares a .4 r .4 i .2, qwen's a .6 r .2 i .2: pe = .24+.08+.04 = .36.
	shown(t, "qwen verdict agreement", q.Person.Verdict.Agreement, 0.8, 5)
	shown(t, "qwen verdict kappa", q.Person.Verdict.Kappa, (0.8-0.36)/(1-0.36), 5)
	// Scores: 4.4 and 4 both round to 4, five agreements, each side one
	// category: κ is undefined, not pooled with the verdicts into 0.85.
	shown(t, "qwen score agreement", q.Person.Score.Agreement, 1, 5)
	if k := q.Person.Score.Kappa; k.Shown || k.N != 5 || !strings.Contains(k.Note, "undefined") {
		t.Fatalf("score kappa %+v", k)
	}
	if w := q.Person.Winner; w.Kappa.Shown || w.Agreement.N != 0 {
		t.Fatalf("no winner was labelled: %+v", w)
	}
}

// Family self-preference: "fair" wrote X; a third judge, "kin", is of
// fair's vendor family and scores X 5 and Y 2 in either order (centred
// +1.5 on X); the biased judge, of another family, centres X at 0 (+1.5
// and −1.5). Against it, fair stands +0.5 and kin +1.5 on X, in each of
// the five runs. Without families nothing is shown.
func TestFamilySelfPreference(t *testing.T) {
	runs := fiveRuns()
	for i := range runs {
		runs[i].Scored = append(runs[i].Scored, reading("kin", 0, true, 5, 2, "X"), reading("kin", 1, false, 5, 2, "X"))
		runs[i].Families = map[string]string{"fair": "anthropic", "kin": "anthropic", "biased": "google", "other": "google"}
	}
	rep := Compute(runs, Options{})
	// Against biased alone: fair's centred X is +0.5 over the other
	// family's 0; kin's +1.5.
	shown(t, "fair family self-preference", model(t, rep, "fair").Judge.FamilySelfPreference, 0.5, 5)
	shown(t, "kin family self-preference", model(t, rep, "kin").Judge.FamilySelfPreference, 1.5, 5)
	// "other", of biased's family, wrote Y: biased centres it at 0, fair
	// at −0.5 and kin at −1.5: +1 for biased.
	shown(t, "biased family self-preference", model(t, rep, "biased").Judge.FamilySelfPreference, 1, 5)
	// Kin wrote nothing itself: no self-preference of its own.
	if k := model(t, rep, "kin").Judge.SelfPreference; k.Shown {
		t.Fatalf("kin wrote nothing: %+v", k)
	}
	for i := range runs {
		runs[i].Families = nil
	}
	if f := model(t, Compute(runs, Options{}), "fair").Judge.FamilySelfPreference; f.Shown || f.Note == "" {
		t.Fatalf("without families: %+v", f)
	}
}

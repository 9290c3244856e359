package stats

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/verdict"
)

// Known values: Wilson's interval of 0 of 5 is [0, 0.4345]; of 5 of 10,
// [0.2366, 0.7634].
func TestWilsonByHand(t *testing.T) {
	lo, hi := Wilson(0, 5)
	near(t, "0/5 low", lo, 0)
	if math.Abs(hi-0.43448) > 1e-4 {
		t.Fatalf("0/5 high %v", hi)
	}
	lo, hi = Wilson(5, 10)
	if math.Abs(lo-0.23659) > 1e-4 || math.Abs(hi-0.76341) > 1e-4 {
		t.Fatalf("5/10: %v–%v", lo, hi)
	}
}

// scored is a reading of judgement what by agent, order k of n (repeat
// rep), the candidates shown in the order given with their scores.
func scored(agent, what string, k, n, rep int, shown []string, scores ...float64) engine.Scored {
	s := engine.Scored{Seat: agent, Agent: agent, Judgement: what, Order: k, Orders: n, Repeat: rep, Min: 1, Max: 5}
	for i, id := range shown {
		s.Candidates = append(s.Candidates, engine.Candidate{ID: id, Bytes: 10, Score: engine.Float(scores[i])})
	}
	return s
}

func runAt(i int, scored ...engine.Scored) Run {
	return Run{Path: fmt.Sprintf("r%d", i), Started: time.Date(2026, 1, 1+i, 0, 0, 0, 0, time.UTC), Protocol: "compare", Scored: scored}
}

// Six runs, each a comparison of two candidates the person labelled and
// a judge that preferred the person's winner in both orders: three of
// "alpha" and "zebra" won by zebra, three of "beta" and "gamma" won by
// beta. κ is 1, and stays 1 when zebra is renamed aaa. Coded by the
// candidates' alphabetical position, the person's word was "second" then
// "first", and after the renaming "first" every time: κ became undefined.
func TestKappaDoesNotDependOnCandidateNames(t *testing.T) {
	runs := func(zebra string) []Run {
		var out []Run
		for i := range 6 {
			a, b, w := "alpha", zebra, zebra
			if i >= 3 {
				a, b, w = "beta", "gamma", "beta"
			}
			sw, sl := 5.0, 2.0
			sa, sb := sl, sw
			if w == a {
				sa, sb = sw, sl
			}
			r := runAt(i, scored("judge", "recommendation", 0, 2, 0, []string{a, b}, sa, sb),
				scored("judge", "recommendation", 1, 2, 0, []string{b, a}, sb, sa))
			r.Label = &engine.Label{By: "person", Winner: w}
			out = append(out, r)
		}
		return out
	}
	for _, name := range []string{"zebra", "aaa"} {
		k := model(t, Compute(runs(name), Options{}), "judge").Judge.Person.Winner.Kappa
		shown(t, "κ with "+name, k, 1, 6)
	}
}

// MT-Bench's classes by hand: two candidates, X and Y, each judgement
// asked in both orders. "steady" scores X over Y in both (consistent);
// "first" scores whichever it shows first higher; "second" whichever it
// shows second; "halfway" levels them once. Five runs.
func TestMTBenchSwapByHand(t *testing.T) {
	var runs []Run
	xy, yx := []string{"X", "Y"}, []string{"Y", "X"}
	for i := range 5 {
		runs = append(runs, runAt(i,
			scored("steady", "q", 0, 2, 0, xy, 4, 2), scored("steady", "q", 1, 2, 0, yx, 2, 4),
			scored("first", "q", 0, 2, 0, xy, 4, 2), scored("first", "q", 1, 2, 0, yx, 4, 2),
			scored("second", "q", 0, 2, 0, xy, 2, 4), scored("second", "q", 1, 2, 0, yx, 2, 4),
			scored("halfway", "q", 0, 2, 0, xy, 3, 3), scored("halfway", "q", 1, 2, 0, yx, 2, 4),
		))
	}
	rep := Compute(runs, Options{})
	for _, c := range []struct {
		agent                          string
		consistent, first, second, tie float64
	}{{"steady", 1, 0, 0, 0}, {"first", 0, 1, 0, 0}, {"second", 0, 0, 1, 0}, {"halfway", 0, 0, 0, 1}} {
		s := model(t, rep, c.agent).Judge.Swap
		shown(t, c.agent+" consistency", s.Consistency, c.consistent, 5)
		shown(t, c.agent+" first", s.FirstPosition, c.first, 5)
		shown(t, c.agent+" second", s.SecondPosition, c.second, 5)
		shown(t, c.agent+" tie in one", s.Other, c.tie, 5)
		if s.Consistency.Interval != IntervalWilson || s.Consistency.Runs != 5 {
			t.Fatalf("%s: %+v", c.agent, s.Consistency)
		}
	}
	// The flip rate counts only decisive preferences: "halfway" flipped
	// (level, then Y) in all five; "steady" held.
	shown(t, "halfway flip rate", model(t, rep, "halfway").Judge.FlipRate, 1, 5)
	shown(t, "steady flip rate", model(t, rep, "steady").Judge.FlipRate, 0, 5)
}

// With three candidates in three orders (A B C, its reverse, and the
// rotation B C A), a pair is swapped between two readings when their
// relative positions differ: A–B in (1,2) and (2,3), A–C in (1,2) and
// (2,3), B–C in (1,2) and (1,3): six swapped pairs a judgement. A judge
// that always scores the first shown 5, the second 3 and the third 1
// prefers the earlier one in every swapped pair: all six "biased toward
// first". Its flip rate, apart by the number of orders, is 1 (three
// decisive pairs a judgement, none held).
func TestSwapsAndFlipsOverThreeOrders(t *testing.T) {
	var runs []Run
	for i := range 5 {
		runs = append(runs, runAt(i,
			scored("pos", "q", 0, 3, 0, []string{"A", "B", "C"}, 5, 3, 1),
			scored("pos", "q", 1, 3, 0, []string{"C", "B", "A"}, 5, 3, 1),
			scored("pos", "q", 2, 3, 0, []string{"B", "C", "A"}, 5, 3, 1),
			// and a two-order judgement that held, for the split by orders
			scored("pos", "r", 0, 2, 0, []string{"A", "B"}, 4, 2),
			scored("pos", "r", 1, 2, 0, []string{"B", "A"}, 2, 4),
		))
	}
	j := model(t, Compute(runs, Options{}), "pos").Judge
	shown(t, "first", j.Swap.FirstPosition, 30.0/35, 35)
	shown(t, "consistent", j.Swap.Consistency, 5.0/35, 35)
	shown(t, "pooled flip rate", j.FlipRate, 15.0/20, 20)
	if len(j.FlipRateByOrders) != 2 || j.FlipRateByOrders[0].Orders != 2 || j.FlipRateByOrders[1].Orders != 3 {
		t.Fatalf("%+v", j.FlipRateByOrders)
	}
	shown(t, "two orders", j.FlipRateByOrders[0].FlipRate, 0, 5)
	shown(t, "three orders", j.FlipRateByOrders[1].FlipRate, 1, 15)
}

// A judge that sees the true quality and adds a point to whatever it
// shows first: a pair of equal quality flips (gap 0 after the orders
// average out), a pair two points apart holds (gap 2); its first-shown
// candidate is scored higher in both readings of the first, and in one of
// two of the second.
func TestFlipsByScoreGap(t *testing.T) {
	var runs []Run
	for i := range 5 {
		runs = append(runs, runAt(i,
			scored("j", "even", 0, 2, 0, []string{"X", "Y"}, 4, 3), scored("j", "even", 1, 2, 0, []string{"Y", "X"}, 4, 3),
			scored("j", "apart", 0, 2, 0, []string{"X", "Y"}, 5, 2), scored("j", "apart", 1, 2, 0, []string{"Y", "X"}, 3, 4),
		))
	}
	g := model(t, Compute(runs, Options{}), "j").Judge.ByGap
	if len(g) != len(GapBins) || g[0].Gap != "0" || g[2].Gap != "(1,2]" {
		t.Fatalf("%+v", g)
	}
	shown(t, "flip at gap 0", g[0].FlipRate, 1, 5)
	shown(t, "first preferred at gap 0", g[0].FirstPreferred, 1, 10)
	// "apart": X 5 and 4, Y 2 and 3: means 4.5 and 2.5, a gap of 2.
	shown(t, "flip at gap 2", g[2].FlipRate, 0, 5)
	shown(t, "first preferred at gap 2", g[2].FirstPreferred, 0.5, 10)
	if g[1].FlipRate.N != 0 || g[3].FlipRate.N != 0 {
		t.Fatalf("%+v", g)
	}
}

// Each order asked twice. Judgement "a" says X over Y every time;
// judgement "b" says X over Y in the first asking of order 0 and Y over X
// in every other reading. The first readings: "a" held, "b" flipped: a
// flip rate of 1/2, the repeats not counted as orders. The repeats: of
// four (pair, order), three gave the same preference twice: stability
// 3/4, a repeat flip rate of 1/4; net, (1/2 − 1/4)/(1 − 1/4) = 1/3.
func TestRepeatStabilityAndTheNetFlipRate(t *testing.T) {
	var runs []Run
	xy, yx := []string{"X", "Y"}, []string{"Y", "X"}
	for i := range 5 {
		runs = append(runs, runAt(i,
			scored("j", "a", 0, 2, 0, xy, 4, 2), scored("j", "a", 0, 2, 1, xy, 4, 2),
			scored("j", "a", 1, 2, 0, yx, 2, 4), scored("j", "a", 1, 2, 1, yx, 2, 4),
			scored("j", "b", 0, 2, 0, xy, 4, 2), scored("j", "b", 0, 2, 1, xy, 2, 4),
			scored("j", "b", 1, 2, 0, yx, 4, 2), scored("j", "b", 1, 2, 1, yx, 4, 2),
		))
	}
	j := model(t, Compute(runs, Options{}), "j").Judge
	shown(t, "flip rate", j.FlipRate, 0.5, 10)
	shown(t, "stability", j.Repeats.Stability, 0.75, 20)
	shown(t, "repeat flip rate", j.Repeats.FlipRate, 0.25, 20)
	shown(t, "net flip rate", j.Repeats.NetFlipRate, 1.0/3, 30)
	if f := j.Repeats.NetFlipRate; f.Interval != IntervalBootstrap || math.Abs(f.Low-1.0/3) > 1e-12 || math.Abs(f.High-1.0/3) > 1e-12 {
		t.Fatalf("every run alike: the interval is the value, %+v", f)
	}
	// Without repeats nothing is claimed.
	for i := range runs {
		runs[i].Scored = runs[i].Scored[:0]
		runs[i].Scored = append(runs[i].Scored, scored("j", "a", 0, 2, 0, xy, 4, 2), scored("j", "a", 1, 2, 0, yx, 2, 4))
	}
	r := model(t, Compute(runs, Options{}), "j").Judge.Repeats
	if r.Stability.Shown || r.NetFlipRate.Shown || !strings.Contains(r.Stability.Note, "--repeats") {
		t.Fatalf("%+v", r)
	}
}

// Five judge runs and five debates, with ledgers and the person's
// verdicts.
func TestLedgerAcrossLabelledRuns(t *testing.T) {
	var runs []Run
	add := func(protocol string, changed bool, vote, result, person string) {
		r := runAt(len(runs))
		r.Protocol = protocol
		r.Ledgers = []engine.DebateLedger{{Changed: changed, VoteVerdict: vote, ResultVerdict: result}}
		if person != "" {
			r.Label = &engine.Label{By: "person", Verdict: person}
		}
		runs = append(runs, r)
	}
	// judge: two changes the person bore out, one they did not, one
	// unchanged and right, one unlabelled.
	add("judge", true, "reject", "accept", "accept")
	add("judge", true, "improve", "accept", "accept")
	add("judge", true, "accept", "reject", "accept")
	add("judge", false, "accept", "accept", "accept")
	add("judge", true, "accept", "improve", "")
	// debate: from an older log (no verdicts recorded), counted as a
	// debate, not as labelled.
	add("debate", true, "", "", "accept")
	rep := Compute(runs, Options{})
	if len(rep.Ledger) != 2 || rep.Ledger[0].Protocol != "debate" || rep.Ledger[1].Protocol != "judge" {
		t.Fatalf("%+v", rep.Ledger)
	}
	d, j := rep.Ledger[0], rep.Ledger[1]
	if d.Debates != 1 || d.Labelled != 0 || d.VoteRight.Shown || !strings.Contains(d.VoteRight.Note, "no debate of it has your verdict") {
		t.Fatalf("debate %+v", d)
	}
	if j.Debates != 5 || j.Labelled != 4 || j.ChangedRight != 2 || j.ChangedWrong != 1 || j.ChangedNeither != 0 {
		t.Fatalf("judge %+v", j)
	}
	shown(t, "changed", j.Changed, 0.8, 5)
	if j.VoteRight.N != 4 || j.VoteRight.Shown || j.ChangeRight.N != 3 {
		t.Fatalf("four labelled are too few to show: %+v %+v", j.VoteRight, j.ChangeRight)
	}
	// Two more labelled changes bear the debate out: 4 of 5 changes right.
	add("judge", true, "reject", "improve", "improve")
	add("judge", true, "reject", "accept", "accept")
	j = Compute(runs, Options{}).Ledger[1]
	shown(t, "change right", j.ChangeRight, 0.8, 5)
	shown(t, "vote right", j.VoteRight, 2.0/6, 6)
	shown(t, "result right", j.ResultRight, 5.0/6, 6)
}

// By hand: positives 0.9 and 0.4, negatives 0.4 and 0.1: of the four
// pairs, three ranked right and one tied: 3.5/4.
func TestAUROCByHand(t *testing.T) {
	a, ok := AUROC([]float64{0.9, 0.4}, []float64{0.4, 0.1})
	if !ok {
		t.Fatal("undefined")
	}
	near(t, "AUROC", a, 3.5/4)
	if _, ok := AUROC(nil, []float64{1}); ok {
		t.Fatal("AUROC without a positive")
	}
}

// verdictRun is a verdict run the rules decided as decision, its quick
// judge scoring the three dimensions lowest, avg, avg with improvements
// findings; the person said person ("" unlabelled).
func verdictRun(i int, decision verdict.Verdict, lowest, avg, findings int, person string) Run {
	r := runAt(i)
	r.Protocol, r.Result = verdict.Name, engine.OutcomeKind(decision)
	j := verdict.Judgement{Verdict: decision, Scores: verdict.Scores{Semantic: lowest, Pragmatic: avg, Syntactic: avg}}
	for range findings {
		j.Improvements = append(j.Improvements, "fix it")
	}
	r.Verdicts = []VerdictReading{{Seat: "quick", Agent: "gemini", Judgement: j}}
	if person != "" {
		r.Label = &engine.Label{By: "person", Verdict: person}
	}
	return r
}

// The gate is not reported until the person turns it on; then it waits
// for GateNeeded labels of each kind; then, learning that the rules'
// accepts with a low dimension and many findings were wrong, it scores
// them apart (AUROC near 1 leave-one-out) and would escalate the
// unlabelled run that looks like them, never one the rules escalated.
func TestShadowGate(t *testing.T) {
	var runs []Run
	for i := range GateNeeded {
		runs = append(runs, verdictRun(len(runs), verdict.Accept, 4, 4, i%2, "accept"))    // right
		runs = append(runs, verdictRun(len(runs), verdict.Accept, 3, 4, 3+i%3, "improve")) // wrong
	}
	n := len(runs)
	runs = append(runs,
		verdictRun(n, verdict.Accept, 3, 4, 4, ""),            // looks wrong: escalate
		verdictRun(n+1, verdict.Accept, 5, 5, 0, ""),          // looks right
		verdictRun(n+2, verdict.Escalate, 3, 4, 4, ""),        // escalated by the rules
		verdictRun(n+3, verdict.Escalate, 3, 4, 4, "improve"), // escalated: never learned from
	)
	if rep := Compute(runs, Options{}); rep.Gate != nil {
		t.Fatal("the gate was reported without the setting")
	}
	g := Compute(runs[:GateNeeded], Options{ShadowGate: true}).Gate
	if g == nil || g.Shown || !strings.Contains(g.Note, "learns once you have labelled 30") {
		t.Fatalf("too few labels: %+v", g)
	}
	g = Compute(runs, Options{ShadowGate: true}).Gate
	if !g.Shown || g.Right != GateNeeded || g.Wrong != GateNeeded || g.Decided != 2*GateNeeded+2 {
		t.Fatalf("%+v", g)
	}
	if !g.AUROC.Shown || g.AUROC.Value < 0.99 || g.AUROC.N != 2*GateNeeded || g.AUROC.Interval != IntervalBootstrap {
		t.Fatalf("AUROC %+v", g.AUROC)
	}
	shown(t, "caught", g.Caught, 1, GateNeeded)
	shown(t, "false alarms", g.FalseAlarms, 0, GateNeeded)
	want := runs[2*GateNeeded].Path
	escalated := map[string]bool{}
	for _, p := range g.WouldEscalate {
		escalated[p] = true
	}
	if !escalated[want] || escalated[runs[2*GateNeeded+1].Path] || escalated[runs[2*GateNeeded+2].Path] || escalated[runs[2*GateNeeded+3].Path] {
		t.Fatalf("would escalate %v", g.WouldEscalate)
	}
}

// The judge protocol's overall is a weighted mean arena computes from the
// criteria: the panel and length figures count the criteria alone, never
// the overall beside them (it would count each criterion twice).
func TestTheOverallIsNoUnitBesideItsCriteria(t *testing.T) {
	var runs []Run
	for i := range 5 {
		var ss []engine.Scored
		for _, agent := range []string{"a", "b"} {
			v := 4.0
			if agent == "b" {
				v = 2
			}
			for _, what := range []string{"correctness", "tests", "overall"} {
				s := scored(agent, what, 0, 1, 0, []string{"solution"}, v)
				if what == "overall" {
					s.Verdict = "accept"
				}
				ss = append(ss, s)
			}
		}
		runs = append(runs, runAt(i, ss...))
	}
	j := model(t, Compute(runs, Options{}), "a").Judge
	shown(t, "panel Δ", j.PanelDifference, 2, 10)
	if j.LengthCorrelation.N != 10 {
		t.Fatalf("length r counts %d scores, want the 10 of the criteria", j.LengthCorrelation.N)
	}
}

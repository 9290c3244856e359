package stats

import (
	"fmt"
	"math"
	"slices"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/verdict"
)

// A learned escalation gate, in shadow mode: from the person's own
// verdicts on verdict runs, a small logistic model on the judges' parsed
// judgements learns which decisions the rules got wrong, and arena stats
// reports which of the runs the rules decided it would have sent to a
// human as well. It only ever adds escalations: a run the rules escalated
// is neither learned from nor scored. It decides nothing; it is reported
// only when the person turns it on (shadow_escalation_gate: true).

// GateNeeded is how many labelled runs of each kind (the rules right, the
// rules wrong) the gate needs before it learns.
const GateNeeded = 30

// GateThreshold is the gate's chance that the rules are wrong above which
// it would escalate.
const GateThreshold = 0.5

// gateRidge is the L2 penalty on the standardized features' weights
// (not the intercept): with few dozen labels, an unpenalized fit of six
// weights runs off to infinity as soon as one feature separates them.
const gateRidge = 1.0

// GateFeatures name the gate's features of a verdict run, over the judges
// the rules heard: the mean of their averages, their lowest dimension
// score, the spread of their averages (0 with one judge), how many
// improvements the most critical listed (log 1+n), whether any stated a
// verdict its own scores do not give, and how many judges were heard.
var GateFeatures = []string{"mean average", "lowest score", "spread of averages", "improvements (log 1+n)", "stated ≠ scored", "judges heard"}

// GateFigure is the shadow gate's account.
type GateFigure struct {
	// Needed is GateNeeded; Right and Wrong count the labelled verdict
	// runs the rules decided (accept, improve or reject) whose decision
	// the person's verdict matched, and did not.
	Needed int    `json:"needed_per_kind"`
	Right  int    `json:"rules_right"`
	Wrong  int    `json:"rules_wrong"`
	Shown  bool   `json:"shown"`
	Note   string `json:"note,omitempty"`
	// Features name the weights, fitted on every label, on standardized
	// features; the last weight is the intercept.
	Features []string  `json:"features,omitempty"`
	Weights  []float64 `json:"weights,omitempty"`
	// AUROC is the area under the ROC curve of its leave-one-out chances
	// (each labelled run scored by a model fitted without it) against
	// whether the rules were wrong, with a bootstrap interval over the
	// runs. Caught is the share of the runs the rules got wrong that it
	// would have escalated, leave-one-out; FalseAlarms the share of those
	// they got right.
	AUROC       Figure  `json:"auroc_leave_one_out"`
	Threshold   float64 `json:"threshold"`
	Caught      Figure  `json:"caught_rate"`
	FalseAlarms Figure  `json:"false_alarm_rate"`
	// Decided counts every verdict run the rules decided, labelled or
	// not; WouldEscalate names those the gate, fitted on every label,
	// would have escalated as well.
	Decided       int      `json:"decided_runs"`
	WouldEscalate []string `json:"would_escalate"`
}

// gateRun is a verdict run the rules decided, with its features and,
// where the person labelled it, whether the rules were wrong.
type gateRun struct {
	path     string
	x        []float64
	labelled bool
	wrong    bool
}

// gateRuns are the verdict runs the rules decided.
func gateRuns(runs []Run) []gateRun {
	var out []gateRun
	for _, r := range runs {
		switch r.Result {
		case engine.OutcomeKind(verdict.Accept), engine.OutcomeKind(verdict.Improve), engine.OutcomeKind(verdict.Reject):
		default:
			continue // escalated (the gate never undoes that), interrupted, aborted
		}
		if r.Protocol != verdict.Name || len(r.Verdicts) == 0 {
			continue
		}
		g := gateRun{path: r.Path, x: gateFeatures(r.Verdicts)}
		if r.Label != nil && r.Label.Verdict != "" {
			g.labelled, g.wrong = true, r.Label.Verdict != string(r.Result)
		}
		out = append(out, g)
	}
	return out
}

// gateFeatures are a run's GateFeatures.
func gateFeatures(vs []VerdictReading) []float64 {
	var avgs []float64
	lowest, findings, stated := 5.0, 0.0, 0.0
	for _, v := range vs {
		s := v.Judgement.Scores
		avgs = append(avgs, float64(s.Semantic+s.Pragmatic+s.Syntactic)/3)
		lowest = math.Min(lowest, float64(min(s.Semantic, s.Pragmatic, s.Syntactic)))
		findings = math.Max(findings, math.Log1p(float64(len(v.Judgement.Improvements))))
		if v.Judgement.Stated != "" {
			stated = 1
		}
	}
	return []float64{mean(avgs), lowest, slices.Max(avgs) - slices.Min(avgs), findings, stated, float64(len(vs))}
}

// shadowGate is the gate's account of the runs.
func shadowGate(runs []Run) GateFigure {
	all := gateRuns(runs)
	g := GateFigure{Needed: GateNeeded, Threshold: GateThreshold, Decided: len(all)}
	var train []gateRun
	for _, r := range all {
		if r.labelled {
			train = append(train, r)
			if r.wrong {
				g.Wrong++
			} else {
				g.Right++
			}
		}
	}
	none := Figure{N: len(train)}
	g.AUROC, g.Caught, g.FalseAlarms = none, none, none
	if g.Right < GateNeeded || g.Wrong < GateNeeded {
		g.Note = fmt.Sprintf("learns once you have labelled %d verdict runs the rules decided right and %d they decided wrong (arena label LOG accept|improve|reject): %d and %d so far", GateNeeded, GateNeeded, g.Right, g.Wrong)
		return g
	}
	g.Shown = true
	loo := make([]float64, len(train))
	caught, alarms := counter{}, counter{}
	for i := range train {
		m := fitGate(slices.Delete(slices.Clone(train), i, i+1))
		loo[i] = m.chance(train[i].x)
		if train[i].wrong {
			caught.add(loo[i] >= GateThreshold, i)
		} else {
			alarms.add(loo[i] >= GateThreshold, i)
		}
	}
	g.Caught, g.FalseAlarms = caught.figure(), alarms.figure()
	s := sample{seed: "shadow gate AUROC"}
	for i := range train {
		s.run = append(s.run, i) // each labelled run is a run of its own
	}
	s.stat = func(idx []int) (float64, bool) {
		var pos, neg []float64
		for _, k := range idx {
			if train[k].wrong {
				pos = append(pos, loo[k])
			} else {
				neg = append(neg, loo[k])
			}
		}
		return AUROC(pos, neg)
	}
	g.AUROC = s.figure("undefined")
	m := fitGate(train)
	g.Features, g.Weights = GateFeatures, m.w
	for _, r := range all {
		if m.chance(r.x) >= GateThreshold {
			g.WouldEscalate = append(g.WouldEscalate, r.path)
		}
	}
	return g
}

// AUROC is the area under the ROC curve of scores of positive and
// negative cases: the chance that a positive scores above a negative, a
// tie counting half (the Mann–Whitney U over |pos|·|neg|); ok is false
// without a case of each.
func AUROC(pos, neg []float64) (float64, bool) {
	if len(pos) == 0 || len(neg) == 0 {
		return 0, false
	}
	u := 0.0
	for _, p := range pos {
		for _, n := range neg {
			switch {
			case p > n:
				u++
			case p == n:
				u += 0.5
			}
		}
	}
	return u / float64(len(pos)*len(neg)), true
}

// gateModel is a fitted logistic model on standardized features: weights
// w (the last the intercept), and the features' means and spreads.
type gateModel struct {
	w, mu, sd []float64
}

// chance is the model's chance that the rules were wrong on features x.
func (m gateModel) chance(x []float64) float64 {
	z := m.w[len(m.w)-1]
	for i, v := range x {
		if m.sd[i] > 0 {
			z += m.w[i] * (v - m.mu[i]) / m.sd[i]
		}
	}
	return logistic(z)
}

// fitGate fits the ridge-penalized logistic model to the labelled runs by
// Newton's method (iteratively reweighted least squares).
func fitGate(train []gateRun) gateModel {
	k := len(GateFeatures)
	m := gateModel{w: make([]float64, k+1), mu: make([]float64, k), sd: make([]float64, k)}
	n := float64(len(train))
	for j := 0; j < k; j++ {
		for _, r := range train {
			m.mu[j] += r.x[j] / n
		}
		for _, r := range train {
			m.sd[j] += (r.x[j] - m.mu[j]) * (r.x[j] - m.mu[j]) / n
		}
		m.sd[j] = math.Sqrt(m.sd[j])
	}
	row := func(r gateRun) []float64 {
		z := make([]float64, k+1)
		for j := 0; j < k; j++ {
			if m.sd[j] > 0 {
				z[j] = (r.x[j] - m.mu[j]) / m.sd[j]
			}
		}
		z[k] = 1
		return z
	}
	for range 100 {
		g := make([]float64, k+1)
		h := square(k + 1)
		for _, r := range train {
			z := row(r)
			p := m.chance(r.x)
			y := 0.0
			if r.wrong {
				y = 1
			}
			for a := range z {
				g[a] += (y - p) * z[a]
				for b := range z {
					h[a][b] += p * (1 - p) * z[a] * z[b]
				}
			}
		}
		for a := 0; a < k; a++ {
			g[a] -= gateRidge * m.w[a]
			h[a][a] += gateRidge
		}
		c, err := cholesky(h)
		if err != nil {
			break // no feature varies and the labels are one kind: the intercept alone
		}
		step := c.solve(g)
		for a := range m.w {
			m.w[a] += step[a]
		}
		if maxAbs(step) < 1e-10 {
			break
		}
	}
	return m
}

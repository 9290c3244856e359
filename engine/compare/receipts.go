package compare

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/doc"
	"github.com/arenadebate/arena/engine/receipt"
)

// The order receipts of a comparison: for the recommendation and for each
// criterion, whether the judge's preference held in every order it was
// asked in. A preference that did not hold counts as a tie: it is levelled
// in the averaged scores (receipt.Level), so no option leads on what the
// order gave it.

// recommendation names the judgement of the judge's pick.
const recommendation = "recommendation"

// receiptReadings are the readings of one criterion ("" for the weighted
// totals and the recommendation), by option index.
func (r *run) receiptReadings(criterion string) []receipt.Reading {
	var out []receipt.Reading
	for _, rd := range r.readings {
		rr := receipt.Reading{Scores: receipt.NoScores(len(r.cfg.Options)), Pick: slices.Index(r.cfg.Options, rd.j.Recommendation), Order: rd.k, Repeat: rd.rep}
		for _, o := range rd.order {
			rr.Shown = append(rr.Shown, slices.Index(r.cfg.Options, o))
		}
		for i, o := range r.cfg.Options {
			if criterion == "" {
				rr.Scores[i] = float64(Total(rd.card, o, r.criteria))
			} else if s, ok := rd.card[o][criterion]; ok {
				rr.Scores[i] = float64(s)
			}
		}
		out = append(out, rr)
	}
	return out
}

// Levelled is the judge's scores averaged over the orders, with every
// preference that did not hold levelled: option → criterion → score.
type Levelled map[string]map[string]float64

// levelled averages the readings criterion by criterion.
func (r *run) levelled() Levelled {
	lv := Levelled{}
	for _, o := range r.cfg.Options {
		lv[o] = map[string]float64{}
	}
	for _, c := range r.criteria {
		avg, _ := receipt.Level(len(r.cfg.Options), r.receiptReadings(c.Name))
		for i, o := range r.cfg.Options {
			if !math.IsNaN(avg[i]) {
				lv[o][c.Name] = avg[i]
			}
		}
	}
	return lv
}

// Total is an option's weighted total on the levelled scores.
func (lv Levelled) Total(option string, criteria []Criterion) float64 {
	t := 0.0
	for _, c := range criteria {
		t += lv[option][c.Name] * float64(WeightOf(c.Weight))
	}
	return t
}

// Leader is the option with the highest levelled total, and whether it
// leads alone.
func (lv Levelled) Leader(options []string, criteria []Criterion) (string, bool) {
	best, alone, bestT := "", false, math.Inf(-1)
	for _, o := range options {
		t := lv.Total(o, criteria)
		switch {
		case t > bestT+1e-9:
			best, bestT, alone = o, t, true
		case math.Abs(t-bestT) <= 1e-9:
			alone = false
		}
	}
	return best, alone
}

// receiptLines are the receipts in words, the recommendation first, then
// each criterion's pairs: "security: Kafka over NATS in 2 of 2 orders".
// A receipt counts every reading, repeats included ("in 4 of 4
// readings"): a preference that changed when the same order was asked
// again did not hold either. The tally's flip rate counts each order's
// first asking, as arena stats does, and its repeats apart.
func (r *run) receiptLines() (lines []string, held []bool, tally receipt.Tally) {
	unit := "order"
	if r.cfg.repeats() > 1 {
		unit = "reading"
	}
	n := len(r.cfg.Options)
	rs := r.receiptReadings("")
	picks := receipt.PicksOf(rs)
	lines = append(lines, recommendation+": "+picks.WordsIn(r.cfg.Options, unit))
	held = append(held, picks.Held() >= 0)
	tally.AddPicks(rs)
	if n == 2 {
		// The pick is a preference of one pair: counted with the rest.
		tally.AddPairs([]receipt.Pair{pickPair(receipt.PicksOf(receipt.First(rs)))})
		tally.AddRepeats(n, pickReadings(rs))
	}
	for _, c := range r.criteria {
		rs := r.receiptReadings(c.Name)
		tally.AddPairs(receipt.Pairs(n, receipt.First(rs)))
		tally.AddRepeats(n, rs)
		for _, p := range receipt.Pairs(n, rs) {
			lines = append(lines, c.Name+": "+p.WordsIn(r.cfg.Options, unit))
			held = append(held, p.Held() || !p.Decisive())
		}
	}
	return lines, held, tally
}

// pickReadings are two-option readings whose scores are their picks
// (1 for the option picked), for the repeats of the pick to be counted
// as a pair's.
func pickReadings(rs []receipt.Reading) []receipt.Reading {
	out := make([]receipt.Reading, len(rs))
	for i, rd := range rs {
		rd.Scores = receipt.NoScores(2)
		if rd.Pick >= 0 {
			rd.Scores[rd.Pick], rd.Scores[1-rd.Pick] = 1, 0
		}
		out[i] = rd
	}
	return out
}

// orderLines say what each reading was shown, in order: "as given:
// options Kafka, NATS; criteria throughput, cost". The criteria rotate
// with the options.
func (r *run) orderLines() []string {
	var out []string
	for i, rd := range r.readings {
		if rd.rep > 0 {
			continue // the same order as its first asking
		}
		line := r.readingName(i) + ": options " + strings.Join(rd.order, ", ")
		if len(rd.criteria) > 0 {
			line += "; criteria " + strings.Join(rd.criteria, ", ")
		}
		out = append(out, line)
	}
	return out
}

// pickPair is a two-option pick receipt as a pair's.
func pickPair(p receipt.Picks) receipt.Pair {
	pr := receipt.Pair{A: 0, B: 1}
	for _, c := range p.Picks {
		switch c {
		case 0:
			pr.AOver++
		case 1:
			pr.BOver++
		}
	}
	return pr
}

// receiptTable shows every receipt, coloured by whether it held, with
// the run's flip rate and first-position rate as its decision.
func (r *run) receiptTable() engine.Table {
	lines, held, tally := r.receiptLines()
	t := engine.Table{Phase: PhaseJudge, Round: 1, Title: fmt.Sprintf("Order receipts (%s)", r.askedWords()),
		Columns: []string{"judgement", "receipt"}, Decision: tally.Words()}
	t.Rows = receipt.Rows(lines, held)
	// Then what each order showed: the criteria rotate with the options.
	for _, l := range r.orderLines() {
		what, shown, _ := strings.Cut(l, ": ")
		t.Rows = append(t.Rows, engine.Row{Cells: []string{"shown " + what, shown}, Stance: engine.StanceNeutral})
	}
	return t
}

// receiptSection is the outcome document's account of the receipts.
func (r *run) receiptSection(d *doc.Document) {
	if len(r.readings) < 2 {
		return
	}
	lines, _, tally := r.receiptLines()
	d.Sections = append(d.Sections, doc.Section{ID: "receipts", Heading: "Order receipts", Restates: &doc.Restates{Tables: []string{"Order receipts"}}, Blocks: []doc.Block{
		doc.Para(fmt.Sprintf("The judge was asked in %s, the criteria rotated with the options. A preference that did not hold in every reading counts as a tie, never a win: it is levelled in the averages above (computed by arena from the parsed scores).", r.askedWords())),
		doc.Bullets("**What each order showed:**", r.orderLines()...),
		doc.Bullets("**Receipts:**", lines...),
		doc.Para(upperFirst(tally.Words()) + "."),
	}})
}

// askedWords say how the judge was asked: "2 orders", "2 orders, each
// asked twice".
func (r *run) askedWords() string {
	w := engine.Plural(r.cfg.orders(), "order")
	switch n := r.cfg.repeats(); n {
	case 1:
	case 2:
		w += ", each asked twice"
	default:
		w += fmt.Sprintf(", each asked %d times", n)
	}
	return w
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// emitScored records every reading for arena stats: its weighted totals
// and pick, and its scores on each criterion, with the options in the
// order shown.
func (r *run) emitScored() {
	n := r.cfg.orders()
	for _, rd := range r.readings {
		cands := func(score func(o string) (float64, bool)) []engine.Candidate {
			var out []engine.Candidate
			for pos, o := range rd.order {
				c := engine.Candidate{ID: o, Author: r.cfg.author(slices.Index(r.cfg.Options, o)), Bytes: rd.bytes[pos]}
				if v, ok := score(o); ok {
					c.Score = engine.Float(v)
				}
				out = append(out, c)
			}
			return out
		}
		r.rt.Bus.Emit(engine.Scored{Seat: rd.seat, Agent: rd.agent, Judgement: recommendation, Order: rd.k, Orders: n, Repeat: rd.rep,
			Candidates: cands(func(o string) (float64, bool) { return float64(Total(rd.card, o, r.criteria)), true }),
			Pick:       rd.j.Recommendation})
		for _, c := range r.criteria {
			r.rt.Bus.Emit(engine.Scored{Seat: rd.seat, Agent: rd.agent, Judgement: c.Name, Order: rd.k, Orders: n, Repeat: rd.rep, Min: 1, Max: 5,
				Candidates: cands(func(o string) (float64, bool) {
					s, ok := rd.card[o][c.Name]
					return float64(s), ok
				})})
		}
	}
}

// placed is the comparison's result for arena stats: the recommendation
// first and the rest second, or every option level when the pick changed
// with the order.
func (r *run) placed(v Verdict) engine.Placed {
	var p engine.Placed
	for i, o := range r.cfg.Options {
		place := 1
		if v.Recommendation != "" && o != v.Recommendation {
			place = 2
		}
		p.Candidates = append(p.Candidates, engine.Standing{ID: o, Author: r.cfg.author(i), Place: place})
	}
	return p
}

package rank

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/doc"
	"github.com/arenadebate/arena/engine/receipt"
)

// The order receipts of a ranking: for each dimension and each pair of
// repositories, whether the judge's preference held in every order it was
// asked in. One that did not counts as a tie: the two are levelled in that
// dimension's scores, so neither gains a place from the order it was shown
// in.

// receiptReadings are a judge's readings by position in s.judged().
func (s *state) receiptReadings(res *dimResult) []receipt.Reading {
	judged := s.judged()
	var out []receipt.Reading
	for _, rd := range res.readings {
		rr := receipt.Reading{Scores: receipt.NoScores(len(judged)), Pick: -1, Order: rd.k, Repeat: rd.rep}
		for _, i := range rd.order {
			rr.Shown = append(rr.Shown, slices.Index(judged, i))
		}
		for x, i := range judged {
			if sc, ok := rd.scores[i]; ok {
				rr.Scores[x] = float64(sc.Score)
			}
		}
		if len(rd.rank) > 0 {
			rr.Pick = slices.Index(judged, rd.rank[0])
		}
		out = append(out, rr)
	}
	return out
}

// scoreWords is a repository's score on a dimension as the score table
// shows it: "4", "3.5", "3.5 ⇄" where it was levelled with another's.
func (res *dimResult) scoreWords(i int) string {
	w := trimScore(res.avg[i])
	if slices.ContainsFunc(res.levelled, func(g []int) bool { return slices.Contains(g, i) }) {
		w += " ⇄"
	}
	return w
}

// trimScore writes a score without trailing zeros: 4, 3.5, 3.67.
func trimScore(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
}

// receiptLines are the receipts in words, dimension by dimension: each
// pair of repositories ("Security: alpha over beta in 2 of 2 orders"),
// with whether it held, and the run's tally. A receipt counts every
// reading, repeats included ("in 4 of 4 readings"); the tally's flip rate
// counts each order's first asking, as arena stats does, and the repeats
// apart.
func (s *state) receiptLines() (lines []string, held []bool, tally receipt.Tally) {
	judged := s.judged()
	var names []string
	for _, i := range judged {
		names = append(names, s.cfg.Repos[i].Label)
	}
	unit := "order"
	if s.cfg.repeats() > 1 {
		unit = "reading"
	}
	for _, d := range s.judgedDims() {
		rs := s.receiptReadings(s.dims[d])
		tally.AddPairs(receipt.Pairs(len(judged), receipt.First(rs)))
		tally.AddRepeats(len(judged), rs)
		tally.AddPicks(rs)
		for _, p := range receipt.Pairs(len(judged), rs) {
			lines = append(lines, d.Title()+": "+p.WordsIn(names, unit))
			held = append(held, p.Held() || !p.Decisive())
		}
	}
	return lines, held, tally
}

// receiptTable shows every receipt, coloured by whether it held, with
// the run's flip rate and first-position rate as its decision.
func (s *state) receiptTable() engine.Table {
	lines, held, tally := s.receiptLines()
	t := engine.Table{Phase: PhaseJudging, Title: "Order receipts", Columns: []string{"Dimension", "Receipt"}, Decision: tally.Words()}
	t.Rows = receipt.Rows(lines, held)
	return t
}

// emitScored records every judge's reading for arena stats: the
// repositories in the order shown, under their letters, with their scores,
// the length of the facts read, the authors, and the judge's first choice.
func (s *state) emitScored() {
	for _, d := range s.judgedDims() {
		res := s.dims[d]
		for _, rd := range res.readings {
			sc := engine.Scored{Seat: rd.seat, Agent: res.agent, Judgement: string(d), Order: rd.k, Orders: s.cfg.orders(len(s.judged())), Repeat: rd.rep, Min: 1, Max: 5}
			for n, i := range rd.order {
				c := engine.Candidate{ID: s.cfg.Repos[i].Label, Shown: "Candidate " + Letters(len(rd.order))[n], Author: s.cfg.author(i), Bytes: rd.bytes[i]}
				if ls, ok := rd.scores[i]; ok {
					c.Score = engine.Float(float64(ls.Score))
				}
				sc.Candidates = append(sc.Candidates, c)
			}
			if len(rd.rank) > 0 {
				sc.Pick = s.cfg.Repos[rd.rank[0]].Label
			}
			s.rt.Bus.Emit(sc)
		}
	}
}

// placed is the ranking for arena stats.
func (s *state) placed(places []Place) engine.Placed {
	var p engine.Placed
	for _, pl := range places {
		p.Candidates = append(p.Candidates, engine.Standing{ID: pl.Label, Author: s.cfg.author(pl.Index), Place: pl.Place})
	}
	return p
}

// askedAgain says how many times each order was asked, when more than
// once: ", each asked twice".
func askedAgain(repeats int) string {
	switch {
	case repeats <= 1:
		return ""
	case repeats == 2:
		return ", each asked twice"
	}
	return fmt.Sprintf(", each asked %d times", repeats)
}

// receiptsSection is the outcome document's account of the receipts.
func receiptsSection(d *doc.Document, r *Report) {
	if len(r.Receipts) == 0 {
		return
	}
	d.Sections = append(d.Sections, doc.Section{ID: "receipts", Heading: "Order receipts", Restates: &doc.Restates{Tables: []string{"Order receipts"}}, Blocks: []doc.Block{
		doc.Para(fmt.Sprintf("Each judge was asked in %d orders of the repositories%s, each under its own letters. A preference that did not hold in every reading counts as a tie, never a win: the two are levelled in that dimension's scores (⇄ in the table), computed by arena from the parsed scores.", r.Orders, askedAgain(r.Repeats))),
		doc.Bullets("", r.Receipts...),
		doc.Para(strings.ToUpper(r.ReceiptTally[:1]) + r.ReceiptTally[1:] + "."),
	}})
}

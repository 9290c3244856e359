package compare

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/doc"
	"github.com/arenadebate/arena/engine/receipt"
)

// outcome decides how the comparison ended and writes its document.
func (r *run) outcome(ctx context.Context) engine.Outcome {
	o := engine.Outcome{Rounds: 1, Failures: r.failures}
	v := Decide(r.picks())
	switch {
	case ctx.Err() != nil && len(r.readings) < r.wantReadings():
		o.Result, o.Stance = engine.OutcomeInterrupted, engine.StanceNeutral
		o.Where = "during " + strings.ToLower(phaseTitle(r.phase))
		o.Summary = "Interrupted " + o.Where
	case r.abort != "" || len(r.readings) < r.wantReadings():
		if r.abort == "" {
			r.abort = "the judge gave no scorecard"
		}
		o.Result, o.Stance = engine.OutcomeAborted, engine.StanceDisagree
		o.Summary = "Aborted: " + r.abort
	case v.Flipped:
		o.Result, o.Stance = OutcomeOrderDependent, engine.StancePartial
		o.Summary = "Not robust: the judge recommended " + r.pickWords(v) + " — counted as a tie"
	default:
		o.Result, o.Stance = OutcomeRecommendation, engine.StanceAgree
		o.Summary = fmt.Sprintf("Recommendation: %s (%s)", v.Recommendation, r.margin(v.Recommendation))
	}
	if o.Result == OutcomeRecommendation || o.Result == OutcomeOrderDependent {
		r.rt.Bus.Emit(r.placed(v))
	}
	d := r.document(o, v)
	o.Document = &d
	return o
}

// pickWords says what the judge recommended in each order: "Kafka with
// the options as given and NATS with them reversed".
func (r *run) pickWords(v Verdict) string {
	var parts []string
	for i, p := range v.Picks {
		rd := r.readings[i]
		switch rd.k {
		case 0:
			p += " with the options as given"
		case 1:
			p += " with them reversed"
		default:
			p = fmt.Sprintf("%s in order %d", p, rd.k+1)
		}
		parts = append(parts, p+repeatWords(rd.rep))
	}
	if len(parts) <= 2 {
		return strings.Join(parts, " and ")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

func (r *run) wantReadings() int { return r.cfg.orders() * r.cfg.repeats() }

// margin says by how much the recommendation leads on average.
func (r *run) margin(rec string) string {
	lv := r.levelled()
	best := lv.Total(rec, r.criteria)
	var parts []string
	for _, o := range r.cfg.Options {
		if o != rec {
			parts = append(parts, fmt.Sprintf("%.1f vs %.1f for %s", best, lv.Total(o, r.criteria), o))
		}
	}
	what := fmt.Sprintf("in all %d orders", len(r.readings))
	switch {
	case r.cfg.repeats() > 1:
		what = fmt.Sprintf("in all %d readings (%s, each asked %s)", len(r.readings), engine.Plural(r.cfg.orders(), "order"), engine.Plural(r.cfg.repeats(), "time"))
	case len(r.readings) == 2:
		what = "in both orders"
	case r.cfg.Single && len(r.readings) == 1:
		what = "one agent alone"
	case len(r.readings) == 1:
		what = "in one order"
	}
	return what + "; weighted " + strings.Join(parts, ", ")
}

func phaseTitle(p engine.Phase) string {
	switch p {
	case PhaseCriteria:
		return "Criteria"
	case PhaseOpening:
		return "Openings"
	case PhaseRebuttal:
		return "Rebuttals"
	case PhaseJudge:
		return "Judgement"
	}
	return "Preflight"
}

// document is the outcome document: the decision, criteria, scores in
// each order and averaged, the weighted scorecard with its math, the
// recommendation, conditions, the audit of the arguments, the rebuttal
// analysis, open questions, failures and the audit trail.
func (r *run) document(o engine.Outcome, v Verdict) doc.Document {
	d := doc.Document{Title: "Comparison", Result: string(o.Result)}
	switch o.Result {
	case OutcomeRecommendation:
		d.Result = v.Recommendation + " recommended"
	case OutcomeOrderDependent:
		d.Result = "not robust"
		d.Notices = append(d.Notices, doc.Notice{Label: "No robust recommendation", Warning: true,
			Text: "the judge's pick depends on the order the options were presented in."})
	}
	d.Started("Decision", engine.OneLine(r.cfg.Decision, 300))
	d.Started("Options", strings.Join(r.cfg.Options, " · "))
	if r.cfg.Single {
		d.Notices = append(d.Notices, doc.Notice{Label: "A single agent", Text: "it scored the options alone (--single): no advocates."})
	}
	if len(r.readings) == 1 {
		d.Notices = append(d.Notices, doc.Notice{Label: "One order", Warning: true, Text: "the judge was asked in one order only: its position bias was not checked."})
	}
	r.criteriaSection(&d)
	if len(r.readings) > 0 {
		r.scoresSection(&d)
		r.scorecardSection(&d, v)
		r.receiptSection(&d)
		r.conditionsSection(&d)
		r.auditSection(&d)
		r.rebuttalSection(&d)
		r.questionsSection(&d)
	}
	if len(r.failures) > 0 {
		d.Add("Failures", doc.Bullets("", r.failures...))
	}
	r.trailSection(&d)
	return d
}

// judgesSaid: a section drawn from the judge's replies alone, which the
// stream showed as they came.
func (r *run) judgesSaid() *doc.Restates {
	said := &doc.Restates{}
	for _, rd := range r.readings {
		said.Seats = append(said.Seats, rd.seat)
	}
	return said
}

func (r *run) criteriaSection(d *doc.Document) {
	if len(r.criteria) == 0 {
		return
	}
	var rows [][]string
	// Criteria a model proposed streamed as a table; those given on the
	// command line, without their reasons, the run's start listed.
	said := &doc.Restates{Start: true}
	for _, c := range r.criteria {
		rows = append(rows, []string{c.Name, fmt.Sprintf("%s (%d)", c.Weight, WeightOf(c.Weight)), engine.OrDash(c.Why)})
		if c.Why != "" {
			said = &doc.Restates{Tables: []string{"Criteria"}}
		}
	}
	d.Sections = append(d.Sections, doc.Section{Heading: "Criteria", Restates: said,
		Blocks: []doc.Block{doc.TableOf([]string{"Criterion", "Weight", "Why"}, rows)}})
}

// scoresSection is the criterion-by-criterion table: every option's score
// in each reading and averaged.
func (r *run) scoresSection(d *doc.Document) {
	cols := []string{"Criterion"}
	for _, o := range r.cfg.Options {
		for i := range r.readings {
			cols = append(cols, fmt.Sprintf("%s (%s)", o, r.readingName(i)))
		}
		if len(r.readings) > 1 {
			cols = append(cols, o+" (average)")
		}
	}
	lv := r.levelled()
	anyLevelled := false
	var rows [][]string
	for _, c := range r.criteria {
		row := []string{c.Name}
		_, groups := receipt.Level(len(r.cfg.Options), r.receiptReadings(c.Name))
		anyLevelled = anyLevelled || len(groups) > 0
		for i, o := range r.cfg.Options {
			for _, rd := range r.readings {
				row = append(row, fmt.Sprint(rd.card[o][c.Name]))
			}
			if len(r.readings) > 1 {
				mark := ""
				if slices.ContainsFunc(groups, func(g []int) bool { return slices.Contains(g, i) }) {
					mark = " ⇄"
				}
				row = append(row, fmt.Sprintf("%.1f%s", lv[o][c.Name], mark))
			}
		}
		rows = append(rows, row)
	}
	blocks := []doc.Block{doc.TableOf(cols, rows)}
	if anyLevelled {
		blocks = append(blocks, doc.Para("⇄ marks an average levelled with another option's: the judge's preference between them changed with the order, so it counts as a tie."))
	}
	blocks = append(blocks, r.justifications())
	d.Sections = append(d.Sections, doc.Section{Heading: "Scores, criterion by criterion", Restates: r.judgesSaid(), Blocks: blocks})
}

// justifications lists each option's score on each criterion once, with
// what every reading said: one line when the readings agree in words, a
// line a reading when they do not (issue 32, point 8: each justification
// was printed twice, as given and reversed).
func (r *run) justifications() doc.Block {
	type key struct{ option, criterion string }
	said := map[key][]string{}
	scores := map[key][]string{}
	var order []key
	for i, rd := range r.readings {
		for _, s := range rd.j.Scores {
			k := key{s.Option, s.Criterion}
			if _, ok := said[k]; !ok {
				order = append(order, k)
			}
			words := engine.OrDash(s.Justification)
			if s.MoreConvinced != "" {
				words += "; more convincing: " + s.MoreConvinced
			}
			said[k] = append(said[k], fmt.Sprintf("%s: %s", r.readingName(i), words))
			scores[k] = append(scores[k], fmt.Sprintf("%d/5 %s", s.Score, r.readingName(i)))
		}
	}
	var items []doc.Item
	for _, k := range order {
		it := doc.Item{Text: fmt.Sprintf("%s, %s: %s", k.option, k.criterion, strings.Join(scores[k], ", "))}
		if same := sameWords(said[k]); same != "" {
			it.Text += " — " + same
		} else {
			it.Items = said[k]
		}
		items = append(items, it)
	}
	return doc.ListOf("**Justifications:**", items...)
}

// sameWords is what every reading said, when they all said the same
// ("reading: words" each); "" when they differ.
func sameWords(said []string) string {
	var first string
	for i, s := range said {
		_, words, _ := strings.Cut(s, ": ")
		if i == 0 {
			first = words
		} else if words != first {
			return ""
		}
	}
	return first
}

func (r *run) scorecardSection(d *doc.Document, v Verdict) {
	cols := []string{"Option"}
	for i := range r.readings {
		cols = append(cols, r.readingName(i))
	}
	cols = append(cols, "Average")
	var rows [][]string
	for _, o := range r.cfg.Options {
		row := []string{o}
		for _, rd := range r.readings {
			row = append(row, Math(rd.card, o, r.criteria))
		}
		rows = append(rows, append(row, fmt.Sprintf("%.1f", r.levelled().Total(o, r.criteria))))
	}
	card := []doc.Block{doc.Para("Each score times its criterion's weight, summed; computed by arena from the parsed scores."), doc.TableOf(cols, rows)}
	leader, alone := r.levelled().Leader(r.cfg.Options, r.criteria)
	if alone && leader != v.Recommendation && !v.Flipped {
		card = append(card, doc.Para(fmt.Sprintf("Note: by the weighted scores %s leads, though the judge recommended %s.", leader, v.Recommendation)))
	} else if !alone {
		card = append(card, doc.Para("Note: the weighted scores tie for first place."))
	}
	d.Add("Weighted scorecard", card...)
	var picks []string
	for i, p := range v.Picks {
		picks = append(picks, fmt.Sprintf("With the options %s (%s): **%s**", r.readingName(i), strings.Join(r.readings[i].order, ", "), p))
	}
	rec := doc.Section{Heading: "Recommendation", Blocks: []doc.Block{doc.Bullets("", picks...)}}
	if v.Flipped {
		rec.Blocks = append(rec.Blocks, doc.Para("The recommendation changed when the order of the options changed: it depends on presentation, not on the arguments, and is not robust. Weigh the scorecard and the conditions below yourself."))
	} else {
		rec.Blocks = append(rec.Blocks, doc.Para(fmt.Sprintf("**%s**, recommended in every reading.", v.Recommendation)))
		// The scorecard streamed with who recommended what in each
		// reading, and the summary says it too.
		rec.Restates = &doc.Restates{Tables: []string{"Weighted scorecard"}}
	}
	d.Sections = append(d.Sections, rec)
}

func (r *run) conditionsSection(d *doc.Document) {
	var blocks []doc.Block
	for _, o := range r.cfg.Options {
		var conds []string
		for _, rd := range r.readings {
			for _, c := range rd.j.Conditions {
				if c.Option == o {
					for _, ci := range c.ChooseIf {
						if !slices.Contains(conds, ci) {
							conds = append(conds, ci)
						}
					}
				}
			}
		}
		if len(conds) == 0 {
			conds = []string{"(no condition given)"}
		}
		blocks = append(blocks, doc.Bullets(fmt.Sprintf("**Choose %s if:**", o), conds...))
	}
	d.Sections = append(d.Sections, doc.Section{Heading: "Decision conditions", Restates: r.judgesSaid(), Blocks: blocks})
}

func (r *run) auditSection(d *doc.Document) {
	var items []string
	for i, rd := range r.readings {
		for _, a := range rd.j.Audit {
			items = append(items, fmt.Sprintf("**%s** (the advocate for %s, found by the judge, %s): %q — %s", engine.OrDash(a.Kind), engine.OrDash(a.Option), r.readingName(i), a.Claim, engine.OrDash(a.Detail)))
		}
	}
	for _, note := range r.notes {
		items = append(items, "**checked by arena:** "+note)
	}
	block := doc.Bullets("", items...)
	if len(items) == 0 {
		block = doc.Para("No strawman or unsupported claim was found, and every quoted claim was found in the opening it attacked.")
	}
	said := r.judgesSaid()
	said.Notes = len(r.notes) > 0
	d.Sections = append(d.Sections, doc.Section{Heading: "Argument audit", Restates: said, Blocks: []doc.Block{block}})
}

func (r *run) rebuttalSection(d *doc.Document) {
	if r.cfg.Quick || r.cfg.Single {
		return
	}
	var items []string
	for i, rd := range r.readings {
		for _, rs := range rd.j.Rebuttals {
			it := fmt.Sprintf("**The rebuttal for %s** (%s): effectiveness %d/5", engine.OrDash(rs.Option), r.readingName(i), rs.Effectiveness)
			if len(rs.Survived) > 0 {
				it += "; survived: " + strings.Join(rs.Survived, "; ")
			}
			if len(rs.Collapsed) > 0 {
				it += "; collapsed: " + strings.Join(rs.Collapsed, "; ")
			}
			items = append(items, it)
		}
	}
	d.Sections = append(d.Sections, doc.Section{Heading: "Rebuttal analysis", Restates: r.judgesSaid(), Blocks: []doc.Block{doc.Bullets("", items...)}})
}

func (r *run) questionsSection(d *doc.Document) {
	var qs []string
	for _, rd := range r.readings {
		for _, q := range rd.j.OpenQuestions {
			if !slices.Contains(qs, q) {
				qs = append(qs, q)
			}
		}
	}
	if len(qs) == 0 {
		return
	}
	d.Sections = append(d.Sections, doc.Section{Heading: "Open questions", Restates: r.judgesSaid(), Blocks: []doc.Block{doc.Bullets("", qs...)}})
}

// trailSection is every reply, as given: the stream showed each as it
// came.
func (r *run) trailSection(d *doc.Document) {
	if len(r.trail) == 0 {
		return
	}
	trail := doc.Section{ID: "trail", Heading: "Audit trail", Restates: &doc.Restates{}}
	var entries []doc.Section
	for _, t := range r.trail {
		if !slices.Contains(trail.Restates.Seats, t.seat) {
			trail.Restates.Seats = append(trail.Restates.Seats, t.seat)
		}
		entries = append(entries, doc.Section{Heading: fmt.Sprintf("%s · %s (%s)", phaseTitle(t.phase), t.seat, t.agent), Depth: 1,
			Blocks: []doc.Block{doc.Para(strings.TrimSpace(t.body))}})
	}
	d.Sections = append(append(d.Sections, trail), entries...)
}

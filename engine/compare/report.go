package compare

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/receipt"
)

// outcome decides how the comparison ended and writes its document.
func (r *run) outcome(ctx context.Context) engine.Outcome {
	o := engine.Outcome{Rounds: 1, Failures: r.failures}
	v := Decide(r.picks())
	switch {
	case ctx.Err() != nil && len(r.readings) < r.wantReadings():
		o.Result, o.Stance = engine.OutcomeInterrupted, engine.StanceNeutral
		o.Summary = "Interrupted during " + strings.ToLower(phaseTitle(r.phase))
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
	o.Markdown = r.document(o, v)
	return o
}

// pickWords says what the judge recommended in each order: "Kafka with
// the options as given and NATS with them reversed".
func (r *run) pickWords(v Verdict) string {
	var parts []string
	for i, p := range v.Picks {
		switch i {
		case 0:
			parts = append(parts, p+" with the options as given")
		case 1:
			parts = append(parts, p+" with them reversed")
		default:
			parts = append(parts, fmt.Sprintf("%s in order %d", p, i+1))
		}
	}
	if len(parts) <= 2 {
		return strings.Join(parts, " and ")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

func (r *run) wantReadings() int { return r.cfg.orders() }

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
func (r *run) document(o engine.Outcome, v Verdict) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Comparison: %s\n\n", engine.OneLine(r.cfg.Decision, 300))
	fmt.Fprintf(&b, "**Options:** %s\n\n", strings.Join(r.cfg.Options, " · "))
	switch o.Result {
	case OutcomeRecommendation:
		fmt.Fprintf(&b, "**Recommendation:** %s\n\n", v.Recommendation)
	case OutcomeOrderDependent:
		b.WriteString("**No robust recommendation:** the judge's pick depends on the order the options were presented in.\n\n")
	default:
		fmt.Fprintf(&b, "**%s**\n\n", o.Summary)
	}
	if r.cfg.Single {
		b.WriteString("*A single agent scored the options alone (--single): no advocates.*\n\n")
	}
	if len(r.readings) == 1 {
		b.WriteString("*The judge was asked in one order only: its position bias was not checked.*\n\n")
	}
	r.criteriaSection(&b)
	if len(r.readings) > 0 {
		r.scoresSection(&b)
		r.scorecardSection(&b, v)
		r.receiptSection(&b)
		r.conditionsSection(&b)
		r.auditSection(&b)
		r.rebuttalSection(&b)
		r.questionsSection(&b)
	}
	if len(r.failures) > 0 {
		b.WriteString("## Failures\n\n")
		for _, f := range r.failures {
			fmt.Fprintf(&b, "- %s\n", f)
		}
		b.WriteString("\n")
	}
	r.trailSection(&b)
	return b.String()
}

func (r *run) criteriaSection(b *strings.Builder) {
	if len(r.criteria) == 0 {
		return
	}
	b.WriteString("## Criteria\n\n| Criterion | Weight | Why |\n|---|---|---|\n")
	for _, c := range r.criteria {
		fmt.Fprintf(b, "| %s | %s (%d) | %s |\n", engine.Cell(c.Name), c.Weight, WeightOf(c.Weight), engine.Cell(engine.OrDash(c.Why)))
	}
	b.WriteString("\n")
}

// scoresSection is the criterion-by-criterion table: every option's score
// in each reading and averaged.
func (r *run) scoresSection(b *strings.Builder) {
	b.WriteString("## Scores, criterion by criterion\n\n")
	head := "| Criterion |"
	sep := "|---|"
	for _, o := range r.cfg.Options {
		for i := range r.readings {
			head += fmt.Sprintf(" %s (%s) |", engine.Cell(o), readingName(i, len(r.readings)))
			sep += "---|"
		}
		if len(r.readings) > 1 {
			head += fmt.Sprintf(" %s (average) |", engine.Cell(o))
			sep += "---|"
		}
	}
	b.WriteString(head + "\n" + sep + "\n")
	lv := r.levelled()
	anyLevelled := false
	for _, c := range r.criteria {
		row := "| " + engine.Cell(c.Name) + " |"
		_, groups := receipt.Level(len(r.cfg.Options), r.receiptReadings(c.Name))
		anyLevelled = anyLevelled || len(groups) > 0
		for i, o := range r.cfg.Options {
			for _, rd := range r.readings {
				row += fmt.Sprintf(" %d |", rd.card[o][c.Name])
			}
			if len(r.readings) > 1 {
				mark := ""
				if slices.ContainsFunc(groups, func(g []int) bool { return slices.Contains(g, i) }) {
					mark = " ⇄"
				}
				row += fmt.Sprintf(" %.1f%s |", lv[o][c.Name], mark)
			}
		}
		b.WriteString(row + "\n")
	}
	b.WriteString("\n")
	if anyLevelled {
		b.WriteString("⇄ marks an average levelled with another option's: the judge's preference between them changed with the order, so it counts as a tie.\n\n")
	}
	r.justifications(b)
}

// justifications lists each option's score on each criterion once, with
// what every reading said: one line when the readings agree in words, a
// line a reading when they do not (issue 32, point 8: each justification
// was printed twice, as given and reversed).
func (r *run) justifications(b *strings.Builder) {
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
			said[k] = append(said[k], fmt.Sprintf("%s: %s", readingName(i, len(r.readings)), words))
			scores[k] = append(scores[k], fmt.Sprintf("%d/5 %s", s.Score, readingName(i, len(r.readings))))
		}
	}
	b.WriteString("**Justifications:**\n\n")
	for _, k := range order {
		fmt.Fprintf(b, "- %s, %s: %s", k.option, k.criterion, strings.Join(scores[k], ", "))
		if same := sameWords(said[k]); same != "" {
			fmt.Fprintf(b, " — %s\n", same)
			continue
		}
		b.WriteString("\n")
		for _, w := range said[k] {
			fmt.Fprintf(b, "  - %s\n", w)
		}
	}
	b.WriteString("\n")
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

func (r *run) scorecardSection(b *strings.Builder, v Verdict) {
	b.WriteString("## Weighted scorecard\n\nEach score times its criterion's weight, summed; computed by arena from the parsed scores.\n\n")
	head, sep := "| Option |", "|---|"
	for i := range r.readings {
		head += fmt.Sprintf(" %s |", readingName(i, len(r.readings)))
		sep += "---|"
	}
	head += " Average |"
	sep += "---|"
	b.WriteString(head + "\n" + sep + "\n")
	for _, o := range r.cfg.Options {
		row := "| " + engine.Cell(o) + " |"
		for _, rd := range r.readings {
			row += " " + Math(rd.card, o, r.criteria) + " |"
		}
		row += fmt.Sprintf(" %.1f |", r.levelled().Total(o, r.criteria))
		b.WriteString(row + "\n")
	}
	b.WriteString("\n## Recommendation\n\n")
	for i, p := range v.Picks {
		fmt.Fprintf(b, "- With the options %s (%s): **%s**\n", readingName(i, len(v.Picks)), strings.Join(r.readings[i].order, ", "), p)
	}
	b.WriteString("\n")
	leader, alone := r.levelled().Leader(r.cfg.Options, r.criteria)
	switch {
	case v.Flipped:
		b.WriteString("The recommendation changed when the order of the options changed: it depends on presentation, not on the arguments, and is not robust. Weigh the scorecard and the conditions below yourself.\n\n")
	default:
		fmt.Fprintf(b, "**%s**, recommended in every reading.\n\n", v.Recommendation)
	}
	if alone && leader != v.Recommendation && !v.Flipped {
		fmt.Fprintf(b, "Note: by the weighted scores %s leads, though the judge recommended %s.\n\n", leader, v.Recommendation)
	} else if !alone {
		b.WriteString("Note: the weighted scores tie for first place.\n\n")
	}
}

func (r *run) conditionsSection(b *strings.Builder) {
	b.WriteString("## Decision conditions\n\n")
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
		fmt.Fprintf(b, "**Choose %s if:**\n", o)
		if len(conds) == 0 {
			b.WriteString("- (no condition given)\n")
		}
		for _, c := range conds {
			fmt.Fprintf(b, "- %s\n", c)
		}
		b.WriteString("\n")
	}
}

func (r *run) auditSection(b *strings.Builder) {
	b.WriteString("## Argument audit\n\n")
	n := 0
	for i, rd := range r.readings {
		for _, a := range rd.j.Audit {
			fmt.Fprintf(b, "- **%s** (the advocate for %s, found by the judge, %s): %q — %s\n", engine.OrDash(a.Kind), engine.OrDash(a.Option), readingName(i, len(r.readings)), a.Claim, engine.OrDash(a.Detail))
			n++
		}
	}
	for _, note := range r.notes {
		fmt.Fprintf(b, "- **checked by arena:** %s\n", note)
		n++
	}
	if n == 0 {
		b.WriteString("No strawman or unsupported claim was found, and every quoted claim was found in the opening it attacked.\n")
	}
	b.WriteString("\n")
}

func (r *run) rebuttalSection(b *strings.Builder) {
	if r.cfg.Quick || r.cfg.Single {
		return
	}
	b.WriteString("## Rebuttal analysis\n\n")
	for i, rd := range r.readings {
		for _, rs := range rd.j.Rebuttals {
			fmt.Fprintf(b, "- **The rebuttal for %s** (%s): effectiveness %d/5", engine.OrDash(rs.Option), readingName(i, len(r.readings)), rs.Effectiveness)
			if len(rs.Survived) > 0 {
				fmt.Fprintf(b, "; survived: %s", strings.Join(rs.Survived, "; "))
			}
			if len(rs.Collapsed) > 0 {
				fmt.Fprintf(b, "; collapsed: %s", strings.Join(rs.Collapsed, "; "))
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("\n")
}

func (r *run) questionsSection(b *strings.Builder) {
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
	b.WriteString("## Open questions\n\n")
	for _, q := range qs {
		fmt.Fprintf(b, "- %s\n", q)
	}
	b.WriteString("\n")
}

func (r *run) trailSection(b *strings.Builder) {
	if len(r.trail) == 0 {
		return
	}
	b.WriteString("## Audit trail\n\n")
	for _, t := range r.trail {
		fmt.Fprintf(b, "### %s · %s (%s)\n\n%s\n\n", phaseTitle(t.phase), t.seat, t.agent, strings.TrimSpace(t.body))
	}
}

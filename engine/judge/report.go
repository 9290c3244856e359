package judge

import (
	"fmt"
	"strings"

	"github.com/arenadebate/arena/engine"
)

// The judges' reports (one per judge, a section per round, as the seed
// lays them out) and the outcome document.

func quoteLine(c Corpus, q string) string {
	if c.QuoteFound(q) {
		return fmt.Sprintf("- “%s”\n", q)
	}
	return fmt.Sprintf("- “%s” — ⚠ **not found in the solution** (flagged by arena)\n", q)
}

// analysisSection is a judge's independent analysis, as its report reads.
func analysisSection(cs []Criterion, s *seat, a Analysis, corpus Corpus) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: independent analysis\n\n", s.name)
	scoreTable(&b, cs, a.Scores)
	fmt.Fprintf(&b, "**Weighted overall (computed by arena):** %.2f/5.0", Weighted(cs, ScoresOf(cs, a.Scores)))
	if a.Overall != nil {
		fmt.Fprintf(&b, " (the judge's own total, not used: %s)", trimFloat(*a.Overall))
	}
	b.WriteString("\n\n")
	for _, sc := range a.Scores {
		fmt.Fprintf(&b, "### %s — %d/5\n\n", sc.Criterion, sc.Score)
		if sc.Justification != "" {
			b.WriteString(sc.Justification + "\n\n")
		}
		if len(sc.Evidence) == 0 {
			b.WriteString("Evidence: none quoted.\n\n")
			continue
		}
		b.WriteString("Evidence:\n")
		for _, q := range sc.Evidence {
			b.WriteString(quoteLine(corpus, q))
		}
		b.WriteString("\n")
	}
	list(&b, "## Strengths", a.Strengths)
	list(&b, "## Weaknesses", a.Weaknesses)
	if len(a.Verification) > 0 {
		b.WriteString("## Verification\n\n")
		for i, v := range a.Verification {
			changed := "no change"
			if v.Changed {
				changed = "score revised"
			}
			fmt.Fprintf(&b, "%d. **%s** %s (%s)\n", i+1, v.Question, v.Answer, changed)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func scoreTable(b *strings.Builder, cs []Criterion, ss []Score) {
	b.WriteString("| Criterion | Weight | Score |\n|---|---|---|\n")
	for i, c := range cs {
		fmt.Fprintf(b, "| %s | %s%% | %d/5 |\n", c.Name, trimFloat(Share(cs, i)), ss[i].Score)
	}
	b.WriteString("\n")
}

func list(b *strings.Builder, heading string, items []string) {
	b.WriteString(heading + "\n\n")
	if len(items) == 0 {
		b.WriteString("None named.\n\n")
		return
	}
	for _, it := range items {
		fmt.Fprintf(b, "- %s\n", it)
	}
	b.WriteString("\n")
}

// debateSection is what a debate round appends to a judge's report.
func debateSection(cs []Criterion, round int, s *seat, d Debate, prev []int, unexplained []string, corpus Corpus) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Debate Round %d\n\n### Disagreements Identified\n\n", round)
	if len(d.Disagreements) == 0 {
		b.WriteString("None named.\n\n")
	}
	for _, x := range d.Disagreements {
		fmt.Fprintf(&b, "**Disagreement with %s on Criterion \"%s\"**\n", x.Judge, x.Criterion)
		fmt.Fprintf(&b, "- My score: %d/5\n- Their score: %d/5\n", x.Mine, x.Theirs)
		if x.Defense != "" {
			fmt.Fprintf(&b, "- My defense: %s\n", x.Defense)
		}
		if x.Challenge != "" {
			fmt.Fprintf(&b, "- My challenge: %s\n", x.Challenge)
		}
		b.WriteString("\n")
	}
	b.WriteString("### Revised Assessment\n\n")
	cur := ScoresOf(cs, d.Scores)
	for i, c := range cs {
		if prev[i] == cur[i] {
			fmt.Fprintf(&b, "- **Criterion \"%s\"**: Maintained %d/5\n", c.Name, cur[i])
			continue
		}
		fmt.Fprintf(&b, "- **Criterion \"%s\"**: Revised from %d to %d/5\n", c.Name, prev[i], cur[i])
		for _, ch := range d.Changes {
			if j, ok := matchCriterion(cs, ch.Criterion); ok && j == i && ch.Reason != "" {
				fmt.Fprintf(&b, "  - Reason for change: %s\n", ch.Reason)
			}
		}
	}
	b.WriteString("\n")
	for _, u := range unexplained {
		fmt.Fprintf(&b, "> ⚠ **Sycophancy guard:** %s changed %s.\n\n", s.name, u)
	}
	fmt.Fprintf(&b, "**New Weighted Score (computed by arena)**: %.2f/5.0\n\n", Weighted(cs, cur))
	fmt.Fprintf(&b, "**Accepts the consensus:** %s", yesNo(d.AcceptsConsensus))
	if len(d.AgreesWith) > 0 {
		fmt.Fprintf(&b, "; agrees with %s", strings.Join(d.AgreesWith, ", "))
	}
	b.WriteString("\n\n## Evidences\n\n")
	n := 0
	for _, sc := range d.Scores {
		for _, q := range sc.Evidence {
			b.WriteString(sc.Criterion + ": ")
			b.WriteString(strings.TrimPrefix(quoteLine(corpus, q), "- "))
			n++
		}
	}
	for _, ch := range d.Changes {
		for _, q := range ch.Evidence {
			b.WriteString(ch.Criterion + " (change): ")
			b.WriteString(strings.TrimPrefix(quoteLine(corpus, q), "- "))
			n++
		}
	}
	if n == 0 {
		b.WriteString("None quoted.\n")
	}
	b.WriteString("\n")
	return b.String()
}

// gap is a disagreement of more than one point between two judges on one
// criterion, as the independent analysis left it.
type gap struct {
	criterion int
	a, b      *seat
	va, vb    int
}

func (r *run) gaps() []gap {
	var out []gap
	var seats []*seat
	for _, s := range r.seats {
		if s.initial != nil {
			seats = append(seats, s)
		}
	}
	for i := range r.cfg.Criteria {
		for x := 0; x < len(seats); x++ {
			for y := x + 1; y < len(seats); y++ {
				va, vb := seats[x].initial[i], seats[y].initial[i]
				if va-vb > 1 || vb-va > 1 {
					out = append(out, gap{criterion: i, a: seats[x], b: seats[y], va: va, vb: vb})
				}
			}
		}
	}
	return out
}

func (g gap) words(cs []Criterion) string {
	d := g.va - g.vb
	if d < 0 {
		d = -d
	}
	return fmt.Sprintf("%s: %s %d vs %s %d (gap %d)", cs[g.criterion].Name, g.a.name, g.va, g.b.name, g.vb, d)
}

func (r *run) initialDisagreements() []string {
	var out []string
	for _, g := range r.gaps() {
		out = append(out, g.words(r.cfg.Criteria))
	}
	return out
}

// outcome builds the closing document.
func (r *run) outcome(kind engine.OutcomeKind) engine.Outcome {
	r.rt.Bus.Emit(engine.PhaseStarted{Phase: engine.PhaseOutcome, Round: r.round, Title: "Outcome"})
	o := engine.Outcome{Result: kind, Rounds: r.round, Failures: r.failures}
	var last Check
	if len(r.checks) > 0 {
		last = r.checks[len(r.checks)-1]
	}
	var b strings.Builder
	switch kind {
	case OutcomeConsensus, OutcomeBelowMin:
		rec := Recommendation(last.overall(), r.passMark())
		o.Stance = engine.StanceAgree
		when := "after the independent analysis"
		if r.round > 0 {
			when = "after " + engine.Plural(r.round, "debate round")
		}
		o.Summary = fmt.Sprintf("Consensus %s: overall %.2f/5 — %s", when, last.overall(), RecommendationWords(rec))
		if kind == OutcomeBelowMin {
			o.Stance = engine.StancePartial
			o.Summary = fmt.Sprintf("Consensus %s, but the overall %.2f/5 is below --min-score %s", when, last.overall(), trimFloat(r.cfg.MinScore))
		}
		r.consensusDoc(&b, kind, last, rec)
	case OutcomeNoConsensus:
		o.Stance = engine.StanceDisagree
		o.Summary = fmt.Sprintf("No consensus after %s (%s): human review needed", engine.Plural(r.round, "debate round"), strings.Join(last.Fails, "; "))
		r.noConsensusDoc(&b, last)
	case engine.OutcomeInterrupted:
		o.Stance = engine.StanceNeutral
		o.Summary = "Interrupted " + r.where()
		r.stoppedDoc(&b, "interrupted", o.Summary)
	default:
		o.Stance = engine.StanceDisagree
		o.Summary = "Aborted " + r.where() + ": " + r.abort
		r.stoppedDoc(&b, "aborted", o.Summary)
	}
	b.WriteString(r.emitLedger(kind, last))
	r.appendix(&b)
	o.Markdown = r.rt.WithCosts(b.String())
	if r.cfg.Reports != nil {
		if path, err := r.cfg.Reports.Outcome(o.Markdown); err != nil {
			r.rt.Note(engine.NoteError, "could not copy the outcome document to the reports directory: %v", err)
		} else {
			r.rt.Bus.Emit(engine.Saved{What: "outcome copy", Path: path})
		}
	}
	return o
}

func (r *run) where() string {
	if r.round == 0 {
		return "in the independent analysis"
	}
	return fmt.Sprintf("in debate round %d", r.round)
}

func (r *run) passMark() float64 {
	if r.cfg.MinScore > 0 {
		return r.cfg.MinScore
	}
	return DefaultPassMark
}

func (r *run) head(b *strings.Builder, title string) {
	fmt.Fprintf(b, "# Judging outcome: %s\n\n", title)
	fmt.Fprintf(b, "**Task:** %s\n\n", engine.OneLine(r.cfg.Task, 300))
	sol := r.cfg.Solution
	var files []string
	for _, f := range sol.Files {
		files = append(files, fmt.Sprintf("`%s` (%d bytes)", f.Name, len(f.Content)))
	}
	fmt.Fprintf(b, "**Solution:** %s\n\n", strings.Join(files, ", "))
	if len(sol.Cut) > 0 {
		fmt.Fprintf(b, "**Cut to fit the prompt budget:** %s\n\n", strings.Join(sol.Cut, "; "))
	}
	if len(sol.Skipped) > 0 {
		fmt.Fprintf(b, "**Skipped:** %s\n\n", strings.Join(sol.Skipped, ", "))
	}
	var judges []string
	for _, s := range r.seats {
		j := s.label()
		if s.self {
			j += " ⚠ graded its own model's work"
		}
		if !s.live {
			j += " — dropped"
		}
		judges = append(judges, j)
	}
	fmt.Fprintf(b, "**Judges:** %s\n\n", strings.Join(judges, ", "))
	var crit []string
	for i, c := range r.cfg.Criteria {
		crit = append(crit, fmt.Sprintf("%s %s%%", c.Name, trimFloat(Share(r.cfg.Criteria, i))))
	}
	fmt.Fprintf(b, "**Criteria:** %s", strings.Join(crit, ", "))
	if n := NormaliseNote(r.cfg.Criteria); n != "" {
		fmt.Fprintf(b, " (%s)", n)
	}
	b.WriteString("\n\n")
}

// finalTable: each live judge and the final average per criterion.
func (r *run) finalTable(b *strings.Builder, last Check, withFinal bool) {
	live := r.live()
	cs := r.cfg.Criteria
	b.WriteString("| Criterion | Weight |")
	for _, s := range live {
		fmt.Fprintf(b, " %s |", s.name)
	}
	if withFinal {
		b.WriteString(" Final |")
	}
	b.WriteString("\n|---|---|" + strings.Repeat("---|", len(live)))
	if withFinal {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for i, c := range cs {
		fmt.Fprintf(b, "| %s | %s%% |", c.Name, trimFloat(Share(cs, i)))
		sum := 0
		for _, s := range live {
			v := s.ints(cs)[i]
			sum += v
			fmt.Fprintf(b, " %d/5 |", v)
		}
		if withFinal {
			fmt.Fprintf(b, " %.1f/5 |", float64(sum)/float64(len(live)))
		}
		b.WriteString("\n")
	}
	b.WriteString("| **Overall (weighted, by arena)** | |")
	for i := range live {
		fmt.Fprintf(b, " %.2f |", last.Overall[i])
	}
	if withFinal {
		fmt.Fprintf(b, " **%.2f** |", last.overall())
	}
	b.WriteString("\n\n")
}

func (r *run) consensusDoc(b *strings.Builder, kind engine.OutcomeKind, last Check, rec string) {
	title := "consensus"
	if kind == OutcomeBelowMin {
		title = "consensus, below the minimum score"
	}
	r.head(b, title)
	b.WriteString("## Consensus Scores\n\n")
	r.finalTable(b, last, true)
	fmt.Fprintf(b, "**Consensus Overall Score:** %.2f/5.0\n\n", last.overall())
	if kind == OutcomeBelowMin {
		fmt.Fprintf(b, "> ⚠ **Below the minimum score:** %.2f is below --min-score %s.\n\n", last.overall(), trimFloat(r.cfg.MinScore))
	}
	r.agreement(b)
	syn := r.synthesis
	if syn != nil {
		list(b, "## Consensus Strengths", syn.Strengths)
		list(b, "## Consensus Weaknesses", syn.Weaknesses)
	} else {
		b.WriteString("## Consensus Strengths and Weaknesses\n\nThe synthesis failed; each judge's own lists are in its report below.\n\n")
	}
	b.WriteString("## Debate Summary\n\n")
	fmt.Fprintf(b, "- Rounds to consensus: %d\n", r.round)
	gaps := r.gaps()
	if len(gaps) == 0 {
		b.WriteString("- Initial disagreements: none of more than one point\n")
	} else {
		b.WriteString("- Initial disagreements:\n")
		for _, g := range gaps {
			fmt.Fprintf(b, "  - %s\n", g.words(r.cfg.Criteria))
		}
		b.WriteString("- How resolved:\n")
		for _, i := range gapCriteria(gaps) {
			fmt.Fprintf(b, "  - **%s:** %s\n", r.cfg.Criteria[i].Name, r.howResolved(i))
		}
	}
	b.WriteString("\n## Final Recommendation\n\n")
	fmt.Fprintf(b, "**%s** — arena's rule: pass at an overall of %s or more, fail below 2.5, needs revision between; the overall is %.2f.\n\n",
		RecommendationWords(rec), trimFloat(r.passMark()), last.overall())
	if syn != nil {
		agree := "agrees"
		if syn.Recommendation != rec {
			agree = "differs"
		}
		fmt.Fprintf(b, "The panel's synthesis recommends **%s** (it %s): %s\n\n", RecommendationWords(syn.Recommendation), agree, syn.Justification)
	}
}

func gapCriteria(gaps []gap) []int {
	var out []int
	for _, g := range gaps {
		if len(out) == 0 || out[len(out)-1] != g.criterion {
			out = append(out, g.criterion)
		}
	}
	return out
}

// howResolved tells how a criterion's disagreement ended: each judge's
// score changes with their stated reasons, and the synthesis's account.
func (r *run) howResolved(i int) string {
	cs := r.cfg.Criteria
	var parts []string
	for _, s := range r.live() {
		if s.initial == nil {
			continue
		}
		now := s.ints(cs)[i]
		if now == s.initial[i] {
			continue
		}
		p := fmt.Sprintf("%s %d → %d", s.name, s.initial[i], now)
		for _, d := range s.rounds {
			for _, ch := range d.Changes {
				if j, ok := matchCriterion(cs, ch.Criterion); ok && j == i && ch.Reason != "" {
					p += " (" + ch.Reason + ")"
				}
			}
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		parts = append(parts, "no judge changed its score")
	}
	if r.synthesis != nil {
		for _, res := range r.synthesis.Resolutions {
			if j, ok := matchCriterion(cs, res.Criterion); ok && j == i {
				parts = append(parts, "panel: "+res.HowResolved)
			}
		}
	}
	return strings.Join(parts, "; ")
}

// agreement shows Krippendorff's alpha before and after the debate.
func (r *run) agreement(b *strings.Builder) {
	var before, after [][]int
	for _, s := range r.live() {
		if s.initial != nil {
			before = append(before, s.initial)
			after = append(after, s.ints(r.cfg.Criteria))
		}
	}
	a0, ok0 := Alpha(before)
	a1, ok1 := Alpha(after)
	words := func(a float64, ok bool) string {
		if !ok {
			return "undefined (every score the same)"
		}
		return fmt.Sprintf("%.2f", a)
	}
	b.WriteString("## Agreement\n\n")
	fmt.Fprintf(b, "Krippendorff's alpha (interval) over the criterion scores of the judges who finished, computed by arena: **%s** after the independent analysis", words(a0, ok0))
	if r.round > 0 {
		fmt.Fprintf(b, ", **%s** after the debate", words(a1, ok1))
	}
	b.WriteString(". 1 is perfect agreement, 0 no better than chance.\n\n")
}

func (r *run) noConsensusDoc(b *strings.Builder, last Check) {
	r.head(b, "no consensus — human review needed")
	fmt.Fprintf(b, "> ⚠ **HUMAN REVIEW NEEDED:** the judges did not reach consensus after %s; automated evaluation could not settle the score.\n\n", engine.Plural(r.round, "debate round"))
	b.WriteString("## Final Scores of Each Judge\n\n")
	r.finalTable(b, last, false)
	b.WriteString("## What Failed\n\n")
	for _, f := range last.Fails {
		fmt.Fprintf(b, "- %s\n", f)
	}
	b.WriteString("\n## Criteria Still Apart\n\n")
	if len(last.Apart) == 0 {
		b.WriteString("None more than one point apart; see above for what failed.\n\n")
	}
	for _, name := range last.Apart {
		i, _ := matchCriterion(r.cfg.Criteria, name)
		var who []string
		for _, s := range r.live() {
			who = append(who, fmt.Sprintf("%s %d", s.name, s.ints(r.cfg.Criteria)[i]))
		}
		fmt.Fprintf(b, "### %s: %s\n\n", name, strings.Join(who, ", "))
		for _, s := range r.live() {
			if len(s.rounds) == 0 {
				continue
			}
			for _, x := range s.rounds[len(s.rounds)-1].Disagreements {
				if j, ok := matchCriterion(r.cfg.Criteria, x.Criterion); ok && j == i && x.Defense != "" {
					fmt.Fprintf(b, "- %s (%d, against %s's %d): %s\n", s.name, x.Mine, x.Judge, x.Theirs, x.Defense)
				}
			}
		}
		b.WriteString("\n")
	}
	r.agreement(b)
}

func (r *run) stoppedDoc(b *strings.Builder, title, summary string) {
	r.head(b, title)
	fmt.Fprintf(b, "**%s.**\n\n", summary)
	if len(r.checks) > 0 {
		b.WriteString("## Scores So Far\n\n")
		r.finalTable(b, r.checks[len(r.checks)-1], false)
	}
}

// appendix closes every document: the flags, the failures, and each
// judge's full report.
func (r *run) appendix(b *strings.Builder) {
	if len(r.notes) > 0 {
		b.WriteString("## Flags\n\n")
		for _, n := range r.notes {
			fmt.Fprintf(b, "- ⚠ %s\n", n)
		}
		b.WriteString("\n")
	}
	if len(r.failures) > 0 {
		b.WriteString("## Failures\n\n")
		for _, f := range r.failures {
			fmt.Fprintf(b, "- ✗ %s\n", f)
		}
		b.WriteString("\n")
	}
	if len(r.saved) > 0 {
		b.WriteString("## Report Files\n\n")
		for _, s := range r.saved {
			fmt.Fprintf(b, "- %s: `%s`\n", s.What, s.Path)
		}
		b.WriteString("\n")
	}
	for _, s := range r.seats {
		if s.body.Len() == 0 {
			continue
		}
		fmt.Fprintf(b, "---\n\n## Report of %s\n\n", s.label())
		b.WriteString(demote(s.body.String()))
		b.WriteString("\n")
	}
}

// demote puts a report's headings two levels down, under the outcome
// document's "## Report of Judge N".
func demote(md string) string {
	lines := strings.Split(md, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "#") {
			lines[i] = "##" + l
		}
	}
	return strings.Join(lines, "\n")
}

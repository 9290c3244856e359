package judge

import (
	"fmt"
	"strings"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/doc"
)

// The judges' reports (one per judge, a section per round, as the seed
// lays them out) and the outcome document.

// finding is a quote a judge gave, as arena checked it: where in the
// solution it is, or flagged as not there.
func finding(c Corpus, files []engine.Doc, about, q string) doc.Finding {
	f := doc.Finding{About: about, Quote: q}
	if !c.QuoteFound(q) {
		f.Flag = "not found in the solution"
		return f
	}
	f.File, f.Line = engine.Locate(files, q)
	return f
}

// analysisSections are a judge's independent analysis, as its report
// reads.
func analysisSections(cs []Criterion, s *seat, a Analysis, corpus Corpus, files []engine.Doc) []doc.Section {
	head := doc.Section{Heading: s.name + ": independent analysis"}
	if s.self {
		head.Blocks = append(head.Blocks, doc.Block{Notice: &doc.Notice{Label: "Self-preference",
			Text: fmt.Sprintf("%s is %s, the agent that wrote this solution: this judge graded its own model's work.", s.name, s.agent.Name)}})
	}
	overall := fmt.Sprintf("**Weighted overall (computed by arena):** %.2f/5.0", Weighted(cs, ScoresOf(cs, a.Scores)))
	if a.Overall != nil {
		overall += fmt.Sprintf(" (the judge's own total, not used: %s)", trimFloat(*a.Overall))
	}
	head.Blocks = append(head.Blocks, scoreTable(cs, a.Scores), doc.Para(overall))
	out := []doc.Section{head}
	for _, sc := range a.Scores {
		sec := doc.Section{Heading: fmt.Sprintf("%s — %d/5", sc.Criterion, sc.Score), Depth: 1}
		if sc.Justification != "" {
			sec.Blocks = append(sec.Blocks, doc.Para(sc.Justification))
		}
		if len(sc.Evidence) == 0 {
			sec.Blocks = append(sec.Blocks, doc.Para("Evidence: none quoted."))
		} else {
			ev := &doc.Findings{Intro: "Evidence:"}
			for _, q := range sc.Evidence {
				ev.Items = append(ev.Items, finding(corpus, files, "", q))
			}
			sec.Blocks = append(sec.Blocks, doc.Block{Findings: ev})
		}
		out = append(out, sec)
	}
	out = append(out, listSection("Strengths", 1, a.Strengths), listSection("Weaknesses", 1, a.Weaknesses))
	if len(a.Verification) > 0 {
		var items []doc.Item
		for _, v := range a.Verification {
			changed := "no change"
			if v.Changed {
				changed = "score revised"
			}
			items = append(items, doc.Item{Text: fmt.Sprintf("**%s** %s (%s)", v.Question, v.Answer, changed)})
		}
		out = append(out, doc.Section{Heading: "Verification", Depth: 1, Blocks: []doc.Block{doc.Numbered(items...)}})
	}
	return out
}

func scoreTable(cs []Criterion, ss []Score) doc.Block {
	var rows [][]string
	for i, c := range cs {
		rows = append(rows, []string{c.Name, trimFloat(Share(cs, i)) + "%", fmt.Sprintf("%d/5", ss[i].Score)})
	}
	return doc.TableOf([]string{"Criterion", "Weight", "Score"}, rows)
}

// listSection is a section listing items, or saying none was named.
func listSection(heading string, depth int, items []string) doc.Section {
	sec := doc.Section{Heading: heading, Depth: depth}
	if len(items) == 0 {
		sec.Blocks = []doc.Block{doc.Para("None named.")}
	} else {
		sec.Blocks = []doc.Block{doc.Bullets("", items...)}
	}
	return sec
}

// debateSections are what a debate round adds to a judge's report.
func debateSections(cs []Criterion, round int, s *seat, d Debate, prev []int, unexplained []string, corpus Corpus, files []engine.Doc) []doc.Section {
	dis := doc.Section{Heading: "Disagreements Identified", Depth: 2}
	if len(d.Disagreements) == 0 {
		dis.Blocks = append(dis.Blocks, doc.Para("None named."))
	}
	for _, x := range d.Disagreements {
		items := []string{fmt.Sprintf("My score: %d/5", x.Mine), fmt.Sprintf("Their score: %d/5", x.Theirs)}
		if x.Defense != "" {
			items = append(items, "My defense: "+x.Defense)
		}
		if x.Challenge != "" {
			items = append(items, "My challenge: "+x.Challenge)
		}
		dis.Blocks = append(dis.Blocks, doc.Bullets(fmt.Sprintf("**Disagreement with %s on Criterion \"%s\"**", x.Judge, x.Criterion), items...))
	}
	rev := doc.Section{Heading: "Revised Assessment", Depth: 2}
	cur := ScoresOf(cs, d.Scores)
	var items []doc.Item
	for i, c := range cs {
		it := doc.Item{Label: fmt.Sprintf("Criterion \"%s\"", c.Name), Text: fmt.Sprintf("Maintained %d/5", cur[i])}
		if prev[i] != cur[i] {
			it.Text = fmt.Sprintf("Revised from %d to %d/5", prev[i], cur[i])
			for _, ch := range d.Changes {
				if j, ok := matchCriterion(cs, ch.Criterion); ok && j == i && ch.Reason != "" {
					it.Items = append(it.Items, "Reason for change: "+ch.Reason)
				}
			}
		}
		items = append(items, it)
	}
	rev.Blocks = append(rev.Blocks, doc.ListOf("", items...))
	for _, u := range unexplained {
		rev.Blocks = append(rev.Blocks, doc.Warn("Sycophancy guard", fmt.Sprintf("%s changed %s.", s.name, u)))
	}
	accepts := "**Accepts the consensus:** " + yesNo(d.AcceptsConsensus)
	if len(d.AgreesWith) > 0 {
		accepts += "; agrees with " + strings.Join(d.AgreesWith, ", ")
	}
	rev.Blocks = append(rev.Blocks, doc.Para(fmt.Sprintf("**New Weighted Score (computed by arena)**: %.2f/5.0", Weighted(cs, cur))), doc.Para(accepts))
	ev := doc.Section{Heading: "Evidences", Depth: 2}
	var found []doc.Finding
	for _, sc := range d.Scores {
		for _, q := range sc.Evidence {
			found = append(found, finding(corpus, files, sc.Criterion, q))
		}
	}
	for _, ch := range d.Changes {
		for _, q := range ch.Evidence {
			found = append(found, finding(corpus, files, ch.Criterion+" (change)", q))
		}
	}
	if len(found) == 0 {
		ev.Blocks = []doc.Block{doc.Para("None quoted.")}
	} else {
		ev.Blocks = []doc.Block{{Findings: &doc.Findings{Items: found}}}
	}
	// Under the report's one title, as the seed lays a round out.
	return []doc.Section{{Heading: fmt.Sprintf("Debate Round %d", round), Depth: 1}, dis, rev, ev}
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
	d := doc.Document{Title: "Judging outcome"}
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
		r.consensusDoc(&d, kind, last, rec)
	case OutcomeNoConsensus:
		o.Stance = engine.StanceDisagree
		o.Summary = fmt.Sprintf("No consensus after %s (%s): human review needed", engine.Plural(r.round, "debate round"), strings.Join(last.Fails, "; "))
		r.noConsensusDoc(&d, last)
	case engine.OutcomeInterrupted:
		o.Stance = engine.StanceNeutral
		o.Where = r.where()
		o.Summary = "Interrupted " + o.Where
		r.stoppedDoc(&d, "interrupted")
	default:
		o.Stance = engine.StanceDisagree
		o.Summary = "Aborted " + r.where() + ": " + r.abort
		r.stoppedDoc(&d, "aborted")
	}
	if sec := r.emitLedger(kind, last); sec != nil {
		d.Sections = append(d.Sections, *sec)
	}
	r.appendix(&d)
	o.Document = &d
	return o
}

// keepCopy copies the outcome document, whole as engine.Run closed it,
// to the reports directory beside the judges' reports.
func (r *run) keepCopy(out engine.Outcome) {
	if path, err := r.cfg.Reports.Outcome(out.Markdown); err != nil {
		r.rt.Note(engine.NoteError, "could not copy the outcome document to the reports directory: %v", err)
	} else {
		r.rt.Bus.Emit(engine.Saved{What: "outcome copy", Path: path})
	}
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

func (r *run) head(d *doc.Document, result string) {
	d.Result = result
	d.Started("Task", engine.OneLine(r.cfg.Task, 300))
	sol := r.cfg.Solution
	var files []string
	for _, f := range sol.Files {
		files = append(files, fmt.Sprintf("`%s` (%d bytes)", f.Name, len(f.Content)))
	}
	d.Fact("Solution", strings.Join(files, ", "))
	if len(sol.Cut) > 0 {
		d.Fact("Cut to fit the prompt budget", strings.Join(sol.Cut, "; "))
	}
	if len(sol.Skipped) > 0 {
		// The run warned of them as it started.
		d.Facts = append(d.Facts, doc.Fact{Name: "Skipped", Value: strings.Join(sol.Skipped, ", "), Restates: &doc.Restates{Notes: true}})
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
	d.Fact("Judges", strings.Join(judges, ", "))
	var crit []string
	for i, c := range r.cfg.Criteria {
		crit = append(crit, fmt.Sprintf("%s %s%%", c.Name, trimFloat(Share(r.cfg.Criteria, i))))
	}
	criteria := strings.Join(crit, ", ")
	if n := NormaliseNote(r.cfg.Criteria); n != "" {
		criteria += " (" + n + ")"
	}
	d.Started("Criteria", criteria)
}

// finalTable: each live judge and the final average per criterion.
func (r *run) finalTable(last Check, withFinal bool) doc.Block {
	live := r.live()
	cs := r.cfg.Criteria
	cols := []string{"Criterion", "Weight"}
	for _, s := range live {
		cols = append(cols, s.name)
	}
	if withFinal {
		cols = append(cols, "Final")
	}
	var rows [][]string
	for i, c := range cs {
		row := []string{c.Name, trimFloat(Share(cs, i)) + "%"}
		sum := 0
		for _, s := range live {
			v := s.ints(cs)[i]
			sum += v
			row = append(row, fmt.Sprintf("%d/5", v))
		}
		if withFinal {
			row = append(row, fmt.Sprintf("%.1f/5", float64(sum)/float64(len(live))))
		}
		rows = append(rows, row)
	}
	overall := []string{"**Overall (weighted, by arena)**", ""}
	for i := range live {
		overall = append(overall, fmt.Sprintf("%.2f", last.Overall[i]))
	}
	if withFinal {
		overall = append(overall, fmt.Sprintf("**%.2f**", last.overall()))
	}
	return doc.TableOf(cols, append(rows, overall))
}

func (r *run) consensusDoc(d *doc.Document, kind engine.OutcomeKind, last Check, rec string) {
	title := "consensus"
	if kind == OutcomeBelowMin {
		title = "consensus, below the minimum score"
	}
	r.head(d, title)
	scores := []doc.Block{r.finalTable(last, true), doc.Para(fmt.Sprintf("**Consensus Overall Score:** %.2f/5.0", last.overall()))}
	if kind == OutcomeBelowMin {
		scores = append(scores, doc.Warn("Below the minimum score", fmt.Sprintf("%.2f is below --min-score %s.", last.overall(), trimFloat(r.cfg.MinScore))))
	}
	d.Add("Consensus Scores", scores...)
	r.agreement(d)
	if syn := r.synthesis; syn != nil {
		// The synthesis streamed as the first live judge's reply.
		said := &doc.Restates{Seats: []string{r.live()[0].name}}
		strengths, weaknesses := listSection("Consensus Strengths", 0, syn.Strengths), listSection("Consensus Weaknesses", 0, syn.Weaknesses)
		strengths.Restates, weaknesses.Restates = said, said
		d.Sections = append(d.Sections, strengths, weaknesses)
	} else {
		d.Add("Consensus Strengths and Weaknesses", doc.Para("The synthesis failed; each judge's own lists are in its report below."))
	}
	summary := []doc.Item{{Text: fmt.Sprintf("Rounds to consensus: %d", r.round)}}
	gaps := r.gaps()
	if len(gaps) == 0 {
		summary = append(summary, doc.Item{Text: "Initial disagreements: none of more than one point"})
	} else {
		initial := doc.Item{Text: "Initial disagreements:"}
		for _, g := range gaps {
			initial.Items = append(initial.Items, g.words(r.cfg.Criteria))
		}
		resolved := doc.Item{Text: "How resolved:"}
		for _, i := range gapCriteria(gaps) {
			resolved.Items = append(resolved.Items, "**"+r.cfg.Criteria[i].Name+":** "+r.howResolved(i))
		}
		summary = append(summary, initial, resolved)
	}
	d.Add("Debate Summary", doc.ListOf("", summary...))
	final := []doc.Block{doc.Para(fmt.Sprintf("**%s** — arena's rule: pass at an overall of %s or more, fail below 2.5, needs revision between; the overall is %.2f.",
		RecommendationWords(rec), trimFloat(r.passMark()), last.overall()))}
	if syn := r.synthesis; syn != nil {
		agree := "agrees"
		if syn.Recommendation != rec {
			agree = "differs"
		}
		final = append(final, doc.Para(fmt.Sprintf("The panel's synthesis recommends **%s** (it %s): %s", RecommendationWords(syn.Recommendation), agree, syn.Justification)))
	}
	d.Add("Final Recommendation", final...)
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
func (r *run) agreement(d *doc.Document) {
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
	text := fmt.Sprintf("Krippendorff's alpha (interval) over the criterion scores of the judges who finished, computed by arena: **%s** after the independent analysis", words(a0, ok0))
	if r.round > 0 {
		text += fmt.Sprintf(", **%s** after the debate", words(a1, ok1))
	}
	d.Add("Agreement", doc.Para(text+". 1 is perfect agreement, 0 no better than chance."))
}

func (r *run) noConsensusDoc(d *doc.Document, last Check) {
	r.head(d, "no consensus — human review needed")
	d.Notices = append(d.Notices, doc.Notice{Label: "HUMAN REVIEW NEEDED", Warning: true,
		Text: fmt.Sprintf("the judges did not reach consensus after %s; automated evaluation could not settle the score.", engine.Plural(r.round, "debate round"))})
	d.Add("Final Scores of Each Judge", r.finalTable(last, false))
	d.Add("What Failed", doc.Bullets("", last.Fails...))
	apart := doc.Section{Heading: "Criteria Still Apart"}
	if len(last.Apart) == 0 {
		apart.Blocks = []doc.Block{doc.Para("None more than one point apart; see above for what failed.")}
	}
	d.Sections = append(d.Sections, apart)
	for _, name := range last.Apart {
		i, _ := matchCriterion(r.cfg.Criteria, name)
		var who, defenses []string
		for _, s := range r.live() {
			who = append(who, fmt.Sprintf("%s %d", s.name, s.ints(r.cfg.Criteria)[i]))
			if len(s.rounds) == 0 {
				continue
			}
			for _, x := range s.rounds[len(s.rounds)-1].Disagreements {
				if j, ok := matchCriterion(r.cfg.Criteria, x.Criterion); ok && j == i && x.Defense != "" {
					defenses = append(defenses, fmt.Sprintf("%s (%d, against %s's %d): %s", s.name, x.Mine, x.Judge, x.Theirs, x.Defense))
				}
			}
		}
		sec := doc.Section{Heading: name + ": " + strings.Join(who, ", "), Depth: 1}
		if len(defenses) > 0 {
			sec.Blocks = []doc.Block{doc.Bullets("", defenses...)}
		}
		d.Sections = append(d.Sections, sec)
	}
	r.agreement(d)
}

// stoppedDoc is a stopped judging's document: the scores so far; its
// summary says where it stopped.
func (r *run) stoppedDoc(d *doc.Document, result string) {
	r.head(d, result)
	if len(r.checks) > 0 {
		d.Add("Scores So Far", r.finalTable(r.checks[len(r.checks)-1], false))
	}
}

// appendix closes every document: the flags, the failures, and each
// judge's full report.
func (r *run) appendix(d *doc.Document) {
	if len(r.notes) > 0 {
		var flags []string
		for _, n := range r.notes {
			flags = append(flags, "⚠ "+n)
		}
		d.Sections = append(d.Sections, doc.Section{Heading: "Flags", Restates: &doc.Restates{Notes: true}, Blocks: []doc.Block{doc.Bullets("", flags...)}})
	}
	if len(r.failures) > 0 {
		var fails []string
		for _, f := range r.failures {
			fails = append(fails, "✗ "+f)
		}
		d.Add("Failures", doc.Bullets("", fails...))
	}
	if len(r.saved) > 0 {
		var files []string
		for _, s := range r.saved {
			files = append(files, fmt.Sprintf("%s: `%s`", s.What, s.Path))
		}
		d.Add("Report Files", doc.Bullets("", files...))
	}
	for _, s := range r.seats {
		if len(s.report) == 0 {
			continue
		}
		d.Sections = append(d.Sections, doc.Section{Heading: "Report of " + s.label(), Restates: &doc.Restates{Seats: []string{s.name}}})
		d.Sections = append(d.Sections, doc.Under(s.report, 1)...)
	}
}

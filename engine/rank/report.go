package rank

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/doc"
	"github.com/arenadebate/arena/engine/rank/facts"
	"github.com/arenadebate/arena/engine/receipt"
)

// ReportVersion is the version of the JSON report's shape.
//
// 1.1.0: each judge is asked in several orders; a dimension's score is the
// mean over them (a number, no longer a whole one), with the order
// receipts, the orders, and each order's score.
const ReportVersion = "1.1.0"

// Report is the JSON report, in the seed's shape with what arena adds:
// who judged, in which order, what was left out and why, and what the
// fact checks changed.
type Report struct {
	Version   string       `json:"version"`
	CreatedAt time.Time    `json:"created_at"`
	Result    string       `json:"result"`
	SpecFile  string       `json:"spec_file"`
	Repos     []ReportRepo `json:"repos"`
	Weights   Weights      `json:"weights"`
	// Scores maps each judged repository's label to its scores per
	// dimension and "weighted_total".
	Scores  map[string]RepoScores `json:"scores"`
	Ranking []string              `json:"ranking"`
	Places  []Place               `json:"places"`
	Verdict string                `json:"verdict"`
	// VerdictBy is the agent that wrote the verdict, or "arena".
	VerdictBy string               `json:"verdict_by"`
	Judges    map[string]JudgeInfo `json:"judges"`
	NotJudged map[string]string    `json:"not_judged,omitempty"`
	LeftOut   map[string]string    `json:"dimensions_left_out,omitempty"`
	Checks    map[string][]string  `json:"fact_checks,omitempty"`
	Facts     map[string]*Facts    `json:"facts"`
	Notes     []string             `json:"notes,omitempty"`
	Seed      uint64               `json:"judge_order_seed"`
	// Orders is how many orders each judge was asked in; Receipts say,
	// per dimension and pair, whether the preference held in all of them.
	Orders int `json:"orders"`
	// Repeats is how many times each order was asked (--repeats): the
	// receipts count every reading, and order_receipt_tally the repeats
	// apart.
	Repeats      int      `json:"repeats,omitempty"`
	Receipts     []string `json:"order_receipts,omitempty"`
	ReceiptTally string   `json:"order_receipt_tally,omitempty"`
	// SavedTo is where the report was saved ("" when it was not).
	SavedTo string `json:"-"`
}

// ReportRepo is one repository as measured.
type ReportRepo struct {
	Label        string         `json:"label"`
	Path         string         `json:"path"`
	Branch       string         `json:"branch"`
	Base         string         `json:"base"`
	GitHead      string         `json:"git_head"`
	FilesChanged int            `json:"files_changed"`
	Additions    int            `json:"additions"`
	Deletions    int            `json:"deletions"`
	TestResults  *facts.TestRun `json:"test_results,omitempty"`
	Agent        string         `json:"fact_agent"`
	Judged       bool           `json:"judged"`
}

// DimScore is one score with its reasons: the mean of the judge's scores
// over the orders, levelled with another repository's where the judge's
// preference between them changed with the order; the justification and
// evidence of the first order.
type DimScore struct {
	Score         float64  `json:"score"`
	Justification string   `json:"justification"`
	Evidence      []string `json:"evidence,omitempty"`
	// ByOrder is the judge's score in each order.
	ByOrder  []int `json:"by_order,omitempty"`
	Levelled bool  `json:"levelled,omitempty"`
}

// RepoScores is a repository's scores by dimension, and its total.
type RepoScores struct {
	Dims          map[Dimension]DimScore
	WeightedTotal float64
}

// MarshalJSON writes the seed's flat object: each dimension, then
// "weighted_total".
func (r RepoScores) MarshalJSON() ([]byte, error) {
	m := map[string]any{"weighted_total": r.WeightedTotal}
	for d, s := range r.Dims {
		m[string(d)] = s
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads it back.
func (r *RepoScores) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	r.Dims = map[Dimension]DimScore{}
	for k, v := range m {
		if k == "weighted_total" {
			if err := json.Unmarshal(v, &r.WeightedTotal); err != nil {
				return err
			}
			continue
		}
		var s DimScore
		if err := json.Unmarshal(v, &s); err != nil {
			return err
		}
		r.Dims[Dimension(k)] = s
	}
	return nil
}

// JudgeInfo is who judged a dimension and the order it saw.
type JudgeInfo struct {
	Agent string `json:"agent"`
	// Order is the labels in the order the judge saw them first, as A,
	// B, ...; Orders every order it was asked in.
	Order  []string   `json:"order"`
	Orders [][]string `json:"orders,omitempty"`
	// Ranking is the judge's own ranking (arena ranks by the totals).
	Ranking []string `json:"ranking,omitempty"`
	Failed  string   `json:"failed,omitempty"`
}

// finish builds the report and the outcome. verdict is "text\x00by", ""
// when the run stopped before the verdict.
func (p *Protocol) finish(s *state, ctx context.Context, places []Place, verdict string) engine.Outcome {
	cfg := s.cfg
	s.rt.Bus.Emit(engine.PhaseStarted{Phase: engine.PhaseOutcome, Title: "Outcome"})
	rep := &Report{
		Version: ReportVersion, CreatedAt: cfg.Now().UTC().Truncate(time.Second), SpecFile: cfg.Spec.Name,
		Weights: cfg.Weights, Scores: map[string]RepoScores{}, Judges: map[string]JudgeInfo{},
		Facts: map[string]*Facts{}, Seed: cfg.Seed, Notes: cfg.Notes, Ranking: []string{},
		Orders: cfg.orders(len(s.judged())), Repeats: cfg.repeats(),
	}
	if places != nil && rep.Orders*rep.Repeats > 1 {
		var tally receipt.Tally
		rep.Receipts, _, tally = s.receiptLines()
		rep.ReceiptTally = tally.Words()
	}
	rep.addRepos(s, places != nil)
	rep.addJudges(s)
	rep.addPlaces(s, places)
	if places != nil {
		s.rt.Bus.Emit(s.placed(places))
	}
	if text, by, ok := strings.Cut(verdict, "\x00"); ok {
		rep.Verdict, rep.VerdictBy = text, by
	}
	out := outcomeOf(s, ctx, places)
	rep.Result = string(out.Result)
	var judges []string // the dimension judges' seats, whose replies the stream showed
	for _, res := range s.dims {
		for _, rd := range res.readings {
			judges = append(judges, rd.seat)
		}
	}
	sort.Strings(judges)
	d := rep.Document(judges)
	out.Document = &d
	if cfg.SaveReport != nil && out.Result != engine.OutcomeInterrupted {
		rep.save(s)
	}
	p.mu.Lock()
	p.report = rep
	p.mu.Unlock()
	return out
}

// addRepos records each repository: what arena measured, the facts its
// seat gave, what the checks changed, and why it was not judged.
func (rep *Report) addRepos(s *state, ranked bool) {
	for i, r := range s.cfg.Repos {
		rep.Repos = append(rep.Repos, ReportRepo{
			Label: r.Label, Path: r.Path, Branch: r.Git.Branch, Base: r.Git.Base, GitHead: r.Git.Head,
			FilesChanged: r.Git.FilesChanged, Additions: r.Git.Additions, Deletions: r.Git.Deletions,
			TestResults: s.tests[i], Agent: r.Agent.Name, Judged: s.facts[i] != nil && ranked,
		})
		if s.facts[i] != nil {
			rep.Facts[r.Label] = s.facts[i]
		}
		if len(s.checks[i]) > 0 {
			if rep.Checks == nil {
				rep.Checks = map[string][]string{}
			}
			rep.Checks[r.Label] = s.checks[i]
		}
		if why, ok := s.notJudge[i]; ok {
			if rep.NotJudged == nil {
				rep.NotJudged = map[string]string{}
			}
			rep.NotJudged[r.Label] = why
		}
	}
}

// addJudges records each dimension judge: its agent, the order it saw the
// repositories in, its ranking, or why it failed.
func (rep *Report) addJudges(s *state) {
	for _, d := range s.cfg.Weights.Active() {
		ji := JudgeInfo{Agent: s.cfg.Judges[d].Name}
		if why, ok := s.leftOut[d]; ok {
			ji.Failed = why
			if rep.LeftOut == nil {
				rep.LeftOut = map[string]string{}
			}
			rep.LeftOut[string(d)] = why
		}
		if res := s.dims[d]; res != nil {
			for _, i := range res.order {
				ji.Order = append(ji.Order, s.cfg.Repos[i].Label)
			}
			for _, rd := range res.readings {
				var o []string
				for _, i := range rd.order {
					o = append(o, s.cfg.Repos[i].Label)
				}
				ji.Orders = append(ji.Orders, o)
			}
			for _, i := range res.rank {
				ji.Ranking = append(ji.Ranking, s.cfg.Repos[i].Label)
			}
		}
		rep.Judges[string(d)] = ji
	}
}

// addPlaces records the ranking and every repository's scores.
func (rep *Report) addPlaces(s *state, places []Place) {
	for _, pl := range places {
		pl.Total = math.Round(pl.Total*100) / 100
		rep.Places = append(rep.Places, pl)
		rep.Ranking = append(rep.Ranking, pl.Label)
		rs := RepoScores{Dims: map[Dimension]DimScore{}, WeightedTotal: pl.Total}
		for d, res := range s.dims {
			first := res.scores[pl.Index]
			ds := DimScore{Score: math.Round(res.avg[pl.Index]*100) / 100, Justification: first.Justification, Evidence: first.Evidence}
			for _, rd := range res.readings {
				ds.ByOrder = append(ds.ByOrder, rd.scores[pl.Index].Score)
			}
			ds.Levelled = slices.ContainsFunc(res.levelled, func(g []int) bool { return slices.Contains(g, pl.Index) })
			rs.Dims[d] = ds
		}
		rep.Scores[pl.Label] = rs
	}
}

// outcomeOf is how the ranking ended.
func outcomeOf(s *state, ctx context.Context, places []Place) engine.Outcome {
	out := engine.Outcome{Failures: s.failures}
	switch {
	case ctx.Err() != nil:
		out.Result, out.Stance = engine.OutcomeInterrupted, engine.StanceDisagree
		out.Where = "before the ranking was complete"
		out.Summary = "ranking interrupted before it was complete"
	case places == nil:
		out.Result, out.Stance = engine.OutcomeAborted, engine.StanceDisagree
		out.Summary = "ranking aborted: " + abortWhy(s)
	default:
		out.Result, out.Stance = OutcomeRanked, engine.StanceAgree
		if len(Winners(places)) > 1 {
			out.Result, out.Stance = OutcomeTie, engine.StancePartial
		} else if len(s.failures) > 0 {
			out.Stance = engine.StancePartial
		}
		out.Summary = rankingWords(places)
	}
	return out
}

// save saves the JSON report through the command's sink, and says where.
func (rep *Report) save(s *state) {
	data, err := json.MarshalIndent(rep, "", "  ")
	var path string
	data = append(data, '\n')
	if err == nil {
		path, err = s.cfg.SaveReport(data)
	}
	if err != nil {
		s.rt.Note(engine.NoteError, "could not save the JSON report: %v", err)
		return
	}
	rep.SavedTo = path
	sum := sha256.Sum256(data)
	s.rt.Bus.Emit(engine.Saved{What: WhatReport, Path: path, SHA256: hex.EncodeToString(sum[:])})
}

func abortWhy(s *state) string {
	if len(s.judged()) == 0 {
		return "no repository's facts could be gathered"
	}
	return "every dimension judge failed"
}

// titleWords are what the document's title says of the outcome: who
// came first ("# Ranking: ranked" said nothing; issue 32, point 10), or
// that the run stopped.
func (r *Report) titleWords() string {
	var first []string
	for _, p := range r.Places {
		if p.Place == 1 {
			first = append(first, md(p.Label))
		}
	}
	switch {
	case len(first) == 1:
		return first[0] + " first"
	case len(first) > 1:
		return strings.Join(first, " and ") + " tied first"
	}
	return string(r.Result)
}

// Document is the outcome document: the scores table, the ranking, the
// verdict, and each dimension's justifications (which the seats of
// judges gave).
func (r *Report) Document(judges []string) doc.Document {
	d := doc.Document{Title: "Ranking", Result: r.titleWords()}
	d.Started("Spec", r.SpecFile)
	d.Fact("Repositories compared", strings.Join(r.labels(), ", "))
	var rows [][]string
	for _, rr := range r.Repos {
		rows = append(rows, []string{md(rr.Label), md(rr.Branch), md(rr.Base), short(rr.GitHead), fmt.Sprint(rr.FilesChanged), fmt.Sprint(rr.Additions), fmt.Sprint(rr.Deletions), testWords(rr.TestResults)})
	}
	d.Sections = append(d.Sections, doc.Section{ID: "measured", Heading: "Measured by arena", Restates: &doc.Restates{Tables: []string{"Measured by arena"}},
		Blocks: []doc.Block{doc.TableOf([]string{"Repository", "Branch", "Base", "HEAD", "Files", "+", "−", "Tests"}, rows)}})
	if len(r.Places) > 0 {
		r.scoresSection(&d)
		r.rankingSection(&d)
	}
	r.leftOutSection(&d)
	if len(r.Checks) > 0 {
		var checks []string
		for _, l := range sortedKeys(r.Checks) {
			for _, c := range r.Checks[l] {
				checks = append(checks, md(l)+": "+c)
			}
		}
		d.Add("Fact checks", doc.Para("Measured beats reported: what arena changed in the facts the models gave."), doc.Bullets("", checks...))
	}
	r.findingsSections(&d)
	if len(r.Notes) > 0 {
		d.Sections = append(d.Sections, doc.Section{Heading: "Notes", Restates: &doc.Restates{Notes: true}, Blocks: []doc.Block{doc.Bullets("", r.Notes...)}})
	}
	if len(r.Places) > 0 {
		r.justificationsSection(&d, judges)
	}
	return d
}

// findingsSections are, for each repository, what its fact seat found
// at places in its files, as the fact checks left them (Check: a file of
// the branch, a line within it): security findings as warnings, the
// rest (abstractions, defensive code, repeated test code, unused
// imports) as notes, each by the dimension it bears on.
func (r *Report) findingsSections(d *doc.Document) {
	for _, rr := range r.Repos {
		f := r.Facts[rr.Label]
		if f == nil {
			continue
		}
		var items []doc.Finding
		add := func(dim Dimension, level, issue, file string, line int) {
			file, line = splitPlace(file, line)
			fd := doc.Finding{About: string(dim), Issue: issue, File: file, Line: line, Level: level}
			if rr.Agent != "" {
				fd.By = []string{rr.Agent + " (fact seat)"}
			}
			items = append(items, fd)
		}
		for _, x := range f.Security.Findings {
			add(DimSecurity, doc.LevelWarning, x.Issue, x.File, x.Line)
		}
		for _, x := range f.Overengineering.Abstractions {
			add(DimOverengineering, doc.LevelNote, x.Issue, x.File, x.Line)
		}
		for _, x := range f.Overengineering.DefensiveCode {
			add(DimOverengineering, doc.LevelNote, x.Issue, x.File, x.Line)
		}
		for _, x := range f.Tests.DryViolations {
			add(DimTests, doc.LevelNote, x.Description, x.File, 0)
		}
		for _, u := range f.DeadCode.UnusedImports {
			if placeLike.MatchString(u) {
				add(DimDeadCode, doc.LevelNote, "unused import", u, 0)
			}
		}
		if len(items) == 0 {
			continue
		}
		// The fact seat's reply streamed them: a front end that showed
		// it may leave them out (the saved document, SARIF and the page
		// keep them).
		d.Sections = append(d.Sections, doc.Section{ID: doc.SectionFindings, Heading: "Findings in " + md(rr.Label), Restates: &doc.Restates{Seats: []string{FactSeat(rr.Label)}},
			Blocks: []doc.Block{{Findings: &doc.Findings{Intro: "What the fact seat found at places in " + md(rr.Label) + "'s files, as arena checked them (a file of the branch, a line within it):", Items: items}}}})
	}
}

// scoresSection is the table of every dimension's scores and the
// weighted totals, in ranking order.
func (r *Report) scoresSection(d *doc.Document) {
	cols := []string{"Dimension", "Weight"}
	for _, l := range r.Ranking {
		cols = append(cols, md(l))
	}
	sum := 0
	for _, dim := range r.Weights.Active() {
		sum += r.Weights[dim]
	}
	var rows [][]string
	for _, dim := range r.Weights.Active() {
		row := []string{dim.Title(), fmt.Sprintf("%d%%", int(math.Round(float64(r.Weights[dim])*100/float64(sum))))}
		for _, l := range r.Ranking {
			if s, ok := r.Scores[l].Dims[dim]; ok {
				lv := ""
				if s.Levelled {
					lv = " ⇄"
				}
				row = append(row, trimScore(s.Score)+lv)
			} else {
				row = append(row, "—")
			}
		}
		rows = append(rows, row)
	}
	total := []string{"**Weighted total**", ""}
	for _, l := range r.Ranking {
		total = append(total, fmt.Sprintf("**%.2f**", r.Scores[l].WeightedTotal))
	}
	d.Sections = append(d.Sections, doc.Section{ID: "scores", Heading: "Scores", Restates: &doc.Restates{Tables: []string{"Scores"}},
		Blocks: []doc.Block{doc.TableOf(cols, append(rows, total))}})
}

// rankingSection is the places, then the receipts and the verdict.
func (r *Report) rankingSection(d *doc.Document) {
	var places []doc.Item
	for _, p := range r.Places {
		name := md(p.Label)
		if p.Place == 1 {
			name = "**" + name + "**"
		}
		tie := ""
		if p.Tied {
			tie = " (tie)"
		}
		places = append(places, doc.Item{Text: fmt.Sprintf("%s (%.2f)%s", name, p.Total, tie)})
	}
	d.Add("Ranking", doc.Numbered(places...))
	receiptsSection(d, r)
	verdict := []doc.Block{doc.Para(r.Verdict)}
	if r.VerdictBy == "arena" {
		verdict = append(verdict, doc.Para("*(stated by arena: the verdict writer gave no usable verdict)*"))
	}
	d.Add("Verdict", verdict...)
}

// leftOutSection says which repositories were not judged and which
// dimensions count in no total, and why.
func (r *Report) leftOutSection(d *doc.Document) {
	if len(r.NotJudged) == 0 && len(r.LeftOut) == 0 {
		return
	}
	var items []string
	for _, l := range sortedKeys(r.NotJudged) {
		items = append(items, fmt.Sprintf("**%s** was not judged: its fact seat %s.", md(l), r.NotJudged[l]))
	}
	for _, dim := range r.Weights.Active() {
		if why, ok := r.LeftOut[string(dim)]; ok {
			items = append(items, fmt.Sprintf("**%s** is left out of every total: its judge failed (%s).", dim.Title(), why))
		}
	}
	d.Add("Left out", doc.Bullets("", items...))
}

// justificationsSection is every dimension judge's reasons and evidence.
func (r *Report) justificationsSection(d *doc.Document, judges []string) {
	d.Sections = append(d.Sections, doc.Section{Heading: "Detailed justifications", Restates: &doc.Restates{Seats: judges}})
	for _, dim := range r.Weights.Active() {
		ji := r.Judges[string(dim)]
		if ji.Failed != "" {
			continue
		}
		seen := []string{lettered(ji.Order)}
		for _, o := range ji.Orders[min(1, len(ji.Orders)):] {
			if l := lettered(o); !slices.Contains(seen, l) { // a repeat showed the same
				seen = append(seen, l)
			}
		}
		var items []doc.Item
		for _, l := range r.Ranking {
			s := r.Scores[l].Dims[dim]
			items = append(items, doc.Item{Label: md(l) + " — " + trimScore(s.Score) + "/5", Text: s.Justification, Items: s.Evidence})
		}
		d.Sections = append(d.Sections, doc.Section{Heading: fmt.Sprintf("%s (judged by %s; seen as %s)", dim.Title(), ji.Agent, strings.Join(seen, ", then as ")),
			Depth: 1, Blocks: []doc.Block{doc.ListOf("", items...)}})
	}
}

func (r *Report) labels() []string {
	var out []string
	for _, rr := range r.Repos {
		out = append(out, rr.Label)
	}
	return out
}

func lettered(order []string) string {
	var parts []string
	for i, l := range order {
		parts = append(parts, fmt.Sprintf("%c = %s", 'A'+i, l))
	}
	return strings.Join(parts, ", ")
}

// md keeps a label from reading as Markdown emphasis (a table's cells
// have their pipes escaped as they are drawn).
func md(s string) string { return strings.NewReplacer("*", "\\*", "_", "\\_").Replace(s) }

func sortedKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

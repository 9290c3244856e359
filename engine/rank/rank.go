// Package rank is the protocol that ranks two or more implementations of
// one specification: arena measures what it can (git figures, the
// repository's own tests), one fact seat per repository reports the rest
// without scoring, arena checks those facts against its measurements,
// five dimension judges score every repository under neutral letters in
// an order of their own, and arena computes the weighted totals and the
// ranking. A final call writes a verdict sentence that may not contradict
// the ranking.
package rank

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/seating"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/rank/facts"
	"github.com/arenadebate/arena/engine/receipt"
)

// Name is the protocol's name in logs and on the command line.
const Name = "rank"

// Title is how the protocol introduces itself.
const Title = "Rank implementations: measured facts → five dimension judges → arena's ranking"

// Noun is what a person calls one run of the protocol.
const Noun = "ranking"

// Seating is the protocol's section of the config file:
//
//	rank:
//	  facts: [claude, gemini]   # one per repository, in turn
//	  judges: {functionality: claude, security: codex}
//	  verdict: gemini
//	  test_command: make test
var Seating = func() seating.Plan {
	p := seating.Plan{Protocol: Name, Values: []string{"test_command"}}
	p.Seats = append(p.Seats, seating.Seat{Key: "facts", Label: "fact gatherer", Many: true})
	for _, d := range Dimensions {
		p.Seats = append(p.Seats, seating.Seat{Key: JudgeKey(d), Label: strings.ToLower(d.Title()) + " judge", Judging: true})
	}
	p.Seats = append(p.Seats, seating.Seat{Key: VerdictSeat, Label: "verdict writer", Judging: true})
	return p
}()

// The phases.
const (
	PhaseMeasure engine.Phase = "measure"
	PhaseFacts   engine.Phase = "facts"
	PhaseJudging engine.Phase = "judging"
	PhaseVerdict engine.Phase = "verdict"
)

// Phases is the protocol's phase order.
var Phases = []engine.PhaseInfo{
	{Phase: PhaseMeasure, Title: "Measured facts"},
	{Phase: PhaseFacts, Title: "Fact gathering"},
	{Phase: PhaseJudging, Title: "Dimension judges"},
	{Phase: PhaseVerdict, Title: "Verdict"},
	{Phase: engine.PhaseOutcome, Title: "Outcome"},
}

// What agents are asked for.
const (
	TaskFacts   engine.Task = "facts"
	TaskJudge   engine.Task = "judge"
	TaskVerdict engine.Task = "verdict"
)

// How a ranking ends, besides aborted and interrupted.
const (
	OutcomeRanked engine.OutcomeKind = "ranked" // one repository ranks first
	OutcomeTie    engine.OutcomeKind = "tie"    // several share first place
)

//go:embed prompts/*.tmpl
var promptFS embed.FS

var prompts = engine.NewPrompts(promptFS, "prompts/*.tmpl")

// Repo is one implementation under review.
type Repo struct {
	Label string
	Path  string // the root of its work tree
	// WorkDir is where its fact seat runs: a private copy of the branch's
	// tree without the configuration a model CLI would obey
	// (trust.ExportTree), never the repository itself ("": a scratch
	// directory).
	WorkDir string
	// LeftOut names what the copy left out, and why; CopyFiles and
	// CopyBytes are what it holds.
	LeftOut   []string
	CopyFiles int
	CopyBytes int64
	Git       facts.Git
	Diff      string   // against the merge base, within the budget
	DiffCut   []string // files the budget left out of Diff
	Agent     challengers.Agent
}

// TestRunner runs a repository's own tests (facts.Run in production).
type TestRunner func(ctx context.Context, r Repo) facts.TestRun

// Config is one ranking.
type Config struct {
	ID      string
	Spec    engine.Doc // Name as the user gave it
	Repos   []Repo
	Weights Weights
	Judges  map[Dimension]challengers.Agent
	Verdict challengers.Agent
	// Seed draws the order each judge sees the repositories in.
	Seed uint64
	// Orders is how many counterbalanced orders each dimension's judge is
	// asked in (0: DefaultOrders): the seeded order, its reverse, then
	// further ones (receipt.Orders). A preference that changes with the
	// order counts as a tie.
	Orders int
	// Repeats is how many times each order is asked (0 or 1: once): the
	// same prompt again, a seat and a call of its own, to tell a judge's
	// noise from its position bias (arena stats' repeat stability).
	Repeats int
	// RunTests is nil unless the person asked for the tests to be run.
	RunTests TestRunner
	Timeout  time.Duration // timeout_per_cli, for the record
	// Authors are the agents that wrote each repository ("" or nil: not
	// said); a judge's view of the facts never names them.
	Authors []string
	// Notes are said at the start and kept in the report (seats that
	// could not avoid an author's agent, ...).
	Notes []string
	// Lines says whether a file exists on a repository's branch and how
	// long it is (nil: facts.Lines at the branch's head).
	Lines func(r Repo, path string) (int, bool)
	// Now stamps the report (nil: time.Now).
	Now func() time.Time
	// SaveReport keeps the JSON report and says where (nil: not saved).
	// Protocols write no files; the command decides where it goes, and
	// the log records it in a Saved event.
	SaveReport func(data []byte) (string, error)
}

// WhatReport is how a Saved event names the JSON report.
const WhatReport = "JSON report"

// DefaultOrders is how many orders each judge is asked in by default.
const DefaultOrders = 2

// orders is how many orders each judge is asked in, for n repositories.
func (c Config) orders(n int) int {
	k := c.Orders
	if k <= 0 {
		k = DefaultOrders
	}
	return max(min(k, receipt.MaxOrders(n)), 1)
}

// repeats is how many times each judge is asked each order.
func (c Config) repeats() int { return max(c.Repeats, 1) }

// author is the agent that wrote repository i ("" when not said).
func (c Config) author(i int) string {
	if i < len(c.Authors) {
		return c.Authors[i]
	}
	return ""
}

// Protocol is a ranking, ready to run (engine.Run).
type Protocol struct {
	cfg    Config
	mu     sync.Mutex
	report *Report
}

// New returns the ranking of cfg. Each fact seat runs in its
// repository's private copy (Repo.WorkDir).
func New(cfg Config) *Protocol {
	for i := range cfg.Repos {
		r := &cfg.Repos[i]
		r.Agent = r.Agent.Clone()
		r.Agent.Dir = r.WorkDir
		if len(r.LeftOut) > 0 {
			cfg.Notes = append(cfg.Notes, fmt.Sprintf("%s: the fact seat's copy of the repository leaves out %s", r.Label, listLeftOut(r.LeftOut)))
		}
	}
	if cfg.Lines == nil {
		cfg.Lines = func(r Repo, path string) (int, bool) { return facts.Lines(r.Path, r.Git.Head, path) }
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Protocol{cfg: cfg}
}

// Manifest is what each seat receives: a fact seat, the spec, its
// repository's diff and the copy of its files it works in; a judge, the
// spec and the facts the fact seats gather; the verdict writer, arena's
// ranking.
func (p *Protocol) Manifest() engine.Manifest {
	st := p.Start()
	m := engine.Manifest{Protocol: st.Protocol, Title: st.Title}
	spec := engine.ManifestInput{Name: p.cfg.Spec.Name, Bytes: int64(len(p.cfg.Spec.Content))}
	for _, r := range p.cfg.Repos {
		m.Seats = append(m.Seats, engine.ManifestSeat{Seat: FactSeat(r.Label), Agent: r.Agent.Name, Family: challengers.Family(r.Agent), Role: "fact gatherer", Inputs: []engine.ManifestInput{
			spec,
			{Name: "the diff of " + r.Label + " against " + r.Git.Base, Bytes: int64(len(r.Diff))},
			{Name: "a copy of " + r.Label + "'s files at " + r.Git.Branch + " (its working directory)", Bytes: r.CopyBytes, Files: r.CopyFiles},
		}})
		for _, l := range r.LeftOut {
			m.LeftOut = append(m.LeftOut, r.Label+": "+l)
		}
	}
	for _, d := range p.cfg.Weights.Active() {
		ag := p.cfg.Judges[d]
		for k := range p.cfg.orders(len(p.cfg.Repos)) {
			for rep := range p.cfg.repeats() {
				m.Seats = append(m.Seats, engine.ManifestSeat{Seat: JudgeSeatOf(d, k) + repeatWords(rep), Agent: ag.Name, Family: challengers.Family(ag), Role: judgeRole(d, k) + engine.Role(repeatWords(rep)), Inputs: []engine.ManifestInput{spec}})
			}
		}
	}
	m.Seats = append(m.Seats, engine.ManifestSeat{Seat: VerdictSeat, Agent: p.cfg.Verdict.Name, Family: challengers.Family(p.cfg.Verdict), Role: "verdict writer"})
	m.Notes = append(m.Notes, "The judges also receive the fact seats' reports (checked against arena's measurements), under neutral letters; the verdict writer, arena's ranking.")
	return m
}

// listLeftOut names what an export left out, the first few in full.
func listLeftOut(items []string) string {
	const shown = 5
	if len(items) <= shown {
		return strings.Join(items, "; ")
	}
	return strings.Join(items[:shown], "; ") + fmt.Sprintf("; and %d more", len(items)-shown)
}

// Report is the JSON report of the run, once Run has returned (nil
// before, or when the run was interrupted before any judging).
func (p *Protocol) Report() *Report {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.report
}

// FactSeat is the seat name of a repository's fact gatherer.
func FactSeat(label string) string { return "facts: " + label }

// JudgeSeat is the seat name of a dimension's judge.
func JudgeSeat(d Dimension) string { return strings.ReplaceAll(string(d), "_", " ") + " judge" }

// JudgeKey is the config key of a dimension's judge: "judges.security".
func JudgeKey(d Dimension) string { return "judges." + string(d) }

// JudgeSeatOf is the seat of a dimension judge's k-th order: "security
// judge", "security judge, reversed", "security judge, order 3".
func JudgeSeatOf(d Dimension, k int) string {
	switch k {
	case 0:
		return JudgeSeat(d)
	case 1:
		return JudgeSeat(d) + ", reversed"
	}
	return fmt.Sprintf("%s, order %d", JudgeSeat(d), k+1)
}

// repeatWords name the rep-th asking of an order: "" for the first,
// ", repeat 2" for the second. Each asking is a seat of its own, so that
// a repeat is a call of its own (arena resume reuses each asking's own
// reply).
func repeatWords(rep int) string {
	if rep == 0 {
		return ""
	}
	return fmt.Sprintf(", repeat %d", rep+1)
}

// judgeRole is the role of that seat.
func judgeRole(d Dimension, k int) engine.Role {
	r := strings.ToLower(d.Title()) + " judge"
	switch k {
	case 0:
	case 1:
		r += ", order reversed"
	default:
		r += fmt.Sprintf(", order %d", k+1)
	}
	return engine.Role(r)
}

// VerdictSeat is the seat of the verdict writer, and its config key.
const VerdictSeat = "verdict"

// Start is the run's first event.
func (p *Protocol) Start() engine.DebateStarted {
	cfg := p.cfg
	var seats []engine.Seat
	var agents []engine.AgentInfo
	seen := map[string]bool{}
	add := func(seat string, a challengers.Agent, role engine.Role) {
		seats = append(seats, engine.Seat{Name: seat, Agent: a.Name, Role: role})
		if !seen[a.Name] {
			seen[a.Name] = true
			agents = append(agents, engine.InfoOf(a))
		}
	}
	var labels []string
	for _, r := range cfg.Repos {
		add(FactSeat(r.Label), r.Agent, engine.Role("fact gatherer for "+r.Label))
		labels = append(labels, r.Label)
	}
	for _, d := range cfg.Weights.Active() {
		for k := range cfg.orders(len(cfg.Repos)) {
			for rep := range cfg.repeats() {
				add(JudgeSeatOf(d, k)+repeatWords(rep), cfg.Judges[d], judgeRole(d, k)+engine.Role(repeatWords(rep)))
			}
		}
	}
	add(VerdictSeat, cfg.Verdict, "verdict writer")
	settings := []engine.Setting{
		{Name: "repositories", Value: strings.Join(labels, " · ")},
		{Name: "weights", Value: cfg.Weights.String()},
		{Name: "judge order seed", Value: fmt.Sprint(cfg.Seed)},
		{Name: "orders", Value: fmt.Sprint(cfg.orders(len(cfg.Repos)))},
		{Name: "run tests", Value: fmt.Sprint(cfg.RunTests != nil)},
	}
	// Said only when asked for, as compare says it: each order once is
	// the default.
	if n := cfg.repeats(); n > 1 {
		settings = append(settings, engine.Setting{Name: "repeats", Value: fmt.Sprint(n)})
	}
	for _, r := range cfg.Repos {
		settings = append(settings, engine.Setting{Name: "repository " + r.Label, Value: fmt.Sprintf("%s (%s vs %s, %.12s)", r.Path, r.Git.Branch, r.Git.Base, r.Git.Head)})
	}
	if slices.ContainsFunc(cfg.Authors, func(a string) bool { return a != "" }) {
		var parts []string
		for i, r := range cfg.Repos {
			parts = append(parts, r.Label+": "+engine.OrDash(cfg.author(i)))
		}
		settings = append(settings, engine.Setting{Name: "authors", Value: strings.Join(parts, " · ")})
	}
	return engine.DebateStarted{
		ID: cfg.ID, Protocol: Name, Title: Title, Noun: Noun, Words: Spec.Words, FollowUpSeat: VerdictSeat,
		Topic: fmt.Sprintf("Rank %d implementations of %s: %s", len(cfg.Repos), cfg.Spec.Name, strings.Join(labels, ", ")),
		Seats: seats, Agents: agents, Timeout: engine.Duration(cfg.Timeout),
		Context: []engine.ContextFile{engine.ContextOf(cfg.Spec.Name, cfg.Spec.Content)},
		Phases:  Phases, Layouts: Layouts, Settings: settings,
	}
}

// state is one run's progress.
type state struct {
	cfg      Config
	rt       *engine.Runtime
	tests    []*facts.TestRun
	facts    []*Facts // nil: the repository is not judged
	checks   [][]string
	notJudge map[int]string
	dims     map[Dimension]*dimResult
	leftOut  map[Dimension]string
	failures []string
}

// dimResult is one judge's work: the orders it saw, its scores in each
// mapped back from letters to repositories, and the scores arena uses:
// averaged over the orders, with a preference that did not hold in every
// order levelled (receipt.Level).
type dimResult struct {
	agent    string
	order    []int // order[k] is the repository shown as Letters()[k] in the first order
	scores   map[int]LetterScore
	rank     []int // the judge's own ranking in the first order, as repositories
	readings []dimReading
	avg      map[int]float64
	levelled [][]int // repositories levelled together
}

// dimReading is the judge's answer in one order.
type dimReading struct {
	seat   string
	k, rep int // which order, and which asking of it
	order  []int
	scores map[int]LetterScore
	rank   []int
	bytes  map[int]int // what the judge read of each repository
}

// Run runs the ranking to its outcome.
func (p *Protocol) Run(ctx context.Context, rt *engine.Runtime) engine.Outcome {
	s := &state{cfg: p.cfg, rt: rt, notJudge: map[int]string{}, dims: map[Dimension]*dimResult{}, leftOut: map[Dimension]string{}}
	n := len(s.cfg.Repos)
	s.tests, s.facts, s.checks = make([]*facts.TestRun, n), make([]*Facts, n), make([][]string, n)
	for _, note := range s.cfg.Notes {
		rt.Note(engine.NoteWarn, "%s", note)
	}
	steps := []struct {
		phase engine.Phase
		run   func(context.Context) bool
	}{
		{PhaseMeasure, s.measure}, {PhaseFacts, s.gather}, {PhaseJudging, s.judge},
	}
	for i, st := range steps {
		rt.Bus.Emit(engine.PhaseStarted{Phase: st.phase, Title: Phases[i].Title})
		if !st.run(ctx) || ctx.Err() != nil {
			return p.finish(s, ctx, nil, "")
		}
	}
	rt.Bus.Emit(engine.PhaseStarted{Phase: PhaseVerdict, Title: "Verdict"})
	places := s.places()
	verdict, by := s.verdict(ctx, places)
	return p.finish(s, ctx, places, verdict+"\x00"+by)
}

// measure emits arena's own figures, running the tests first if asked.
func (s *state) measure(ctx context.Context) bool {
	if s.cfg.RunTests != nil {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		var g engine.Group // a panic is raised again here, for engine.Run
		for i, r := range s.cfg.Repos {
			g.Go("running "+r.Label+"'s tests", cancel, func() {
				tr := s.cfg.RunTests(ctx, r)
				s.tests[i] = &tr
			})
		}
		g.Wait()
		if ctx.Err() != nil {
			return false
		}
		for i, tr := range s.tests {
			switch {
			case tr.Error != "":
				s.rt.Note(engine.NoteWarn, "%s: tests: %s\n%s", s.cfg.Repos[i].Label, tr.Error, lastLines(tr.Output, 12))
			case tr.ExitCode != 0:
				s.rt.Note(engine.NoteInfo, "%s: %s exited %d; its output ends:\n%s", s.cfg.Repos[i].Label, tr.Command, tr.ExitCode, lastLines(tr.Output, 12))
			}
		}
	}
	t := engine.Table{Phase: PhaseMeasure, Title: "Measured by arena", Columns: []string{"Repository", "Branch", "Base", "HEAD", "Files", "+", "−", "Tests"}}
	for i, r := range s.cfg.Repos {
		g := r.Git
		row := engine.Row{Cells: []string{r.Label, g.Branch, g.Base, short(g.Head), fmt.Sprint(g.FilesChanged), fmt.Sprint(g.Additions), fmt.Sprint(g.Deletions), testWords(s.tests[i])}, Stance: engine.StanceNeutral}
		if tr := s.tests[i]; tr != nil {
			row.Stance = engine.StanceAgree
			if tr.Failed > 0 || !tr.Ran || tr.TimedOut || tr.ExitCode != 0 {
				row.Stance = engine.StanceDisagree
			}
		}
		t.Rows = append(t.Rows, row)
		if len(r.DiffCut) > 0 {
			s.rt.Note(engine.NoteInfo, "%s: the diff was cut to fit the fact seat's prompt; left out: %s", r.Label, strings.Join(r.DiffCut, ", "))
		}
	}
	t.Decision = "measured facts replace any figure a model reports differently"
	s.rt.Bus.Emit(t)
	return true
}

// lastLines is the end of a test run's output, for a note: go test -json
// output is read through its "Output" fields.
func lastLines(out string, n int) string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var ev struct {
			Action string
			Output *string
		}
		if strings.HasPrefix(l, "{") && json.Unmarshal([]byte(l), &ev) == nil && ev.Action != "" {
			if ev.Output == nil || strings.TrimSpace(*ev.Output) == "" {
				continue
			}
			l = strings.TrimRight(*ev.Output, "\n")
		}
		lines = append(lines, l)
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// testWords is a test run in a table cell.
func testWords(tr *facts.TestRun) string {
	switch {
	case tr == nil:
		return "not run"
	case !tr.Ran:
		return "could not run"
	case tr.TimedOut:
		return fmt.Sprintf("timed out (%d passed, %d failed)", tr.Passed, tr.Failed)
	case !tr.Counted:
		return fmt.Sprintf("exit %d, not counted", tr.ExitCode)
	}
	return fmt.Sprintf("%d passed, %d failed, %d skipped", tr.Passed, tr.Failed, tr.Skipped)
}

// gather asks every repository's fact seat at once, then checks each
// reply against arena's measurements.
func (s *state) gather(ctx context.Context) bool {
	var qs []engine.Question
	for i, r := range s.cfg.Repos {
		cut := strings.Join(r.DiffCut, ", ")
		qs = append(qs, engine.Question{
			Seat: FactSeat(r.Label), Agent: r.Agent, Role: engine.Role("fact gatherer for " + r.Label),
			Phase: PhaseFacts, Task: TaskFacts, Shape: ShapeFacts, Retries: 1,
			Prompt: prompts.Render("facts", ShapeFacts, factsPrompt{
				SpecName: s.cfg.Spec.Name, Spec: s.cfg.Spec.Content, Branch: r.Git.Branch, Base: r.Git.Base,
				Git: r.Git, Tests: s.tests[i], Diff: r.Diff, Cut: cut,
			}),
			Parse: func(text string) (engine.Reply, error) { return ParseFacts(text) },
		})
	}
	answers := s.rt.AskAll(ctx, qs)
	if ctx.Err() != nil {
		return false
	}
	for i, a := range answers {
		r := s.cfg.Repos[i]
		if !a.OK() {
			why := engine.FailureWords(r.Agent.Name, a.Failed, 0)
			if a.Unparseable {
				why = r.Agent.Name + " returned an unparseable reply twice"
			}
			s.notJudge[i] = why
			s.failures = append(s.failures, fmt.Sprintf("%s not judged: its fact seat %s", r.Label, strings.TrimPrefix(why, r.Agent.Name+" ")))
			s.rt.Note(engine.NoteWarn, "%s is not judged: its fact seat (%s) failed twice; the others go on", r.Label, why)
			continue
		}
		f := a.Reply.(Facts)
		rr := r
		s.checks[i] = Check(&f, func(p string) (int, bool) { return s.cfg.Lines(rr, p) }, r.Git, s.tests[i])
		for _, c := range s.checks[i] {
			s.rt.Note(engine.NoteWarn, "%s facts: %s", r.Label, c)
		}
		s.facts[i] = &f
	}
	if len(s.judged()) == 0 {
		s.rt.Note(engine.NoteError, "no repository's facts were gathered: nothing to judge")
		return false
	}
	return true
}

// judged are the repositories with facts, in order.
func (s *state) judged() []int {
	var out []int
	for i, f := range s.facts {
		if f != nil {
			out = append(out, i)
		}
	}
	return out
}

// judge asks the dimension judges at once, each in its own counterbalanced
// orders of the repositories (the seeded order, its reverse, ...).
func (s *state) judge(ctx context.Context) bool {
	judged := s.judged()
	k := s.cfg.orders(len(judged))
	if want := s.cfg.Orders; want > k {
		s.rt.Note(engine.NoteInfo, "%d repositories can be shown in %d distinct orders: each judge is asked in %d, not %d", len(judged), k, k, want)
	}
	qs, asks := s.judgeQuestions(judged, k)
	answers := s.rt.AskAll(ctx, qs)
	if ctx.Err() != nil {
		return false
	}
	failed := s.readJudgements(qs, asks, answers)
	for _, d := range s.cfg.Weights.Active() {
		s.settleDim(d, judged, failed[d])
	}
	if len(s.dims) == 0 {
		s.rt.Note(engine.NoteError, "every judge failed: nothing was scored")
		return false
	}
	s.emitScored()
	// The receipts first: a screen shows the latest table, and the
	// scores, levelled where a preference flipped, are what it ends on.
	if k > 1 {
		s.rt.Bus.Emit(s.receiptTable())
	}
	s.rt.Bus.Emit(s.scoreTable())
	return true
}

// judgeAsk is what a judge's question showed: the dimension, the
// repositories in the order of the letters, and how many bytes of each;
// which order it is, and which asking of it.
type judgeAsk struct {
	d      Dimension
	order  []int
	bytes  map[int]int
	k, rep int
}

// judgeQuestions are the questions to every active dimension's judge,
// each in k counterbalanced orders of the judged repositories, each order
// asked Repeats times, with what each one shows. It starts each
// dimension's result, in its first order.
func (s *state) judgeQuestions(judged []int, k int) ([]engine.Question, []judgeAsk) {
	var qs []engine.Question
	var asks []judgeAsk
	for n, d := range s.cfg.Weights.Active() {
		s.dims[d] = &dimResult{agent: s.cfg.Judges[d].Name}
		for m, order := range receipt.Orders(Order(judged, s.cfg.Seed, n), k) {
			if m == 0 {
				s.dims[d].order = order
			}
			q, ask := s.judgeQuestion(d, m, order)
			for rep := range s.cfg.repeats() {
				q.Seat, q.Role = JudgeSeatOf(d, m)+repeatWords(rep), judgeRole(d, m)+engine.Role(repeatWords(rep))
				ask.k, ask.rep = m, rep
				qs = append(qs, q)
				asks = append(asks, ask)
			}
		}
	}
	return qs, asks
}

// judgeQuestion asks d's judge, in its m-th order, to score the
// repositories of order, each shown by its neutral facts under a letter;
// it notes which letter is which repository.
func (s *state) judgeQuestion(d Dimension, m int, order []int) (engine.Question, judgeAsk) {
	letters := Letters(len(order))
	var cands []candidate
	var shown []string
	bytes := map[int]int{}
	for j, i := range order {
		f := s.neutralFacts(i, "Candidate "+letters[j])
		bytes[i] = len(f)
		cands = append(cands, candidate{Letter: letters[j], Facts: f})
		shown = append(shown, letters[j]+" = "+s.cfg.Repos[i].Label)
	}
	s.rt.Note(engine.NoteInfo, "the %s sees %s", judgeRole(d, m), strings.Join(shown, ", "))
	q := engine.Question{
		Seat: JudgeSeatOf(d, m), Agent: s.cfg.Judges[d], Role: judgeRole(d, m),
		Phase: PhaseJudging, Task: TaskJudge, Shape: ShapeJudge, Retries: 1,
		Prompt: prompts.Render("judge", ShapeJudge, judgePrompt{
			Title: d.Title(), Dimension: string(d), Focus: focus[d], SpecName: s.cfg.Spec.Name, Spec: s.cfg.Spec.Content,
			Candidates: cands, Letters: letters, LetterList: strings.Join(letters, ", "),
		}),
		Parse: func(text string) (engine.Reply, error) { return ParseJudgement(text, letters) },
	}
	return q, judgeAsk{d: d, order: order, bytes: bytes}
}

// readJudgements adds every judge's answer, its letters turned back into
// repositories, to its dimension's readings. It returns, by dimension,
// each failed question's seat and why it failed.
func (s *state) readJudgements(qs []engine.Question, asks []judgeAsk, answers []engine.Answer) map[Dimension][]string {
	failed := map[Dimension][]string{}
	for n, a := range answers {
		d, res := asks[n].d, s.dims[asks[n].d]
		if !a.OK() {
			why := engine.FailureWords(res.agent, a.Failed, 0)
			if a.Unparseable {
				why = res.agent + " returned an unparseable reply twice"
			}
			failed[d] = append(failed[d], qs[n].Seat+": "+why)
			continue
		}
		j := a.Reply.(Judgement)
		order := asks[n].order
		letters := Letters(len(order))
		rd := dimReading{seat: qs[n].Seat, k: asks[n].k, rep: asks[n].rep, order: order, scores: map[int]LetterScore{}, bytes: asks[n].bytes}
		for i, l := range letters {
			rd.scores[order[i]] = j.Scores[l]
		}
		for _, l := range j.Ranking {
			rd.rank = append(rd.rank, order[strings.Index(strings.Join(letters, ""), l)])
		}
		res.readings = append(res.readings, rd)
	}
	return failed
}

// settleDim ends dimension d's judging, failed being why its questions
// that failed did. A judge that answered in no order leaves d out of
// every total; one that answered in some gives d its first reading as
// its order, scores and ranking, and its scores averaged over the orders
// with the repositories levelled where a preference flipped.
func (s *state) settleDim(d Dimension, judged []int, failed []string) {
	res := s.dims[d]
	if len(res.readings) == 0 {
		why := strings.Join(failed, "; ")
		s.leftOut[d] = why
		delete(s.dims, d)
		s.failures = append(s.failures, fmt.Sprintf("the %s judge (%s) failed: %s is left out of every total", strings.ToLower(d.Title()), res.agent, strings.ToLower(d.Title())))
		s.rt.Note(engine.NoteWarn, "the %s judge failed (%s): %s is left out of every total", strings.ToLower(d.Title()), why, strings.ToLower(d.Title()))
		return
	}
	if len(failed) > 0 {
		unit := "orders"
		if s.cfg.repeats() > 1 {
			unit = "askings"
		}
		s.rt.Note(engine.NoteWarn, "the %s judge answered in %d of %d %s (%s): its receipts rest on those", strings.ToLower(d.Title()), len(res.readings), len(res.readings)+len(failed), unit, strings.Join(failed, "; "))
	}
	res.order, res.scores, res.rank = res.readings[0].order, res.readings[0].scores, res.readings[0].rank
	avg, groups := receipt.Level(len(judged), s.receiptReadings(res))
	res.avg, res.levelled = map[int]float64{}, nil
	for x, i := range judged {
		res.avg[i] = avg[x]
	}
	for _, g := range groups {
		var repos []int
		for _, x := range g {
			repos = append(repos, judged[x])
		}
		res.levelled = append(res.levelled, repos)
	}
}

// neutralFacts is what a judge reads of one repository: its checked facts
// and arena's figures, without its label, path, branch or the agents
// involved.
func (s *state) neutralFacts(i int, neutral string) string {
	r := s.cfg.Repos[i]
	view := struct {
		GitInfo struct {
			FilesChanged int `json:"files_changed"`
			Additions    int `json:"additions"`
			Deletions    int `json:"deletions"`
		} `json:"git_info"`
		*Facts
	}{Facts: s.facts[i]}
	view.GitInfo.FilesChanged, view.GitInfo.Additions, view.GitInfo.Deletions = r.Git.FilesChanged, r.Git.Additions, r.Git.Deletions
	text := string(indentJSON(view))
	names := IdentifyingNames(r.Label, r.Path, r.Git.Branch)
	var others []string
	for k, a := range s.cfg.Authors {
		switch {
		case a == "":
		case k == i:
			names = append(names, a)
		default:
			others = append(others, a)
		}
	}
	// Another repository's author, should a fact seat name it, goes too.
	return Anonymize(Anonymize(text, neutral, names...), "[an author]", others...)
}

// judgedDims are the dimensions whose judge answered, in order.
func (s *state) judgedDims() []Dimension {
	var out []Dimension
	for _, d := range s.cfg.Weights.Active() {
		if s.dims[d] != nil {
			out = append(out, d)
		}
	}
	return out
}

func (s *state) totals() map[int]float64 {
	totals := map[int]float64{}
	for _, i := range s.judged() {
		sc := map[Dimension]float64{}
		for d, res := range s.dims {
			sc[d] = res.avg[i]
		}
		totals[i] = Total(sc, s.cfg.Weights, s.judgedDims())
	}
	return totals
}

func (s *state) places() []Place {
	return Rank(s.labels(), s.totals())
}

func (s *state) labels() []string {
	var out []string
	for _, r := range s.cfg.Repos {
		out = append(out, r.Label)
	}
	return out
}

// scoreTable is the scores per dimension and the weighted totals.
func (s *state) scoreTable() engine.Table {
	judged := s.judged()
	t := engine.Table{Phase: PhaseJudging, Title: "Scores (1–5) and weighted totals", Columns: []string{"Dimension", "Weight"}}
	for _, i := range judged {
		t.Columns = append(t.Columns, s.cfg.Repos[i].Label)
	}
	for _, d := range s.cfg.Weights.Active() {
		row := engine.Row{Cells: []string{d.Title(), fmt.Sprint(s.cfg.Weights[d])}}
		for _, i := range judged {
			if res := s.dims[d]; res != nil {
				row.Cells = append(row.Cells, res.scoreWords(i))
			} else {
				row.Cells = append(row.Cells, "—")
			}
		}
		if s.dims[d] == nil {
			row.Stance = engine.StanceDisagree
		}
		t.Rows = append(t.Rows, row)
	}
	totals := s.totals()
	row := engine.Row{Cells: []string{"Weighted total", ""}, Stance: engine.StanceAgree}
	for _, i := range judged {
		row.Cells = append(row.Cells, fmt.Sprintf("%.2f", totals[i]))
	}
	t.Rows = append(t.Rows, row)
	t.Decision = rankingWords(Rank(s.labels(), totals))
	return t
}

// rankingWords is the ranking in one sentence.
func rankingWords(ps []Place) string {
	if len(ps) == 0 {
		return "nothing ranked"
	}
	w := Winners(ps)
	if len(w) > 1 {
		return fmt.Sprintf("%s tie for first place at %.2f", strings.Join(w, " and "), ps[0].Total)
	}
	out := fmt.Sprintf("%s ranks first at %.2f", ps[0].Label, ps[0].Total)
	if len(ps) > 1 {
		out += fmt.Sprintf(", ahead of %s at %.2f", ps[1].Label, ps[1].Total)
	}
	return out
}

// verdict asks for the verdict sentence; if none comes that names the
// winner, arena states the ranking itself.
func (s *state) verdict(ctx context.Context, places []Place) (text, by string) {
	winners := Winners(places)
	var rows, ranking []string
	for _, d := range s.judgedDims() {
		var cells []string
		for _, i := range s.judged() {
			cells = append(cells, fmt.Sprintf("%s %s", s.cfg.Repos[i].Label, trimScore(s.dims[d].avg[i])))
		}
		rows = append(rows, fmt.Sprintf("%s (%d): %s", d.Title(), s.cfg.Weights[d], strings.Join(cells, " · ")))
	}
	for _, p := range places {
		ranking = append(ranking, fmt.Sprintf("%d. %s (%.2f)", p.Place, p.Label, p.Total))
	}
	wt := winners[0] + " ranks first"
	if len(winners) > 1 {
		wt = strings.Join(winners, " and ") + " tie for first place"
	}
	var notes []string
	for _, d := range s.cfg.Weights.Active() {
		if why, ok := s.leftOut[d]; ok {
			notes = append(notes, fmt.Sprintf("%s is left out of the totals: its judge failed (%s)", d.Title(), why))
		}
	}
	for i, r := range s.cfg.Repos {
		if why, ok := s.notJudge[i]; ok {
			notes = append(notes, fmt.Sprintf("%s was not judged: %s", r.Label, why))
		}
	}
	a := s.rt.Ask(ctx, engine.Question{
		Seat: VerdictSeat, Agent: s.cfg.Verdict, Role: "verdict writer", Phase: PhaseVerdict, Task: TaskVerdict,
		Shape: ShapeSynthesis, Retries: 1,
		Prompt: prompts.Render("synthesis", ShapeSynthesis, synthesisPrompt{
			SpecName: s.cfg.Spec.Name, WinnerText: wt, Rows: rows, Ranking: ranking, Notes: notes,
		}),
		Parse: func(text string) (engine.Reply, error) { return ParseSynthesis(text, winners) },
	})
	if a.OK() {
		return a.Reply.(Synthesis).Verdict, s.cfg.Verdict.Name
	}
	if !a.Cancelled {
		s.rt.Note(engine.NoteWarn, "the verdict writer (%s) gave no usable verdict; arena states the ranking instead", s.cfg.Verdict.Name)
	}
	return rankingWords(places) + ".", "arena"
}

// focus is what each judge weighs, from the seed's five judges.
var focus = map[Dimension]string{
	DimFunctionality:   "Compare the spec's requirements with what is implemented and what is missing; weigh the test results arena measured (failures count against).",
	DimSecurity:        "Weigh the severity of the security findings (think of the OWASP top 10) and the patterns observed.",
	DimTests:           "Weigh test coverage, DRY adherence in the tests, the test count and whether mocks sit at the boundaries.",
	DimOverengineering: "Penalise unnecessary abstractions, defensive overkill and configuration complexity beyond what the spec needs; simpler is better.",
	DimDeadCode:        "Count and weigh unused imports and functions, TODO comments and commented-out code blocks; fewer is better.",
}

// The prompts' data.
type factsPrompt struct {
	SpecName, Spec, Branch, Base string
	Git                          facts.Git
	Tests                        *facts.TestRun
	Diff, Cut                    string
}

type candidate struct{ Letter, Facts string }

type judgePrompt struct {
	Title, Dimension, Focus, SpecName, Spec string
	Candidates                              []candidate
	Letters                                 []string
	LetterList                              string
}

type synthesisPrompt struct {
	SpecName, WinnerText string
	Rows, Ranking, Notes []string
}

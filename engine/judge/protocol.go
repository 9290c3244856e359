// Package judge is the judge-with-debate protocol: judges (three
// different models by default) score a solution independently against
// weighted criteria, then debate their scores round by round until arena's
// consensus check passes or the rounds run out.
//
// arena, not a model, does the arithmetic and decides every threshold:
// each judge's weighted overall from its criterion scores, the consensus
// check, whether a quote occurs in the solution, whether a changed score
// came with a reason and evidence, and the judges' agreement
// (Krippendorff's alpha) before and after the debate.
package judge

import (
	"context"
	"embed"
	"fmt"
	"strings"
	"time"

	"github.com/arenadebate/arena/engine/doc"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/seating"
	"github.com/arenadebate/arena/engine"
)

// Name is the protocol's name in logs and on the command line.
const Name = "judge"

// Title is how the protocol introduces itself.
const Title = "Judge with debate: independent scores → debate to consensus"

// Noun is what a person calls one run of the protocol.
const Noun = "judging"

// Seating is the protocol's section of the config file:
//
//	judge: {judges: [gemini, codex, qwen]}
var Seating = seating.Plan{Protocol: Name, Seats: []seating.Seat{
	{Key: "judges", Label: "judge", Many: true, Default: 3, Judging: true},
}}

// The phases.
const (
	PhaseAnalysis  engine.Phase = "analysis"
	PhaseCheck     engine.Phase = "consensus_check"
	PhaseDebate    engine.Phase = "debate"
	PhaseSynthesis engine.Phase = "synthesis"
)

// Phases is the phase order.
var Phases = []engine.PhaseInfo{
	{Phase: PhaseAnalysis, Title: "Independent analysis"},
	{Phase: PhaseCheck, Title: "Consensus check"},
	{Phase: PhaseDebate, Title: "Debate"},
	{Phase: PhaseSynthesis, Title: "Synthesis"},
	{Phase: engine.PhaseOutcome, Title: "Outcome"},
}

// RoleJudge is every seat's role.
const RoleJudge engine.Role = "judge"

// What judges are asked for.
const (
	TaskAnalysis  engine.Task = "analysis"
	TaskDebate    engine.Task = "debate"
	TaskSynthesis engine.Task = "synthesis"
)

// The reply shapes, as prompts name them.
const (
	ShapeAnalysis  = "judge.analysis"
	ShapeDebate    = "judge.debate"
	ShapeSynthesis = "judge.synthesis"
)

// How a judging ends, besides aborted and interrupted.
const (
	OutcomeConsensus   engine.OutcomeKind = "consensus"
	OutcomeBelowMin    engine.OutcomeKind = "below_min_score"
	OutcomeNoConsensus engine.OutcomeKind = "no_consensus"
)

// DefaultMaxRounds is the seed's limit: diminishing returns after three.
const DefaultMaxRounds = 3

// DefaultPassMark is the overall at which arena recommends pass when no
// --min-score is given: 3.5, halfway into "good" on the rubric.
const DefaultPassMark = 3.5

//go:embed prompts/*.tmpl
var promptFS embed.FS

var prompts = engine.NewPrompts(promptFS, "prompts/*.tmpl")

// ReportSink keeps the judges' report files. Protocols write no files:
// the command hands one in (ReportFiles; nil keeps the reports in the
// outcome document only).
type ReportSink interface {
	// Append adds text to judge n's report (n from 1), creating it on the
	// first call, and returns its path.
	Append(n int, text string) (string, error)
	// Outcome saves a copy of the outcome document beside the reports.
	Outcome(markdown string) (string, error)
}

// Config is one judging.
type Config struct {
	ID       string
	Task     string
	Solution Solution
	Criteria []Criterion
	Preset   string // the preset the criteria came from, "" for --criteria
	Judges   []challengers.Agent
	// Author is the agent that wrote the solution ("" when not said); a
	// judge seat it holds is flagged as self-preference.
	Author    string
	MaxRounds int
	MinScore  float64 // 0: none
	Timeout   time.Duration
	Reports   ReportSink
}

// Protocol is a judging, ready to run (engine.Run).
type Protocol struct{ cfg Config }

// New returns the judging of cfg.
func New(cfg Config) *Protocol {
	if cfg.MaxRounds <= 0 {
		cfg.MaxRounds = DefaultMaxRounds
	}
	return &Protocol{cfg: cfg}
}

// Start is the judging's first event.
func (p *Protocol) Start() engine.DebateStarted {
	cfg := p.cfg
	st := engine.DebateStarted{
		ID: cfg.ID, Protocol: Name, Title: Title, Noun: Noun, Words: Spec.Words, Topic: cfg.Task,
		FollowUpSeat: judgeName(1), MaxRounds: cfg.MaxRounds, Timeout: engine.Duration(cfg.Timeout),
		Phases: Phases, Layouts: Layouts,
	}
	for i, a := range cfg.Judges {
		st.Seats = append(st.Seats, engine.Seat{Name: judgeName(i + 1), Agent: a.Name, Role: RoleJudge})
		if !hasAgent(st.Agents, a.Name) {
			st.Agents = append(st.Agents, engine.InfoOf(a))
		}
	}
	for _, f := range cfg.Solution.Files {
		st.Context = append(st.Context, engine.ContextOf(f.Name, f.Content))
	}
	crit := make([]string, len(cfg.Criteria))
	for i, c := range cfg.Criteria {
		crit[i] = fmt.Sprintf("%s %s%%", c.Name, trimFloat(Share(cfg.Criteria, i)))
	}
	st.Settings = append(st.Settings, engine.Setting{Name: "criteria", Value: strings.Join(crit, " · ")})
	if cfg.Preset != "" {
		st.Settings = append(st.Settings, engine.Setting{Name: "preset", Value: cfg.Preset})
	}
	if cfg.Author != "" {
		st.Settings = append(st.Settings, engine.Setting{Name: "author", Value: cfg.Author})
	}
	if cfg.MinScore > 0 {
		st.Settings = append(st.Settings, engine.Setting{Name: "min score", Value: trimFloat(cfg.MinScore)})
	}
	return st
}

func hasAgent(as []engine.AgentInfo, name string) bool {
	for _, a := range as {
		if a.Name == name {
			return true
		}
	}
	return false
}

// judgeName is how judges are named, to each other and on screen: never
// by model, so that no judge defers to a brand.
func judgeName(n int) string { return fmt.Sprintf("Judge %d", n) }

// seat is one judge and what it has said.
type seat struct {
	n       int
	name    string
	agent   challengers.Agent
	self    bool // graded its own model's work
	live    bool
	failure string
	path    string // its report file ("" until written)

	analysis *Analysis
	scores   []Score // current
	initial  []int   // after the independent analysis
	rounds   []*Debate
	report   []doc.Section // its report, as it grew
	flags    []string
}

func (s *seat) ints(cs []Criterion) []int { return ScoresOf(cs, s.scores) }

func (s *seat) label() string { return fmt.Sprintf("%s (%s)", s.name, s.agent.Name) }

// body is the judge's report as the prompts quote it: its sections, the
// first under a heading of level 1.
func (s *seat) body() string { return doc.Sections(s.report, 1) }

// run is one judging.
type run struct {
	cfg    Config
	rt     *engine.Runtime
	seats  []*seat
	corpus Corpus
	round  int // the debate round; 0 in the independent analysis

	checks    []Check // after the analysis, then after each debate round
	failures  []string
	notes     []string // flags for the outcome document
	synthesis *Synthesis
	abort     string
	saved     []engine.Saved
}

// Run runs the judging to its outcome.
func (p *Protocol) Run(ctx context.Context, rt *engine.Runtime) engine.Outcome {
	r := &run{cfg: p.cfg, rt: rt, corpus: NewCorpus(p.cfg.Solution.Text())}
	for i, a := range p.cfg.Judges {
		r.seats = append(r.seats, &seat{n: i + 1, name: judgeName(i + 1), agent: a, live: true,
			self: p.cfg.Author != "" && a.Name == p.cfg.Author})
	}
	if r.cfg.Reports != nil {
		rt.KeepDocument(r.keepCopy)
	}
	r.setupNotes()
	r.analyse(ctx)
	if k, done := r.stopped(ctx); done {
		return r.outcome(k)
	}
	check := r.check(nil)
	for !check.OK && r.round < r.cfg.MaxRounds {
		r.round++
		accepts := r.debate(ctx)
		if k, done := r.stopped(ctx); done {
			return r.outcome(k)
		}
		check = r.check(accepts)
	}
	if !check.OK {
		return r.outcome(OutcomeNoConsensus)
	}
	r.synthesise(ctx)
	if ctx.Err() != nil {
		return r.outcome(engine.OutcomeInterrupted)
	}
	if r.cfg.MinScore > 0 && check.overall() < r.cfg.MinScore-eps {
		return r.outcome(OutcomeBelowMin)
	}
	return r.outcome(OutcomeConsensus)
}

// overall is the consensus overall: the mean of the judges' overalls.
func (c Check) overall() float64 {
	if len(c.Overall) == 0 {
		return 0
	}
	sum := 0.0
	for _, v := range c.Overall {
		sum += v
	}
	return sum / float64(len(c.Overall))
}

// stopped reports whether the judging cannot go on: interrupted, or fewer
// than two judges left.
func (r *run) stopped(ctx context.Context) (engine.OutcomeKind, bool) {
	if ctx.Err() != nil {
		return engine.OutcomeInterrupted, true
	}
	if n := len(r.live()); n < 2 {
		switch n {
		case 0:
			r.abort = "no judge left: a consensus needs at least two"
		default:
			r.abort = "one judge left, and one judge cannot reach a consensus"
		}
		if len(r.failures) > 0 {
			r.abort += " (" + strings.Join(r.failures, "; ") + ")"
		}
		return engine.OutcomeAborted, true
	}
	return "", false
}

func (r *run) live() []*seat {
	var out []*seat
	for _, s := range r.seats {
		if s.live {
			out = append(out, s)
		}
	}
	return out
}

// setupNotes says, before anything runs, what the person should know
// about the input: normalised weights, what was cut or skipped, a judge
// grading its own model's work.
func (r *run) setupNotes() {
	if n := NormaliseNote(r.cfg.Criteria); n != "" {
		r.rt.Note(engine.NoteInfo, "%s", n)
	}
	sol := r.cfg.Solution
	if len(sol.Skipped) > 0 {
		r.rt.Note(engine.NoteWarn, "files not sent to the judges: %s", strings.Join(sol.Skipped, ", "))
	}
	if len(sol.Cut) > 0 {
		r.rt.Note(engine.NoteWarn, "the solution is larger than the prompt budget; cut: %s", strings.Join(sol.Cut, "; "))
	}
	for _, s := range r.seats {
		if s.self {
			msg := fmt.Sprintf("%s is %s, the author of the solution: it grades its own model's work", s.name, s.agent.Name)
			r.notes = append(r.notes, msg)
			r.rt.Note(engine.NoteWarn, "%s", msg)
		}
	}
}

func (r *run) phase(p engine.Phase, title string) {
	r.rt.Bus.Emit(engine.PhaseStarted{Phase: p, Round: r.round, Title: title})
}

// drop takes a judge out after its call failed (after its retry) or its
// reply would not parse (after the repair request).
func (r *run) drop(s *seat, ans engine.Answer) {
	where := "in the independent analysis"
	if r.round > 0 {
		where = fmt.Sprintf("in debate round %d", r.round)
	}
	words := engine.FailureWords(s.label(), ans.Failed, 0)
	if ans.Unparseable {
		words = s.label() + " returned an unparseable reply"
	}
	s.live, s.failure = false, words+" "+where
	r.failures = append(r.failures, s.failure)
	r.rt.Note(engine.NoteWarn, "%s: dropped from the panel", s.failure)
}

func (r *run) question(s *seat, task engine.Task, phase engine.Phase, shape, prompt string, parse func(string) (engine.Reply, error)) engine.Question {
	return engine.Question{
		Seat: s.name, Agent: s.agent, Role: RoleJudge, Phase: phase, Round: r.round,
		Task: task, Shape: shape, Prompt: prompt, Retries: 1, Parse: parse,
	}
}

// nonNil adapts a typed parse result to the reply interface.
func nonNil[T engine.Reply](v T, err error) (engine.Reply, error) {
	if err != nil {
		return nil, err
	}
	return v, nil
}

// analyse runs the independent analysis: every judge at once.
func (r *run) analyse(ctx context.Context) {
	r.phase(PhaseAnalysis, "Independent analysis")
	var seats []*seat
	var qs []engine.Question
	for _, s := range r.seats {
		a, note, ok := challengers.Resolve(s.agent, r.rt.Env)
		if !ok {
			s.live, s.failure = false, fmt.Sprintf("%s is not installed (%q is not on PATH)", s.label(), s.agent.Executable())
			r.failures = append(r.failures, s.failure)
			r.rt.Note(engine.NoteWarn, "%s: dropped from the panel", s.failure)
			continue
		}
		if note != "" {
			r.rt.Note(engine.NoteInfo, "%s", note)
		}
		s.agent = a
		prompt := prompts.Render("analysis", ShapeAnalysis, r.analysisPrompt(s))
		seats = append(seats, s)
		qs = append(qs, r.question(s, TaskAnalysis, PhaseAnalysis, ShapeAnalysis, prompt,
			func(t string) (engine.Reply, error) { return nonNil(ParseAnalysis(t, r.cfg.Criteria)) }))
	}
	for i, ans := range r.rt.AskAll(ctx, qs) {
		s := seats[i]
		if ans.Cancelled {
			continue
		}
		if !ans.OK() {
			r.drop(s, ans)
			continue
		}
		a := ans.Reply.(Analysis)
		s.analysis, s.scores = &a, a.Scores
		s.initial = s.ints(r.cfg.Criteria)
		r.emitScored(s)
		r.checkQuotes(s, a.Scores, nil)
		r.checkTotal(s, a.Overall)
		r.write(s, analysisSections(r.cfg.Criteria, s, a, r.corpus, r.cfg.Solution.Files))
	}
}

// checkQuotes flags every quote of a reply that does not occur in the
// solution.
func (r *run) checkQuotes(s *seat, scores []Score, changes []Change) {
	flag := func(criterion, q string) {
		if r.corpus.QuoteFound(q) {
			return
		}
		msg := fmt.Sprintf("%s quotes evidence for %s that is not in the solution: “%s”", s.name, criterion, engine.Truncate(q, 120))
		if r.round > 0 {
			msg += fmt.Sprintf(" (debate round %d)", r.round)
		}
		s.flags = append(s.flags, msg)
		r.notes = append(r.notes, msg)
		r.rt.Note(engine.NoteWarn, "%s", msg)
	}
	for _, sc := range scores {
		for _, q := range sc.Evidence {
			flag(sc.Criterion, q)
		}
	}
	for _, c := range changes {
		for _, q := range c.Evidence {
			flag(c.Criterion, q)
		}
	}
}

// checkTotal notes a model's own overall that disagrees with arena's.
func (r *run) checkTotal(s *seat, own *float64) {
	w := Weighted(r.cfg.Criteria, s.ints(r.cfg.Criteria))
	if own == nil || abs(*own-w) < 0.05 {
		return
	}
	msg := fmt.Sprintf("%s gave an overall of %s; arena's weighted score from its criterion scores is %.2f, and that is the one used", s.name, trimFloat(*own), w)
	r.notes = append(r.notes, msg)
	r.rt.Note(engine.NoteInfo, "%s", msg)
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// write adds sections to a judge's report: in memory for the prompts and
// the outcome document, and in its file when there is a sink, the file
// begun with who wrote it, as the seed has it.
func (r *run) write(s *seat, sections []doc.Section) {
	text := doc.Sections(sections, 1)
	if len(s.report) == 0 {
		text = fmt.Sprintf("Done by %s (%s)\n\n", s.name, s.agent.Name) + text
	} else {
		text = "\n" + text
	}
	s.report = append(s.report, sections...)
	if r.cfg.Reports == nil {
		return
	}
	path, err := r.cfg.Reports.Append(s.n, text)
	if err != nil {
		r.rt.Note(engine.NoteError, "could not write %s's report: %v", s.name, err)
		return
	}
	if s.path == "" {
		s.path = path
		sv := engine.Saved{What: s.name + " report", Path: path}
		r.saved = append(r.saved, sv)
		r.rt.Bus.Emit(sv)
	}
}

// check runs the consensus check over the live judges and shows it as a
// table. accepts is nil after the independent analysis.
func (r *run) check(accepts []bool) Check {
	title := "Consensus check after the independent analysis"
	if r.round > 0 {
		title = fmt.Sprintf("Consensus check after debate round %d", r.round)
	}
	r.phase(PhaseCheck, title)
	live := r.live()
	names := make([]string, len(live))
	scores := make([][]int, len(live))
	for i, s := range live {
		names[i], scores[i] = s.name, s.ints(r.cfg.Criteria)
	}
	c := CheckConsensus(r.cfg.Criteria, names, scores, accepts)
	r.checks = append(r.checks, c)
	r.rt.Bus.Emit(r.table(title, live, c, accepts))
	return c
}

func (r *run) table(title string, live []*seat, c Check, accepts []bool) engine.Table {
	cs := r.cfg.Criteria
	t := engine.Table{Phase: PhaseCheck, Round: r.round, Title: title}
	t.Columns = append(t.Columns, "judge")
	for _, cr := range cs {
		t.Columns = append(t.Columns, cr.Name)
	}
	t.Columns = append(t.Columns, "overall")
	if accepts != nil {
		t.Columns = append(t.Columns, "accepts")
	}
	for i, s := range live {
		row := engine.Row{Cells: []string{s.name + " · " + s.agent.Name}, Stance: engine.StanceNeutral}
		for _, v := range s.ints(cs) {
			row.Cells = append(row.Cells, fmt.Sprint(v))
		}
		row.Cells = append(row.Cells, fmt2(c.Overall[i]))
		if accepts != nil {
			row.Cells = append(row.Cells, yesNo(accepts[i]))
			row.Stance = engine.StanceDisagree
			if accepts[i] {
				row.Stance = engine.StanceAgree
			}
		}
		t.Rows = append(t.Rows, row)
	}
	t.Rows = append(append(t.Rows, r.droppedRows(accepts != nil)...), spreadRow(c, accepts))
	t.Decision = r.checkDecision(c, accepts != nil)
	return t
}

// droppedRows are the judges no longer in the debate, a row each.
func (r *run) droppedRows(accepts bool) []engine.Row {
	var rows []engine.Row
	for _, s := range r.seats {
		if s.live {
			continue
		}
		cells := []string{s.name + " · " + s.agent.Name}
		for range r.cfg.Criteria {
			cells = append(cells, "–")
		}
		cells = append(cells, "dropped")
		if accepts {
			cells = append(cells, "–")
		}
		rows = append(rows, engine.Row{Cells: cells, Stance: engine.StanceNeutral})
	}
	return rows
}

// spreadRow is the spread of every criterion and of the overall score,
// each over its limit marked, and how many judges accept.
func spreadRow(c Check, accepts []bool) engine.Row {
	spread := engine.Row{Cells: []string{"spread"}, Stance: engine.StanceAgree}
	for _, d := range c.CriterionSpread {
		cell := fmt.Sprint(d)
		if float64(d) > MaxCriterionSpread+eps {
			cell += " ✗"
		}
		spread.Cells = append(spread.Cells, cell)
	}
	ov := fmt2(c.OverallSpread)
	if c.OverallSpread > MaxOverallSpread+eps {
		ov += " ✗"
	}
	spread.Cells = append(spread.Cells, ov)
	if accepts != nil {
		spread.Cells = append(spread.Cells, fmt.Sprintf("%d/%d", len(accepts)-len(c.NotAccepting), len(accepts)))
	}
	if !c.OK {
		spread.Stance = engine.StanceDisagree
	}
	return spread
}

// checkDecision says what the consensus check decided.
func (r *run) checkDecision(c Check, accepts bool) string {
	switch {
	case c.OK:
		return fmt.Sprintf("Consensus: overall %.2f/5 (spread %.2f ≤ %.1f, every criterion within %.0f point%s)",
			c.overall(), c.OverallSpread, MaxOverallSpread, MaxCriterionSpread, map[bool]string{true: ", every judge accepts", false: ""}[accepts])
	case r.round < r.cfg.MaxRounds:
		return fmt.Sprintf("No consensus: %s; on to debate round %d of %d", strings.Join(c.Fails, "; "), r.round+1, r.cfg.MaxRounds)
	}
	return fmt.Sprintf("No consensus after %s: %s; human review needed", engine.Plural(r.round, "debate round"), strings.Join(c.Fails, "; "))
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// debate runs one debate round, every live judge at once, and returns
// whether each judge still live accepts the consensus.
func (r *run) debate(ctx context.Context) []bool {
	r.phase(PhaseDebate, fmt.Sprintf("Debate round %d", r.round))
	live := r.live()
	standing := r.standing(live)
	qs := make([]engine.Question, len(live))
	for i, s := range live {
		prompt := prompts.Render("debate", ShapeDebate, r.debatePrompt(s, live, standing))
		qs[i] = r.question(s, TaskDebate, PhaseDebate, ShapeDebate, prompt,
			func(t string) (engine.Reply, error) { return nonNil(ParseDebate(t, r.cfg.Criteria)) })
	}
	for i, ans := range r.rt.AskAll(ctx, qs) {
		s := live[i]
		if ans.Cancelled {
			continue
		}
		if !ans.OK() {
			r.drop(s, ans)
			continue
		}
		d := ans.Reply.(Debate)
		prev := s.ints(r.cfg.Criteria)
		s.scores = d.Scores
		s.rounds = append(s.rounds, &d)
		r.checkQuotes(s, d.Scores, d.Changes)
		r.checkTotal(s, d.Overall)
		unexplained := Unexplained(r.cfg.Criteria, prev, s.ints(r.cfg.Criteria), d.Changes)
		for _, u := range unexplained {
			msg := fmt.Sprintf("%s changed %s in debate round %d (sycophancy guard)", s.name, u, r.round)
			s.flags = append(s.flags, msg)
			r.notes = append(r.notes, msg)
			r.rt.Note(engine.NoteWarn, "%s", msg)
		}
		r.write(s, debateSections(r.cfg.Criteria, r.round, s, d, prev, unexplained, r.corpus, r.cfg.Solution.Files))
	}
	var accepts []bool
	for _, s := range r.live() {
		last := s.rounds[len(s.rounds)-1]
		accepts = append(accepts, last.AcceptsConsensus)
	}
	return accepts
}

// standing is where the judges stand, in words, for prompts.
func (r *run) standing(live []*seat) string {
	var b strings.Builder
	for i, cr := range r.cfg.Criteria {
		fmt.Fprintf(&b, "- %s:", cr.Name)
		lo, hi := 5, 1
		for k, s := range live {
			v := s.ints(r.cfg.Criteria)[i]
			lo, hi = min(lo, v), max(hi, v)
			sep := ","
			if k == 0 {
				sep = ""
			}
			fmt.Fprintf(&b, "%s %s %d", sep, s.name, v)
		}
		fmt.Fprintf(&b, " (spread %d)\n", max(hi-lo, 0))
	}
	b.WriteString("- weighted overall:")
	for k, s := range live {
		sep := ","
		if k == 0 {
			sep = ""
		}
		fmt.Fprintf(&b, "%s %s %.2f", sep, s.name, Weighted(r.cfg.Criteria, s.ints(r.cfg.Criteria)))
	}
	b.WriteString("\n")
	return b.String()
}

// synthesise asks the first live judge to merge the strengths and
// weaknesses every judge named.
func (r *run) synthesise(ctx context.Context) {
	r.phase(PhaseSynthesis, "Synthesis")
	live := r.live()
	s := live[0]
	prompt := prompts.Render("synthesis", ShapeSynthesis, r.synthesisPrompt(live))
	ans := r.rt.Ask(ctx, r.question(s, TaskSynthesis, PhaseSynthesis, ShapeSynthesis, prompt,
		func(t string) (engine.Reply, error) { return nonNil(ParseSynthesis(t)) }))
	if ans.Cancelled {
		return
	}
	if !ans.OK() {
		words := engine.FailureWords(s.label(), ans.Failed, 0)
		if ans.Unparseable {
			words = s.label() + " returned an unparseable synthesis"
		}
		r.failures = append(r.failures, words+" in the synthesis")
		r.rt.Note(engine.NoteWarn, "%s in the synthesis: the outcome lists each judge's strengths and weaknesses unmerged", words)
		return
	}
	syn := ans.Reply.(Synthesis)
	r.synthesis = &syn
}

// Manifest is what the judges receive: the task and the solution's files
// as they go into prompts, and what was not sent.
func (p *Protocol) Manifest() engine.Manifest {
	m := engine.StartManifest(p.Start())
	for i := range m.Seats {
		m.Seats[i].Inputs[0].Name = "the task"
	}
	m.LeftOut = append(append(m.LeftOut, p.cfg.Solution.Skipped...), p.cfg.Solution.Cut...)
	return m
}

package verdict

import (
	"context"
	"embed"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/seating"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/doc"
)

// Name is the protocol's name in logs and on the command line.
const Name = "verdict"

// Title is how the protocol introduces itself.
const Title = "Verdict: a rubric quality gate — quick judge, deep judge, tiebreaker"

// Noun is what a person calls one run of the protocol.
const Noun = "verdict"

// Seating is the protocol's section of the config file:
//
//	verdict: {quick: gemini, deep: claude, tiebreaker: codex}
var Seating = seating.Plan{Protocol: Name, Seats: []seating.Seat{
	{Key: string(Quick), Label: string(Role(Quick)), Judging: true},
	{Key: string(Deep), Label: string(Role(Deep)), Judging: true},
	{Key: string(Tiebreaker), Label: string(Role(Tiebreaker)), Judging: true},
}}

// The phases.
const (
	PhaseQuick    engine.Phase = "quick"
	PhaseDeep     engine.Phase = "deep"
	PhaseJudges   engine.Phase = "judges" // --thorough: quick and deep in parallel
	PhaseTiebreak engine.Phase = "tiebreak"
)

// What the judges are asked for.
const TaskJudge engine.Task = "judge"

// How a verdict run ends, besides aborted and interrupted: the final
// decision.
const (
	OutcomeAccept   engine.OutcomeKind = "accept"
	OutcomeImprove  engine.OutcomeKind = "improve"
	OutcomeReject   engine.OutcomeKind = "reject"
	OutcomeEscalate engine.OutcomeKind = "escalate"
)

//go:embed prompts/*.tmpl
var promptFS embed.FS

var prompts = engine.NewPrompts(promptFS, "prompts/*.tmpl")

// Config is one verdict run.
type Config struct {
	ID     string
	TaskID string
	Task   string       // what the work had to do
	Work   []engine.Doc // the work: files, or a diff from stdin
	// Judges hold the seats; the tiebreaker is needed with Thorough only.
	Judges    map[Mode]challengers.Agent
	Thorough  bool
	Sensitive bool
	// Notes are said at the start (a tiebreaker of the same provider).
	Notes []string
}

// Seated are the judges, quick, deep, then the tiebreaker when there is
// one.
func (c Config) Seated() []challengers.Agent {
	var out []challengers.Agent
	for _, m := range []Mode{Quick, Deep, Tiebreaker} {
		if a, ok := c.Judges[m]; ok {
			out = append(out, a)
		}
	}
	return out
}

// Protocol is a verdict run, ready for engine.Run.
type Protocol struct {
	cfg    Config
	mu     sync.Mutex
	result Result
}

// New returns the verdict run of cfg.
func New(cfg Config) *Protocol { return &Protocol{cfg: cfg} }

// Result is what a run decided, for the verdict log's final record.
type Result struct {
	Decision   Verdict // "" when the run was interrupted
	Reason     string
	Calls      int // judges asked
	Judgements map[Mode]Judgement
	Failures   []string
}

// Result returns what the run decided; read it after engine.Run returns
// (or once its Outcome event has been emitted).
func (p *Protocol) Result() Result {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.result
}

func (p *Protocol) modes() []Mode {
	if p.cfg.Thorough {
		return []Mode{Quick, Deep, Tiebreaker}
	}
	return []Mode{Quick, Deep}
}

// Phases is the run's phase order.
func (p *Protocol) Phases() []engine.PhaseInfo {
	if p.cfg.Thorough {
		return []engine.PhaseInfo{
			{Phase: PhaseJudges, Title: "Quick and deep judges in parallel"},
			{Phase: PhaseTiebreak, Title: "Tiebreaker"},
			{Phase: engine.PhaseOutcome, Title: "Outcome"},
		}
	}
	return []engine.PhaseInfo{
		{Phase: PhaseQuick, Title: "Quick judge"},
		{Phase: PhaseDeep, Title: "Deep judge"},
		{Phase: engine.PhaseOutcome, Title: "Outcome"},
	}
}

// Role is how a person reads a seat.
func Role(m Mode) engine.Role { return engine.Role(string(m) + " judge") }

// Start is the run's first event.
func (p *Protocol) Start() engine.DebateStarted {
	cfg := p.cfg
	var seats []engine.Seat
	var agents []engine.AgentInfo
	seen := map[string]bool{}
	for _, m := range p.modes() {
		a := cfg.Judges[m]
		seats = append(seats, engine.Seat{Name: string(m), Agent: a.Name, Role: Role(m)})
		if !seen[a.Name] {
			seen[a.Name] = true
			agents = append(agents, engine.InfoOf(a))
		}
	}
	var files []engine.ContextFile
	for _, d := range cfg.Work {
		files = append(files, engine.ContextOf(d.Name, d.Content))
	}
	return engine.DebateStarted{
		ID: cfg.ID, Protocol: Name, Title: Title, Noun: Noun, Words: Spec.Words, Topic: topic(cfg),
		Seats: seats, FollowUpSeat: string(Quick), Agents: agents, Timeout: engine.Duration(cfg.Judges[Quick].Timeout),
		Context: files, Phases: p.Phases(), Layouts: Layouts,
		Settings: []engine.Setting{
			{Name: "task id", Value: cfg.TaskID},
			{Name: "thorough", Value: fmt.Sprint(cfg.Thorough)},
			{Name: "sensitive", Value: fmt.Sprint(cfg.Sensitive)},
		},
	}
}

func topic(cfg Config) string {
	if cfg.Task != "" {
		return cfg.TaskID + ": " + cfg.Task
	}
	return cfg.TaskID
}

// run is one run's state.
type run struct {
	p      *Protocol
	rt     *engine.Runtime
	got    map[Mode]Judged
	js     map[Mode]Judgement
	calls  int
	fails  []string
	cancel bool
	judges map[Mode]challengers.Agent // as resolved (agy standing in for gemini)
}

// preflight makes sure every judge that may be asked is installed: a
// missing CLI is a setup problem to fix, not a question for a human
// reviewer, so the run aborts before any judge is asked.
func (r *run) preflight() string {
	var missing []string
	for _, m := range r.p.modes() {
		a, note, ok := challengers.Resolve(r.p.cfg.Judges[m], r.rt.Env)
		if !ok {
			missing = append(missing, fmt.Sprintf("the %s judge %s is not installed (%q is not on PATH)", m, a.Name, a.Executable()))
			continue
		}
		if note != "" {
			r.rt.Note(engine.NoteInfo, "%s", note)
		}
		r.judges[m] = a
	}
	return strings.Join(missing, "; ")
}

func (r *run) aborted(why string) engine.Outcome {
	r.rt.Note(engine.NoteError, "%s", why)
	r.p.mu.Lock()
	r.p.result = Result{Reason: why}
	r.p.mu.Unlock()
	o := engine.Outcome{
		Result: engine.OutcomeAborted, Stance: engine.StanceDisagree,
		Summary:  fmt.Sprintf("verdict on %s aborted: %s", r.p.cfg.TaskID, why),
		Failures: []string{why},
	}
	o.Document = r.document("aborted")
	return o
}

// Run asks the judges the rule asks for, until a final decision.
func (p *Protocol) Run(ctx context.Context, rt *engine.Runtime) engine.Outcome {
	r := &run{p: p, rt: rt, got: map[Mode]Judged{}, js: map[Mode]Judgement{}, judges: map[Mode]challengers.Agent{}}
	for _, n := range p.cfg.Notes {
		rt.Note(engine.NoteWarn, "%s", n)
	}
	if why := r.preflight(); why != "" {
		return r.aborted(why)
	}
	step := Next(p.cfg.Thorough, r.got)
	for !step.Done() {
		if r.calls+len(step.Ask) > MaxCalls {
			// Next never asks a fourth judge; this keeps the promise
			// should the rule ever change.
			step = Step{Final: Escalate, Reason: fmt.Sprintf("%d judges asked without a decision", r.calls)}
			break
		}
		r.ask(ctx, step.Ask)
		if r.cancel || ctx.Err() != nil {
			return r.interrupted()
		}
		step = Next(p.cfg.Thorough, r.got)
		r.scorecard(step)
	}
	if p.cfg.Sensitive {
		step = Sensitive(step)
	}
	return r.outcome(step)
}

func (r *run) phaseOf(ask []Mode) engine.PhaseInfo {
	switch {
	case len(ask) > 1:
		return engine.PhaseInfo{Phase: PhaseJudges, Title: "Quick and deep judges in parallel"}
	case ask[0] == Tiebreaker:
		return engine.PhaseInfo{Phase: PhaseTiebreak, Title: "Tiebreaker"}
	case ask[0] == Deep && r.p.cfg.Thorough:
		return engine.PhaseInfo{Phase: PhaseJudges, Title: "Deep judge"}
	case ask[0] == Deep:
		return engine.PhaseInfo{Phase: PhaseDeep, Title: "Deep judge"}
	}
	return engine.PhaseInfo{Phase: PhaseQuick, Title: "Quick judge"}
}

// ask asks the judges of one step, in parallel.
func (r *run) ask(ctx context.Context, modes []Mode) {
	ph := r.phaseOf(modes)
	r.rt.Bus.Emit(engine.PhaseStarted{Phase: ph.Phase, Round: 1, Title: ph.Title})
	var qs []engine.Question
	for _, m := range modes {
		qs = append(qs, r.question(m, ph.Phase))
	}
	r.calls += len(modes)
	for i, a := range r.rt.AskAll(ctx, qs) {
		m := modes[i]
		agent := r.p.cfg.Judges[m].Name
		switch {
		case a.Cancelled:
			r.cancel = true
		case a.OK():
			j := a.Reply.(Judgement)
			r.js[m] = j
			r.got[m] = Judged{Verdict: j.Verdict}
			if j.Stated != "" {
				r.rt.Note(engine.NoteWarn, "the %s judge (%s) said %s, but its own scores (%d/%d/%d, average %.2f) make it %s: the thresholds win",
					m, agent, j.Stated, j.Scores.Semantic, j.Scores.Pragmatic, j.Scores.Syntactic, j.Average, j.Verdict)
			}
			if len(j.Stripped) > 0 {
				r.rt.Note(engine.NoteInfo, "the %s judge (%s) was told to return JSON only; arena stripped %s", m, agent, strings.Join(j.Stripped, ", "))
			}
		case a.Unparseable:
			r.got[m] = Judged{Failed: fmt.Sprintf("(%s) gave no valid JSON after one repair request", agent)}
			r.fails = append(r.fails, fmt.Sprintf("%s (%s judge) gave no valid JSON after one repair request", agent, m))
		default:
			why := engine.FailureWords(agent, a.Failed, 0)
			r.got[m] = Judged{Failed: fmt.Sprintf("(%s) failed after one retry: %s", agent, strings.TrimPrefix(why, agent+" "))}
			r.fails = append(r.fails, fmt.Sprintf("%s (%s judge) %s after one retry", agent, m, strings.TrimPrefix(why, agent+" ")))
		}
	}
}

// workPrompt is the data of the prompt templates.
type workPrompt struct {
	Task  string
	Work  []engine.Doc
	Prior []prior
}

// prior is an earlier verdict shown to the tiebreaker under a neutral
// label, so the model weighs the reasons and not the names.
type prior struct {
	Label string
	Judgement
}

func (r *run) question(m Mode, ph engine.Phase) engine.Question {
	cfg := r.p.cfg
	data := workPrompt{Task: topic(cfg), Work: cfg.Work}
	tmpl, shape := "quick", ShapeQuick
	switch m {
	case Deep:
		tmpl, shape = "deep", ShapeDeep
	case Tiebreaker:
		tmpl, shape = "deep", ShapeTiebreak
		data.Prior = []prior{{"Judge A", r.js[Quick]}, {"Judge B", r.js[Deep]}}
	}
	return engine.Question{
		Seat: string(m), Agent: r.judges[m], Role: Role(m), Phase: ph, Round: 1, Task: TaskJudge,
		Shape: shape, Prompt: prompts.Render(tmpl, shape, data), Retries: 1,
		Parse: func(text string) (engine.Reply, error) { return Parse(text) },
	}
}

// scorecard shows every judgement so far and what the rule decided.
func (r *run) scorecard(step Step) {
	t := engine.Table{
		Phase: r.phaseOf(r.asked()).Phase, Round: 1, Title: "Scorecard",
		Columns: []string{"judge", "agent", "semantic", "pragmatic", "syntactic", "average", "verdict"},
	}
	t.Rows = r.rows()
	if step.Done() {
		t.Decision = fmt.Sprintf("%s: %s", strings.ToUpper(string(step.Final)), step.Reason)
	} else {
		var names []string
		for _, m := range step.Ask {
			names = append(names, string(m))
		}
		t.Decision = "next: the " + strings.Join(names, " and ") + " judge"
	}
	r.rt.Bus.Emit(t)
}

func (r *run) asked() []Mode {
	var out []Mode
	for _, m := range r.p.modes() {
		if _, ok := r.got[m]; ok {
			out = append(out, m)
		}
	}
	if slices.Contains(out, Tiebreaker) {
		return []Mode{Tiebreaker}
	}
	if r.p.cfg.Thorough {
		return []Mode{Quick, Deep}
	}
	return out[len(out)-1:]
}

func (r *run) rows() []engine.Row {
	var rows []engine.Row
	for _, m := range r.p.modes() {
		g, ok := r.got[m]
		if !ok {
			continue
		}
		agent := r.p.cfg.Judges[m].Name
		if g.Failed != "" {
			rows = append(rows, engine.Row{Cells: []string{string(m), agent, "–", "–", "–", "–", "no verdict"}, Stance: engine.StanceNeutral})
			continue
		}
		j := r.js[m]
		v := string(j.Verdict)
		if j.Stated != "" {
			v += " (model said " + string(j.Stated) + ")"
		}
		rows = append(rows, engine.Row{Cells: []string{
			string(m), agent, fmt.Sprint(j.Scores.Semantic), fmt.Sprint(j.Scores.Pragmatic), fmt.Sprint(j.Scores.Syntactic),
			fmt.Sprintf("%.2f", j.Average), v,
		}, Stance: Stance(j.Verdict)})
	}
	return rows
}

func (r *run) interrupted() engine.Outcome {
	r.p.mu.Lock()
	r.p.result = Result{Reason: "interrupted", Calls: r.calls, Judgements: r.js, Failures: r.fails}
	r.p.mu.Unlock()
	o := engine.Outcome{
		Result: engine.OutcomeInterrupted, Stance: engine.StanceDisagree, Rounds: 1,
		Summary:  fmt.Sprintf("verdict on %s interrupted after %s", r.p.cfg.TaskID, engine.Plural(r.calls, "judge")),
		Where:    "after " + engine.Plural(r.calls, "judge"),
		Failures: r.fails,
	}
	o.Document = r.document("interrupted")
	return o
}

func (r *run) outcome(step Step) engine.Outcome {
	r.p.mu.Lock()
	r.p.result = Result{Decision: step.Final, Reason: step.Reason, Calls: r.calls, Judgements: r.js, Failures: r.fails}
	r.p.mu.Unlock()
	r.rt.Bus.Emit(engine.PhaseStarted{Phase: engine.PhaseOutcome, Round: 1, Title: "Outcome"})
	o := engine.Outcome{
		Result: engine.OutcomeKind(step.Final), Stance: Stance(step.Final), Rounds: 1, // one pass of judging; Result().Calls counts the judges
		Summary:  fmt.Sprintf("%s: %s (%s)", r.p.cfg.TaskID, strings.ToUpper(string(step.Final)), step.Reason),
		Failures: r.fails,
	}
	o.Document = r.document(string(step.Final))
	return o
}

// document is the outcome document.
func (r *run) document(decision string) *doc.Document {
	d := doc.Document{Title: "Verdict", Result: strings.ToUpper(decision)}
	d.Started("Task", topic(r.p.cfg))
	if rows := r.rows(); len(rows) > 0 {
		var cells [][]string
		for _, row := range rows {
			cells = append(cells, row.Cells)
		}
		d.Sections = append(d.Sections, doc.Section{ID: "scorecard", Heading: "Scorecard", Restates: &doc.Restates{Tables: []string{"Scorecard"}},
			Blocks: []doc.Block{doc.TableOf([]string{"judge", "agent", "semantic", "pragmatic", "syntactic", "average", "verdict"}, cells)}})
	}
	for _, m := range r.p.modes() {
		j, ok := r.js[m]
		if !ok {
			continue
		}
		sec := doc.Section{Heading: fmt.Sprintf("%s judge (%s)", titleCase(string(m)), r.p.cfg.Judges[m].Name),
			Restates: &doc.Restates{Seats: []string{string(m)}}, Blocks: []doc.Block{doc.Para(j.Reasoning)}}
		if len(j.Improvements) > 0 {
			sec.Blocks = append(sec.Blocks, doc.Bullets("Improvements:", j.Improvements...))
		}
		d.Sections = append(d.Sections, sec)
	}
	if f := r.findings(); len(f) > 0 {
		d.Sections = append(d.Sections, doc.Section{ID: doc.SectionFindings, Heading: "Findings",
			Blocks: []doc.Block{{Findings: &doc.Findings{Intro: "The improvements the judges asked for, where in the work they quoted:", Items: f}}}})
	}
	if len(r.fails) > 0 {
		d.Add("Failures", doc.Bullets("", r.fails...))
	}
	d.Add("Thresholds", doc.Para("Applied by arena to the scores: accept when every dimension is at least 3 and the average at least 3.5; reject when any dimension is below 2; improve otherwise."))
	return &d
}

// findings are the judges' improvements as findings: one asked for by
// two judges is one finding of both, at the higher level (error from a
// judge that rejects, warning from one that asks for improvement, note
// from one that accepts); a quoted one has the place arena found the
// quote at in the work, or is flagged when the work does not hold it.
func (r *run) findings() []doc.Finding {
	var out []doc.Finding
	seen := map[string]int{}
	for _, m := range r.p.modes() {
		j, ok := r.js[m]
		if !ok {
			continue
		}
		by := fmt.Sprintf("%s (%s judge)", r.p.cfg.Judges[m].Name, m)
		level := findingLevel(j.Verdict)
		for i, text := range j.Improvements {
			quote := ""
			if i < len(j.Quotes) {
				quote = j.Quotes[i]
			}
			key := engine.Squash(strings.ToLower(text)) + "\x00" + engine.Squash(quote)
			if k, ok := seen[key]; ok {
				out[k].By = append(out[k].By, by)
				out[k].Level = higher(out[k].Level, level)
				continue
			}
			f := doc.Finding{About: "improvement", Issue: text, Quote: quote, Level: level, By: []string{by}}
			if quote != "" {
				if f.File, f.Line = engine.Locate(r.p.cfg.Work, quote); f.File == "" {
					f.Flag = "not found in the work"
				}
			}
			seen[key] = len(out)
			out = append(out, f)
		}
	}
	return out
}

// findingLevel is the level of an improvement a judge of verdict v asks
// for.
func findingLevel(v Verdict) string {
	switch v {
	case Reject:
		return doc.LevelError
	case Accept:
		return doc.LevelNote
	}
	return doc.LevelWarning
}

// higher is the weightier of two levels.
func higher(a, b string) string {
	rank := map[string]int{doc.LevelNote: 1, doc.LevelWarning: 2, doc.LevelError: 3}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

func titleCase(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// Package compare is the comparative debate (seed 001): advocates argue
// for competing options with asymmetric lenses, attack each other's
// openings, and a judge scores every option on weighted criteria, asked in
// parallel in counterbalanced orders of the options (two by default, the
// second the reverse of the first). arena computes the weighted totals,
// counts a preference that changed with the order as a tie, and decides
// whether the recommendation survives the change of order.
package compare

import (
	"context"
	"embed"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/seating"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/receipt"
)

// Name is the protocol's name in logs and on the command line.
const Name = "compare"

// Title is how the protocol introduces itself.
const Title = "Comparative debate: advocates argue, a judge scores in both orders"

// Noun is what a person calls one run of the protocol.
const Noun = "comparison"

// Seating is the protocol's section of the config file:
//
//	compare: {advocates: [gemini, codex], judge: claude}
var Seating = seating.Plan{Protocol: Name, Seats: []seating.Seat{
	{Key: "advocates", Label: "advocate", Many: true}, // one per option, in option order
	{Key: "judge", Label: "judge", Judging: true},
}}

// The phases.
const (
	PhasePreflight engine.Phase = "preflight"
	PhaseCriteria  engine.Phase = "criteria"
	PhaseOpening   engine.Phase = "opening"
	PhaseRebuttal  engine.Phase = "rebuttal"
	PhaseJudge     engine.Phase = "judge"
)

// What agents are asked for.
const (
	TaskCriteria engine.Task = "criteria"
	TaskOpening  engine.Task = "opening"
	TaskRebuttal engine.Task = "rebuttal"
	TaskJudge    engine.Task = "judge"
)

// How a comparison ends, besides aborted and interrupted.
const (
	// OutcomeRecommendation: the judge recommended the same option in
	// both orders.
	OutcomeRecommendation engine.OutcomeKind = "recommendation"
	// OutcomeOrderDependent: the recommendation changed with the order the
	// options were presented in; it is not robust.
	OutcomeOrderDependent engine.OutcomeKind = "order_dependent"
)

// lenses are the advocates' argumentative lenses, assigned in turn.
var lenses = []string{
	"Lead with LONG-TERM STRATEGIC FIT: emphasise durability, scalability, ecosystem trajectory, and how well the option positions the organisation for the next 2-3 years.",
	"Lead with PRAGMATIC NEAR-TERM EXECUTION: emphasise implementation speed, risk reduction, team productivity in the next 6-12 months, and practical integration concerns.",
	"Lead with COST AND OPERATIONS: emphasise total cost of ownership, operational burden, on-call load and the skills the team already has.",
	"Lead with RISK AND REVERSIBILITY: emphasise failure modes, blast radius, and how cheaply the choice can be undone if it proves wrong.",
}

//go:embed prompts/*.tmpl
var promptFS embed.FS

var prompts = engine.NewPrompts(promptFS, "prompts/*.tmpl")

// Config is one comparison.
type Config struct {
	ID           string
	Decision     string
	Options      []string    // two to four, as the user named them
	Criteria     []Criterion // nil: the judge proposes them first
	Context      []engine.Doc
	Stakeholders string
	Advocates    []challengers.Agent // one per option, in option order
	Judge        challengers.Agent
	// StandIns take over a seat whose agent failed twice, in order; an
	// agent holding a seat is never a stand-in.
	StandIns []challengers.Agent
	Quick    bool // no rebuttals
	Single   bool // one agent scores the options alone
	// Orders is how many counterbalanced orders the judge is asked in
	// (0: two, or one with Single); see receipt.Orders.
	Orders int
	// Repeats is how many times each order is asked (0 or 1: once): the
	// same prompt again, a call of its own, to tell the judge's noise
	// from its position bias (arena stats' repeat stability).
	Repeats int
	// Authors are the agents that wrote each option, in option order,
	// where the person said ("" or nil: not said), for arena stats.
	Authors []string
	Timeout time.Duration
}

// DefaultOrders is how many orders the judge is asked in by default.
const DefaultOrders = 2

// orders is how many orders the judge is asked in.
func (c Config) orders() int {
	switch {
	case c.Orders > 0:
		return min(c.Orders, receipt.MaxOrders(len(c.Options)))
	case c.Single:
		return 1
	}
	return DefaultOrders
}

// repeats is how many times the judge is asked each order.
func (c Config) repeats() int { return max(c.Repeats, 1) }

// author is the agent that wrote option i ("" when not said).
func (c Config) author(i int) string {
	if i < len(c.Authors) {
		return c.Authors[i]
	}
	return ""
}

// Protocol is a comparison, ready to run (engine.Run).
type Protocol struct{ cfg Config }

// New returns the comparison of cfg.
func New(cfg Config) *Protocol { return &Protocol{cfg: cfg} }

// Seat names: one per advocate, one per order the judge reads in.
func advocateSeat(option string) string { return "for " + option }

const judgeSeat = "judge"

// judgeSeatOf is the seat of the judge's k-th order, asked for the
// rep-th time (0: the first): "judge", "judge, reversed", "judge, order
// 3", "judge, reversed, repeat 2". Each asking is a seat of its own, so
// that a repeat is a call of its own (arena resume reuses each asking's
// own reply).
func judgeSeatOf(k, rep int) string {
	seat := fmt.Sprintf("judge, order %d", k+1)
	switch k {
	case 0:
		seat = judgeSeat
	case 1:
		seat = "judge, reversed"
	}
	return seat + repeatWords(rep)
}

// judgeRoleOf is that seat's role.
func judgeRoleOf(k, rep int) engine.Role {
	role := fmt.Sprintf("judge, options in order %d", k+1)
	switch k {
	case 0:
		role = "judge"
	case 1:
		role = "judge, options reversed"
	}
	return engine.Role(role + repeatWords(rep))
}

// repeatWords name the rep-th asking of an order: "" for the first,
// ", repeat 2" for the second.
func repeatWords(rep int) string {
	if rep == 0 {
		return ""
	}
	return fmt.Sprintf(", repeat %d", rep+1)
}

// Phases lists the phases this comparison goes through.
func (p *Protocol) Phases() []engine.PhaseInfo {
	ph := []engine.PhaseInfo{{Phase: PhasePreflight, Title: "Preflight"}}
	if p.cfg.Criteria == nil {
		ph = append(ph, engine.PhaseInfo{Phase: PhaseCriteria, Title: "Criteria"})
	}
	if !p.cfg.Single {
		ph = append(ph, engine.PhaseInfo{Phase: PhaseOpening, Title: "Openings"})
		if !p.cfg.Quick {
			ph = append(ph, engine.PhaseInfo{Phase: PhaseRebuttal, Title: "Rebuttals"})
		}
	}
	return append(ph, engine.PhaseInfo{Phase: PhaseJudge, Title: "Judgement"}, engine.PhaseInfo{Phase: engine.PhaseOutcome, Title: "Outcome"})
}

// Start is the comparison's first event.
func (p *Protocol) Start() engine.DebateStarted {
	cfg := p.cfg
	var seats []engine.Seat
	var agents []engine.AgentInfo
	addAgent := func(a challengers.Agent) {
		if !slices.ContainsFunc(agents, func(i engine.AgentInfo) bool { return i.Name == a.Name }) {
			agents = append(agents, engine.InfoOf(a))
		}
	}
	if !cfg.Single {
		for i, o := range cfg.Options {
			seats = append(seats, engine.Seat{Name: advocateSeat(o), Agent: cfg.Advocates[i].Name, Role: engine.Role("advocate for " + o)})
			addAgent(cfg.Advocates[i])
		}
	}
	for k := range cfg.orders() {
		for rep := range cfg.repeats() {
			seats = append(seats, engine.Seat{Name: judgeSeatOf(k, rep), Agent: cfg.Judge.Name, Role: judgeRoleOf(k, rep)})
		}
	}
	addAgent(cfg.Judge)
	var ctxFiles []engine.ContextFile
	for _, d := range cfg.Context {
		ctxFiles = append(ctxFiles, engine.ContextOf(d.Name, d.Content))
	}
	settings := []engine.Setting{{Name: "options", Value: strings.Join(cfg.Options, " · ")}}
	if cfg.Criteria != nil {
		settings = append(settings, engine.Setting{Name: "criteria", Value: criteriaWords(cfg.Criteria)})
	}
	switch {
	case cfg.Single:
		settings = append(settings, engine.Setting{Name: "mode", Value: "single: one agent scores alone"})
	case cfg.Quick:
		settings = append(settings, engine.Setting{Name: "mode", Value: "quick: no rebuttals"})
	}
	if k := cfg.orders(); k != DefaultOrders {
		settings = append(settings, engine.Setting{Name: "orders", Value: fmt.Sprint(k)})
	}
	if n := cfg.repeats(); n > 1 {
		settings = append(settings, engine.Setting{Name: "repeats", Value: fmt.Sprint(n)})
	}
	if slices.ContainsFunc(cfg.Authors, func(a string) bool { return a != "" }) {
		var parts []string
		for i, o := range cfg.Options {
			parts = append(parts, o+": "+engine.OrDash(cfg.author(i)))
		}
		settings = append(settings, engine.Setting{Name: "authors", Value: strings.Join(parts, " · ")})
	}
	return engine.DebateStarted{
		ID: cfg.ID, Protocol: Name, Title: Title, Noun: Noun, Words: Spec.Words, Topic: cfg.Decision,
		Seats: seats, FollowUpSeat: judgeSeat, Agents: agents, Timeout: engine.Duration(cfg.Timeout),
		Context: ctxFiles, Settings: settings, Phases: p.Phases(), Layouts: Layouts,
	}
}

func criteriaWords(cs []Criterion) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.Name + ":" + c.Weight
	}
	return strings.Join(parts, ", ")
}

// run is one comparison's state.
type run struct {
	cfg      Config
	rt       *engine.Runtime
	criteria []Criterion
	judge    challengers.Agent
	advs     []challengers.Agent
	standIns []challengers.Agent

	openings  []*Opening // by option
	openText  []string   // each opening as the others and the judge read it
	rebuttals []*Rebuttal
	readings  []reading

	abort    string
	failures []string
	notes    []string // findings for the audit: misquotes, hedges, totals
	trail    []trailEntry
	phase    engine.Phase
}

// reading is the judge's scorecard in one order of the options.
type reading struct {
	order []string
	// criteria are the criteria in the order the judge was shown them,
	// rotated with the options (judgeOrders).
	criteria    []string
	k, rep      int // which order, and which asking of it
	j           Judgement
	card        Scorecard
	seat, agent string
	bytes       []int // what the judge read of each option, in order
}

type trailEntry struct {
	phase engine.Phase
	seat  string
	agent string
	body  string
}

// Run runs the comparison to its outcome.
func (p *Protocol) Run(ctx context.Context, rt *engine.Runtime) engine.Outcome {
	r := &run{cfg: p.cfg, rt: rt, criteria: p.cfg.Criteria, judge: p.cfg.Judge,
		advs: slices.Clone(p.cfg.Advocates), standIns: slices.Clone(p.cfg.StandIns)}
	r.openings = make([]*Opening, len(r.cfg.Options))
	r.openText = make([]string, len(r.cfg.Options))
	r.rebuttals = make([]*Rebuttal, len(r.cfg.Options))
	steps := []struct {
		phase engine.Phase
		title string
		do    func(context.Context)
		skip  bool
	}{
		{PhasePreflight, "Preflight", func(context.Context) { r.preflight() }, false},
		{PhaseCriteria, "Criteria", r.askCriteria, r.criteria != nil},
		{PhaseOpening, "Openings", r.openingsPhase, r.cfg.Single},
		{PhaseRebuttal, "Rebuttals", r.rebuttalsPhase, r.cfg.Single || r.cfg.Quick},
		{PhaseJudge, "Judgement", r.judgePhase, false},
	}
	for _, s := range steps {
		if s.skip {
			continue
		}
		if r.abort != "" || ctx.Err() != nil {
			break
		}
		r.phase = s.phase
		rt.Bus.Emit(engine.PhaseStarted{Phase: s.phase, Round: 1, Title: s.title})
		s.do(ctx)
	}
	rt.Bus.Emit(engine.PhaseStarted{Phase: engine.PhaseOutcome, Round: 1, Title: "Outcome"})
	return r.outcome(ctx)
}

// preflight resolves every seat's agent (a stand-in such as agy for
// gemini), and gives a seat whose agent is not installed to a stand-in.
func (r *run) preflight() {
	resolve := func(a challengers.Agent, seat string) (challengers.Agent, bool) {
		if got, note, ok := challengers.Resolve(a, r.rt.Env); ok {
			if note != "" {
				r.rt.Note(engine.NoteInfo, "%s", note)
			}
			return got, true
		}
		why := fmt.Sprintf("%s is not installed (%q is not on PATH)", a.Name, a.Executable())
		r.failures = append(r.failures, why)
		sub, ok := r.nextStandIn()
		if !ok {
			r.abort = fmt.Sprintf("no agent left for %s: %s", engine.TheSeat(seat), why)
			return a, false
		}
		r.rt.Note(engine.NoteWarn, "%s; %s takes %s", why, sub.Name, engine.TheSeat(seat))
		return sub, true
	}
	var ok bool
	if r.judge, ok = resolve(r.judge, judgeSeat); !ok {
		return
	}
	if r.cfg.Single {
		return
	}
	for i, a := range r.advs {
		if r.advs[i], ok = resolve(a, advocateSeat(r.cfg.Options[i])); !ok {
			return
		}
	}
}

// nextStandIn takes the next stand-in that is installed.
func (r *run) nextStandIn() (challengers.Agent, bool) {
	for len(r.standIns) > 0 {
		a := r.standIns[0]
		r.standIns = r.standIns[1:]
		if got, _, ok := challengers.Resolve(a, r.rt.Env); ok {
			return got, true
		}
	}
	return challengers.Agent{}, false
}

// question builds a question with one retry, as every seat gets.
func (r *run) question(seat string, a challengers.Agent, role string, task engine.Task, shape, prompt string, parse func(string) (engine.Reply, error)) engine.Question {
	return engine.Question{Seat: seat, Agent: a, Role: engine.Role(role), Phase: r.phase, Round: 1, Task: task,
		Shape: shape, Prompt: prompt, Retries: 1, Parse: parse}
}

// askSeats asks questions in parallel; a seat that failed even after its
// retry (or gave an unusable reply after its repair request) is asked
// again with a stand-in. It returns the answers, and false when a seat is
// left without an answer (the comparison is then aborted).
func (r *run) askSeats(ctx context.Context, qs []engine.Question) ([]engine.Answer, bool) {
	answers := r.rt.AskAll(ctx, qs)
	for i := range answers {
		for !answers[i].OK() {
			if answers[i].Cancelled || ctx.Err() != nil {
				return answers, false
			}
			q := qs[i]
			why := engine.FailureWords(q.Agent.Name, answers[i].Failed, 0)
			r.failures = append(r.failures, fmt.Sprintf("%s (%s)", why, engine.TheSeat(q.Seat)))
			sub, ok := r.nextStandIn()
			if !ok {
				r.abort = fmt.Sprintf("no agent left for %s after %s", engine.TheSeat(q.Seat), why)
				return answers, false
			}
			r.rt.Note(engine.NoteWarn, "%s; %s takes %s", why, sub.Name, engine.TheSeat(q.Seat))
			r.replace(q.Agent.Name, sub)
			q.Agent = sub
			qs[i] = q
			answers[i] = r.rt.Ask(ctx, q)
		}
	}
	return answers, true
}

// replace gives every seat held by a failed agent to its stand-in.
func (r *run) replace(failed string, sub challengers.Agent) {
	if r.judge.Name == failed {
		r.judge = sub
	}
	for i := range r.advs {
		if r.advs[i].Name == failed {
			r.advs[i] = sub
		}
	}
}

type base struct {
	Topic        string
	Context      []engine.Doc
	Options      []string
	Criteria     []Criterion
	Stakeholders string
}

func (r *run) base(order []string) base {
	return base{Topic: r.cfg.Decision, Context: r.cfg.Context, Options: order, Criteria: r.criteria, Stakeholders: r.cfg.Stakeholders}
}

// judgeOrder is one order the judge reads the options in: the options,
// and the criteria, each in their k-th counterbalanced order.
type judgeOrder struct {
	options  []string
	criteria []Criterion
}

// judgeOrders are the orders the judge is asked in: the options as given,
// reversed, and further counterbalanced orders when asked (receipt.Orders),
// with the criteria rotated the same way. A judge that weighs the first
// criterion it reads most is then counterbalanced as one that favours the
// first option is. Criteria with fewer distinct orders than the options
// (one criterion; two of them over three orders) take theirs in turn.
func (r *run) judgeOrders() []judgeOrder {
	k := r.cfg.orders()
	optionOrders := receipt.Orders(indexes(len(r.cfg.Options)), k)
	criteriaOrders := receipt.Orders(indexes(len(r.criteria)), k)
	out := make([]judgeOrder, len(optionOrders))
	for n, o := range optionOrders {
		for _, i := range o {
			out[n].options = append(out[n].options, r.cfg.Options[i])
		}
		if len(criteriaOrders) == 0 {
			continue
		}
		for _, i := range criteriaOrders[n%len(criteriaOrders)] {
			out[n].criteria = append(out[n].criteria, r.criteria[i])
		}
	}
	return out
}

// indexes are 0 … n-1.
func indexes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func (r *run) askCriteria(ctx context.Context) {
	q := r.question(judgeSeat, r.judge, "judge", TaskCriteria, ShapeCriteria,
		prompts.Render("criteria", ShapeCriteria, r.base(r.cfg.Options)),
		func(t string) (engine.Reply, error) { return nonNil(parseCriteriaReply(t)) })
	answers, ok := r.askSeats(ctx, []engine.Question{q})
	if !ok {
		return
	}
	c := answers[0].Reply.(Criteria)
	r.criteria = c.Criteria
	r.record(judgeSeat, r.judge.Name, c.Display())
	t := engine.Table{Phase: PhaseCriteria, Round: 1, Title: "Criteria", Columns: []string{"criterion", "weight", "why"},
		Decision: "every seat now argues and scores on these criteria"}
	for _, cr := range r.criteria {
		t.Rows = append(t.Rows, engine.Row{Cells: []string{cr.Name, cr.Weight, cr.Why}, Stance: engine.StanceNeutral})
	}
	r.rt.Bus.Emit(t)
}

type openingPrompt struct {
	base
	Option, Other, Lens string
}

func (r *run) openingsPhase(ctx context.Context) {
	qs := make([]engine.Question, len(r.cfg.Options))
	for i, o := range r.cfg.Options {
		p := openingPrompt{base: r.base(r.cfg.Options), Option: o, Other: others(r.cfg.Options, i), Lens: lenses[i%len(lenses)]}
		qs[i] = r.question(advocateSeat(o), r.advs[i], "advocate for "+o, TaskOpening, ShapeOpening,
			prompts.Render("opening", ShapeOpening, p),
			func(t string) (engine.Reply, error) {
				return nonNil(parseOpening(t, o, r.cfg.Options, r.criteria))
			})
	}
	answers, ok := r.askSeats(ctx, qs)
	if !ok {
		return
	}
	for i, a := range answers {
		o := a.Reply.(Opening)
		r.openings[i] = &o
		r.openText[i] = o.Display()
		r.record(qs[i].Seat, qs[i].Agent.Name, r.openText[i])
	}
}

// others names the options other than the i-th: "Kafka", or "Kafka and
// NATS".
func others(options []string, i int) string {
	var out []string
	for j, o := range options {
		if j != i {
			out = append(out, o)
		}
	}
	if len(out) <= 1 {
		return strings.Join(out, "")
	}
	return strings.Join(out[:len(out)-1], ", ") + " and " + out[len(out)-1]
}

type rebuttalPrompt struct {
	base
	Option, Opponent, OpponentOpening string
}

// target is the option whose opening the i-th advocate attacks: the
// next one, round the list.
func target(i, n int) int { return (i + 1) % n }

func (r *run) rebuttalsPhase(ctx context.Context) {
	n := len(r.cfg.Options)
	qs := make([]engine.Question, n)
	for i, o := range r.cfg.Options {
		t := target(i, n)
		p := rebuttalPrompt{base: r.base(r.cfg.Options), Option: o, Opponent: r.cfg.Options[t], OpponentOpening: r.openText[t]}
		qs[i] = r.question(advocateSeat(o), r.advs[i], "advocate for "+o, TaskRebuttal, ShapeRebuttal,
			prompts.Render("rebuttal", ShapeRebuttal, p),
			func(t string) (engine.Reply, error) { return nonNil(parseRebuttal(t)) })
	}
	answers, ok := r.askSeats(ctx, qs)
	if !ok {
		return
	}
	for i, a := range answers {
		reb := a.Reply.(Rebuttal)
		r.rebuttals[i] = &reb
		r.record(qs[i].Seat, qs[i].Agent.Name, reb.Display())
		t := target(i, n)
		for _, at := range reb.Attacks {
			if !Quoted(at.Claim, r.openText[t]) {
				msg := fmt.Sprintf("the advocate for %s quoted a claim that is not in the opening for %s: %q", r.cfg.Options[i], r.cfg.Options[t], at.Claim)
				r.notes = append(r.notes, msg)
				r.rt.Note(engine.NoteWarn, "%s", msg)
			}
		}
	}
}

type judgeCase struct{ Option, Opening, Rebuttal string }

type judgePrompt struct {
	base
	Cases     []judgeCase
	Rebuttals bool
}

// judgePhase asks the judge for its scorecard in every order at once: the
// options as given, reversed, and further counterbalanced orders when
// asked, the criteria rotated with them (judgeOrders), each order asked
// Repeats times; once, alone, with --single.
func (r *run) judgePhase(ctx context.Context) {
	var qs []engine.Question
	var asked []reading
	var cases [][]judgeCase
	for k, jo := range r.judgeOrders() {
		b := r.base(jo.options)
		b.Criteria = jo.criteria
		p := judgePrompt{base: b, Rebuttals: !r.cfg.Quick && !r.cfg.Single}
		for _, o := range jo.options {
			i := slices.Index(r.cfg.Options, o)
			c := judgeCase{Option: o, Opening: r.openText[i]}
			if r.rebuttals[i] != nil {
				c.Rebuttal = r.rebuttals[i].Display()
			}
			p.Cases = append(p.Cases, c)
		}
		name := "judge"
		if r.cfg.Single {
			name = "single"
		}
		prompt := prompts.Render(name, ShapeJudge, p)
		var names []string
		for _, c := range jo.criteria {
			names = append(names, c.Name)
		}
		for rep := range r.cfg.repeats() {
			qs = append(qs, r.question(judgeSeatOf(k, rep), r.judge, string(judgeRoleOf(k, rep)), TaskJudge, ShapeJudge, prompt,
				func(t string) (engine.Reply, error) {
					return nonNil(parseJudgement(t, r.cfg.Options, r.criteria, p.Rebuttals))
				}))
			asked = append(asked, reading{order: jo.options, criteria: names, k: k, rep: rep})
			cases = append(cases, p.Cases)
		}
	}
	answers, ok := r.askSeats(ctx, qs)
	if !ok {
		return
	}
	for k, a := range answers {
		j := a.Reply.(Judgement)
		rd := asked[k]
		rd.j, rd.card, rd.seat, rd.agent = j, Card(j.Scores), qs[k].Seat, qs[k].Agent.Name
		for _, c := range cases[k] {
			rd.bytes = append(rd.bytes, len(c.Opening)+len(c.Rebuttal))
		}
		r.readings = append(r.readings, rd)
		r.record(qs[k].Seat, qs[k].Agent.Name, j.Display())
		for o, stated := range j.Totals {
			if got := Total(rd.card, o, r.criteria); float64(got) != stated {
				msg := fmt.Sprintf("the %s stated a weighted total of %g for %s; from its scores it is %d, and that is used", qs[k].Seat, stated, o, got)
				r.notes = append(r.notes, msg)
				r.rt.Note(engine.NoteInfo, "%s", msg)
			}
		}
	}
	r.emitScored()
	// The receipts first: a screen shows the latest table, and the
	// scorecard, with its recommendation, is what the run ends on.
	if len(r.readings) > 1 {
		r.rt.Bus.Emit(r.receiptTable())
	}
	r.scorecardTable()
}

func (r *run) picks() []string {
	out := make([]string, len(r.readings))
	for i, rd := range r.readings {
		out[i] = rd.j.Recommendation
	}
	return out
}

// scorecardTable shows the weighted totals of each reading, their
// average, and who recommended what.
func (r *run) scorecardTable() {
	cols := []string{"option"}
	for i := range r.readings {
		cols = append(cols, r.readingName(i))
	}
	cols = append(cols, "average", "recommended by")
	v := Decide(r.picks())
	lv := r.levelled()
	leader, _ := lv.Leader(r.cfg.Options, r.criteria)
	t := engine.Table{Phase: PhaseJudge, Round: 1, Title: "Weighted scorecard", Columns: cols}
	for _, o := range r.cfg.Options {
		cells := []string{o}
		for _, rd := range r.readings {
			cells = append(cells, fmt.Sprint(Total(rd.card, o, r.criteria)))
		}
		cells = append(cells, fmt.Sprintf("%.1f", lv.Total(o, r.criteria)))
		var by []string
		for i, rd := range r.readings {
			if rd.j.Recommendation == o {
				by = append(by, r.readingName(i))
			}
		}
		cells = append(cells, strings.Join(by, ", "))
		stance := engine.StanceNeutral
		switch {
		case v.Recommendation == o:
			stance = engine.StanceAgree
		case len(by) > 0:
			stance = engine.StancePartial
		case o == leader:
			stance = engine.StancePartial
		}
		t.Rows = append(t.Rows, engine.Row{Cells: cells, Stance: stance})
	}
	switch {
	case v.Flipped:
		t.Decision = "the recommendation changed with the order of the options: not robust"
	default:
		t.Decision = "recommended: " + v.Recommendation
	}
	r.rt.Bus.Emit(t)
}

// readingName names reading i: "as given", "reversed", "order 3", and
// "as given, repeat 2" for an order asked again; "score" when there is
// one reading.
func (r *run) readingName(i int) string {
	if len(r.readings) == 1 {
		return "score"
	}
	rd := r.readings[i]
	return orderName(rd.k) + repeatWords(rd.rep)
}

// orderName names the judge's k-th order of the options.
func orderName(k int) string {
	switch k {
	case 0:
		return "as given"
	case 1:
		return "reversed"
	}
	return fmt.Sprintf("order %d", k+1)
}

func (r *run) record(seat, agent, body string) {
	r.trail = append(r.trail, trailEntry{phase: r.phase, seat: seat, agent: agent, body: body})
}

// nonNil adapts a typed parse result to engine.Reply, keeping a nil
// interface on error.
func nonNil[T engine.Reply](v T, err error) (engine.Reply, error) {
	if err != nil {
		return nil, err
	}
	return v, nil
}

// Manifest is what every seat receives: the decision, the context files
// and the stakeholders' file.
func (p *Protocol) Manifest() engine.Manifest {
	m := engine.StartManifest(p.Start())
	if p.cfg.Stakeholders != "" {
		for i := range m.Seats {
			m.Seats[i].Inputs = append(m.Seats[i].Inputs, engine.ManifestInput{Name: "the stakeholders", Bytes: int64(len(p.cfg.Stakeholders))})
		}
	}
	return m
}

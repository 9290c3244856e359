package adversarial

import (
	"context"
	"embed"
	"fmt"
	"strings"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine"
)

// Name is the protocol's name in logs and on the command line.
const Name = "adversarial"

// Title is how the adversarial protocol introduces itself.
const Title = "Adversarial debate: parallel challenge → sequential confrontation"

// Noun is what a person calls one run of the protocol.
const Noun = "debate"

// The phases of the adversarial protocol, named as in the protocol text.
const (
	PhasePreflight            engine.Phase = "preflight"
	PhaseOpening              engine.Phase = "opening"
	PhaseChallenge            engine.Phase = "challenge"
	PhaseConsensusCheck       engine.Phase = "consensus_check"
	PhaseConfront             engine.Phase = "confront"
	PhaseRebuttal             engine.Phase = "rebuttal"
	PhaseIterationCheck       engine.Phase = "iteration_check"
	PhaseAssumptionExtraction engine.Phase = "assumption_extraction"
)

// Phases is the phase order of the adversarial protocol.
var Phases = []engine.PhaseInfo{
	{Phase: PhasePreflight, Title: "Preflight"},
	{Phase: PhaseOpening, Title: "Opening position"},
	{Phase: PhaseChallenge, Title: "Parallel challenge"},
	{Phase: PhaseConsensusCheck, Title: "Consensus check"},
	{Phase: PhaseConfront, Title: "Confrontation"},
	{Phase: PhaseRebuttal, Title: "Challenger rebuttal"},
	{Phase: PhaseIterationCheck, Title: "Iteration check"},
	{Phase: PhaseAssumptionExtraction, Title: "Assumption extraction"},
	{Phase: engine.PhaseOutcome, Title: "Outcome"},
}

// The seats' roles.
const (
	RoleDefender   engine.Role = "defender"
	RoleChallenger engine.Role = "challenger"
)

// What agents are asked for.
const (
	TaskOpening   engine.Task = "opening"
	TaskCritique  engine.Task = "critique"
	TaskAnswer    engine.Task = "answer"  // the defender answers critiques
	TaskAddress   engine.Task = "address" // the defender briefly addresses minor objections
	TaskRebuttal  engine.Task = "rebuttal"
	TaskFinal     engine.Task = "final" // the final questions of assumption extraction
	TaskSynthesis engine.Task = "synthesis"
)

// The reply shapes, as prompts name them (package shape).
const (
	ShapeOpening   = "opening"
	ShapeCritique  = "critique"
	ShapeAnswer    = "answer"
	ShapeRebuttal  = "rebuttal"
	ShapeFinal     = "final"
	ShapeSynthesis = "synthesis"
)

// How an adversarial debate ends, besides aborted and interrupted.
const (
	OutcomeConsensus engine.OutcomeKind = "consensus"
	OutcomeTradeoff  engine.OutcomeKind = "tradeoff"
)

//go:embed prompts/*.tmpl
var promptFS embed.FS

var prompts = engine.NewPrompts(promptFS, "prompts/*.tmpl")

// render renders a prompt; each template asks for the shape it is named
// after.
func render(name string, data any) string {
	return prompts.Render(name, name, data)
}

// Config is one debate.
type Config struct {
	ID          string
	Topic       string
	Context     []engine.Doc
	Defender    challengers.Agent
	Challengers []challengers.Agent
	MaxRounds   int
	Timeout     time.Duration // timeout_per_cli, for the record; agents carry their own
	Skeptical   bool
}

// Protocol is the adversarial debate, ready to run (engine.Run).
type Protocol struct{ cfg Config }

// New returns the adversarial debate of cfg.
func New(cfg Config) *Protocol { return &Protocol{cfg: cfg} }

// debate is one run of the adversarial protocol.
type debate struct {
	cfg      Config
	bus      *engine.Bus
	ask      *engine.Runtime
	s        *state
	defender challengers.Agent
	led      *book // the debate-versus-vote ledger (ledger.go)
}

// Run runs the debate to its outcome, emitting every step on rt's bus. It
// returns when the debate is over: at consensus, at a tradeoff, on abort,
// or when ctx is cancelled (the outcome then says interrupted).
func (p *Protocol) Run(ctx context.Context, rt *engine.Runtime) engine.Outcome {
	cfg := p.cfg
	d := &debate{
		cfg: cfg, bus: rt.Bus, defender: cfg.Defender, ask: rt,
		s: &state{
			phase: PhasePreflight, round: 1, maxRounds: cfg.MaxRounds,
			skeptical: cfg.Skeptical, defender: cfg.Defender.Name,
			finals: map[string]Final{},
		},
	}
	for _, a := range cfg.Challengers {
		d.s.seats = append(d.s.seats, &seat{name: a.Name, agent: a, status: seatActive})
	}
	for {
		d.phase(ctx)
		if ctx.Err() != nil {
			d.s.interrupted = true
		}
		p := next(d.s)
		if p == engine.PhaseOutcome {
			return d.outcome()
		}
		d.s.phase = p
	}
}

// Start is the debate's first event.
func (p *Protocol) Start() engine.DebateStarted {
	cfg := p.cfg
	var agents []engine.AgentInfo
	info := func(a challengers.Agent) engine.AgentInfo {
		return engine.InfoOf(a)
	}
	seats := []engine.Seat{{Name: cfg.Defender.Name, Agent: cfg.Defender.Name, Role: RoleDefender}}
	agents = append(agents, info(cfg.Defender))
	for _, a := range cfg.Challengers {
		agents = append(agents, info(a))
		seats = append(seats, engine.Seat{Name: a.Name, Agent: a.Name, Role: RoleChallenger})
	}
	var ctxFiles []engine.ContextFile
	for _, doc := range cfg.Context {
		ctxFiles = append(ctxFiles, engine.ContextOf(doc.Name, doc.Content))
	}
	return engine.DebateStarted{
		ID: cfg.ID, Protocol: Name, Title: Title, Noun: Noun, Words: Spec.Words, Topic: cfg.Topic,
		Seats: seats, FollowUpSeat: cfg.Defender.Name, Agents: agents, MaxRounds: cfg.MaxRounds, Timeout: engine.Duration(cfg.Timeout),
		Context: ctxFiles, Phases: Phases, Layouts: Layouts,
		Settings: []engine.Setting{{Name: "skeptical of early agreement", Value: fmt.Sprint(cfg.Skeptical)}},
	}
}

// phase runs the current phase.
func (d *debate) phase(ctx context.Context) {
	d.bus.Emit(engine.PhaseStarted{Phase: d.s.phase, Round: d.s.round, Title: phaseTitle(d.s.phase, d.s.round, d.s.decision)})
	switch d.s.phase {
	case PhasePreflight:
		d.preflight()
	case PhaseOpening:
		d.opening(ctx)
	case PhaseChallenge:
		d.challenge(ctx)
	case PhaseConsensusCheck:
		d.consensusCheck()
	case PhaseConfront:
		d.confront(ctx)
	case PhaseRebuttal:
		d.rebuttal(ctx)
	case PhaseIterationCheck:
		d.iterationCheck()
	case PhaseAssumptionExtraction:
		d.extract(ctx)
	}
}

// stageWords names where a debate stands: "confrontation (round 2)".
func stageWords(s *state) string {
	t := phaseTitle(s.phase, s.round, s.decision)
	if !strings.Contains(t, "round") {
		t += fmt.Sprintf(" (round %d)", s.round)
	}
	return strings.ToLower(t[:1]) + t[1:]
}

func phaseTitle(p engine.Phase, round int, decision ConsensusDecision) string {
	switch p {
	case PhasePreflight:
		return "Preflight"
	case PhaseOpening:
		return "Opening position"
	case PhaseChallenge:
		return "Parallel challenge (round 1)"
	case PhaseConsensusCheck:
		return "Consensus check"
	case PhaseConfront:
		if decision == DecideBriefAddress {
			return "Defender addresses minor objections"
		}
		return fmt.Sprintf("Confrontation (round %d)", round)
	case PhaseRebuttal:
		return fmt.Sprintf("Challenger rebuttal (round %d)", round)
	case PhaseIterationCheck:
		return fmt.Sprintf("Iteration check (round %d)", round)
	case PhaseAssumptionExtraction:
		return "Assumption extraction"
	}
	return "Outcome"
}

func (d *debate) note(level, format string, args ...any) {
	d.bus.Emit(engine.Note{Level: level, Message: fmt.Sprintf(format, args...)})
}

func (d *debate) base() base {
	return base{
		Topic: d.cfg.Topic, Context: d.cfg.Context, Defender: d.defender.Name,
		MaxRounds: d.cfg.MaxRounds, Round: d.s.round,
	}
}

// preflight checks that the defender and at least one challenger can run.
// A challenger that is not installed is recorded as failed; the debate
// goes on with the rest.
func (d *debate) preflight() {
	env := d.ask.Env
	var missing []string
	if def, note, ok := challengers.Resolve(d.defender, env); ok {
		d.resolved(note)
		d.defender = def
	} else {
		missing = append(missing, fmt.Sprintf("the defender %s is not installed (%q is not on PATH)", d.defender.Name, d.defender.Executable()))
	}
	for _, st := range d.s.seats {
		a, note, ok := challengers.Resolve(st.agent, env)
		if !ok {
			d.failSeat(st, fmt.Sprintf("%s is not installed (%q is not on PATH)", st.name, st.agent.Executable()))
			continue
		}
		d.resolved(note)
		st.agent = a
	}
	if len(d.s.live()) == 0 {
		missing = append(missing, noChallengers)
	}
	d.s.abort = strings.Join(missing, "; ")
}

// resolved passes on what Resolve said about a stand-in (agy for gemini).
func (d *debate) resolved(note string) {
	if note != "" {
		d.note(engine.NoteInfo, "%s", note)
	}
}

const noChallengers = "no external challengers available: Claude debating itself provides no genuine diversity. " +
	"Install at least one external CLI (gemini, codex or qwen), then run `arena doctor` to check it."

func (d *debate) failSeat(st *seat, why string) {
	st.status = seatFailed
	st.failure = why
	d.s.audit = append(d.s.audit, auditEntry{Round: d.s.round, Phase: d.s.phase, Agent: st.name, Body: "✗ " + why})
	d.note(engine.NoteWarn, "%s", why)
}

// defenderQuestion is a question for the defender, who gets one retry.
func (d *debate) defenderQuestion(task engine.Task, prompt string, parse func(string) (engine.Reply, error)) engine.Question {
	return engine.Question{
		Agent: d.defender, Role: RoleDefender, Phase: d.s.phase, Round: d.s.round,
		Task: task, Prompt: prompt, Retries: 1, Parse: parse,
	}
}

// defenderFailed aborts the debate after the defender's retry failed too.
func (d *debate) defenderFailed(ans engine.Answer) bool {
	if ans.Cancelled {
		return true
	}
	if ans.Failed != nil {
		d.s.abort = fmt.Sprintf("the defender %s failed in %s after a retry: %s",
			d.defender.Name, stageWords(d.s), ans.Failed.Describe())
		return true
	}
	return false
}

func (d *debate) opening(ctx context.Context) {
	q := d.defenderQuestion(TaskOpening, render("opening", openingPrompt{d.base()}),
		func(t string) (engine.Reply, error) { return nonNil(ParseOpening(t)) })
	ans := d.ask.Ask(ctx, q)
	if d.defenderFailed(ans) {
		return
	}
	var o Opening
	if ans.Unparseable {
		d.note(engine.NoteWarn, "%s's opening could not be parsed; its text stands as its position", d.defender.Name)
		o = Opening{Position: strings.TrimSpace(ans.Text), Confidence: "medium"}
	} else {
		o = ans.Reply.(Opening)
	}
	d.s.opening = &o
	d.ledgerOpening(o)
	d.audit(d.defender.Name, TaskOpening, o.Display())
	d.setPosition(o.Position)
}

func (d *debate) setPosition(p string) {
	p = strings.TrimSpace(p)
	changed := len(d.s.positions) == 0 || p != d.s.position()
	if changed {
		d.s.positions = append(d.s.positions, p)
	}
	d.bus.Emit(engine.PositionUpdated{Seat: d.defender.Name, Version: len(d.s.positions), Round: d.s.round, Position: d.s.position(), Changed: changed})
}

func (d *debate) audit(agent string, task engine.Task, body string) {
	d.s.audit = append(d.s.audit, auditEntry{Round: d.s.round, Phase: d.s.phase, Agent: agent, Task: task, Body: body})
}

// nonNil adapts a typed parse result to the reply interface, keeping a nil
// interface on error.
func nonNil[T engine.Reply](v T, err error) (engine.Reply, error) {
	if err != nil {
		return nil, err
	}
	return v, nil
}

func (d *debate) challenge(ctx context.Context) {
	live := d.s.live()
	qs := make([]engine.Question, len(live))
	for i, st := range live {
		qs[i] = engine.Question{
			Agent: st.agent, Role: RoleChallenger, Phase: PhaseChallenge, Round: d.s.round, Task: TaskCritique,
			Prompt: render("critique", critiquePrompt{base: d.base(), Name: st.name, Opening: *d.s.opening}),
			Parse:  func(t string) (engine.Reply, error) { return nonNil(ParseCritique(t)) },
		}
	}
	for i, ans := range d.ask.AskAll(ctx, qs) {
		st := live[i]
		if !d.seatAnswered(st, ans) {
			continue
		}
		c := ans.Reply.(Critique)
		st.critique = c
		st.verdict = effectiveVerdict(c.Verdict, d.s.round, d.s.skeptical)
		d.ledgerCritique(st, c)
		d.audit(st.name, TaskCritique, c.Display())
	}
}

// seatAnswered records a challenger's failure; it reports whether the
// answer is usable.
func (d *debate) seatAnswered(st *seat, ans engine.Answer) bool {
	switch {
	case ans.Cancelled:
		return false
	case ans.Failed != nil:
		d.failSeat(st, engine.FailureWords(st.name, ans.Failed, d.s.round))
		return false
	case ans.Unparseable:
		d.failSeat(st, engine.FailureWords(st.name, nil, d.s.round))
		return false
	}
	return true
}

func (d *debate) consensusCheck() {
	var effective []Critique
	for _, st := range d.s.live() {
		c := st.critique
		c.Verdict = st.verdict
		effective = append(effective, c)
	}
	d.s.decision = consensusCheck(effective)
	d.verdictTable(consensusWords(d.s.decision))
}

// skepticNote says why a challenger's verdict counts as other than it
// said: its pane shows "AGREE", the table "agree → partial", and every
// verdict table that shows it says why.
const skepticNote = " (skeptical of early agreement: a round-1 agree counts as partial)"

func consensusWords(c ConsensusDecision) string {
	switch c {
	case DecideFastExit:
		return "All challengers agree with high confidence: fast exit to consensus"
	case DecideBriefAddress:
		return "All objections are partial and minor: the defender addresses them briefly, then consensus"
	}
	return "Disagreement or mixed verdicts: on to confrontation"
}

// verdictTable shows where the challengers stand and what the rule
// decided. A verdict that counts as other than the challenger said shows
// both, and the decision says why.
func (d *debate) verdictTable(decision string) {
	t := engine.Table{
		Phase: d.s.phase, Round: d.s.round, Title: fmt.Sprintf("Verdicts, round %d", d.s.round),
		Columns:  []string{"challenger", "verdict", "objection", "confidence", "blocking", "status"},
		Decision: decision,
	}
	for _, st := range d.s.seats {
		cells := []string{st.name, "", "", "", "", string(st.status)}
		stance := engine.StanceNeutral
		if st.status != seatFailed || st.critique.Verdict != "" {
			cells[1], cells[2], cells[3] = st.verdict, st.critique.ObjectionStrength, st.critique.Confidence
			if said := st.critique.Verdict; said != st.verdict {
				cells[1] = said + " → " + st.verdict
				t.Decision = decision + skepticNote
			}
			if st.status.open() && blocking(Critique{Verdict: st.verdict, ObjectionStrength: st.critique.ObjectionStrength}) {
				cells[4] = "yes"
			}
			stance = verdictStance(st.verdict)
		}
		if st.status == seatFailed {
			cells[5] = "failed: " + st.failure
			stance = engine.StanceNeutral
		}
		t.Rows = append(t.Rows, engine.Row{Cells: cells, Stance: stance})
	}
	d.bus.Emit(t)
}

// verdictStance colours a verdict.
func verdictStance(v string) engine.Stance {
	switch v {
	case "agree":
		return engine.StanceAgree
	case "partial":
		return engine.StancePartial
	case "disagree":
		return engine.StanceDisagree
	}
	return engine.StanceNeutral
}

// confront asks the defender to answer every open critique (or, after a
// brief-address decision, every minor objection).
func (d *debate) confront(ctx context.Context) {
	seats := d.s.unresolved()
	if len(seats) == 0 {
		return
	}
	brief := d.s.decision == DecideBriefAddress
	names := make([]string, len(seats))
	blocks := make([]critiqueBlock, len(seats))
	for i, st := range seats {
		names[i] = st.name
		blocks[i] = critiqueBlock{Name: st.name, Critique: st.critique, Followup: st.followup}
	}
	task := TaskAnswer
	if brief {
		task = TaskAddress
	}
	p := answerPrompt{
		base: d.base(), Brief: brief, Version: len(d.s.positions), Position: d.s.position(),
		Critiques: blocks, Names: strings.Join(names, ", "),
	}
	ans := d.ask.Ask(ctx, d.defenderQuestion(task, render("answer", p),
		func(t string) (engine.Reply, error) { return nonNil(ParseAnswer(t, names)) }))
	if d.defenderFailed(ans) {
		return
	}
	a := d.answerOrFallback(ans, names)
	d.audit(d.defender.Name, task, a.Display())
	from, to := len(d.s.positions), len(d.s.positions)
	if strings.TrimSpace(a.UpdatedPosition) != d.s.position() {
		to++ // setPosition, below, adds it
	}
	d.ledgerAnswer(seats, a, from, to)
	for i, st := range seats {
		r := a.Responses[i]
		st.response = &r
		if r.Decision != "reject" {
			st.learned = append(st.learned, r.Explanation)
		}
		st.status = afterAnswer(st.verdict, r.Decision)
		st.followup = ""
	}
	d.setPosition(a.UpdatedPosition)
}

// answerOrFallback: an answer that would not parse even after a repair
// request stands as a partial acceptance of every critique, with its text as
// the explanation, so that challengers who disagreed get to judge it.
func (d *debate) answerOrFallback(ans engine.Answer, names []string) Answer {
	if !ans.Unparseable {
		return ans.Reply.(Answer)
	}
	d.note(engine.NoteWarn, "%s's answer could not be parsed; its text goes to the challengers as a partial acceptance", d.defender.Name)
	a := Answer{UpdatedPosition: d.s.position()}
	for _, n := range names {
		a.Responses = append(a.Responses, Response{Challenger: n, Decision: "partial", Explanation: strings.TrimSpace(ans.Text)})
	}
	return a
}

// rebuttal asks, in parallel, every challenger that disagreed and whose
// critique was rejected (wholly or in part).
func (d *debate) rebuttal(ctx context.Context) {
	seats := d.s.withStatus(seatAnswered)
	qs := make([]engine.Question, len(seats))
	for i, st := range seats {
		p := rebuttalPrompt{
			base: d.base(), Name: st.name, Critique: st.critique,
			Decision: strings.ToUpper(decisionWords(st.response.Decision)), Explanation: st.response.Explanation,
			Position: d.s.position(),
		}
		qs[i] = engine.Question{
			Agent: st.agent, Role: RoleChallenger, Phase: PhaseRebuttal, Round: d.s.round, Task: TaskRebuttal,
			Prompt: render("rebuttal", p),
			Parse:  func(t string) (engine.Reply, error) { return nonNil(ParseRebuttal(t)) },
		}
	}
	for i, ans := range d.ask.AskAll(ctx, qs) {
		st := seats[i]
		if !d.seatAnswered(st, ans) {
			continue
		}
		r := ans.Reply.(Rebuttal)
		d.ledgerRebuttal(st, r)
		d.audit(st.name, TaskRebuttal, r.Display())
		st.status = afterRebuttal(r.Choice)
		switch st.status {
		case seatMaintains:
			st.followup = fmt.Sprintf("%s MAINTAINS its objection after your last answer: %s", st.name, r.Explanation)
		case seatEscalated:
			// The clarified critique goes back to confront in its place.
			st.critique.Critique = r.Explanation
			st.followup = fmt.Sprintf("%s says your last answer missed the point; the critique above is its clarification.", st.name)
		}
	}
}

func (d *debate) iterationCheck() {
	open := d.s.unresolved()
	d.s.iter = iterationCheck(d.s.round, d.s.maxRounds, len(open))
	var names []string
	for _, st := range open {
		names = append(names, st.name)
	}
	switch d.s.iter {
	case IterConsensus:
		d.verdictTable(fmt.Sprintf("All issues resolved in round %d: consensus", d.s.round))
	case IterNextRound:
		d.verdictTable(fmt.Sprintf("Round %d of %d: %d unresolved (%s): next round", d.s.round, d.s.maxRounds, len(open), strings.Join(names, ", ")))
		d.s.round++
	case IterExtract:
		d.verdictTable(fmt.Sprintf("Round %d of %d reached with %d unresolved (%s): no consensus, extracting assumptions", d.s.round, d.s.maxRounds, len(open), strings.Join(names, ", ")))
	}
}

// extract asks every party that still disagrees, and the defender, the
// three final questions in parallel; then the defender synthesises the
// tradeoff.
func (d *debate) extract(ctx context.Context) {
	open := d.s.unresolved()
	var others []finalOther
	for _, st := range open {
		others = append(others, finalOther{Name: st.name, Position: stanceOf(st)})
	}
	qs := []engine.Question{d.defenderQuestion(TaskFinal, render("final", finalPrompt{
		base: d.base(), Name: d.defender.Name, Mine: d.s.position(), Others: others,
	}), func(t string) (engine.Reply, error) { return nonNil(ParseFinal(t)) })}
	for _, st := range open {
		qs = append(qs, engine.Question{
			Agent: st.agent, Role: RoleChallenger, Phase: d.s.phase, Round: d.s.round, Task: TaskFinal,
			Prompt: render("final", finalPrompt{
				base: d.base(), Name: st.name, Mine: stanceOf(st),
				Others: []finalOther{{Name: d.defender.Name, Position: d.s.position()}},
			}),
			Parse: func(t string) (engine.Reply, error) { return nonNil(ParseFinal(t)) },
		})
	}
	answers := d.ask.AskAll(ctx, qs)
	if d.defenderFailed(answers[0]) {
		return
	}
	d.recordFinal(d.defender.Name, answers[0])
	for i, st := range open {
		if d.seatAnswered(st, answers[i+1]) {
			d.recordFinal(st.name, answers[i+1])
		}
	}
	d.synthesise(ctx)
}

func stanceOf(st *seat) string {
	s := st.critique.Critique
	if st.critique.Alternative != "" {
		s += "\nRecommends instead: " + st.critique.Alternative
	}
	if st.followup != "" {
		s += "\n" + st.followup
	}
	return s
}

func (d *debate) recordFinal(name string, ans engine.Answer) {
	var f Final
	if ans.Unparseable {
		f = Final{WhyDisagree: strings.TrimSpace(ans.Text)}
	} else {
		f = ans.Reply.(Final)
	}
	d.s.finals[name] = f
	d.audit(name, TaskFinal, f.Display())
}

func (d *debate) synthesise(ctx context.Context) {
	var parties []synthesisParty
	parties = append(parties, synthesisParty{Name: d.defender.Name, Stance: d.s.position(), Assumption: d.s.finals[d.defender.Name].MyAssumption})
	for _, st := range d.s.unresolved() {
		parties = append(parties, synthesisParty{Name: st.name, Stance: stanceOf(st), Assumption: d.s.finals[st.name].MyAssumption})
	}
	p := synthesisPrompt{base: d.base(), Rounds: d.s.round, Position: d.s.position(), Parties: parties}
	ans := d.ask.Ask(ctx, d.defenderQuestion(TaskSynthesis, render("synthesis", p),
		func(t string) (engine.Reply, error) { return nonNil(ParseSynthesis(t)) }))
	if d.defenderFailed(ans) {
		return
	}
	var syn Synthesis
	if ans.Unparseable {
		d.note(engine.NoteWarn, "%s's tradeoff synthesis could not be parsed; its text stands as the recommendation", d.defender.Name)
		syn = Synthesis{Recommendation: strings.TrimSpace(ans.Text)}
	} else {
		syn = ans.Reply.(Synthesis)
	}
	d.s.synthesis = &syn
	d.audit(d.defender.Name, TaskSynthesis, syn.Display())
}

// outcome builds the closing document; engine.Run emits the Outcome and
// a consumer of it saves the document.
func (d *debate) outcome() engine.Outcome {
	kind := outcomeKind(d.s)
	if kind == engine.OutcomeAborted && d.s.abort == "" {
		d.s.abort = "every challenger failed"
	}
	o := engine.Outcome{
		Result: kind, Stance: outcomeStance(kind), Rounds: d.s.round, Failures: d.s.failures(),
		Summary: d.summary(kind),
	}
	d.s.ledger = d.emitLedger(kind)
	if kind == engine.OutcomeInterrupted {
		o.Where = "during " + stageWords(d.s)
	}
	dd := document(d.s, d.cfg, kind)
	o.Document = &dd
	d.s.phase = engine.PhaseOutcome
	d.bus.Emit(engine.PhaseStarted{Phase: engine.PhaseOutcome, Round: d.s.round, Title: "Outcome"})
	return o
}

func outcomeStance(k engine.OutcomeKind) engine.Stance {
	switch k {
	case OutcomeConsensus:
		return engine.StanceAgree
	case OutcomeTradeoff:
		return engine.StancePartial
	case engine.OutcomeAborted:
		return engine.StanceDisagree
	}
	return engine.StanceNeutral
}

func (d *debate) summary(kind engine.OutcomeKind) string {
	switch kind {
	case OutcomeConsensus:
		switch d.s.decision {
		case DecideFastExit:
			return "Consensus in round 1: every challenger agreed with high confidence"
		case DecideBriefAddress:
			return "Consensus in round 1: only minor objections, addressed briefly"
		}
		return "Consensus after " + engine.Plural(d.s.round, "round")
	case OutcomeTradeoff:
		return fmt.Sprintf("No consensus after %d rounds: tradeoff identified", d.s.round)
	case engine.OutcomeInterrupted:
		return "Interrupted during " + stageWords(d.s)
	}
	return "Aborted: " + d.s.abort
}

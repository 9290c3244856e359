package engine

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/arenadebate/arena/challengers"
)

// ProtocolName is how the adversarial protocol introduces itself.
const ProtocolName = "Hybrid (parallel challenge → sequential confrontation)"

// AdversarialPhases is the phase order of the adversarial protocol.
var AdversarialPhases = []Phase{
	PhasePreflight, PhaseOpening, PhaseChallenge, PhaseConsensusCheck, PhaseConfront,
	PhaseRebuttal, PhaseIterationCheck, PhaseAssumptionExtraction, PhaseOutcome,
}

// Config is one debate.
type Config struct {
	ID          string
	Topic       string
	Context     []Doc
	Defender    challengers.Agent
	Challengers []challengers.Agent
	MaxRounds   int
	Timeout     time.Duration // timeout_per_cli, for the record; agents carry their own
	Skeptical   bool
	Env         []string // for the agents (nil: this process's)
	Run         RunFunc  // nil: challengers.Run
	// LogPath is where the caller writes the log; ReportPath is where the
	// engine writes the outcome document. "" means not saved.
	LogPath    string
	ReportPath string
}

// debate is one run of the adversarial protocol.
type debate struct {
	cfg      Config
	bus      *Bus
	ask      *asker
	s        *state
	defender challengers.Agent
}

// Run runs a debate to its outcome, emitting every step on bus, and
// returns the Outcome (also the last event). It returns when the debate is
// over: at consensus, at a tradeoff, on abort, or when ctx is cancelled
// (the outcome then says interrupted).
func Run(ctx context.Context, cfg Config, bus *Bus) Outcome {
	run := cfg.Run
	if run == nil {
		run = challengers.Run
	}
	d := &debate{
		cfg: cfg, bus: bus, defender: cfg.Defender,
		ask: &asker{bus: bus, run: run, env: cfg.Env},
		s: &state{
			phase: PhasePreflight, round: 1, maxRounds: cfg.MaxRounds,
			skeptical: cfg.Skeptical, defender: cfg.Defender.Name,
			finals: map[string]Final{},
		},
	}
	for _, a := range cfg.Challengers {
		d.s.seats = append(d.s.seats, &seat{name: a.Name, agent: a, status: seatActive})
	}
	d.started()
	for {
		d.phase(ctx)
		if ctx.Err() != nil {
			d.s.interrupted = true
		}
		p := next(d.s)
		if p == PhaseOutcome {
			return d.outcome()
		}
		d.s.phase = p
	}
}

func (d *debate) started() {
	var agents []AgentInfo
	info := func(a challengers.Agent, r Role) AgentInfo {
		return AgentInfo{Name: a.Name, Role: r, Command: a.Command, Format: string(a.Format), Timeout: Duration(a.Timeout)}
	}
	agents = append(agents, info(d.cfg.Defender, RoleDefender))
	names := make([]string, 0, len(d.cfg.Challengers))
	for _, a := range d.cfg.Challengers {
		agents = append(agents, info(a, RoleChallenger))
		names = append(names, a.Name)
	}
	var ctxFiles []ContextFile
	for _, doc := range d.cfg.Context {
		ctxFiles = append(ctxFiles, ContextFile{Name: doc.Name, Bytes: len(doc.Content)})
	}
	d.bus.Emit(DebateStarted{
		Version: LogVersion, ID: d.cfg.ID, Protocol: ProtocolName, Topic: d.cfg.Topic,
		Defender: d.cfg.Defender.Name, Challengers: names, Agents: agents,
		MaxRounds: d.cfg.MaxRounds, Timeout: Duration(d.cfg.Timeout), Skeptical: d.cfg.Skeptical,
		Context: ctxFiles, Phases: AdversarialPhases,
	})
}

// phase runs the current phase.
func (d *debate) phase(ctx context.Context) {
	d.bus.Emit(PhaseStarted{Phase: d.s.phase, Round: d.s.round, Title: phaseTitle(d.s.phase, d.s.round, d.s.decision)})
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

func phaseTitle(p Phase, round int, decision ConsensusDecision) string {
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
	d.bus.Emit(Note{Level: level, Message: fmt.Sprintf(format, args...)})
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
	env := d.cfg.Env
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
		d.note(NoteInfo, "%s", note)
	}
}

const noChallengers = "no external challengers available: Claude debating itself provides no genuine diversity. " +
	"Run `arena doctor`, then install at least one external CLI."

func (d *debate) failSeat(st *seat, why string) {
	st.status = seatFailed
	st.failure = why
	d.s.audit = append(d.s.audit, auditEntry{Round: d.s.round, Phase: d.s.phase, Agent: st.name, Body: "✗ " + why})
	d.note(NoteWarn, "%s", why)
}

// defenderQuestion is a question for the defender, who gets one retry.
func (d *debate) defenderQuestion(task Task, prompt string, parse func(string) (reply, error)) question {
	return question{
		agent: d.defender, role: RoleDefender, phase: d.s.phase, round: d.s.round,
		task: task, prompt: prompt, retries: 1, parse: parse,
	}
}

// defenderFailed aborts the debate after the defender's retry failed too.
func (d *debate) defenderFailed(ans answer) bool {
	if ans.cancelled {
		return true
	}
	if ans.failed != nil {
		d.s.abort = fmt.Sprintf("the defender %s failed in %s after a retry: %s",
			d.defender.Name, stageWords(d.s), ans.failed.Describe())
		return true
	}
	return false
}

func (d *debate) opening(ctx context.Context) {
	q := d.defenderQuestion(TaskOpening, render("opening", openingPrompt{d.base()}),
		func(t string) (reply, error) { return nonNil(ParseOpening(t)) })
	ans := d.ask.ask(ctx, q)
	if d.defenderFailed(ans) {
		return
	}
	var o Opening
	if ans.unparseable {
		d.note(NoteWarn, "%s's opening could not be parsed; its text stands as its position", d.defender.Name)
		o = Opening{Position: strings.TrimSpace(ans.text), Confidence: "medium"}
	} else {
		o = ans.reply.(Opening)
	}
	d.s.opening = &o
	d.audit(d.defender.Name, TaskOpening, o.display())
	d.setPosition(o.Position)
}

func (d *debate) setPosition(p string) {
	p = strings.TrimSpace(p)
	changed := len(d.s.positions) == 0 || p != d.s.position()
	if changed {
		d.s.positions = append(d.s.positions, p)
	}
	d.bus.Emit(PositionUpdated{Version: len(d.s.positions), Round: d.s.round, Position: d.s.position(), Changed: changed})
}

func (d *debate) audit(agent string, task Task, body string) {
	d.s.audit = append(d.s.audit, auditEntry{Round: d.s.round, Phase: d.s.phase, Agent: agent, Task: task, Body: body})
}

// nonNil adapts a typed parse result to the reply interface, keeping a nil
// interface on error.
func nonNil[T reply](v T, err error) (reply, error) {
	if err != nil {
		return nil, err
	}
	return v, nil
}

func (d *debate) challenge(ctx context.Context) {
	live := d.s.live()
	qs := make([]question, len(live))
	for i, st := range live {
		qs[i] = question{
			agent: st.agent, role: RoleChallenger, phase: PhaseChallenge, round: d.s.round, task: TaskCritique,
			prompt: render("critique", critiquePrompt{base: d.base(), Name: st.name, Opening: *d.s.opening}),
			parse:  func(t string) (reply, error) { return nonNil(ParseCritique(t)) },
		}
	}
	for i, ans := range d.ask.askAll(ctx, qs) {
		st := live[i]
		if !d.seatAnswered(st, ans) {
			continue
		}
		c := ans.reply.(Critique)
		st.critique = c
		st.verdict = effectiveVerdict(c.Verdict, d.s.round, d.s.skeptical)
		d.audit(st.name, TaskCritique, c.display())
	}
}

// seatAnswered records a challenger's failure; it reports whether the
// answer is usable.
func (d *debate) seatAnswered(st *seat, ans answer) bool {
	switch {
	case ans.cancelled:
		return false
	case ans.failed != nil:
		d.failSeat(st, failureWords(st.name, ans.failed, d.s.round))
		return false
	case ans.unparseable:
		d.failSeat(st, failureWords(st.name, nil, d.s.round))
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
	note := ""
	if d.s.skeptical {
		for _, st := range d.s.live() {
			if st.critique.Verdict == "agree" {
				note = " (skeptical of early agreement: a round-1 agree counts as partial)"
				break
			}
		}
	}
	d.verdictTable(consensusWords(d.s.decision) + note)
}

func consensusWords(c ConsensusDecision) string {
	switch c {
	case DecideFastExit:
		return "All challengers agree with high confidence: fast exit to consensus"
	case DecideBriefAddress:
		return "All objections are partial and minor: the defender addresses them briefly, then consensus"
	}
	return "Disagreement or mixed verdicts: on to confrontation"
}

func (d *debate) verdictTable(decision string) {
	rows := make([]VerdictRow, 0, len(d.s.seats))
	for _, st := range d.s.seats {
		row := VerdictRow{Challenger: st.name, Status: string(st.status)}
		if st.status != seatFailed || st.critique.Verdict != "" {
			row.Verdict, row.Strength, row.Confidence = st.verdict, st.critique.ObjectionStrength, st.critique.Confidence
			row.Blocking = st.status.open() && blocking(Critique{Verdict: st.verdict, ObjectionStrength: st.critique.ObjectionStrength})
		}
		if st.status == seatFailed {
			row.Status = "failed: " + st.failure
		}
		rows = append(rows, row)
	}
	d.bus.Emit(VerdictTable{Phase: d.s.phase, Round: d.s.round, Rows: rows, Decision: decision})
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
	ans := d.ask.ask(ctx, d.defenderQuestion(task, render("answer", p),
		func(t string) (reply, error) { return nonNil(ParseAnswer(t, names)) }))
	if d.defenderFailed(ans) {
		return
	}
	a := d.answerOrFallback(ans, names)
	d.audit(d.defender.Name, task, a.display())
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
func (d *debate) answerOrFallback(ans answer, names []string) Answer {
	if !ans.unparseable {
		return ans.reply.(Answer)
	}
	d.note(NoteWarn, "%s's answer could not be parsed; its text goes to the challengers as a partial acceptance", d.defender.Name)
	a := Answer{UpdatedPosition: d.s.position()}
	for _, n := range names {
		a.Responses = append(a.Responses, Response{Challenger: n, Decision: "partial", Explanation: strings.TrimSpace(ans.text)})
	}
	return a
}

// rebuttal asks, in parallel, every challenger that disagreed and whose
// critique was rejected (wholly or in part).
func (d *debate) rebuttal(ctx context.Context) {
	seats := d.s.withStatus(seatAnswered)
	qs := make([]question, len(seats))
	for i, st := range seats {
		p := rebuttalPrompt{
			base: d.base(), Name: st.name, Critique: st.critique,
			Decision: strings.ToUpper(decisionWords(st.response.Decision)), Explanation: st.response.Explanation,
			Position: d.s.position(),
		}
		qs[i] = question{
			agent: st.agent, role: RoleChallenger, phase: PhaseRebuttal, round: d.s.round, task: TaskRebuttal,
			prompt: render("rebuttal", p),
			parse:  func(t string) (reply, error) { return nonNil(ParseRebuttal(t)) },
		}
	}
	for i, ans := range d.ask.askAll(ctx, qs) {
		st := seats[i]
		if !d.seatAnswered(st, ans) {
			continue
		}
		r := ans.reply.(Rebuttal)
		d.audit(st.name, TaskRebuttal, r.display())
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
	qs := []question{d.defenderQuestion(TaskFinal, render("final", finalPrompt{
		base: d.base(), Name: d.defender.Name, Mine: d.s.position(), Others: others,
	}), func(t string) (reply, error) { return nonNil(ParseFinal(t)) })}
	for _, st := range open {
		qs = append(qs, question{
			agent: st.agent, role: RoleChallenger, phase: d.s.phase, round: d.s.round, task: TaskFinal,
			prompt: render("final", finalPrompt{
				base: d.base(), Name: st.name, Mine: stanceOf(st),
				Others: []finalOther{{Name: d.defender.Name, Position: d.s.position()}},
			}),
			parse: func(t string) (reply, error) { return nonNil(ParseFinal(t)) },
		})
	}
	answers := d.ask.askAll(ctx, qs)
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

func (d *debate) recordFinal(name string, ans answer) {
	var f Final
	if ans.unparseable {
		f = Final{WhyDisagree: strings.TrimSpace(ans.text)}
	} else {
		f = ans.reply.(Final)
	}
	d.s.finals[name] = f
	d.audit(name, TaskFinal, f.display())
}

func (d *debate) synthesise(ctx context.Context) {
	var parties []synthesisParty
	parties = append(parties, synthesisParty{Name: d.defender.Name, Stance: d.s.position(), Assumption: d.s.finals[d.defender.Name].MyAssumption})
	for _, st := range d.s.unresolved() {
		parties = append(parties, synthesisParty{Name: st.name, Stance: stanceOf(st), Assumption: d.s.finals[st.name].MyAssumption})
	}
	p := synthesisPrompt{base: d.base(), Rounds: d.s.round, Position: d.s.position(), Parties: parties}
	ans := d.ask.ask(ctx, d.defenderQuestion(TaskSynthesis, render("synthesis", p),
		func(t string) (reply, error) { return nonNil(ParseSynthesis(t)) }))
	if d.defenderFailed(ans) {
		return
	}
	var syn Synthesis
	if ans.unparseable {
		d.note(NoteWarn, "%s's tradeoff synthesis could not be parsed; its text stands as the recommendation", d.defender.Name)
		syn = Synthesis{Recommendation: strings.TrimSpace(ans.text)}
	} else {
		syn = ans.reply.(Synthesis)
	}
	d.s.synthesis = &syn
	d.audit(d.defender.Name, TaskSynthesis, syn.display())
}

// outcome builds the closing document, saves it and emits the Outcome.
func (d *debate) outcome() Outcome {
	kind := outcomeKind(d.s)
	if kind == OutcomeAborted && d.s.abort == "" {
		d.s.abort = "every challenger failed"
	}
	o := Outcome{
		Result: kind, Rounds: d.s.round, Failures: d.s.failures(),
		Summary: d.summary(kind), LogPath: d.cfg.LogPath,
	}
	o.Markdown = report(d.s, d.cfg, kind, o.Summary)
	d.s.phase = PhaseOutcome
	d.bus.Emit(PhaseStarted{Phase: PhaseOutcome, Round: d.s.round, Title: "Outcome"})
	if d.cfg.ReportPath != "" {
		if err := os.WriteFile(d.cfg.ReportPath, []byte(o.Markdown), 0o600); err != nil {
			// A full disk leaves an empty or cut file behind; it must not
			// pass for the document (the document is in the Outcome event).
			os.Remove(d.cfg.ReportPath)
			d.note(NoteError, "could not save the outcome document: %v", err)
		} else {
			o.ReportPath = d.cfg.ReportPath
		}
	}
	d.bus.Emit(o)
	return o
}

func (d *debate) summary(kind OutcomeKind) string {
	switch kind {
	case OutcomeConsensus:
		switch d.s.decision {
		case DecideFastExit:
			return "Consensus in round 1: every challenger agreed with high confidence"
		case DecideBriefAddress:
			return "Consensus in round 1: only minor objections, addressed briefly"
		}
		return fmt.Sprintf("Consensus after %d round%s", d.s.round, plural(d.s.round))
	case OutcomeTradeoff:
		return fmt.Sprintf("No consensus after %d rounds: tradeoff identified", d.s.round)
	case OutcomeInterrupted:
		return "Interrupted during " + stageWords(d.s)
	}
	return "Aborted: " + d.s.abort
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

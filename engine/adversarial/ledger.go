package adversarial

import (
	"fmt"
	"strings"

	"github.com/arenadebate/arena/engine/doc"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/ledger"
)

// The debate-versus-vote ledger of an adversarial debate: what each seat
// held after round one (the defender its opening position, each
// challenger its verdict), what a majority of those would have concluded,
// what the debate concluded, and every move: a challenger accepting the
// position in a rebuttal, the defender amending its position, each with
// the new evidence it came with or flagged as conformity.

// book is what the ledger needs, gathered as the debate goes.
type book struct {
	said       ledger.Seen             // everything written so far
	atPosition *ledger.Seen            // what was written when the defender last took its position
	cited      map[string]*ledger.Seen // per seat, what it wrote itself
	first      []engine.Stand
	forVotes   int
	against    int
	moves      []engine.Move
	pending    map[string][]string // per challenger: the new evidence the defender's last answer gave it
}

func (d *debate) book() *book {
	if d.led == nil {
		d.led = &book{cited: map[string]*ledger.Seen{}, pending: map[string][]string{}}
	}
	return d.led
}

// wrote records what a seat wrote.
func (b *book) wrote(seat string, texts ...string) {
	if b.cited[seat] == nil {
		b.cited[seat] = &ledger.Seen{}
	}
	b.cited[seat].Add(texts...)
	b.said.Add(texts...)
}

func (b *book) citedBy(seat string) *ledger.Seen {
	if b.cited[seat] == nil {
		b.cited[seat] = &ledger.Seen{}
	}
	return b.cited[seat]
}

// material is what the debate is about: the topic and its context files.
func (d *debate) material() []string {
	out := []string{d.cfg.Topic}
	for _, doc := range d.cfg.Context {
		out = append(out, doc.Content)
	}
	return out
}

// ledgerOpening records the defender's opening position.
func (d *debate) ledgerOpening(o Opening) {
	b := d.book()
	b.wrote(d.defender.Name, append(append([]string{o.Position}, o.Reasoning...), o.Assumptions...)...)
	b.atPosition = b.said.Clone()
	b.first = append(b.first, engine.Stand{Seat: d.defender.Name, Agent: d.defender.Name, Position: "for its position", Detail: o.Position})
	b.forVotes++
}

// ledgerCritique records a challenger's round-one critique.
func (d *debate) ledgerCritique(st *seat, c Critique) {
	b := d.book()
	b.wrote(st.name, c.Critique, c.Evidence, c.Alternative)
	pos := c.Verdict
	if c.ObjectionStrength != "" {
		pos += " (" + c.ObjectionStrength + " objection)"
	}
	b.first = append(b.first, engine.Stand{Seat: st.name, Agent: st.agent.Name, Position: pos, Detail: c.Critique})
	if c.Verdict == "disagree" {
		b.against++
	} else {
		b.forVotes++
	}
}

// ledgerAnswer records the defender's answer to the critiques of seats:
// the new evidence each explanation gives its challenger, and, when the
// position changed, the defender's move with the new evidence of the
// critiques it took up.
func (d *debate) ledgerAnswer(seats []*seat, a Answer, from, to int) {
	b := d.book()
	mat := d.material()
	for i, st := range seats {
		b.pending[st.name] = ledger.NewEvidence(a.Responses[i].Explanation, mat, b.citedBy(st.name), &b.said)
	}
	if to != from {
		var text strings.Builder
		for i, st := range seats {
			if a.Responses[i].Decision != "reject" {
				text.WriteString(st.critique.Critique + "\n" + st.critique.Evidence + "\n" + st.followup + "\n")
			}
		}
		m := engine.Move{Seat: d.defender.Name, Agent: d.defender.Name, Round: d.s.round, On: "position",
			From: fmt.Sprintf("version %d", from), To: fmt.Sprintf("version %d", to),
			Evidence: ledger.NewEvidence(text.String(), mat, b.citedBy(d.defender.Name), b.atPosition)}
		m.Conformity = len(m.Evidence) == 0
		b.moves = append(b.moves, m)
	}
	var texts []string
	for _, r := range a.Responses {
		texts = append(texts, r.Explanation)
	}
	b.wrote(d.defender.Name, append(texts, a.UpdatedPosition)...)
	if to != from {
		b.atPosition = b.said.Clone()
	}
}

// ledgerRebuttal records a challenger's rebuttal; accepting the position
// is a move from disagreeing.
func (d *debate) ledgerRebuttal(st *seat, r Rebuttal) {
	b := d.book()
	if r.Choice == "accept" {
		ev := append(b.pending[st.name], ledger.NewEvidence(r.Explanation, d.material(), b.citedBy(st.name), &b.said)...)
		m := engine.Move{Seat: st.name, Agent: st.agent.Name, Round: d.s.round, On: "verdict",
			From: "disagree", To: fmt.Sprintf("accepts the position (version %d)", len(d.s.positions)), Evidence: dedupe(ev), Toward: d.defender.Name}
		m.Conformity = len(m.Evidence) == 0
		b.moves = append(b.moves, m)
	}
	b.wrote(st.name, r.Explanation)
}

func dedupe(xs []string) []string {
	var out []string
	for _, x := range xs {
		if !contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// debateLedger is the ledger of a debate that ended in consensus or a
// tradeoff after a confrontation (a fast exit debated nothing).
func (d *debate) debateLedger(kind engine.OutcomeKind) (engine.DebateLedger, bool) {
	b := d.led
	if b == nil || len(b.first) < 2 || d.s.decision == DecideFastExit || (kind != OutcomeConsensus && kind != OutcomeTradeoff) {
		return engine.DebateLedger{}, false
	}
	l := engine.DebateLedger{Positions: b.first, Moves: b.moves,
		VoteRule: "majority of the seats after round one: the defender and every agree or partial for the position, every disagree against"}
	// As a person's verdict says them: the position accepted as it is,
	// to improve (amended), or rejected.
	vote := "stands"
	switch {
	case b.forVotes > b.against:
		l.Vote = fmt.Sprintf("the position stands (%d for, %d against)", b.forVotes, b.against)
		l.VoteVerdict = "accept"
	case b.against > b.forVotes:
		vote = "rejected"
		l.Vote = fmt.Sprintf("the position is rejected (%d for, %d against)", b.forVotes, b.against)
		l.VoteVerdict = "reject"
	default:
		vote = "split"
		l.Vote = fmt.Sprintf("no majority (%d for, %d against)", b.forVotes, b.against)
	}
	amended := len(d.s.positions) > 1
	switch kind {
	case OutcomeConsensus:
		l.Result, l.ResultVerdict = "consensus: the position stands", "accept"
		if amended {
			l.Result, l.ResultVerdict = fmt.Sprintf("consensus on the position as amended (version %d)", len(d.s.positions)), "improve"
		}
		l.Changed = vote != "stands" || amended
	default:
		l.Result = fmt.Sprintf("no consensus after %d rounds: a tradeoff", d.s.round)
		l.Changed = true
	}
	return l, true
}

// emitLedger shows the ledger and returns its section of the outcome
// document (nil when there is none).
func (d *debate) emitLedger(kind engine.OutcomeKind) *doc.Section {
	l, ok := d.debateLedger(kind)
	if !ok {
		return nil
	}
	d.bus.Emit(l)
	d.bus.Emit(ledger.Table(l, engine.PhaseOutcome, d.s.round))
	sec := ledger.Section(l)
	return &sec
}

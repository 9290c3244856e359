package adversarial

import (
	"fmt"
	"slices"
	"strings"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/doc"
)

// document builds the closing document: a consensus report, a tradeoff
// document, or, for an aborted or interrupted debate, a short account of
// how far it got. The audit trail closes all of them.
func document(s *state, cfg Config, kind engine.OutcomeKind) doc.Document {
	d := doc.Document{Title: "Debate outcome"}
	switch kind {
	case OutcomeConsensus:
		d.Result = "consensus"
		header(&d, cfg)
		consensusReport(&d, s)
	case OutcomeTradeoff:
		d.Result = "tradeoff identified"
		header(&d, cfg)
		tradeoffReport(&d, s)
	default:
		d.Result = "aborted"
		if kind == engine.OutcomeInterrupted {
			d.Result = "interrupted"
		}
		header(&d, cfg)
		stoppedReport(&d, s)
	}
	if s.ledger != nil {
		d.Sections = append(d.Sections, *s.ledger)
	}
	if f := s.failures(); len(f) > 0 {
		d.Add("Failures", doc.Bullets("", f...))
	}
	auditTrail(&d, s)
	return d
}

func header(d *doc.Document, cfg Config) {
	d.Started("Topic", engine.OneLine(cfg.Topic, 300))
}

func consensusReport(d *doc.Document, s *state) {
	d.Fact("Final position", s.position())
	if s.opening != nil {
		d.Fact("Confidence", strings.ToUpper(s.opening.Confidence))
	}
	var learned []doc.Item
	for _, st := range s.seats {
		it := doc.Item{Label: "From " + st.name}
		switch {
		case st.status == seatFailed:
			it.Text = "nothing — " + st.failure
		case len(st.learned) == 0:
			it.Text = "nothing it accepted (" + verdictPhrase(st) + ")"
		default:
			it.Text = strings.Join(st.learned, " · ")
		}
		learned = append(learned, it)
	}
	d.Sections = append(d.Sections, doc.Section{
		Heading: "What " + s.defender + " learned", Restates: defenderReplies(s),
		Blocks: []doc.Block{doc.ListOf("", learned...)},
	})
	positionEvolution(d, s)
}

// defenderReplies: a section drawn from the defender's replies (what it
// accepted, its positions), which the stream showed as they came.
func defenderReplies(s *state) *doc.Restates {
	return &doc.Restates{Seats: []string{s.defender}}
}

func verdictPhrase(st *seat) string {
	if st.verdict == "" {
		return "no verdict"
	}
	return st.verdict + " · " + st.critique.ObjectionStrength
}

func positionEvolution(d *doc.Document, s *state) {
	if len(s.positions) == 0 {
		return
	}
	vs := make([]string, len(s.positions))
	var items []doc.Item
	for i, p := range s.positions {
		vs[i] = fmt.Sprintf("v%d", i+1)
		items = append(items, doc.Item{Label: vs[i], Text: p})
	}
	d.Sections = append(d.Sections, doc.Section{
		Heading: "Position evolution", Restates: defenderReplies(s),
		Blocks: []doc.Block{doc.Para(strings.Join(vs, " → ") + " (final)"), doc.ListOf("", items...)},
	})
}

func tradeoffReport(d *doc.Document, s *state) {
	d.Fact("Rounds", fmt.Sprintf("%d (max reached)", s.round))
	d.Fact("Status", "Genuine disagreement — not a failure, but a signal")
	syn := s.synthesis
	if syn != nil && len(syn.Options) > 0 {
		d.Add("Options")
		for i, o := range syn.Options {
			sec := doc.Section{Heading: fmt.Sprintf("Option %c: %s", 'A'+rune(i%26), o.Name), Depth: 1, Blocks: []doc.Block{doc.Para(o.Summary)}}
			if len(o.ChooseIf) > 0 {
				sec.Blocks = append(sec.Blocks, doc.Bullets("**Choose this if:**", o.ChooseIf...))
			}
			d.Sections = append(d.Sections, sec)
		}
	}
	assumptionsTable(d, s)
	if syn != nil {
		d.Add("Recommendation", doc.Para(syn.Recommendation))
		if len(syn.OpenQuestions) > 0 {
			d.Add("Open questions", doc.Bullets("", syn.OpenQuestions...))
		}
	}
	positionEvolution(d, s)
}

// assumptionsTable is the protocol's assumption extraction table.
func assumptionsTable(d *doc.Document, s *state) {
	if len(s.finals) == 0 {
		return
	}
	parties := append([]string{s.defender}, seatNames(s)...)
	rows := [][]string{}
	var why []doc.Item
	for _, p := range parties {
		f, ok := s.finals[p]
		if !ok {
			continue
		}
		rows = append(rows, []string{p, engine.OrDash(f.MyAssumption), p + "'s position is correct"})
		it := doc.Item{Label: p, Text: engine.OrDash(f.WhyDisagree)}
		if f.WhatWouldMakeOtherRight != "" {
			it.Text += " *The other side would be right if:* " + f.WhatWouldMakeOtherRight
		}
		why = append(why, it)
	}
	d.Add("Assumption extraction",
		doc.Para("The disagreement persists because of different assumptions:"),
		doc.TableOf([]string{"Party", "Core assumption", "If true →"}, rows),
		doc.Para("**The real question is:** which assumption matches *your* reality?"))
	d.Sections = append(d.Sections, doc.Section{Heading: "Why they still disagree", Depth: 1, Blocks: []doc.Block{doc.ListOf("", why...)}})
}

func seatNames(s *state) []string {
	out := make([]string, len(s.seats))
	for i, st := range s.seats {
		out[i] = st.name
	}
	return out
}

// stoppedReport says how far a stopped debate got; the document's
// summary says why it stopped.
func stoppedReport(d *doc.Document, s *state) {
	d.Fact("How far it got", fmt.Sprintf("%s; at most %s.", stageWords(s), engine.Plural(s.maxRounds, "round")))
	if p := s.position(); p != "" {
		d.Fact(fmt.Sprintf("Position when it stopped (v%d)", len(s.positions)), p)
	}
	var open []string
	for _, st := range s.unresolved() {
		if st.verdict != "" { // only those who have said something
			open = append(open, st.name)
		}
	}
	if len(open) > 0 {
		d.Fact("Still disagreeing", strings.Join(open, ", "))
	}
}

// auditTrail is every reply, round by round, folded: the stream showed
// each as it came.
func auditTrail(d *doc.Document, s *state) {
	if len(s.audit) == 0 {
		return
	}
	trail := doc.Section{ID: "trail", Heading: "Audit trail", Folded: "Full debate history", Restates: &doc.Restates{}}
	var rounds []doc.Section
	for _, e := range s.audit {
		if !slices.Contains(trail.Restates.Seats, e.Agent) {
			trail.Restates.Seats = append(trail.Restates.Seats, e.Agent)
		}
		if len(rounds) == 0 || rounds[len(rounds)-1].Heading != fmt.Sprintf("Round %d", e.Round) {
			rounds = append(rounds, doc.Section{Heading: fmt.Sprintf("Round %d", e.Round), Depth: 1})
		}
		what := string(e.Task)
		if what == "" {
			what = string(e.Phase)
		}
		r := &rounds[len(rounds)-1]
		r.Blocks = append(r.Blocks, doc.Para("**"+e.Agent+" — "+what+"**"), doc.Para(e.Body))
	}
	d.Sections = append(append(d.Sections, trail), rounds...)
}

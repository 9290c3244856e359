package adversarial

import (
	"github.com/arenadebate/arena/engine"

	"fmt"
	"strings"
)

// report renders the closing document: a consensus report, a tradeoff
// document, or, for an aborted or interrupted debate, a short account of
// how far it got. The audit trail closes all of them.
func report(s *state, cfg Config, kind engine.OutcomeKind, summary string) string {
	var b strings.Builder
	switch kind {
	case OutcomeConsensus:
		consensusReport(&b, s, cfg)
	case OutcomeTradeoff:
		tradeoffReport(&b, s, cfg)
	default:
		stoppedReport(&b, s, cfg, kind, summary)
	}
	b.WriteString(s.ledger)
	failuresSection(&b, s)
	auditTrail(&b, s)
	return b.String()
}

func header(b *strings.Builder, title string, cfg Config) {
	fmt.Fprintf(b, "# Debate outcome: %s\n\n", title)
	fmt.Fprintf(b, "**Topic:** %s\n\n", engine.OneLine(cfg.Topic, 300))
}

func consensusReport(b *strings.Builder, s *state, cfg Config) {
	header(b, "consensus", cfg)
	fmt.Fprintf(b, "**Final position:** %s\n\n", s.position())
	if s.opening != nil {
		fmt.Fprintf(b, "**Confidence:** %s\n\n", strings.ToUpper(s.opening.Confidence))
	}
	fmt.Fprintf(b, "**Rounds to consensus:** %d\n\n", s.round)
	fmt.Fprintf(b, "## What %s learned\n\n", s.defender)
	for _, st := range s.seats {
		switch {
		case st.status == seatFailed:
			fmt.Fprintf(b, "- **From %s:** nothing — %s\n", st.name, st.failure)
		case len(st.learned) == 0:
			fmt.Fprintf(b, "- **From %s:** nothing it accepted (%s)\n", st.name, verdictPhrase(st))
		default:
			fmt.Fprintf(b, "- **From %s:** %s\n", st.name, strings.Join(st.learned, " · "))
		}
	}
	b.WriteString("\n")
	positionEvolution(b, s)
}

func verdictPhrase(st *seat) string {
	if st.verdict == "" {
		return "no verdict"
	}
	return st.verdict + " · " + st.critique.ObjectionStrength
}

func positionEvolution(b *strings.Builder, s *state) {
	if len(s.positions) == 0 {
		return
	}
	b.WriteString("## Position evolution\n\n")
	vs := make([]string, len(s.positions))
	for i := range s.positions {
		vs[i] = fmt.Sprintf("v%d", i+1)
	}
	fmt.Fprintf(b, "%s (final)\n\n", strings.Join(vs, " → "))
	for i, p := range s.positions {
		fmt.Fprintf(b, "- **v%d:** %s\n", i+1, p)
	}
	b.WriteString("\n")
}

func tradeoffReport(b *strings.Builder, s *state, cfg Config) {
	header(b, "tradeoff identified", cfg)
	fmt.Fprintf(b, "**Rounds:** %d (max reached)\n\n", s.round)
	b.WriteString("**Status:** Genuine disagreement — not a failure, but a signal\n\n")
	syn := s.synthesis
	if syn != nil && len(syn.Options) > 0 {
		b.WriteString("## Options\n\n")
		for i, o := range syn.Options {
			fmt.Fprintf(b, "### Option %c: %s\n\n%s\n\n", 'A'+rune(i%26), o.Name, o.Summary)
			if len(o.ChooseIf) > 0 {
				b.WriteString("**Choose this if:**\n")
				for _, c := range o.ChooseIf {
					fmt.Fprintf(b, "- %s\n", c)
				}
				b.WriteString("\n")
			}
		}
	}
	assumptionsTable(b, s)
	if syn != nil {
		fmt.Fprintf(b, "## Recommendation\n\n%s\n\n", syn.Recommendation)
		if len(syn.OpenQuestions) > 0 {
			b.WriteString("## Open questions\n\n")
			for _, q := range syn.OpenQuestions {
				fmt.Fprintf(b, "- %s\n", q)
			}
			b.WriteString("\n")
		}
	}
	positionEvolution(b, s)
}

// assumptionsTable is the protocol's assumption extraction table.
func assumptionsTable(b *strings.Builder, s *state) {
	if len(s.finals) == 0 {
		return
	}
	b.WriteString("## Assumption extraction\n\nThe disagreement persists because of different assumptions:\n\n")
	b.WriteString("| Party | Core assumption | If true → |\n|---|---|---|\n")
	parties := append([]string{s.defender}, seatNames(s)...)
	for _, p := range parties {
		f, ok := s.finals[p]
		if !ok {
			continue
		}
		fmt.Fprintf(b, "| %s | %s | %s's position is correct |\n", p, engine.Cell(engine.OrDash(f.MyAssumption)), p)
	}
	b.WriteString("\n**The real question is:** which assumption matches *your* reality?\n\n")
	b.WriteString("### Why they still disagree\n\n")
	for _, p := range parties {
		f, ok := s.finals[p]
		if !ok {
			continue
		}
		fmt.Fprintf(b, "- **%s:** %s", p, engine.OrDash(f.WhyDisagree))
		if f.WhatWouldMakeOtherRight != "" {
			fmt.Fprintf(b, " *The other side would be right if:* %s", f.WhatWouldMakeOtherRight)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

func seatNames(s *state) []string {
	out := make([]string, len(s.seats))
	for i, st := range s.seats {
		out[i] = st.name
	}
	return out
}

func stoppedReport(b *strings.Builder, s *state, cfg Config, kind engine.OutcomeKind, summary string) {
	title := "aborted"
	if kind == engine.OutcomeInterrupted {
		title = "interrupted"
	}
	header(b, title, cfg)
	fmt.Fprintf(b, "**%s.**\n\n", strings.TrimRight(summary, "."))
	fmt.Fprintf(b, "**How far it got:** %s; at most %s.\n\n", stageWords(s), engine.Plural(s.maxRounds, "round"))
	if p := s.position(); p != "" {
		fmt.Fprintf(b, "**Position when it stopped (v%d):** %s\n\n", len(s.positions), p)
	}
	var open []string
	for _, st := range s.unresolved() {
		if st.verdict != "" { // only those who have said something
			open = append(open, st.name)
		}
	}
	if len(open) > 0 {
		fmt.Fprintf(b, "**Still disagreeing:** %s\n\n", strings.Join(open, ", "))
	}
}

func failuresSection(b *strings.Builder, s *state) {
	f := s.failures()
	if len(f) == 0 {
		return
	}
	b.WriteString("## Failures\n\n")
	for _, x := range f {
		fmt.Fprintf(b, "- %s\n", x)
	}
	b.WriteString("\n")
}

func auditTrail(b *strings.Builder, s *state) {
	if len(s.audit) == 0 {
		return
	}
	b.WriteString("---\n\n### Audit trail\n\n<details>\n<summary>Full debate history</summary>\n\n")
	round := -1
	for _, e := range s.audit {
		if e.Round != round {
			round = e.Round
			fmt.Fprintf(b, "#### Round %d\n\n", round)
		}
		what := string(e.Task)
		if what == "" {
			what = string(e.Phase)
		}
		fmt.Fprintf(b, "**%s — %s**\n\n%s\n\n", e.Agent, what, e.Body)
	}
	b.WriteString("</details>\n")
}

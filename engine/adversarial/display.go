package adversarial

import (
	"github.com/arenadebate/arena/engine"

	"fmt"
	"strings"
)

// Each reply renders itself as readable Markdown for front ends, with a
// short badge and a stance, so that no front end needs the protocol's
// vocabulary.

func (o Opening) Display() string {
	var b strings.Builder
	fmt.Fprintf(&b, "**Position:** %s\n\n", o.Position)
	numbered(&b, "Reasoning", o.Reasoning)
	fmt.Fprintf(&b, "**Confidence:** %s\n\n", strings.ToUpper(o.Confidence))
	bullets(&b, "Weaknesses it admits", o.Weaknesses)
	bullets(&b, "Assumptions", o.Assumptions)
	return strings.TrimSpace(b.String())
}

func (o Opening) Badge() (string, engine.Stance) {
	return "confidence " + o.Confidence, engine.StanceNeutral
}

func (c Critique) Display() string {
	var b strings.Builder
	fmt.Fprintf(&b, "**Verdict:** %s · %s objection · %s confidence\n\n", strings.ToUpper(c.Verdict), c.ObjectionStrength, c.Confidence)
	fmt.Fprintf(&b, "**Critique:** %s\n\n", c.Critique)
	field(&b, "Evidence", c.Evidence)
	field(&b, "Alternative", c.Alternative)
	bullets(&b, "Assumptions challenged", c.AssumptionsChallenged)
	return strings.TrimSpace(b.String())
}

func (c Critique) Badge() (string, engine.Stance) {
	return c.Verdict + " · " + c.ObjectionStrength, engine.Stance(c.Verdict)
}

func (a Answer) Display() string {
	var b strings.Builder
	for _, r := range a.Responses {
		fmt.Fprintf(&b, "**To %s — %s:** %s\n\n", r.Challenger, strings.ToUpper(decisionWords(r.Decision)), r.Explanation)
	}
	fmt.Fprintf(&b, "**Position now:** %s", a.UpdatedPosition)
	return b.String()
}

func (a Answer) Badge() (string, engine.Stance) {
	n := map[string]int{}
	for _, r := range a.Responses {
		n[r.Decision]++
	}
	var parts []string
	for _, d := range decisions {
		if n[d] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[d], d))
		}
	}
	return strings.Join(parts, " · "), engine.StanceNeutral
}

func decisionWords(d string) string {
	if d == "partial" {
		return "partially accept"
	}
	return d
}

func (r Rebuttal) Display() string {
	return fmt.Sprintf("**%s:** %s", strings.ToUpper(r.Choice), r.Explanation)
}

func (r Rebuttal) Badge() (string, engine.Stance) {
	switch r.Choice {
	case "accept":
		return r.Choice, engine.StanceAgree
	case "maintain":
		return r.Choice, engine.StancePartial
	}
	return r.Choice, engine.StanceDisagree
}

func (f Final) Display() string {
	var b strings.Builder
	field(&b, "Why I still disagree", f.WhyDisagree)
	field(&b, "What would make the other side right", f.WhatWouldMakeOtherRight)
	field(&b, "My assumption", f.MyAssumption)
	return strings.TrimSpace(b.String())
}

func (f Final) Badge() (string, engine.Stance) { return "final answers", engine.StanceNeutral }

func (s Synthesis) Display() string {
	var b strings.Builder
	for _, o := range s.Options {
		fmt.Fprintf(&b, "**%s** — %s\n", o.Name, o.Summary)
		for _, c := range o.ChooseIf {
			fmt.Fprintf(&b, "- choose if %s\n", c)
		}
		b.WriteString("\n")
	}
	field(&b, "Recommendation", s.Recommendation)
	bullets(&b, "Open questions", s.OpenQuestions)
	return strings.TrimSpace(b.String())
}

func (s Synthesis) Badge() (string, engine.Stance) {
	return fmt.Sprintf("%d options", len(s.Options)), engine.StanceNeutral
}

func field(b *strings.Builder, name, value string) {
	if value != "" {
		fmt.Fprintf(b, "**%s:** %s\n\n", name, value)
	}
}

func bullets(b *strings.Builder, title string, items []string) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(b, "**%s:**\n", title)
	for _, it := range items {
		fmt.Fprintf(b, "- %s\n", it)
	}
	b.WriteString("\n")
}

func numbered(b *strings.Builder, title string, items []string) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(b, "**%s:**\n", title)
	for i, it := range items {
		fmt.Fprintf(b, "%d. %s\n", i+1, it)
	}
	b.WriteString("\n")
}

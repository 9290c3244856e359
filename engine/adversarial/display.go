package engine

import (
	"fmt"
	"strings"
)

// Each reply renders itself as readable Markdown for front ends, with a
// short badge and a stance, so that no front end needs the protocol's
// vocabulary.

func (o Opening) display() string {
	var b strings.Builder
	fmt.Fprintf(&b, "**Position:** %s\n\n", o.Position)
	numbered(&b, "Reasoning", o.Reasoning)
	fmt.Fprintf(&b, "**Confidence:** %s\n\n", strings.ToUpper(o.Confidence))
	bullets(&b, "Weaknesses it admits", o.Weaknesses)
	bullets(&b, "Assumptions", o.Assumptions)
	return strings.TrimSpace(b.String())
}

func (o Opening) badge() (string, Stance) { return "confidence " + o.Confidence, StanceNeutral }

func (c Critique) display() string {
	var b strings.Builder
	fmt.Fprintf(&b, "**Verdict:** %s · %s objection · %s confidence\n\n", strings.ToUpper(c.Verdict), c.ObjectionStrength, c.Confidence)
	fmt.Fprintf(&b, "**Critique:** %s\n\n", c.Critique)
	field(&b, "Evidence", c.Evidence)
	field(&b, "Alternative", c.Alternative)
	bullets(&b, "Assumptions challenged", c.AssumptionsChallenged)
	return strings.TrimSpace(b.String())
}

func (c Critique) badge() (string, Stance) {
	return c.Verdict + " · " + c.ObjectionStrength, Stance(c.Verdict)
}

func (a Answer) display() string {
	var b strings.Builder
	for _, r := range a.Responses {
		fmt.Fprintf(&b, "**To %s — %s:** %s\n\n", r.Challenger, strings.ToUpper(decisionWords(r.Decision)), r.Explanation)
	}
	fmt.Fprintf(&b, "**Position now:** %s", a.UpdatedPosition)
	return b.String()
}

func (a Answer) badge() (string, Stance) {
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
	return strings.Join(parts, " · "), StanceNeutral
}

func decisionWords(d string) string {
	if d == "partial" {
		return "partially accept"
	}
	return d
}

func (r Rebuttal) display() string {
	return fmt.Sprintf("**%s:** %s", strings.ToUpper(r.Choice), r.Explanation)
}

func (r Rebuttal) badge() (string, Stance) {
	switch r.Choice {
	case "accept":
		return r.Choice, StanceAgree
	case "maintain":
		return r.Choice, StancePartial
	}
	return r.Choice, StanceDisagree
}

func (f Final) display() string {
	var b strings.Builder
	field(&b, "Why I still disagree", f.WhyDisagree)
	field(&b, "What would make the other side right", f.WhatWouldMakeOtherRight)
	field(&b, "My assumption", f.MyAssumption)
	return strings.TrimSpace(b.String())
}

func (f Final) badge() (string, Stance) { return "final answers", StanceNeutral }

func (s Synthesis) display() string {
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

func (s Synthesis) badge() (string, Stance) {
	return fmt.Sprintf("%d options", len(s.Options)), StanceNeutral
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

package adversarial

import (
	"github.com/arenadebate/arena/engine"

	"fmt"
	"strings"
)

// Each reply renders itself as readable Markdown for front ends, with a
// short badge and a stance, so that no front end needs the protocol's
// vocabulary.

func (o Opening) Badge() (string, engine.Stance) {
	return "confidence " + o.Confidence, engine.StanceNeutral
}

func (c Critique) Badge() (string, engine.Stance) {
	return c.Verdict + " · " + c.ObjectionStrength, engine.Stance(c.Verdict)
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

func (r Rebuttal) Badge() (string, engine.Stance) {
	switch r.Choice {
	case "accept":
		return r.Choice, engine.StanceAgree
	case "maintain":
		return r.Choice, engine.StancePartial
	}
	return r.Choice, engine.StanceDisagree
}

func (f Final) Badge() (string, engine.Stance) { return "final answers", engine.StanceNeutral }

func (s Synthesis) Badge() (string, engine.Stance) {
	return fmt.Sprintf("%d options", len(s.Options)), engine.StanceNeutral
}

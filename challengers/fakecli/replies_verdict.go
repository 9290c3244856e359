package main

import (
	"strings"
)

// The verdict judges' canned replies. The scores follow the work the
// prompt carries, so a run on fakes alone (or a pre-push hook test) can
// reach each verdict: work marked "VERDICT:REJECT" scores a 1, work
// marked "VERDICT:IMPROVE" scores 3/3/3, anything else 4/4/5. The stated
// verdict agrees with the scores, as a careful model's would.
var verdictReplies = replySet{
	"verdict.quick":    func(v voice, prompt string) obj { return v.judgement(prompt, false) },
	"verdict.deep":     func(v voice, prompt string) obj { return v.judgement(prompt, true) },
	"verdict.tiebreak": func(v voice, prompt string) obj { return v.judgement(prompt, true) },
}

func (v voice) judgement(prompt string, deep bool) obj {
	verdict, sem, prag, syn := "accept", 4, 4, 5
	why := v.name + " finds the work accurate, usable for its task and well formed."
	improvements := []string{}
	switch {
	case strings.Contains(prompt, "VERDICT:REJECT"):
		verdict, sem, prag, syn = "reject", 1, 2, 3
		why = v.name + " finds a factual error that blocks use of the work."
		improvements = []string{"correct the factual error before anything else"}
	case strings.Contains(prompt, "VERDICT:IMPROVE"):
		verdict, sem, prag, syn = "improve", 3, 3, 3
		why = v.name + " finds the work adequate but with gaps in coverage."
		improvements = []string{"cover the edge cases the task names", "explain the design choice in a comment"}
	}
	var reasoning any = why
	if deep {
		reasoning = []string{
			"Semantic: the terms and facts match the task's domain.",
			"Pragmatic: the change does what the task asked for.",
			"Syntactic: the structure is consistent. " + why,
		}
	}
	return obj{
		{"verdict", verdict},
		{"scores", obj{{"semantic", sem}, {"pragmatic", prag}, {"syntactic", syn}}},
		{"reasoning", reasoning},
		{"improvements", improvements},
	}
}

package main

import "strings"

// arena bench's judge (engine/bench): it picks between the answers shown
// as A and B.
var benchReplies = replySet{
	"bench.judge": func(v voice, p string) obj { return v.benchJudge(p) },
}

// benchJudge picks the answer shown first, unless the judge's bias sees
// each answer's quality (Bias.Quality): then the better one, or a tie.
func (v voice) benchJudge(prompt string) obj {
	winner := "A"
	a, b := benchAnswers(prompt)
	qa, okA := v.quality(a)
	qb, okB := v.quality(b)
	switch {
	case v.firstShown() || !okA || !okB:
	case qb > qa:
		winner = "B"
	case qa == qb:
		winner = "tie"
	}
	return obj{{"reasoning", v.name + " compared the two answers."}, {"winner", winner}}
}

// benchAnswers are the texts a bench prompt shows as A and as B.
func benchAnswers(prompt string) (a, b string) {
	_, rest, _ := strings.Cut(prompt, "=== ANSWER A ===")
	a, rest, _ = strings.Cut(rest, "=== ANSWER B ===")
	b, _, _ = strings.Cut(rest, formatMarker)
	return a, b
}

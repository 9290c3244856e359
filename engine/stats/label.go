package stats

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arenadebate/arena/engine"
)

// A person's word on a run: what `arena label` records, and what a
// moderator's note saying "verdict: ..." during the run counts as.

// Verdicts are the verdicts a person can give.
var Verdicts = []string{"accept", "improve", "reject"}

// ParseLabel reads a person's verdict, in any of these forms, several
// joined by commas: "winner B" (the candidate the person says is best),
// "accept", "improve", "reject", "score 4" (1 to 5). candidates, when
// given, are the run's; a winner must be one of them.
func ParseLabel(text string, candidates []string) (engine.Label, error) {
	return parse(text, func(name string) (string, error) { return Winner(name, candidates) })
}

// parse reads a verdict's parts; winner turns the name after "winner"
// into the candidate it means.
func parse(text string, winner func(string) (string, error)) (engine.Label, error) {
	var l engine.Label
	for _, part := range strings.Split(text, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		word, rest, _ := strings.Cut(part, " ")
		rest = strings.TrimSpace(rest)
		switch w := strings.ToLower(strings.TrimSuffix(word, ":")); {
		case w == "winner":
			id, err := winner(rest)
			if err != nil {
				return l, err
			}
			l.Winner = id
		case w == "score":
			v, err := Score(rest)
			if err != nil {
				return l, err
			}
			l.Score = &v
		case rest == "" && isVerdict(w):
			l.Verdict = w
		default:
			return l, fmt.Errorf("%q is not a verdict: write winner NAME, accept, improve, reject or score N", part)
		}
	}
	if l.Winner == "" && l.Verdict == "" && l.Score == nil {
		return l, fmt.Errorf("no verdict given: write winner NAME, accept, improve, reject or score N")
	}
	return l, nil
}

func isVerdict(w string) bool {
	for _, v := range Verdicts {
		if w == v {
			return true
		}
	}
	return false
}

// Winner is the candidate named, matched without regard to case; with no
// candidates known, any non-empty name.
func Winner(name string, candidates []string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", fmt.Errorf("winner: name the candidate")
	}
	if len(candidates) == 0 {
		return "", fmt.Errorf("winner %q: this run has no candidates to choose among", name)
	}
	for _, c := range candidates {
		if strings.EqualFold(c, name) {
			return c, nil
		}
	}
	return "", fmt.Errorf("winner %q is not one of the run's candidates (%s)", name, strings.Join(candidates, ", "))
}

// Score reads a score from 1 to 5.
func Score(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || v < 1 || v > 5 {
		return 0, fmt.Errorf("score %q: give a number from 1 to 5", strings.TrimSpace(s))
	}
	return v, nil
}

// moderatorPrefix starts a moderator's note that is an explicit verdict.
const moderatorPrefix = "verdict:"

// ModeratorLabel reads a moderator's note that gives an explicit verdict
// ("verdict: winner B", "verdict: reject"); ok is false for any other
// note.
func ModeratorLabel(note string) (engine.Label, bool) {
	t := strings.TrimSpace(note)
	if len(t) < len(moderatorPrefix) || !strings.EqualFold(t[:len(moderatorPrefix)], moderatorPrefix) {
		return engine.Label{}, false
	}
	l, err := parseLoose(t[len(moderatorPrefix):])
	if err != nil {
		return engine.Label{}, false
	}
	l.By = "moderator"
	return l, true
}

// parseLoose is ParseLabel without the run's candidates (a moderator
// names a winner as the run shows it).
func parseLoose(text string) (engine.Label, error) {
	return parse(text, func(name string) (string, error) {
		if name == "" {
			return "", fmt.Errorf("winner names no candidate")
		}
		return name, nil
	})
}

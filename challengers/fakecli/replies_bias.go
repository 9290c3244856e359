package main

import (
	"regexp"
	"strconv"
	"strings"
)

// A fake judge's bias (fakeapi.Bias), applied to its canned judging
// replies: a position bias, a preference for its own model's work, or a
// judgement that sees each candidate's true quality.

// firstShown reports whether the judge prefers the candidate shown first.
func (v voice) firstShown() bool { return v.bias != nil && v.bias.FirstShown }

// isOwn reports whether text holds the mark of the judge's own work.
func (v voice) isOwn(text string) bool {
	return v.bias != nil && v.bias.Own != "" && strings.Contains(text, v.bias.Own)
}

// quality is the score the bias's Quality expression finds in text.
func (v voice) quality(text string) (int, bool) {
	if v.bias == nil || v.bias.Quality == "" {
		return 0, false
	}
	re, err := regexp.Compile(v.bias.Quality)
	if err != nil {
		return 0, false
	}
	m := re.FindStringSubmatch(text)
	if len(m) < 2 {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	if err != nil || n < 1 || n > 5 {
		return 0, false
	}
	return n, true
}

// judged is a score after the judge's bias for its own work.
func (v voice) judged(score int, material string) int {
	if v.isOwn(material) {
		return min(score+2, 5)
	}
	return score
}

package main

import (
	"strings"

	"github.com/arenadebate/arena/challengers/fakecli/fakeapi"
)

// The follow-up question asked after an outcome (engine.ShapeFollowUp)
// is answered in prose that quotes the question, so a test can tell the
// answer reached the right place.
var proseReplies = map[fakeapi.Kind]func(v voice, prompt string) string{
	"followup": func(v voice, prompt string) string {
		q := "the question"
		if _, rest, ok := strings.Cut(prompt, "FOLLOW-UP QUESTION (from the person running arena, not a model):\n"); ok {
			q, _, _ = strings.Cut(rest, "\n")
		}
		return v.name + " answers the follow-up \"" + strings.TrimSpace(q) + "\": the outcome stands, and " +
			"the migration plan is what would change it."
	},
}

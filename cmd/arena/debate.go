package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/challengers/trust"
)

// mistypedCommand refuses a single bare word as a topic: any text is a
// valid topic, so "arena docter", "arena version" or "arena list" would
// otherwise start a debate, call every model and write a log. A word close
// to a command, or one of the verbs people reach for, gets its command;
// to debate one word, a person asks it as a question.
func mistypedCommand(cmd *cobra.Command, args []string) error {
	if len(args) != 1 || args[0] == "-" || strings.ContainsAny(args[0], " ?") {
		return nil
	}
	word := trust.Text(args[0])
	instead := commonVerbs[strings.ToLower(word)]
	if s := cmd.SuggestionsFor(args[0]); instead == "" && len(s) > 0 {
		instead = "arena " + s[0]
	}
	if strings.HasPrefix(instead, "git ") {
		return usagef("arena has no %q command: to upgrade arena, run %s", word, instead)
	}
	if instead != "" {
		return usagef("%q is not a command: did you mean %s? (to debate a single word, ask it as a question: arena \"%s?\")", word, instead, word)
	}
	return usagef("%q is not a command, and one word is too little to debate: ask it as a question (arena \"%s?\"), or see arena --help", word, word)
}

// commonVerbs are words people type expecting a command arena does not
// have, and the command that does what they meant.
var commonVerbs = map[string]string{
	"version": "arena --version",
	"init":    "arena config init",
	"list":    "arena logs",
	"ls":      "arena logs",
	"history": "arena logs",
	"show":    "arena replay",
	"setup":   "arena doctor",
	"update":  "git pull && go install ./cmd/arena in your clone of arena",
	"upgrade": "git pull && go install ./cmd/arena in your clone of arena",
}

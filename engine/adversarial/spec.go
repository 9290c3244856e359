package adversarial

import "github.com/arenadebate/arena/engine"

// Spec is the adversarial debate as everything outside it knows it
// (engine/protocols lists it): arena itself runs it, given a topic, and so
// does arena debate.
var Spec = engine.Spec{
	Name: Name, Command: "debate", Root: true, Title: Title, Noun: Noun,
	Words:   engine.DefaultWords,
	Phases:  Phases,
	Layouts: Layouts,
	Help: engine.Help{
		Use:   `debate "topic" [flags]`,
		Short: "A debate: a defender takes a position, challengers attack it, round by round",
		Long: `debate is what arena "topic" runs, by its name: a defender model takes a
position, challenger models attack it in parallel, and the debate goes round
by round to a consensus report or, failing that, a tradeoff document.`,
		Example: `  arena debate "should we move sessions from Redis to Postgres?"
  arena debate -f question.md --context schema.sql`,
	},
	Exits: engine.Exits{
		{Code: engine.ExitOK, Means: "consensus", Outcomes: []engine.OutcomeKind{OutcomeConsensus}},
		{Code: engine.ExitUsage, Means: "usage error (bad flag, config, topic or context file)"},
		{Code: ExitTradeoff, Means: "no consensus: a tradeoff document was written", Outcomes: []engine.OutcomeKind{OutcomeTradeoff}},
		engine.Aborted("debate aborted (no usable challenger, the defender failed, every challenger failed)"),
		engine.TooFewFamilies("the defender and the challengers"),
	},
	Tool: engine.Tool{
		About: "Adversarial debate: a defender model takes a position on a question or decision, challenger models attack it in parallel, round by round, to a consensus report or a tradeoff document naming the assumption the decision turns on. Use it to have other models attack a plan.",
		Guard: engine.Guard{Against: "challengers"},
		Seats: true,
	},
	Resume: engine.ResumeRule{Reads: []string{"file", "context"}, Attached: []string{"context"}},
	New:    newRequest,
	Uses:   engine.Uses{Rounds: "maximum confrontation rounds", Timeout: true},
}

// ExitTradeoff is the debate's own exit code: it ended without consensus.
const ExitTradeoff = 3

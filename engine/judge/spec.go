package judge

import "github.com/arenadebate/arena/engine"

// Spec is the judging as everything outside it knows it
// (engine/protocols lists it).
var Spec = engine.Spec{
	Name: Name, Command: "judge", Title: Title, Noun: Noun,
	Words:   engine.Words{Topic: "Task", Context: "File"},
	Seating: Seating,
	ConfigExample: `judge:
  judges: [gemini, codex, qwen]`,
	Phases:  Phases,
	Layouts: Layouts,
	Help: engine.Help{
		Use:   `judge FILE|DIR|- ... --task "what it should do" [flags]`,
		Short: "Three judges score a solution and debate their scores to consensus",
		Long: `arena judge has judges (three different models by default) score a solution
against weighted criteria, each on its own and with evidence quoted from the
solution, then debate their scores round by round until arena's consensus
check passes: every overall score within 0.5 of the others, no criterion more
than 1 point apart, and every judge accepting. arena computes every overall
score itself, checks that each quoted piece of evidence occurs in the
solution, and flags a changed score that comes without a reason and evidence.

The solution is files, directories (walked, honouring .gitignore; binary files
are skipped and named) or - for stdin. Criteria are name:weight pairs (weights
need not sum to 100) or a preset: code (default), design, docs.

Judges come from --judges, the config's judge: {judges: [...]}, or the usable
challengers; --author names the agent that wrote the solution, which then
gets no judge seat unless --judges names it (the report then says so).

With --reports-dir, each judge's report is written there as the seed names
it, {solution}-{date}.{N}.md (never over an existing set: a suffix is added),
with a copy of the outcome document beside them.

--max-rounds is the number of debate rounds here: 3 unless given.`,
		Example: `  arena judge src/api/users.go src/api/users_test.go --task "REST API for user management" \
    --criteria "correctness:30,design:25,security:20,performance:15,docs:10"
  arena judge docs/ --preset docs --task "User guide for the CLI" --reports-dir .specs/reports
  git diff | arena judge - --task "fix the race in the cache" --min-score 3.5 --no-tui`,
	},
	Exits: engine.Exits{
		{Code: engine.ExitOK, Means: "consensus (at or above --min-score, when given)", Outcomes: []engine.OutcomeKind{OutcomeConsensus}},
		{Code: engine.ExitUsage, Means: "usage error (bad flag, criteria, config, or solution path)"},
		{Code: ExitNoConsensus, Means: "no consensus after the last debate round: human review needed", Outcomes: []engine.OutcomeKind{OutcomeNoConsensus}},
		engine.Aborted("aborted (fewer than two judges left)"),
		{Code: ExitBelowMin, Means: "consensus, but the overall score is below --min-score", Outcomes: []engine.OutcomeKind{OutcomeBelowMin}},
		engine.TooFewFamilies("the judges"),
	},
	Tool: engine.Tool{
		About: "Three judges (different models) score a solution against weighted criteria with quoted evidence, then debate their scores until arena's consensus check passes. The caller's own agent is kept out of the judges by default.",
		Guard: engine.Guard{Author: "author", Judges: []string{"judges"}},
	},
	Resume: engine.ResumeRule{Reads: []string{"paths"}, Writes: []string{"reports_dir"}},
	New:    newRequest,
	Uses:   engine.Uses{Rounds: "debate rounds between the judges", RoundsDefault: DefaultMaxRounds, Timeout: true},
}

// The judging's own exit codes.
const (
	ExitNoConsensus = 3 // no consensus: human review needed
	ExitBelowMin    = 5 // consensus, but below --min-score
)

package rank

import "github.com/arenadebate/arena/engine"

// Spec is the ranking as everything outside it knows it
// (engine/protocols lists it).
var Spec = engine.Spec{
	Name: Name, Command: "rank", Title: Title, Noun: Noun,
	Words:   engine.Words{Topic: "Topic", Context: "Context", First: "Spec"},
	Seating: Seating,
	ConfigExample: `rank:
  verdict: gemini              # who writes the closing sentence
  test_command: make test      # instead of detecting one (--run-tests)`,
	Phases:  Phases,
	Layouts: Layouts,
	Help: engine.Help{
		Use:   "rank SPEC REPO REPO [REPO...]",
		Short: "Rank two or more implementations of one spec: measured facts, five judges, arena's arithmetic",
		Long: `arena rank judges implementations of the same specification (two agents'
branches, two vendors, two candidates' take-home tasks).

arena measures each repository's branch against its base with git (HEAD,
files changed, additions, deletions) and, with --run-tests, runs the
repository's own tests (go test, npm test, pytest, cargo test, or the
config's rank.test_command) in a temporary export of the branch with a
timeout. Running a repository's tests runs its code: only use --run-tests on
code you trust enough to run.

One fact seat per repository, running read-only inside it, reports the
facts of the spec's requirements, security, tests, overengineering and
dead code, without scoring; arena checks them against what it measured.
Five dimension judges then score every repository from 1 to 5 under neutral
letters, each in its own shuffled order and again in the reverse order
(--orders K for more counterbalanced orders); a preference that changed with
the order counts as a tie, and the outcome's order receipts say, dimension by
dimension, whether it held. arena computes the weighted totals and the
ranking. Nothing in the repositories is changed.

Seats come from the config's rank section, else from the defender and
challengers in turn:
  rank:
    facts: [claude, gemini]        # used in turn across repositories
    judges: {functionality: claude, security: codex, tests: gemini,
             overengineering: qwen, dead_code: codex}
    test_command: make test        # instead of detecting one`,
		Example: `  arena rank spec.md ../impl-a ../impl-b
  arena rank spec.md ../a ../b ../c --labels "Claude,GPT,Qwen" --weights functionality:40,security:30
  arena rank spec.md ../a ../b --branch feature --base main --run-tests --out report.json
  arena rank spec.md ../a ../b --authors claude,codex --expect-winner a   # for CI`,
	},
	Exits: engine.Exits{
		{Code: engine.ExitOK, Means: "a ranking was made (and, with --expect-winner, that repository ranks first alone)", Outcomes: []engine.OutcomeKind{OutcomeRanked, OutcomeTie}},
		{Code: engine.ExitUsage, Means: "usage error (spec, repository, branch, base, labels, weights, --out, config)"},
		{Code: ExitOtherWinner, Means: "--expect-winner: another repository ranks first, or first place is tied"},
		engine.Aborted("ranking aborted (no repository's facts could be gathered, or every judge failed)"),
		engine.TooFewFamilies("the dimension judges"),
	},
	Tool: engine.Tool{
		About: "Rank two or more implementations (git repositories) of one spec: measured git facts, a fact seat per repository, five dimension judges under neutral labels, and a ranking arena computes.",
		Guard: engine.Guard{Authors: "authors"},
	},
	Resume: engine.ResumeRule{Reads: []string{"spec", "repos"}, Writes: []string{"out"}, First: "spec",
		Runs:  map[string]string{"run_tests": "each repository's own tests (the repositories' code)"},
		Again: startAgain},
	New:  newRequest,
	Uses: engine.Uses{Timeout: true, Findings: true},
}

// ExitOtherWinner is rank's own exit code: --expect-winner named a
// repository that did not rank first alone.
const ExitOtherWinner = 3

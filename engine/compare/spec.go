package compare

import "github.com/arenadebate/arena/engine"

// Spec is the comparison as everything outside it knows it
// (engine/protocols lists it).
var Spec = engine.Spec{
	Name: Name, Command: "compare", Title: Title, Noun: Noun,
	Words:   engine.DefaultWords,
	Seating: Seating,
	ConfigExample: `compare:
  advocates: [gemini, codex]   # one per option, in option order
  judge: claude`,
	Phases: []engine.PhaseInfo{
		{Phase: PhasePreflight, Title: "Preflight"}, {Phase: PhaseCriteria, Title: "Criteria"},
		{Phase: PhaseOpening, Title: "Openings"}, {Phase: PhaseRebuttal, Title: "Rebuttals"},
		{Phase: PhaseJudge, Title: "Judgement"}, {Phase: engine.PhaseOutcome, Title: "Outcome"},
	},
	Layouts: Layouts,
	Help: engine.Help{
		Use:   `compare "decision" --option A --option B [flags]`,
		Short: "Compare options: advocates argue, a judge scores them in both orders",
		Long: `compare runs a comparative debate. Each option gets an advocate (a different
model each, with its own argumentative lens) who argues for it on every
criterion and names three risks of the other; the advocates then attack each
other's three weakest claims, quoted word for word (arena checks the quotes).
A judge, who never sees which model argued what, scores every option on every
criterion from 1 to 5, audits the arguments and recommends one option. The
judge is asked twice at once, with the options in opposite orders (--orders K
for more counterbalanced orders): arena computes the weighted totals (high =
3, medium = 2, low = 1) from the parsed scores and averages the readings. A
preference that changed with the order counts as a tie, never a win, and the
outcome's order receipts say, judgement by judgement, whether it held.

Without --criteria the judge first proposes four to six weighted criteria.
Seats come from --advocates and --judge, else the config's compare section
(compare: {advocates: [gemini, codex], judge: claude}), else the defender and
challengers in turn. A seat whose agent fails twice goes to an agent holding
no seat.`,
		Example: `  arena compare "which queue for order events?" --option Kafka --option "Postgres LISTEN/NOTIFY"
  arena compare "ORM or SQL?" --option sqlc --option GORM --criteria "safety:high,speed:medium,learning:low"
  arena compare -f decision.md --option A --option B --context evidence.md --quick`,
	},
	Exits: engine.Exits{
		{Code: engine.ExitOK, Means: "a recommendation, the same with the options in either order", Outcomes: []engine.OutcomeKind{OutcomeRecommendation}},
		{Code: engine.ExitUsage, Means: "usage error (fewer than two options, a weight that is not high/medium/low, a missing file)"},
		{Code: ExitOrderDependent, Means: "no robust recommendation: the judge's pick changed with the order of the options", Outcomes: []engine.OutcomeKind{OutcomeOrderDependent}},
		engine.Aborted("comparison aborted (no agent left for a seat)"),
		engine.TooFewFamilies("the judge and the advocates"),
	},
	Tool: engine.Tool{
		About: "Compare two to four options: an advocate per option argues for it and attacks the others' weakest claims; a judge who never sees which model argued what scores every option on weighted criteria, asked twice with the options in opposite orders. arena computes the totals.",
		Guard: engine.Guard{Author: "author", Judges: []string{"judge"}},
	},
	Resume: engine.ResumeRule{Reads: []string{"file", "context", "stakeholders"}, Attached: []string{"context"}},
	New:    newRequest,
	Uses:   engine.Uses{Timeout: true},
}

// ExitOrderDependent is the comparison's own exit code: the recommendation
// changed with the order of the options.
const ExitOrderDependent = 3

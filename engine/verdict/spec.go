package verdict

import "github.com/arenadebate/arena/engine"

// Spec is the verdict as everything outside it knows it
// (engine/protocols lists it).
var Spec = engine.Spec{
	Name: Name, Command: "verdict", Title: Title, Noun: Noun,
	Words:         engine.Words{Topic: "Task", Context: "File"},
	Seating:       Seating,
	ConfigExample: `verdict: {quick: gemini, deep: claude, tiebreaker: codex}`,
	Phases: []engine.PhaseInfo{
		{Phase: PhaseQuick, Title: "Quick judge"}, {Phase: PhaseDeep, Title: "Deep judge"},
		{Phase: PhaseJudges, Title: "Quick and deep judges in parallel"}, {Phase: PhaseTiebreak, Title: "Tiebreaker"},
		{Phase: engine.PhaseOutcome, Title: "Outcome"},
	},
	Layouts: Layouts,
	Uses:    engine.Uses{Findings: true},
	Help: engine.Help{
		Use:   "verdict [FILE... | -] --task-id ID",
		Short: "Judge finished work against a rubric: accept, improve, reject or escalate",
		Long: `verdict is a quality gate for finished work (files, or a diff on stdin). Judges
score it 1–5 on the three dimensions of quality of the KLS framework
(Krogstie, Lindland and Sindre's, from conceptual modelling): semantic
(accurate to the domain), pragmatic (enables the intended decision or
action) and syntactic (consistent and well-structured). Arena, not the model, applies
the thresholds to the scores: every score ≥ 3 and average ≥ 3.5 → accept;
any score < 2 → reject; otherwise improve.

The quick judge goes first: accept or reject is final, improve goes to the
deep judge, whose accept or reject is final and whose improve escalates to
a human. With --thorough both run in parallel; if they differ, the
tiebreaker (best a different provider) decides, unless it sides with
neither. At most three judges are asked. A judge that times out after one
retry, or whose reply is not valid JSON after one repair request,
escalates; --sensitive always escalates, with the verdicts still recorded.

Seats come from --quick-judge, --deep-judge and --tiebreaker, else the
config file (verdict: {quick: gemini, deep: claude, tiebreaker: codex}),
else the defender and challengers. --author keeps the agent that wrote the
work out of every seat the config or the defaults would give it.

Every judge's verdict, then the final decision, is appended as one JSON
line to the verdict log (--log, default verdicts/verdicts.jsonl in the log
directory); arena verdict --schema prints the records' JSON Schema. A
verdict leaves nothing in the work tree: unless a log directory was chosen
(--log-dir, debate_log_path), its logs go to $XDG_STATE_HOME/arena/verdict-logs
(~/.local/state/arena/verdict-logs). --brief prints one line, the decision
and the log, as the pre-push hook does (the whole run with
ARENA_VERDICT_VERBOSE=1).`,
		Example: `  arena verdict report.md --task-id issue-18 --task "document the API"
  git diff main... | arena verdict - --task-id "$(git branch --show-current)"
  arena verdict - --task-id issue-18 --thorough --json < change.diff
  arena verdict --install-hook     # judge every git push in this repository
  arena verdict --uninstall-hook   # stop: remove the hook arena wrote
  arena verdict --schema           # the verdict log's JSON Schema
  arena verdict --stats ~/.local/state/arena/verdict-logs/verdicts/verdicts.jsonl`,
	},
	// 3 is the only code left between 0 and 4 (1, 2 and 4 are shared), so
	// reject and escalate take 5 and 6: a script or hook can tell every
	// decision apart.
	Exits: engine.Exits{
		{Code: engine.ExitOK, Means: "accept", Outcomes: []engine.OutcomeKind{OutcomeAccept}},
		{Code: engine.ExitUsage, Means: "usage error (bad flag, config, missing or unreadable work)"},
		{Code: ExitImprove, Means: "improve: the work needs changes (a judge's scores said so, and it was final)", Outcomes: []engine.OutcomeKind{OutcomeImprove}},
		engine.Aborted("aborted (no usable judge)"),
		{Code: ExitReject, Means: "reject", Outcomes: []engine.OutcomeKind{OutcomeReject}},
		{Code: ExitEscalate, Means: "escalate: a human must decide (judges disagree, a judge failed, both said improve, or --sensitive)", Outcomes: []engine.OutcomeKind{OutcomeEscalate}},
		engine.TooFewFamilies("the judges"),
	},
	Tool: engine.Tool{
		About:  "Rubric quality gate for finished work (files or a diff): quick judge, then deep judge, then a tiebreaker, deciding accept, improve, reject or escalate. arena applies the thresholds to the parsed scores. The caller's own agent is kept out of the seats by default.",
		Guard:  engine.Guard{Author: "author", Judges: []string{"quick_judge", "deep_judge", "tiebreaker"}},
		Record: true,
	},
	Resume:        engine.ResumeRule{Reads: []string{"files"}, Writes: []string{"log"}},
	New:           newRequest,
	LogsOutOfTree: true,
}

// The verdict's own exit codes.
const (
	ExitImprove  = 3
	ExitReject   = 5
	ExitEscalate = 6
)

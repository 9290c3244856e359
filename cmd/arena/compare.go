package main

import (
	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/compare"
	"github.com/arenadebate/arena/engine/mcpserver"
	"github.com/arenadebate/arena/engine/resume"
)

// The comparison's own exit code: the recommendation changed with the
// order of the options.
const exitOrderDependent = 3

func compareProtocol() protocol {
	return protocol{
		name:    compare.Name,
		command: "compare",
		seating: compare.Seating,
		exits:   compareExits,
		resume: resume.Rule{
			Flags: []string{"file", "option", "criteria", "context", "stakeholders", "quick", "single", "advocates", "judge"},
			Reads: []string{"file", "context", "stakeholders"}},
		build: (*app).compareCmd,
		tool: tool{
			about:  "Compare two to four options: an advocate per option argues for it and attacks the others' weakest claims; a judge who never sees which model argued what scores every option on weighted criteria, asked twice with the options in opposite orders. arena computes the totals.",
			inputs: []mcpserver.Param{{Name: "decision", About: "the decision the options are for", Place: mcpserver.AsStdinFile, Required: true}},
			flags: []mcpserver.FlagInput{{Flag: "option", Name: "options", About: "two to four options to compare", Required: true},
				{Flag: "criteria"}, {Flag: "context", About: "files of evidence every seat reads"}, {Flag: "stakeholders"},
				{Flag: "quick"}, {Flag: "single"}, {Flag: "advocates"}, {Flag: "judge"},
				{Flag: "author", About: "the agent that proposed the options: it gets no judge seat (default: the calling agent, when it is one of arena's agents)"},
				{Flag: "timeout"}},
			fixed: []string{"--no-tui"},
			guard: mcpserver.Guard{Author: "author", Judges: []string{"judge"}},
		},
	}
}

var compareExits = runExits(
	exit{code: exitOK, means: "a recommendation, the same with the options in either order", outcomes: []engine.OutcomeKind{compare.OutcomeRecommendation}},
	exit{code: exitUsage, means: "usage error (fewer than two options, a weight that is not high/medium/low, a missing file)"},
	exit{code: exitOrderDependent, means: "no robust recommendation: the judge's pick changed with the order of the options", outcomes: []engine.OutcomeKind{compare.OutcomeOrderDependent}},
	aborted("comparison aborted (no agent left for a seat)"),
)

type compareFlags struct {
	outputFlags
	compare.Request
	topicFile    string
	options      []string
	context      []string
	stakeholders string
}

func (a *app) compareCmd(cf *commonFlags) *cobra.Command {
	var f compareFlags
	cmd := &cobra.Command{
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
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runCompare(cmd, cf, &f, args)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&f.topicFile, "file", "f", "", "read the decision from FILE (\"-\" for stdin)")
	fl.StringArrayVar(&f.options, "option", nil, "an option to compare (two to four, repeat the flag)")
	fl.StringVar(&f.Criteria, "criteria", "", `weighted criteria, e.g. "throughput:high,ops cost:medium" (default: the judge proposes them)`)
	fl.StringArrayVar(&f.context, "context", nil, "attach a file of evidence every seat reads (repeatable)")
	fl.StringVar(&f.stakeholders, "stakeholders", "", "a file describing the stakeholders and their preferences")
	fl.BoolVar(&f.Quick, "quick", false, "skip the rebuttals")
	fl.BoolVar(&f.Single, "single", false, "one agent scores the options alone, for a quick look")
	fl.StringSliceVar(&f.Advocates, "advocates", nil, "advocate agents, one per option in option order, comma-separated")
	fl.StringVar(&f.Judge, "judge", "", "the judge's agent")
	fl.IntVar(&f.Orders, "orders", 0, "how many counterbalanced orders of the options the judge is asked in (default 2; 1 with --single)")
	fl.StringSliceVar(&f.Authors, "authors", nil, "the agent that wrote each option, comma-separated in option order (\"\" for none): for arena stats")
	fl.StringVar(&f.Author, "author", "", "the agent that proposed the options: no seat the defaults fill goes to it (flags and the config still can)")
	f.outputFlags.register(cmd)
	return cmd
}

func (a *app) runCompare(cmd *cobra.Command, cf *commonFlags, f *compareFlags, args []string) error {
	f.CriteriaGiven, f.OrdersGiven = cmd.Flags().Changed("criteria"), cmd.Flags().Changed("orders")
	in, err := a.readCompare(f, args)
	if err != nil {
		return err
	}
	s, err := a.loadSettings(cmd, cf)
	if err != nil {
		return err
	}
	exclude, err := f.Exclude(s.Agents)
	if err != nil {
		return usageOf(err)
	}
	if f.Author != "" && f.Judge == f.Author {
		a.warn("%s proposed the options and judges them, because --judge names it", f.Author)
	}
	seats := seatPicker(s, compare.Seating, exclude...)
	got, err := pickSeats(seats, f.Wants(len(in.Options))...)
	if err != nil {
		return err
	}
	cfg := f.Config(in, got, s.TimeoutPerCLI)
	a.warnShared(seats)
	cfg.StandIns = seats.StandIns()
	p := compare.New(cfg)
	if f.dryRun {
		return a.showManifest(p, f.json)
	}
	logw, err := a.openLog(s, in.Decision)
	if err != nil {
		return err
	}
	out := a.runProtocol(p, logw, f.outputFlags)
	return exitCode(compareExits.code(out.Result))
}

// readCompare reads and checks the decision, the options, the flags and
// the files the comparison is given, before anything is loaded.
func (a *app) readCompare(f *compareFlags, args []string) (compare.Input, error) {
	var in compare.Input
	var err error
	if in.Decision, err = a.readTopic(f.topicFile, args, f.includeSecrets); err != nil {
		return in, err
	}
	if in.Options, err = compare.CheckOptions(f.options); err != nil {
		return in, usagef("%w", err)
	}
	if in.Criteria, err = f.Check(len(in.Options)); err != nil {
		return in, usageOf(err)
	}
	if in.Context, err = readContext(f.context, f.includeSecrets); err != nil {
		return in, err
	}
	in.Stakeholders, err = readStakeholders(f.stakeholders, f.includeSecrets)
	return in, err
}

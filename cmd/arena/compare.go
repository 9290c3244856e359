package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/seating"
	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/compare"
	"github.com/arenadebate/arena/engine/mcpserver"
	"github.com/arenadebate/arena/engine/receipt"
	"github.com/arenadebate/arena/engine/resume"
	"github.com/arenadebate/arena/settings"
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
	topicFile    string
	options      []string
	criteria     string
	context      []string
	stakeholders string
	quick        bool
	single       bool
	advocates    []string
	judge        string
	orders       int
	authors      []string
	author       string
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
	fl.StringVar(&f.criteria, "criteria", "", `weighted criteria, e.g. "throughput:high,ops cost:medium" (default: the judge proposes them)`)
	fl.StringArrayVar(&f.context, "context", nil, "attach a file of evidence every seat reads (repeatable)")
	fl.StringVar(&f.stakeholders, "stakeholders", "", "a file describing the stakeholders and their preferences")
	fl.BoolVar(&f.quick, "quick", false, "skip the rebuttals")
	fl.BoolVar(&f.single, "single", false, "one agent scores the options alone, for a quick look")
	fl.StringSliceVar(&f.advocates, "advocates", nil, "advocate agents, one per option in option order, comma-separated")
	fl.StringVar(&f.judge, "judge", "", "the judge's agent")
	fl.IntVar(&f.orders, "orders", 0, "how many counterbalanced orders of the options the judge is asked in (default 2; 1 with --single)")
	fl.StringSliceVar(&f.authors, "authors", nil, "the agent that wrote each option, comma-separated in option order (\"\" for none): for arena stats")
	fl.StringVar(&f.author, "author", "", "the agent that proposed the options: no seat the defaults fill goes to it (flags and the config still can)")
	f.outputFlags.register(cmd)
	return cmd
}

func (a *app) runCompare(cmd *cobra.Command, cf *commonFlags, f *compareFlags, args []string) error {
	in, err := a.readCompare(cmd, f, args)
	if err != nil {
		return err
	}
	s, err := a.loadSettings(cmd, cf)
	if err != nil {
		return err
	}
	exclude, err := a.compareAuthors(s, f)
	if err != nil {
		return err
	}
	seats := seatPicker(s, compare.Seating, exclude...)
	got, err := pickSeats(seats, compareWants(f, len(in.options))...)
	if err != nil {
		return err
	}
	cfg := in.config(f, s, got)
	a.warnShared(seats)
	cfg.StandIns = seats.StandIns()
	p := compare.New(cfg)
	if f.dryRun {
		return a.showManifest(p, f.json)
	}
	logw, err := a.openLog(s, in.decision)
	if err != nil {
		return err
	}
	out := a.runProtocol(p, logw, f.outputFlags)
	return exitCode(compareExits.code(out.Result))
}

// compareInput is what a comparison is of, read and checked.
type compareInput struct {
	decision, stakeholders string
	options                []string
	criteria               []compare.Criterion // nil: the judge proposes them
	docs                   []engine.Doc
}

// readCompare reads and checks the decision, the options, the flags and
// the files the comparison is given, before anything is loaded.
func (a *app) readCompare(cmd *cobra.Command, f *compareFlags, args []string) (compareInput, error) {
	var in compareInput
	var err error
	if in.decision, err = a.readTopic(f.topicFile, args, f.includeSecrets); err != nil {
		return in, err
	}
	if in.options, err = compareOptions(f.options); err != nil {
		return in, err
	}
	if in.criteria, err = checkCompareFlags(cmd, f, len(in.options)); err != nil {
		return in, err
	}
	if in.docs, err = readContext(f.context, f.includeSecrets); err != nil {
		return in, err
	}
	in.stakeholders, err = readStakeholders(f.stakeholders, f.includeSecrets)
	return in, err
}

// config is the comparison of in, with the seats got (the judge's, then
// the advocates' unless --single).
func (in compareInput) config(f *compareFlags, s *settings.Settings, got [][]challengers.Agent) compare.Config {
	cfg := compare.Config{
		ID: engine.Slug(in.decision, 40), Decision: in.decision, Options: in.options, Criteria: in.criteria,
		Context: in.docs, Stakeholders: in.stakeholders, Judge: got[0][0],
		Quick: f.quick, Single: f.single, Timeout: s.TimeoutPerCLI, Orders: f.orders, Authors: f.authors,
	}
	if !f.single {
		cfg.Advocates = got[1]
	}
	if cfg.Authors == nil && f.author != "" {
		// One proposer of every option: its judging them shows in
		// arena stats as self-preference.
		for range in.options {
			cfg.Authors = append(cfg.Authors, f.author)
		}
	}
	return cfg
}

// compareWants are the seats of a comparison of n options: the judge,
// then, unless --single, an advocate per option.
func compareWants(f *compareFlags, n int) []seating.Want {
	judge := seating.Want{Key: "judge", N: 1}
	if f.judge != "" {
		judge.Named = []string{f.judge}
	}
	if f.single {
		return []seating.Want{judge}
	}
	return []seating.Want{judge, {Key: "advocates", Named: f.advocates, N: n}}
}

// checkCompareFlags checks the flags that need nothing read or loaded
// first, for a comparison of n options: --criteria parses, --orders is
// one the options can be shown in, --authors names one agent per option,
// and --quick is not given with --single. It returns the criteria, nil
// when the judge is to propose them.
func checkCompareFlags(cmd *cobra.Command, f *compareFlags, n int) ([]compare.Criterion, error) {
	var criteria []compare.Criterion
	if cmd.Flags().Changed("criteria") {
		var err error
		if criteria, err = compare.ParseCriteria(trust.Text(f.criteria)); err != nil {
			return nil, usageCause(err, "--criteria: %v", err)
		}
	}
	if cmd.Flags().Changed("orders") {
		if most := receipt.MaxOrders(n); f.orders < 1 || f.orders > most {
			return nil, usagef("--orders %d: %d options can be shown in 1 to %d counterbalanced orders", f.orders, n, most)
		}
	}
	if f.authors != nil && len(f.authors) != n {
		return nil, usagef("--authors names %s for %d options (one per option, in order; \"\" for one not written by an agent)", engine.Plural(len(f.authors), "agent"), n)
	}
	if f.quick && f.single {
		return nil, usagef("--quick and --single do not go together: --single has no advocates to rebut")
	}
	return criteria, nil
}

// compareAuthors checks that --authors and --author name agents of the
// settings, and returns the agents the seats must not go to. The author
// of the options (arena mcp names the calling agent) is left out of the
// pool, so the seats that defaults fill, the judge's first, are held by
// other models (the self-preference guard).
func (a *app) compareAuthors(s *settings.Settings, f *compareFlags) ([]string, error) {
	for _, n := range f.authors {
		if _, ok := s.Agents[n]; n != "" && !ok {
			return nil, usagef("--authors: unknown agent %q", n)
		}
	}
	if f.author == "" {
		return nil, nil
	}
	if _, ok := s.Agents[f.author]; !ok {
		return nil, usagef("--author: unknown agent %q (known: %s)", f.author, strings.Join(agentNames(s), ", "))
	}
	if f.judge == f.author {
		a.warn("%s proposed the options and judges them, because --judge names it", f.author)
	}
	return []string{f.author}, nil
}

// compareOptions checks the options given: a mistake is a usage error.
func compareOptions(options []string) ([]string, error) {
	out, err := compare.CheckOptions(options)
	if err != nil {
		return nil, usagef("%w", err)
	}
	return out, nil
}

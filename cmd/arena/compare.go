package main

import (
	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/engine/compare"
	"github.com/arenadebate/arena/engine/mcpserver"
	"github.com/arenadebate/arena/engine/resume"
)

func compareProtocol() protocol {
	return protocol{
		Spec: compare.Spec,
		resume: resume.Rule{
			Flags: []string{"file", "option", "criteria", "context", "stakeholders", "quick", "single", "advocates", "judge"},
			Reads: []string{"file", "context", "stakeholders"}},
		build: (*app).compareCmd,
		tool: tool{
			inputs: []mcpserver.Param{{Name: "decision", About: "the decision the options are for", Place: mcpserver.AsStdinFile, Required: true}},
			flags: []mcpserver.FlagInput{{Flag: "option", Name: "options", About: "two to four options to compare", Required: true},
				{Flag: "criteria"}, {Flag: "context", About: "files of evidence every seat reads"}, {Flag: "stakeholders"},
				{Flag: "quick"}, {Flag: "single"}, {Flag: "advocates"}, {Flag: "judge"},
				{Flag: "author", About: "the agent that proposed the options: it gets no judge seat (default: the calling agent, when it is one of arena's agents)"},
				{Flag: "timeout"}},
			fixed: []string{"--no-tui"},
		},
	}
}

var compareExits = compare.Spec.AllExits()

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
	h := compare.Spec.Help
	cmd := &cobra.Command{
		Use: h.Use, Short: h.Short, Long: h.Long, Example: h.Example,
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
	return exitCode(compareExits.Code(out.Result))
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

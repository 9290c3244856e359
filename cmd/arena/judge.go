package main

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/seating"
	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine/judge"
	"github.com/arenadebate/arena/engine/mcpserver"
	"github.com/arenadebate/arena/engine/resume"
	"github.com/arenadebate/arena/settings"
)

// arena judge: judges score a solution and debate their scores to
// consensus (engine/judge).

func judgeProtocol() protocol {
	return protocol{
		Spec: judge.Spec,
		resume: resume.Rule{Args: true,
			Flags:  []string{"task", "criteria", "preset", "judges", "author", "reports-dir", "min-score", "max-bytes"},
			Writes: []string{"reports-dir"}},
		build: (*app).judgeCmd,
		tool: tool{
			inputs: []mcpserver.Param{
				{Name: "solution", About: "the solution as text (a diff, a document), instead of paths", Place: mcpserver.AsStdinArg},
				{Name: "paths", About: "the solution's files or directories (directories are walked, honouring .gitignore)", Type: mcpserver.Repeated, Place: mcpserver.AsArgs},
			},
			flags: []mcpserver.FlagInput{{Flag: "task", Required: true}, {Flag: "criteria"}, {Flag: "preset", Enum: []string{"code", "design", "docs"}},
				{Flag: "judges", About: "judge agents (default: three usable ones other than the author)"},
				{Flag: "author", About: "the agent that wrote the solution: it gets no judge seat unless judges names it (default: the calling agent, when it is one of arena's agents)"},
				{Flag: "min-score"}, {Flag: "max-bytes"}, {Flag: "reports-dir"},
				{Flag: "max-rounds", About: "debate rounds between the judges (default 3)"}, {Flag: "timeout"}},
			fixed: []string{"--no-tui"},
		},
	}
}

var judgeExits = judge.Spec.AllExits()

type judgeFlags struct {
	outputFlags
	judge.Request
	reportsDir string
}

func (a *app) judgeCmd(cf *commonFlags) *cobra.Command {
	var f judgeFlags
	h := judge.Spec.Help
	cmd := &cobra.Command{
		Use: h.Use, Short: h.Short, Long: h.Long, Example: h.Example,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runJudge(cmd, cf, &f, args)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.Task, "task", "", "what the solution was supposed to accomplish (required)")
	fl.StringVar(&f.Criteria, "criteria", "", `weighted criteria, e.g. "correctness:30,design:25,security:20"`)
	fl.StringVar(&f.Preset, "preset", "", "criteria preset: code (default), design or docs")
	fl.StringSliceVar(&f.Judges, "judges", nil, "judge agents, comma-separated (default: the usable challengers)")
	fl.StringVar(&f.Author, "author", "", "the agent that wrote the solution: it gets no judge seat by default")
	fl.StringVar(&f.reportsDir, "reports-dir", "", "write each judge's report and a copy of the outcome here")
	fl.Float64Var(&f.MinScore, "min-score", 0, "exit 5 when the consensus overall score is below this (1-5)")
	fl.IntVar(&f.MaxBytes, "max-bytes", judge.DefaultBudget, "bytes of the solution per prompt; the rest is cut, and said so")
	f.outputFlags.register(cmd)
	return cmd
}

func (a *app) runJudge(cmd *cobra.Command, cf *commonFlags, f *judgeFlags, args []string) error {
	f.MinScoreGiven, f.IncludeSecrets = cmd.Flags().Changed("min-score"), f.includeSecrets
	cfg, err := f.Config(args, a.stdin)
	if err != nil {
		return usageOf(err)
	}
	if f.reportsDir != "" {
		// Checked before anything else: a reports directory that cannot
		// hold the reports would fail every one of them after the judges'
		// work was paid for.
		d, err := trust.OpenDir(f.reportsDir, true)
		if err != nil {
			return usageCause(err, "--reports-dir %s cannot hold the reports: %v", f.reportsDir, err)
		}
		d.Close()
	}
	s, err := a.loadSettings(cmd, cf)
	if err != nil {
		return err
	}
	cfg.Timeout = s.TimeoutPerCLI
	cfg.MaxRounds = judge.DefaultMaxRounds
	if cmd.Flags().Changed("max-rounds") {
		if cf.maxRounds < 1 {
			return usagef("--max-rounds must be at least 1, got %d", cf.maxRounds)
		}
		cfg.MaxRounds = cf.maxRounds
	}
	if cfg.Judges, err = a.judgeSeats(s, f); err != nil {
		return err
	}
	if f.reportsDir != "" {
		cfg.Reports = judge.NewReportFiles(f.reportsDir, cfg.Solution.Name+"-"+time.Now().Format("2006-01-02"), len(cfg.Judges))
	}
	p := judge.New(cfg)
	if f.dryRun {
		return a.showManifest(p, f.json)
	}
	logw, err := a.openLog(s, "judge "+cfg.Solution.Name)
	if err != nil {
		return err
	}
	out := a.runProtocol(p, logw, f.outputFlags)
	return exitCode(judgeExits.Code(out.Result))
}

// judgeSeats picks the judges: --judges, else the config's judge.judges,
// else three of the usable agents, leaving out the author, and the
// defender when the challengers alone fill the seats (judge.Request's
// Exclude).
func (a *app) judgeSeats(s *settings.Settings, f *judgeFlags) ([]challengers.Agent, error) {
	named := f.Judges
	if named == nil {
		named, _ = s.Seats(judge.Name, "judges")
	}
	exclude, err := f.Exclude(s.Agents, s.Defender, s.Challengers, named != nil)
	if err != nil {
		return nil, usageOf(err)
	}
	p := seatPicker(s, judge.Seating, exclude...)
	got, err := pickSeats(p, seating.Want{Key: "judges", Named: f.Judges, N: -1})
	if err != nil {
		return nil, err
	}
	if len(got[0]) < 2 {
		return nil, usagef("a judging needs at least two judges, got %d", len(got[0]))
	}
	a.warnShared(p)
	return got[0], nil
}

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/bench"
	"github.com/arenadebate/arena/engine/doc"
	"github.com/arenadebate/arena/settings"
)

// arena bench: the person's panel judges a file of labelled pairs; the
// engine (engine/bench) asks and scores, this is its flags.

var benchExits = exits{
	{Code: exitOK, Means: "every call asked, the figures printed"},
	{Code: exitError, Means: "internal error"},
	{Code: exitUsage, Means: "usage error (no such file, a layout arena does not read, a results file of another file)"},
	{Code: exitAborted, Means: "some calls failed: run it again to ask them again"},
	{Code: exitOverBudget, Means: "over budget: run it again with a higher --max-cost to carry on"},
	{Code: engine.ExitFamilies, Means: "refused before any call: the judges span fewer vendor families than --min-families"},
	{Code: exitInterrupted, Means: "interrupted: run it again to carry on"},
}

func (a *app) benchCmd(cf *commonFlags) *cobra.Command {
	var req bench.Request
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "bench FILE",
		Short: "Score your panel of judges on a file of labelled pairs (JudgeBench, MT-Bench's human judgments)",
		Long: `bench has each judge of your panel pick the better answer of every pair in FILE,
in both orders, under the neutral labels A and B, each order asked --repeats
times. FILE is JSON Lines in JudgeBench's layout or in MT-Bench's human
judgments' layout, read as published.

arena computes from the parsed picks each judge's accuracy against the
labels, its consistency under a swap (MT-Bench's definition, ties included),
how often it picked the answer shown first in both orders, its repeat
stability, and the agreement between judges (Cohen's kappa), each with its
95% interval and its count. The papers' figures for the same file are
printed beside them, as the papers' own.

Each answered call is appended to a results file as it comes; run the same
command again after Ctrl+C or --max-cost to carry on where it stopped.`,
		Example: `  arena bench judgebench.jsonl --judges claude,gemini,codex
  arena bench mt_bench_human.jsonl --repeats 2 --max-cost 5`,
		Args: argsOr(cobra.ExactArgs(1), "arena bench takes one file of labelled pairs: arena bench FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			req.File = args[0]
			return a.runBench(cmd, cf, req, asJSON)
		},
	}
	fl := cmd.Flags()
	fl.StringSliceVar(&req.Judges, "judges", nil, "the panel, comma-separated (default: arena judge's: the config's judge.judges, else the pool)")
	fl.IntVar(&req.Repeats, "repeats", 1, "ask each judge each order N times, to measure its noise apart from its position bias")
	fl.StringVar(&req.Results, "results", "", "the results file (default: bench/ in arena's state directory, ~/.local/state/arena, named after FILE and its content)")
	fl.BoolVar(&asJSON, "json", false, "print the figures as JSON")
	return cmd
}

func (a *app) runBench(cmd *cobra.Command, cf *commonFlags, req bench.Request, asJSON bool) error {
	s, err := a.loadSettings(cmd, cf)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	a.startReaper()
	tty := a.isTTY()
	last := -10
	out, err := req.Run(ctx, bench.Setup{
		Roster: roster(s), MinFamilies: s.MinFamilies, Timeout: s.TimeoutPerCLI, ResultsDir: benchDir(a.env, s),
		Budget: engine.Budget{MaxCostUSD: s.MaxCostUSD, MaxCalls: s.MaxCalls, MaxTokens: s.MaxTokens},
		Env:    a.agentEnv,
		Progress: func(done, total int) {
			pct := 100 * done / max(total, 1)
			switch {
			case tty:
				fmt.Fprintf(a.stderr, "\r%s %d/%d calls (%d%%)", progressBar(done, total, 30), done, total, pct)
			case pct/10 != last/10 || done == total:
				fmt.Fprintf(a.stderr, "bench: %d/%d calls (%d%%)\n", done, total, pct)
			}
			last = pct
		},
	})
	if tty {
		fmt.Fprintln(a.stderr)
	}
	if err != nil {
		return usageOf(err)
	}
	if asJSON {
		b, err := json.MarshalIndent(struct {
			bench.Report
			Result  engine.OutcomeKind `json:"result"`
			Results string             `json:"results_file"`
		}{out.Report, out.Run.Result, out.Results}, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintln(a.stdout, string(b))
	} else {
		fmt.Fprint(a.stdout, doc.Markdown(out.Document()))
	}
	switch out.Run.Result {
	case bench.OutcomeScored:
		return nil
	case engine.OutcomeOverBudget:
		return exitCode(exitOverBudget)
	case engine.OutcomeInterrupted:
		return exitCode(exitInterrupted)
	}
	return exitCode(exitAborted)
}

// benchDir is where results files go unless --results names one: arena's
// state directory (apart from the logs, which arena logs and stats read),
// else the log directory.
func benchDir(env settings.Env, s *settings.Settings) string {
	if state := settings.StateDir(env); state != "" {
		return filepath.Join(state, "bench")
	}
	return s.DebateLogPath
}

// progressBar is done of total as a bar of width cells.
func progressBar(done, total, width int) string {
	n := width * done / max(total, 1)
	bar := make([]rune, width)
	for i := range bar {
		bar[i] = '░'
		if i < n {
			bar[i] = '█'
		}
	}
	return string(bar)
}

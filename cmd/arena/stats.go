package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine/stats"
	"github.com/arenadebate/arena/tui/plain"
)

// arena stats: how each model judges, across runs.

var statsExits = exits{
	{Code: exitOK, Means: "printed (also when no log holds a figure yet)"},
	{Code: exitError, Means: "internal error"},
	{Code: exitUsage, Means: "usage error (no such file or directory, a file named that is not a log, a bad --since or --protocol, a bad config file)"},
}

type statsFlags struct {
	since     string
	protocols []string
	json      bool
}

func (a *app) statsCmd(cf *commonFlags) *cobra.Command {
	var f statsFlags
	cmd := &cobra.Command{
		Use:   "stats [DIR|LOG...]",
		Short: "How each model judges, across runs: agreement, flips, position bias, self-preference, ratings",
		Long: `stats reads the logs of many runs (the log directory by default, or the
directories and logs named) and reports, per model:

  as a judge   agreement with the rest of the panel (mean difference and
               Krippendorff's alpha, leave-one-out), flip rate when the order
               of the candidates changes, how often it picked the candidate
               shown first, self-preference (its score of its own model's work
               minus the other judges'; by vendor family too: of its family's
               work, minus the other families' judges'), the correlation of its scores with the
               length of what it judged, how often it moved in a debate without
               new evidence, and its agreement with your own verdicts (arena
               label; Cohen's kappa);
  as a seat    calls, failures by kind, repair requests, latency p50/p95,
               tokens and cost;
  as an author a Bradley–Terry rating, with a 95% interval, from the results
               of the runs whose candidates' authors are known (rank --authors,
               compare --authors).

Beside them: MT-Bench's consistency under a swap (against GPT-4's 65%), flips
by number of orders and by score gap, repetition stability where runs asked an
order again, what the debates changed of a plain vote across runs, and, with
shadow_escalation_gate: true in arena's config, a learned escalation gate.
docs/judging.md defines each.

Every figure carries the count it rests on and a 95% interval; none is shown
from fewer than 5 cases (a 95th percentile: 20), or, resampled over runs, from
fewer than 5 runs. On a terminal it draws bars and sparklines; to a pipe it
prints tables; --json for scripts.`,
		Example: `  arena stats
  arena stats debate-logs/ ../other-project/debate-logs --since 30d
  arena stats --protocol rank,compare --json | jq '.models[] | {model, consistency: .as_judge.mt_bench_swap.consistency}'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runStats(cmd, cf, &f, args)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.since, "since", "", "only runs started since: a date (2026-01-31), a time (RFC 3339) or an age (7d, 36h)")
	fl.StringSliceVar(&f.protocols, "protocol", nil, "only runs of these protocols, comma-separated ("+strings.Join(a.protocolCommands(), ", ")+")")
	fl.BoolVar(&f.json, "json", false, "print the figures as JSON")
	return cmd
}

func (a *app) runStats(cmd *cobra.Command, cf *commonFlags, f *statsFlags, args []string) error {
	filter, err := f.filter(a)
	if err != nil {
		return err
	}
	s, err := a.loadSettings(cmd, cf)
	if err != nil {
		return err
	}
	paths := args
	if len(paths) == 0 {
		for _, d := range s.LogDirs(a.env) {
			if _, err := os.Stat(d); err == nil {
				paths = append(paths, d)
			}
		}
		if len(paths) == 0 {
			fmt.Fprintf(trust.Writer{W: a.stdout}, "No saved runs in %s.\n", strings.Join(s.LogDirs(a.env), " or "))
			return nil
		}
	}
	runs, logs, skipped, err := stats.Read(paths, filter)
	if err != nil {
		return usagef("stats: %w", err)
	}
	for _, r := range runs {
		if r.Contradiction != "" {
			a.warn("%s: %s; counted as the run its first start began", r.Path, trust.Text(r.Contradiction))
		}
	}
	rep := stats.Compute(runs, stats.Options{ShadowGate: s.ShadowEscalationGate})
	rep.Logs, rep.Skipped = logs, skipped
	return a.printStats(rep, f.json)
}

// filter is what --since and --protocol keep of the runs.
func (f *statsFlags) filter(a *app) (stats.Filter, error) {
	var filter stats.Filter
	if f.since != "" {
		t, err := stats.ParseSince(f.since, time.Now())
		if err != nil {
			return filter, usageOf(err)
		}
		filter.Since = t
	}
	for _, name := range f.protocols {
		p, ok := a.protocolNamed(strings.TrimSpace(name))
		if !ok {
			return filter, usagef("--protocol %q: the protocols are %s", trust.Text(name), strings.Join(a.protocolCommands(), ", "))
		}
		filter.Protocols = append(filter.Protocols, p.Name)
	}
	return filter, nil
}

// printStats prints the report: as JSON, as charts on a terminal, else as
// tables.
func (a *app) printStats(rep stats.Report, asJSON bool) error {
	switch {
	case asJSON:
		b, err := trust.JSON(rep)
		if err != nil {
			return err
		}
		_, err = a.stdout.Write(append(b, '\n'))
		return err
	case isTerminal(a.stdout):
		w, _, err := term.GetSize(int(a.stdout.(*os.File).Fd()))
		if err != nil || w <= 0 {
			w = 100
		}
		_, err = io.WriteString(a.stdout, plain.StatsChart(rep, a.stdout, w))
		return err
	}
	_, err := io.WriteString(trust.Writer{W: a.stdout}, plain.StatsText(rep, a.stdout))
	return err
}

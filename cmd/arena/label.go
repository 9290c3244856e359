package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
	"github.com/arenadebate/arena/engine/stats"
)

// arena label: a person's own verdict on a finished run, appended to its
// log as a typed event (and a note, so replay shows it), for arena stats
// to compare every model's verdicts with.

var labelExits = exits{
	{Code: exitOK, Means: "recorded"},
	{Code: exitError, Means: "internal error"},
	{Code: exitUsage, Means: "usage error (no such log, a run without an outcome, a damaged log, a verdict\nthat does not read, a winner that is not one of the run's candidates)"},
}

type labelFlags struct{ stats.Labelling }

func (a *app) labelCmd(_ *commonFlags) *cobra.Command {
	var f labelFlags
	cmd := &cobra.Command{
		Use:   "label LOG [winner NAME | accept | improve | reject | score N ...]",
		Short: "Record your own verdict on a run, for arena stats to compare the models with",
		Long: `label records what you, a person, conclude about a finished run: the candidate
you judge best (winner NAME: an option of arena compare, a repository's label
of arena rank), a verdict (accept, improve or reject), or a score from 1 to 5.
It is appended to the run's log, after its outcome, as a "label" event and a
note that replay shows; the latest label of a run is the one that counts.
arena stats then reports each model's agreement with you (Cohen's kappa, with
its count).

During a run, a moderator's note that begins "verdict:" ("verdict: winner
Kafka", "verdict: reject", typed with m on the live screen or sent with
--moderate) counts the same way.`,
		Example: `  arena label debate-logs/20261121-153000.042-which-queue.jsonl winner Kafka
  arena label LOG --verdict reject --note "misses the migration"
  arena label LOG score 4, accept`,
		Args: argsOr(cobra.MinimumNArgs(1), "arena label takes a run's log and your verdict on it: "+
			"arena label LOG winner NAME | accept | improve | reject | score N (arena logs lists the logs)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.Words = strings.Join(args[1:], " ")
			return a.runLabel(&f, args[0])
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.Winner, "winner", "", "the candidate you judge best")
	fl.StringVar(&f.Verdict, "verdict", "", "accept, improve or reject")
	fl.StringVar(&f.Score, "score", "", "your score, from 1 to 5")
	fl.StringVar(&f.Note, "note", "", "why, in a few words (kept with the label)")
	return cmd
}

func (a *app) runLabel(f *labelFlags, path string) error {
	// One writer per log: the log is locked before it is read, so the
	// label follows what was read.
	var events []engine.Event // what a label needs of them
	logw, lc, err := lockLogScan(path, "label", func(e engine.Event, _ int64) {
		if stats.LabelNeeds(e) {
			events = append(events, e)
		}
	})
	if err != nil {
		return err
	}
	lc.Events = events
	l, err := f.Label(path, lc)
	if err != nil {
		logw.Close()
		return usageOf(err)
	}
	if err := errors.Join(stats.Record(logw, lc.LastSeq, l, time.Now()), logw.Close()); err != nil {
		return fmt.Errorf("label %s: %w; nothing was recorded, and the log is as it was", path, runlog.Trouble(err))
	}
	w := trust.Writer{W: a.stdout}
	fmt.Fprintf(w, "Recorded your verdict on %s: %s.\n", path, stats.LabelWords(l))
	if was, ok := stats.LastLabel(lc.Events); ok && stats.LabelWords(was) != stats.LabelWords(l) {
		// arena stats reads a run's latest label as the person's verdict.
		fmt.Fprintf(w, "It replaces your earlier one (%s): arena stats reads the latest.\n", stats.LabelWords(was))
	}
	return nil
}

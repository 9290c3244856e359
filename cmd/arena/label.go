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
	{code: exitOK, means: "recorded"},
	{code: exitError, means: "internal error"},
	{code: exitUsage, means: "usage error (no such log, a run without an outcome, a damaged log, a verdict\nthat does not read, a winner that is not one of the run's candidates)"},
}

type labelFlags struct {
	winner, verdict, score, note string
}

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
			return a.runLabel(&f, args[0], strings.Join(args[1:], " "))
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.winner, "winner", "", "the candidate you judge best")
	fl.StringVar(&f.verdict, "verdict", "", "accept, improve or reject")
	fl.StringVar(&f.score, "score", "", "your score, from 1 to 5")
	fl.StringVar(&f.note, "note", "", "why, in a few words (kept with the label)")
	return cmd
}

func (a *app) runLabel(f *labelFlags, path, words string) error {
	// One writer per log: the log is locked before it is read, so the
	// label follows what was read.
	var events []engine.Event // what a label needs of them: the outcome, the candidates, an earlier label
	logw, lc, err := lockLogScan(path, "label", func(e engine.Event, _ int64) {
		switch e.Payload.(type) {
		case engine.DebateStarted, engine.Outcome, engine.Resumed, engine.Placed, engine.Scored, engine.Label:
			events = append(events, e)
		}
	})
	if err != nil {
		return err
	}
	lc.Events = events
	closed := false
	defer func() {
		if !closed {
			logw.Close()
		}
	}()
	if lc.Problem != "" {
		return usagef("label %s: the log is damaged (%s)", path, lc.Problem)
	}
	if o, ok := engine.LastOutcome(lc.Events); !ok || o.Result == engine.OutcomeInterrupted {
		return usagef("label %s: the run has not finished; resume it first (arena resume %s)", path, path)
	}
	cands := stats.RunOf(path, lc).Candidates()
	var parts []string
	if w := strings.TrimSpace(words); w != "" {
		parts = append(parts, w)
	}
	if f.winner != "" {
		parts = append(parts, "winner "+f.winner)
	}
	if f.verdict != "" {
		parts = append(parts, f.verdict)
	}
	if f.score != "" {
		parts = append(parts, "score "+f.score)
	}
	l, err := stats.ParseLabel(trust.Text(strings.Join(parts, ", ")), cands)
	if err != nil {
		return usagef("label: %w", err)
	}
	l.By, l.Note = "person", strings.TrimSpace(trust.Text(f.note))
	now := time.Now()
	// The label and its note are one write: both, or (a full disk)
	// neither, the log as it was, byte for byte.
	err = logw.Write(engine.Event{Seq: lc.LastSeq + 1, Time: now, Payload: l},
		engine.Event{Seq: lc.LastSeq + 2, Time: now, Payload: engine.Note{Level: engine.NoteInfo, Message: "the person's own verdict (arena label): " + labelWords(l)}})
	closed = true
	err = errors.Join(err, logw.Close())
	if err != nil {
		return fmt.Errorf("label %s: %w; nothing was recorded, and the log is as it was", path, runlog.Trouble(err))
	}
	w := trust.Writer{W: a.stdout}
	fmt.Fprintf(w, "Recorded your verdict on %s: %s.\n", path, labelWords(l))
	if was, ok := lastLabel(lc.Events); ok && labelWords(was) != labelWords(l) {
		// arena stats reads a run's latest label as the person's verdict.
		fmt.Fprintf(w, "It replaces your earlier one (%s): arena stats reads the latest.\n", labelWords(was))
	}
	return nil
}

// lastLabel is the latest label a person gave the run, if any.
func lastLabel(events []engine.Event) (engine.Label, bool) {
	for i := len(events) - 1; i >= 0; i-- {
		if l, ok := events[i].Payload.(engine.Label); ok && l.By == "person" {
			return l, true
		}
	}
	return engine.Label{}, false
}

// labelWords is a label in words: "winner Kafka, score 4 (misses the
// migration)".
func labelWords(l engine.Label) string {
	var parts []string
	if l.Winner != "" {
		parts = append(parts, "winner "+l.Winner)
	}
	if l.Verdict != "" {
		parts = append(parts, l.Verdict)
	}
	if l.Score != nil {
		parts = append(parts, fmt.Sprintf("score %g", *l.Score))
	}
	s := strings.Join(parts, ", ")
	if l.Note != "" {
		s += " (" + l.Note + ")"
	}
	return s
}

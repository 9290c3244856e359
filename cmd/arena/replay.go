package main

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
	"github.com/arenadebate/arena/settings"
	"github.com/arenadebate/arena/tui/plain"
)

type replayFlags struct {
	noTUI, json, instant bool
	follow               bool
	speed                float64
}

func (a *app) replayCmd(cf *commonFlags) *cobra.Command {
	var f replayFlags
	cmd := &cobra.Command{
		Use:   "replay [LOG]",
		Short: "Play a saved debate again",
		Long: `replay plays a saved debate log through the same screen, with its original
timing (--speed N to go faster, --instant for no waiting). Keys: space pauses,
n jumps to the next phase, + and - change the speed, q quits.

Without LOG it plays the latest run in the log directory (debate_log_path,
--log-dir), and names it first; arena logs lists the others. With --no-tui it prints the debate as the headless mode did, and
with --json it prints the events again. A log cut short (a killed arena, a
full disk) plays up to its last complete event and says where it ends.

With --follow it watches a run still going on (one arena mcp started, or one
in another terminal) as tail -f follows a file: what the log holds at once,
then every event as it is written, until the outcome, or until the arena
writing it stops (it holds the log's writer lock while it writes). Stopping
the watching (q, Ctrl+C) does not stop the run.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path, err := a.replayPath(cmd, cf, args)
			if err != nil {
				return err
			}
			if f.follow {
				return a.follow(path, f)
			}
			return a.replay(path, f)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.noTUI, "no-tui", false, "print the debate as plain text")
	fl.BoolVar(&f.json, "json", false, "print the events as JSON Lines")
	fl.Float64Var(&f.speed, "speed", 1, "playback speed factor")
	fl.BoolVar(&f.instant, "instant", false, "play without waiting between events")
	fl.BoolVar(&f.follow, "follow", false, "follow a log still being written, until its outcome (stopping does not stop the run)")
	return cmd
}

// replayPath is the log named, or the latest one, named on stderr. It is
// not asked about: a replay only reads the log, and q ends it.
func (a *app) replayPath(cmd *cobra.Command, cf *commonFlags, args []string) (string, error) {
	if len(args) == 1 {
		return args[0], nil
	}
	s, err := a.loadSettings(cmd, cf)
	if err != nil {
		return "", err
	}
	logs, where, err := a.savedRuns(s)
	if err != nil {
		return "", err
	}
	if logs.Len() == 0 {
		return "", usagef("no saved debates in %s (run a debate first, or give a log file: arena replay LOG)", where)
	}
	latest := logs.Glance(0)
	fmt.Fprintf(a.stderr, "Replaying the latest run, %q (%s, %s); arena logs lists the others.\n",
		engine.OneLine(latest.Topic, 60), latest.Started.Local().Format("2006-01-02 15:04"), plain.ResultWords(latest))
	return latest.Path, nil
}

func (a *app) replay(path string, f replayFlags) error {
	if f.json || f.noTUI || !a.isTTY() {
		return a.replayStream(path, f)
	}
	lc, err := runlog.ReadFile(path)
	if err := a.readToReplay(path, lc, err); err != nil {
		return err
	}
	return a.play(lc, f)
}

// replayStream prints a log as text or JSON Lines as it is read: memory
// does not grow with the log (issue 29: 0.8-1.0 GB for a 524 MB log).
func (a *app) replayStream(path string, f replayFlags) error {
	var sink interface {
		engine.Sink
		Err() error
	} = plain.New(a.stdout)
	if f.json {
		sink = plain.NewJSON(a.stdout)
	}
	lc, err := runlog.ScanFile(path, sink.Handle)
	if err := a.readToReplay(path, lc, err); err != nil {
		return err
	}
	if note := plain.EndNote(lc); note != "" {
		a.warn("%s", note)
	}
	return sink.Err()
}

// readToReplay says why what was read of a log cannot be replayed, or
// warns of the events it skipped.
func (a *app) readToReplay(path string, lc runlog.Contents, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return usageCause(err, "replay: %s: no such file", path)
	case errors.As(err, new(*trust.InputError)):
		return usagef("replay: %w", err) // a FIFO, a device: named, never read
	case err != nil:
		return usagef("replay %s: %w", path, err)
	case lc.Count == 0:
		// Nothing to play: an empty file, blank lines, or a directory.
		// Saying "the debate was cut short" and exiting 0 would pass it
		// off as a debate.
		why := "the file is empty"
		if lc.Problem != "" {
			why = lc.Problem
		}
		return usagef("replay %s: %w: %s", path, runlog.ErrNotALog, why)
	case lc.Skipped > 0:
		a.warn("%d events of kinds this arena does not know were skipped", lc.Skipped)
	}
	return nil
}

// play shows a read log: on the live screen, as text, or as JSON Lines.
func (a *app) play(lc runlog.Contents, f replayFlags) error {
	var err error
	note := plain.EndNote(lc)
	switch {
	case f.json:
		sink := plain.NewJSON(a.stdout)
		replayAll(lc.Events, sink)
		err = sink.Err()
	case f.noTUI || !a.isTTY():
		sink := plain.New(a.stdout)
		replayAll(lc.Events, sink)
		err = sink.Err()
	default:
		speed := f.speed
		if f.instant {
			speed = 0
		}
		err = a.replayTUI(lc.Events, speed, note)
	}
	if note != "" && (f.json || f.noTUI || !a.isTTY()) {
		a.warn("%s", note)
	}
	return err
}

func replayAll(events []engine.Event, sink engine.Sink) {
	for _, e := range events {
		sink.Handle(e)
	}
}

func (a *app) logsCmd(cf *commonFlags) *cobra.Command {
	var f logsFlags
	cmd := &cobra.Command{
		Use:   "logs [-n N] [--json]",
		Short: "List saved runs, newest first",
		Long: `logs lists the runs saved in the log directory (debate_log_path, or
--log-dir, or the one in --config), and arena verdict's (see arena verdict
--help), newest first: date, protocol, outcome, topic, rounds, how long it
took, the tokens its agents reported, the agents and the log. It fits the
terminal (on a pipe, $COLUMNS, else 80 columns): a table when there is
room, else three lines a run. Replay one with arena replay LOG.`,
		Example: `  arena logs -n 5
  arena logs --json | jq -r 'select(.result == "interrupted") | .path'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := a.loadSettings(cmd, cf)
			if err != nil {
				return err
			}
			return a.listLogs(s, f)
		},
	}
	cmd.Flags().IntVarP(&f.n, "number", "n", 0, "list the newest N runs only (0: all)")
	cmd.Flags().BoolVar(&f.json, "json", false, "print a JSON object a run, a line each")
	return cmd
}

type logsFlags struct {
	n    int
	json bool
}

func (a *app) listLogs(s *settings.Settings, f logsFlags) error {
	if f.n < 0 {
		return usagef("-n %d: give a number of runs, or 0 for all", f.n)
	}
	l, where, err := a.savedRuns(s)
	if err != nil {
		return err
	}
	n := l.Len()
	if f.n > 0 {
		n = min(n, f.n)
	}
	// What is wrong with a log is said on stderr, a line each.
	return plain.LogsPaged(a.stdout, where, n, a.namedByCommand(l.Summary), f.json, func(page []runlog.Summary) {
		for _, x := range page {
			if what := plain.LogProblems(x); what != "" {
				a.warn("%s: %s", x.Path, trust.Text(what))
			}
		}
	})
}

// namedByCommand names each run's protocol as a person types it (debate),
// not as its log does (adversarial).
func (a *app) namedByCommand(summary func(int) runlog.Summary) func(int) runlog.Summary {
	return func(i int) runlog.Summary {
		s := summary(i)
		if p, ok := a.protocolNamed(s.Protocol); ok {
			s.Protocol = p.Command
		}
		return s
	}
}

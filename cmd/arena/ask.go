package main

import (
	"context"
	"errors"
	"io/fs"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
	"github.com/arenadebate/arena/settings"
	"github.com/arenadebate/arena/tui/plain"
)

var askExits = exits{
	{Code: exitOK, Means: "the seat answered"},
	{Code: exitError, Means: "internal error"},
	{Code: exitUsage, Means: "usage error (no such log, a run without an outcome, an unknown seat)"},
	{Code: exitAborted, Means: "the seat's agent failed"},
	{Code: exitInterrupted, Means: "interrupted (Ctrl+C, SIGTERM, SIGHUP)"},
}

type askFlags struct {
	seat string
	json bool
}

func (a *app) askCmd(cf *commonFlags) *cobra.Command {
	var f askFlags
	cmd := &cobra.Command{
		Use:   `ask LOG "question"`,
		Short: "Ask one seat of a finished run a follow-up question",
		Long: `ask puts a follow-up question to one seat of a finished run, with the whole
run as its context: every reply, the moderator's notes and the outcome
document. The seat is the defender or the first judge unless --seat names
another. The answer streams here, and is appended to the run's log (after
its outcome) and to its outcome document.`,
		Example: `  arena ask debate-logs/20261121-153000.042-should-we-move.jsonl "what would change your mind?"
  arena ask LOG "why did you score security 2?" --seat "judge 2"`,
		Args: argsOr(cobra.ExactArgs(2), `arena ask takes a run's log and a question: arena ask LOG "what would change your mind?" (arena logs lists the logs)`),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runAsk(cmd, cf, &f, args[0], args[1])
		},
	}
	cmd.Flags().StringVar(&f.seat, "seat", "", "the seat to ask (default: the defender or the first judge)")
	cmd.Flags().BoolVar(&f.json, "json", false, "print the events as JSON Lines")
	return cmd
}

func (a *app) runAsk(cmd *cobra.Command, cf *commonFlags, f *askFlags, path, question string) error {
	if strings.TrimSpace(question) == "" {
		return usagef("the question is empty")
	}
	s, err := a.loadSettings(cmd, cf)
	if err != nil {
		return err
	}
	// One writer per log: the log is locked before it is read, so what
	// is read is what the answer is appended after.
	var events []engine.Event // what the follow-up needs of them: a transcript
	logw, lc, err := lockLogScan(path, "ask", func(e engine.Event, _ int64) {
		if e, ok := engine.ForFollowUp(e); ok {
			events = append(events, e)
		}
	})
	if err != nil {
		return err
	}
	lc.Events = events
	seat, agent, err := a.askable(path, lc, s, f.seat)
	if err != nil {
		logw.Close()
		return err
	}
	// The answer streams once, as the seat writes it, and the printer
	// says where it was saved (issue 40, item 11: it was printed again).
	ans := a.askSeat(logw, lc, f.json, seat, agent, question)
	switch {
	case ans.Cancelled:
		return exitCode(exitInterrupted)
	case !ans.OK():
		return exitCode(exitAborted)
	}
	return nil
}

// askable is the seat of the run in lc that a follow-up named seat goes
// to, once the run has an outcome to follow up.
func (a *app) askable(path string, lc runlog.Contents, s *settings.Settings, seat string) (engine.Seat, challengers.Agent, error) {
	if lc.Problem != "" {
		a.warn("%s is damaged (%s): the follow-up is asked from the events that can be read, and appended after every byte of it", path, lc.Problem)
	}
	if o, ok := engine.LastOutcome(lc.Events); !ok || o.Result == engine.OutcomeInterrupted || o.Result == engine.OutcomeOverBudget {
		return engine.Seat{}, challengers.Agent{}, usagef("ask %s: the run has no outcome to follow up yet; resume it first (arena resume %s)", path, path)
	}
	st, agent, err := engine.FollowUpTo(lc.Events[0].Payload.(engine.DebateStarted), seat, s.Agents)
	if errors.Is(err, engine.ErrFollowUpSeat) {
		err = usageCause(err, "%s", err)
	}
	return st, agent, err
}

// askSeat asks the follow-up, printing it and appending it to the log
// (which it closes) and to the outcome document beside it.
func (a *app) askSeat(logw *runlog.Writer, lc runlog.Contents, json bool, seat engine.Seat, agent challengers.Agent, question string) engine.Answer {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	a.startReaper() // a SIGKILL leaves nothing behind
	var printer engine.Sink = plain.New(a.stdout)
	if json {
		printer = plain.NewJSON(a.stdout)
	}
	bus := engine.NewBus(logw, printer)
	bus.ContinueAfter(lc.LastSeq)
	ans := engine.AnswerFollowUp(ctx, bus, engine.Options{Env: a.agentEnv}, lc.Events, seat, agent, question, logw.Path())
	bus.Close()
	a.closeLog(logw)
	return ans
}

// lockLogScan takes the writer's lock of the log at path (a FIFO or a
// device refused by name before anything opens it to write; a log another
// arena is writing refused naming that process), then reads it, handing
// each event to fn with the offset of its line and keeping none
// (runlog.ReopenScan); what went wrong is a usage error of the command
// what.
func lockLogScan(path, what string, fn func(engine.Event, int64)) (*runlog.Writer, runlog.Contents, error) {
	w, lc, err := runlog.ReopenScan(path, fn)
	var oe *runlog.OpenError
	switch {
	case err == nil:
		return w, lc, nil
	case errors.As(err, &oe) && errors.Is(err, fs.ErrNotExist):
		return nil, lc, usageCause(err, "%s: %s: no such file", what, path)
	case errors.As(err, &oe):
		return nil, lc, usagef("%s: %w", what, oe.Err)
	case errors.Is(err, runlog.ErrLocked):
		return nil, lc, usageCause(err, "%s: %v; try again once that run has ended", what, err)
	}
	return nil, lc, usagef("%s %s: %w", what, path, err)
}

// argsOr is check, with sentence as the usage error when the arguments
// do not do: cobra's own ("accepts 2 arg(s), received 0") says nothing of
// what to give (issue 32, point 10).
func argsOr(check cobra.PositionalArgs, sentence string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return usagef("%s", sentence)
		}
		return nil
	}
}

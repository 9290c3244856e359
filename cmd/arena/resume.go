package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/resume"
	"github.com/arenadebate/arena/engine/runlog"
	"github.com/arenadebate/arena/settings"
)

// arena resume takes an interrupted run up again. Every run's log records
// how it was started (engine.Invocation: its protocol's typed request,
// the settings it was asked with, its directory and what it read from
// stdin), so resuming is running the same request again, in the same
// directory, with the earlier run's replies at hand: the protocol is
// rebuilt by the code that built it the first time, the engine answers
// every question the log holds an answer to from the log
// (engine/resume.go), and the run appends to the same log. The recorded
// request is data: resumeguard.go reads it back (an older log's command
// line through resumecompat.go), checks it and shows it before it runs,
// and it runs with the settings of the person who resumes it, never a
// configuration the log names. The log is locked for the whole resume:
// one writer per log.

// resumeRun is a resumed run in progress: what the log held, and what the
// command's run must do differently (openLog, runProtocol).
type resumeRun struct {
	path     string          // absolute: the run goes on in its own directory
	shown    string          // path as the person reads it (app.shown)
	protocol protocol        // the run's
	lc       runlog.Contents // without its events: hist has what the run needs of them
	hist     *resume.History
	start    engine.DebateStarted
	w        *runlog.Writer // the log, locked, to append to
	force    bool
	swap     map[string]challengers.Agent
	changed  []engine.Setting // what the resumed run does differently
	// err is a refusal found once the command rebuilt its protocol (a
	// context file that changed).
	err error
}

type resumeFlags struct {
	outputFlags
	seats []string
	force bool
	yes   bool
}

func (a *app) resumeCmd(cf *commonFlags) *cobra.Command {
	var f resumeFlags
	cmd := &cobra.Command{
		Use:   "resume [LOG]",
		Short: "Carry on an interrupted, aborted or over-budget run from its log",
		Long: `resume takes a run that was interrupted (Ctrl+C, a killed arena, a closed
laptop), aborted (a seat that kept failing) or stopped over budget up again
from its log. Every reply the log holds is reused, never asked again; calls
that were cut off or failed are asked again from their start. The run goes
on with the same settings, in the directory it was started in, unless flags
change them: --timeout, --max-rounds, --max-cost, --max-calls and
--max-tokens (the budget is the whole run's: what its earlier part spent
counts, so raise the limit that stopped it), and --seat SEAT=AGENT to give a
seat (or every seat of an agent) another agent. It appends to the same log,
after a "resumed" event, so arena replay shows the whole run and arena logs
lists it once.

Without LOG it takes the latest interrupted, aborted or over-budget run of
the log directory. A finished run is not resumed (watch it with arena replay), nor
one another arena is writing now. A damaged log resumes from the events
that can be read; its bytes are all kept, and the resumed run is written
after them. A context file that changed since the run is named, and the run
is not resumed unless --force is given.

A log is data, not a command line: it records its run's request, which
is checked against what the run did (no file the run did not attach) and
shown first (the files it reads, where it writes, the seats). The run goes
on with your settings: a log names no config file and no agent. On a terminal you are
asked; without one, only a log arena wrote on this machine (signed with
your key in ~/.local/state/arena) is resumed, any other only with --yes.`,
		Example: `  arena resume                      # the latest interrupted run
  arena resume debate-logs/20261121-153000.042-should-we-move.jsonl --timeout 5m
  arena resume LOG --seat codex=qwen  # codex kept failing: qwen takes its seats
  arena resume LOG --max-cost 4       # it stopped over its $2 budget: allow $4 in all`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runResume(cmd, cf, &f, args)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.seats, "seat", nil, "SEAT=AGENT: give a seat (or every seat an agent holds) another agent (repeatable)")
	fl.BoolVar(&f.force, "force", false, "resume even if a context file changed since the run")
	fl.BoolVarP(&f.yes, "yes", "y", false, "resume a log arena did not write on this machine, without asking")
	f.outputFlags.register(cmd, false)
	return cmd
}

func (a *app) runResume(cmd *cobra.Command, cf *commonFlags, f *resumeFlags, args []string) error {
	s, err := a.loadSettings(cmd, cf)
	if err != nil {
		return err
	}
	path, err := a.resumePath(s, args)
	if err != nil {
		return err
	}
	rr, err := a.lockResumable(path)
	if err != nil {
		return err
	}
	defer rr.release()
	rr.force = f.force
	if rr.swap, rr.changed, err = resume.Swap(rr.start, f.seats, s.Agents); err != nil {
		return usagef("%w", err)
	}
	req, asked, left, err := a.loggedRequest(rr)
	if err != nil {
		return err
	}
	if again := rr.protocol.Resume.Again; again != nil {
		again(rr.start, req)
	}
	plan, err := a.planResume(rr, req, asked, left)
	if err != nil {
		return err
	}
	if err := a.confirmResume(rr, plan, f.yes); err != nil {
		return err
	}
	sf, err := rr.resumedSettings(cmd, cf, asked)
	if err != nil {
		return err
	}
	if rr.lc.Problem != "" {
		a.warn("the log is damaged: %s; every byte of it is kept, and the resumed run is written after it, from the %d events that can be read (arena replay names the damaged lines)", rr.lc.Problem, rr.lc.Count)
	}
	out := f.outputFlags
	if out.moderate != "" {
		abs, _ := filepath.Abs(string(out.moderate)) // the run goes on in its own directory
		out.moderate = moderateFile(abs)
	}
	if dir := rr.start.Invocation.Dir; dir != "" {
		if err := os.Chdir(dir); err != nil {
			return usageCause(err, "cannot resume %s: the run was started in %s, which cannot be entered now (%v)", rr.shown, dir, err)
		}
	}
	a.resume = rr
	a.stdin = strings.NewReader(rr.start.Invocation.Stdin)
	err = a.runRequest(rr.protocol, req, sf, out)
	if rr.err != nil {
		return rr.err
	}
	return err
}

// resumePath is the log named, or the latest interrupted, aborted or
// over-budget one no arena is writing now (confirmed with the rest of the
// plan). The path is made absolute: the run goes on in the directory it
// was started in.
func (a *app) resumePath(s *settings.Settings, args []string) (string, error) {
	if len(args) == 1 {
		return filepath.Abs(args[0])
	}
	logs, where, err := a.savedRuns(s)
	if err != nil {
		return "", err
	}
	latest, ok := resume.Latest(logs.Len(), logs.Glance)
	if !ok {
		return "", usagef("no interrupted, aborted or over-budget run in %s to resume (give a log file: arena resume LOG)", where)
	}
	return filepath.Abs(latest.Path)
}

// lockResumable takes the log's writer lock, then reads it, and says why
// it cannot be resumed, if it cannot: read under the lock, what it holds
// cannot change before the resumed run appends to it. The caller
// releases the lock unless the run took the log over.
func (a *app) lockResumable(path string) (*resumeRun, error) {
	hist := resume.NewHistory(path)
	w, lc, err := lockLogScan(path, "resume", hist.Add)
	if err != nil {
		return nil, err
	}
	rr, err := a.resumable(path, lc, hist)
	if err != nil {
		w.Close()
		return nil, err
	}
	rr.w = w
	return rr, nil
}

// release lets go of the log, unless the resumed run took it over.
func (rr *resumeRun) release() {
	if rr.w != nil {
		rr.w.Close()
		rr.w = nil
	}
}

// resumable says why a log cannot be resumed, if it cannot.
func (a *app) resumable(path string, lc runlog.Contents, hist *resume.History) (*resumeRun, error) {
	known := func(name string) bool { _, ok := a.protocolNamed(name); return ok }
	shown := a.shown(path)
	if err := hist.Refusal(shown, known); err != nil {
		return nil, usagef("%w", err)
	}
	rr := &resumeRun{path: path, shown: shown, lc: lc, hist: hist, start: hist.Start()}
	rr.protocol, _ = a.protocolNamed(rr.start.Protocol)
	return rr, nil
}

// resumedSettings are the settings the resumed run is asked with: those
// its log records (asked), with what the person changes on top (--timeout,
// --max-rounds, the budget), and the person's own config file (--config),
// never one a log names.
func (rr *resumeRun) resumedSettings(cmd *cobra.Command, cf *commonFlags, asked engine.RunSettings) (settings.Flags, error) {
	sf := settingsOf(asked)
	given := cf.settingsFlags(cmd)
	sf.Config = given.Config
	p := rr.protocol
	if given.Timeout != nil {
		if !p.Uses.Timeout {
			return sf, usagef("--timeout: a %s run's seats keep their own timeouts (it takes no --timeout)", p.Name)
		}
		sf.Timeout = given.Timeout
		rr.changed = append(rr.changed, engine.Setting{Name: "timeout", Value: *given.Timeout})
	}
	if given.MaxRounds != nil {
		if p.Uses.Rounds == "" {
			return sf, usagef("--max-rounds: a %s run has no rounds", p.Name)
		}
		sf.MaxRounds = given.MaxRounds
		rr.changed = append(rr.changed, engine.Setting{Name: "max rounds", Value: fmt.Sprint(*given.MaxRounds)})
	}
	rr.budgetOverrides(given, &sf)
	return sf, nil
}

// resumeLog hands the locked log over to the resumed run, which appends
// to it and closes it.
func (rr *resumeRun) resumeLog() (*runlog.Writer, error) {
	w := rr.w
	if w == nil {
		return nil, usagef("cannot resume %s: the log was opened once already", rr.shown)
	}
	rr.w = nil
	return w, nil
}

// check compares the rebuilt protocol's start with the log's: a context
// file that changed since, or is gone, stops the resume unless forced.
func (rr *resumeRun) check(st engine.DebateStarted) error {
	if err := resume.CheckStart(rr.shown, rr.start, st, rr.force); err != nil {
		return usagef("%w", err)
	}
	return nil
}

var resumeExits = exits{
	{Code: exitUsage, Means: "the log cannot be resumed: a finished run (use arena replay), one being written,\nnot a log or a newer format, its request refused, a log not signed here (without --yes),\na context file that changed since (unless --force)"},
}

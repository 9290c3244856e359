package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/resume"
	"github.com/arenadebate/arena/engine/runlog"
	"github.com/arenadebate/arena/settings"
	"github.com/arenadebate/arena/tui"
	"github.com/arenadebate/arena/tui/mcpserver"
	"github.com/arenadebate/arena/tui/plain"
)

// This file is what every protocol's command shares: the log, the
// outcome document beside it, signals, the front end, and the account
// left in the scrollback. A command builds its protocol and hands it to
// runProtocol.

// server is this run's link to the arena mcp that started it (its events
// pipe and its lifeline), nil when none did: taken out of the environment
// as arena starts, before any agent could inherit it.
var server = mcpserver.ChildFromEnv()

// outputFlags choose the front end, and what the person alone may say of
// a run (a log never does: resume takes them from its own flags).
type outputFlags struct {
	noTUI    bool
	json     bool
	moderate moderateFile // notes for every seat, a line each (moderate.go)
	// includeSecrets sends input files that look like secrets (input.go)
	includeSecrets bool
	// dryRun shows what each seat would receive and calls none (dryrun.go)
	dryRun bool
	// record: --json prints the run's final record alone (engine.Tool's
	// Record), not its events; brief: one line, the outcome and the log.
	record, brief bool
	// sarif is where --sarif writes the findings (verdict and rank;
	// sarif.go).
	sarif string
}

// register binds the front end's flags; record: --json prints the run's
// final record (engine.Tool's Record).
func (o *outputFlags) register(cmd *cobra.Command, record bool) {
	fl := cmd.Flags()
	fl.BoolVar(&o.noTUI, "no-tui", false, "print the run as plain text instead of the live screen")
	if record {
		fl.BoolVar(&o.record, "json", false, "print only the final record, as one JSON object")
	} else {
		fl.BoolVar(&o.json, "json", false, "print the run's events as JSON Lines")
	}
	fl.Var(&o.moderate, "moderate", "read moderator's notes for every seat from FILE (or a fifo), a line each, as they are written")
	fl.BoolVar(&o.includeSecrets, "include-secrets", false, "send input files that look like secrets (.env, keys, tokens) to the models anyway")
	fl.BoolVar(&o.dryRun, "dry-run", false, "show what each seat would receive (files and bytes), and call no model")
	inGroup(fl, groupOutput, "no-tui", "json", "moderate", "include-secrets", "dry-run")
}

// runRequest runs p's request req with the settings the flags sf give,
// on the front end out asks for, and exits with the code of its outcome.
func (a *app) runRequest(p protocol, req engine.Request, sf settings.Flags, out outputFlags) error {
	if p.Tool.Record && out.json {
		out.json, out.record = false, true // its JSON is its final record
	}
	s, err := a.loadSettingsFlags(sf)
	if err != nil {
		return err
	}
	if p.LogsOutOfTree {
		s.DebateLogPath = s.VerdictLogDir(a.env)
	}
	if err := checkSARIFPath(out.sarif); err != nil {
		return err
	}
	prep, err := req.Prepare(a.setup(p.Spec, s, sf, out))
	if err != nil {
		return usageOf(err)
	}
	if prep.Cleanup != nil {
		defer prep.Cleanup()
	}
	if out.dryRun {
		return a.showManifest(prep.Protocol, out.json || out.record, prep.Notes...)
	}
	logw, err := a.openLog(s, prep.Name)
	if err != nil {
		return err
	}
	b, err := json.Marshal(req)
	if err != nil {
		return err
	}
	asked := askedWith(sf)
	a.asked = engine.Invocation{Request: b, Settings: &asked}
	run := prep.Protocol
	if prep.Logged != nil {
		logPath := ""
		if logw != nil {
			logPath = logw.Path()
		}
		run = prep.Logged(logPath)
	}
	res := a.runProtocol(run, logw, out)
	a.afterRun(prep, res, out)
	if out.sarif != "" {
		if err := a.writeSARIF(out.sarif, res); err != nil {
			return err
		}
	}
	code := p.AllExits().Code(res.Result)
	if prep.Exit != nil {
		if c, ok := prep.Exit(res); ok {
			code = c
		}
	}
	return exitCode(code)
}

// afterRun says what the run left to say: what went wrong beside it, and
// its final record (--json of a protocol that keeps one), its one line
// (--brief), or with JSON Lines on stdout, what it wrote beside its log.
func (a *app) afterRun(prep *engine.Prepared, res engine.Outcome, out outputFlags) {
	if prep.Warnings != nil {
		for _, w := range prep.Warnings() {
			a.warn("%s", w)
		}
	}
	switch {
	case out.record && prep.Record != nil:
		b, _ := json.Marshal(prep.Record())
		fmt.Fprintf(a.stdout, "%s\n", b)
	case out.brief:
		fmt.Fprintln(trust.Writer{W: a.stdout}, plain.BriefLine(res, a.env.Home))
	case out.json && prep.Said != nil:
		// The live screen's account and the headless printer's list them
		// already; JSON Lines on stdout do not.
		for _, sv := range prep.Said() {
			fmt.Fprintf(a.stderr, "arena: %s: %s\n", sv.What, a.shown(sv.Path))
		}
	}
}

// setup is what a request of p is prepared with: the settings s (of the
// person running it), and the run's plumbing.
func (a *app) setup(p engine.Spec, s *settings.Settings, sf settings.Flags, out outputFlags) engine.Setup {
	rounds := s.MaxRounds
	if sf.MaxRounds == nil && p.Uses.RoundsDefault > 0 {
		rounds = p.Uses.RoundsDefault
	}
	var resumes []engine.Event
	var swap map[string]challengers.Agent
	if rr := a.resume; rr != nil {
		resumes, swap = rr.hist.Resumes, resume.ByAgent(rr.start, rr.swap)
	}
	resuming := a.resume != nil
	return engine.Setup{
		Roster: roster(s), Defender: s.Defender, Challengers: s.Challengers, NoChallengers: s.NoChallengers,
		MaxRounds: rounds, Timeout: s.TimeoutPerCLI, Skeptical: s.SkepticalOfEarlyAgreement,
		Value: func(key string) string { v, _ := s.ProtocolValue(p.Name, key); return v },
		Stdin: a.stdin, IncludeSecrets: out.includeSecrets,
		LogDir: s.DebateLogPath, SaveLogs: s.SaveDebateLogs, DryRun: out.dryRun, Resuming: resuming, Resumes: resumes,
		Warn: func(msg string) { a.warn("%s", msg) }, NoteSeats: a.noteSeats, Reaper: a.startReaper,
		MinFamilies: s.MinFamilies, Swap: swap,
	}
}

// runProtocol runs a protocol with the log writer, the outcome document's
// writer and a front end on its bus, and returns its outcome once every
// consumer has seen every event and the log is closed.
func (a *app) runProtocol(p engine.Protocol, logw *runlog.Writer, f outputFlags) engine.Outcome {
	a.startReaper()
	if rr := a.resume; rr != nil {
		if rr.err = rr.check(p.Start()); rr.err != nil {
			a.closeLog(logw)
			return engine.Outcome{Result: engine.OutcomeAborted, Summary: rr.err.Error()}
		}
	} else {
		p = a.recorded(p)
	}
	out, saved := a.protocolRun(p, logw, f)
	if logw != nil && out.LogPath == "" && out.InternalError == "" && a.resume == nil {
		// It asked no model (engine.Options.LogPath): nothing is left behind.
		if err := logw.Discard(); err != nil {
			a.warn("could not remove the log of a run that asked no model: %v", err)
		}
	} else {
		a.closeLog(logw)
	}
	if out.InternalError != "" {
		a.internalError = true
		if !f.live() || !a.isTTY() {
			fmt.Fprintf(a.stderr, "arena: internal error: %s (the stack is in the outcome document and the log)\n", out.InternalError)
		}
	}
	if f.live() && a.isTTY() {
		a.afterScreen(p.Start().RunNoun(), out, saved)
	}
	return out
}

// recorded records in p's start event the request it was asked for, the
// settings it was asked with, the directory and what was read from stdin,
// signed with the user's log key.
func (a *app) recorded(p engine.Protocol) engine.Protocol {
	inv := a.asked
	inv.Dir, _ = os.Getwd()
	if a.stdinRead != nil {
		inv.Stdin = string(a.stdinRead.buf)
	}
	key, err := a.logKey(true)
	if err != nil {
		a.warn("the log will not be signed (%v): arena resume will ask before running it again", err)
	}
	return runlog.Invoked(p, inv, key)
}

// startReaper starts, once, the watchdog that kills what arena started
// (the agents' and test commands' process groups) and removes what it
// made (every challengers.TempDir) if arena is killed outright; execute
// stops it when the command is done. Call it before making a temporary
// directory or starting a process. Without it the run still works; only a
// SIGKILL of arena could then leave something behind.
func (a *app) startReaper() {
	if a.reaper != nil {
		return
	}
	self, err := os.Executable()
	if err != nil {
		a.warn("cannot find arena's own binary to watch over the agents: %v", err)
		return
	}
	rp, err := challengers.StartReaper([]string{self, reaperCommand})
	if err != nil {
		a.warn("%v", err)
		return
	}
	a.reaper = rp
}

// stopReaper tells the reaper arena is done (everything it watched is
// gone by then) and waits for it.
func (a *app) stopReaper() {
	if a.reaper != nil {
		_ = a.reaper.Close()
		a.reaper = nil
	}
}

// openLog creates the run's log before anything runs, so a log directory
// that cannot be written is a clear error up front, not a lost run. name
// is what the log is named after (the topic, the decision).
func (a *app) openLog(s *settings.Settings, name string) (*runlog.Writer, error) {
	if a.resume != nil {
		return a.resume.resumeLog() // the run's own log, appended to
	}
	if !s.SaveDebateLogs {
		return nil, nil
	}
	w, err := runlog.Create(s.DebateLogPath, runlog.Name(time.Now(), name))
	if err != nil {
		// The sentence leaves out runlog.Create's "create log:" prefix, which
		// says again what the sentence says; the cause is kept whole.
		return nil, usageCause(err, "cannot save the debate log in %s: %v (choose another with --log-dir DIR, or run with --no-log)", s.DebateLogPath, errors.Unwrap(err))
	}
	if w.Unignored() {
		d := s.DebateLogPath
		a.warn("%s is in a git work tree that does not ignore it, and the logs hold your code and the models' replies: "+
			"`echo '*' > %s/.gitignore` keeps them out of commits (arena writes that file in the log directories it makes); "+
			"an empty %s/.gitignore keeps them in and ends this warning", d, d, d)
	}
	return w, nil
}

// closeLog closes the log, and says what became of it: where it was
// written again, or where the events it could not hold were saved.
func (a *app) closeLog(w *runlog.Writer) {
	if w == nil {
		return
	}
	for _, msg := range w.Finish() {
		a.warn("%s", msg)
	}
}

// protocolRun runs the engine with the log writer, the document writer
// and a front end on its bus. SIGINT, SIGTERM and SIGHUP cancel it: the
// agents are killed, the protocol reaches its interrupted outcome, and the
// log is closed cleanly. A second signal gets the default action.
func (a *app) protocolRun(p engine.Protocol, logw *runlog.Writer, f outputFlags) (engine.Outcome, []engine.Saved) {
	sigCtx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	go func() {
		<-sigCtx.Done()
		stop()
	}()
	ctx, cancel := context.WithCancel(sigCtx)
	defer cancel()
	defer challengers.WatchStdout(a.stdout, cancel)()
	defer server.Watch(cancel)()
	notes := make(chan string, 16)
	fu := a.screenFollowUps(ctx, logw)
	fe := a.frontEnd(f, cancel, notes, fu.Ask)
	fu.Screen = fe.Sink()
	defer a.waitFollowUps(fu) // before the log is closed
	bus := engine.NewBus()
	bus.Subscribe(fu)
	opts := a.runOptions(ctx, f, notes, bus, fe)
	if injectPanic != nil {
		p = injectPanic(p, bus, &opts)
	}
	saved := a.subscribeOutputs(bus, logw, fe, &opts)
	out, err := engine.Session{Protocol: p, Bus: bus, Opts: opts, Front: fe}.Drive(sigCtx, ctx, cancel)
	if err != nil {
		a.warn("%v", err)
	}
	return out, saved.Files()
}

// runOptions are a run's options: the agents' environment, the
// moderator's notes (the screen's, and those written to --moderate's
// file until ctx ends), the budget, and a resumed run's earlier part.
func (a *app) runOptions(ctx context.Context, f outputFlags, notes chan string, bus *engine.Bus, fe engine.FrontEnd) engine.Options {
	opts := engine.Options{Env: a.agentEnv, Moderator: notes, SeatNotes: a.seatNotes}
	a.withBudget(&opts)
	if f.moderate != "" {
		go engine.FollowModerator(ctx, string(f.moderate), notes, bus, a.warn)
	}
	if rr := a.resume; rr != nil {
		var after int64
		opts.Resume, after = rr.hist.Resume(rr.lc, rr.changed, rr.swap)
		bus.ContinueAfter(after)
		a.replayBefore(fe, f, rr)
	}
	return opts
}

// screenFollowUps asks the follow-ups typed on the live screen once the
// run has its outcome, of the seat the settings' agent holds, appending
// them to the run's log.
func (a *app) screenFollowUps(ctx context.Context, logw *runlog.Writer) *engine.ScreenFollowUps {
	fu := &engine.ScreenFollowUps{Ctx: ctx, Opts: engine.Options{Env: a.agentEnv}}
	if a.settings != nil {
		fu.Agents = a.settings.Agents
	}
	if logw != nil {
		fu.Log, fu.LogPath = logw, logw.Path()
	}
	return fu
}

// waitFollowUps waits for a follow-up in progress; one that stopped on
// an internal error makes arena exit 1.
func (a *app) waitFollowUps(fu *engine.ScreenFollowUps) {
	if fu.Wait() {
		a.internalError = true
	}
}

// subscribeOutputs subscribes to the bus, in this order, what a run's
// events go out to: arena mcp's stream when it started this run
// (mcpserver.Child), the log and its outcome document when there is a log
// (opts is told its path), the collector of saved files, and the front
// end. It returns the collector.
func (a *app) subscribeOutputs(bus *engine.Bus, logw *runlog.Writer, fe engine.FrontEnd, opts *engine.Options) *engine.SavedFiles {
	if logw != nil {
		opts.LogPath, opts.LogAt = logw.Path(), logw.Settle
	}
	if w := server.Events(opts.LogPath); w != nil {
		bus.Subscribe(plain.NewJSON(w))
	}
	if logw != nil {
		var earlier []engine.Event
		if rr := a.resume; rr != nil {
			earlier = rr.hist.Document // the document is the run's final one
		}
		logw.Attach(bus, earlier)
	}
	saved := &engine.SavedFiles{}
	bus.Subscribe(saved)
	bus.Subscribe(fe.Sink())
	return saved
}

// injectPanic is set only in a test build (go build -tags arenapanic,
// testpanic.go): it makes the run panic where ARENA_TEST_PANIC says, to
// test that a panic anywhere ends as an aborted outcome.
var injectPanic func(p engine.Protocol, bus *engine.Bus, opts *engine.Options) engine.Protocol

// replayBefore shows a resumed run's earlier part before it goes on: the
// live screen plays it at once; the printer shows the run's banner again.
func (a *app) replayBefore(fe engine.FrontEnd, f outputFlags, rr *resumeRun) {
	switch {
	case f.json:
	case isLive(fe):
		// Read again from the log, which nothing has written to since
		// (it is locked): the screen shows the earlier run as it was, and
		// the log is never held whole.
		if _, err := runlog.ScanFile(rr.path, fe.Sink().Handle); err != nil {
			a.warn("cannot show the earlier run: %v", err)
		}
	default:
		fe.Sink().Handle(rr.hist.Events[0])
	}
}

// live says the run may be shown on the live screen (a terminal allowing).
func (o outputFlags) live() bool { return !o.json && !o.noTUI && !o.record && !o.brief }

func isLive(fe engine.FrontEnd) bool {
	_, ok := fe.(*tui.Live)
	return ok
}

func (a *app) frontEnd(f outputFlags, cancel func(), notes chan<- string, followUp func(string) bool) engine.FrontEnd {
	switch {
	case f.record || f.brief:
		// Its stdout is the final record, or one line: the run is quiet.
		return plain.NewHeadless(plain.New(io.Discard))
	case f.json:
		return plain.NewHeadless(plain.NewJSON(a.stdout))
	case !f.live() || !a.isTTY():
		return plain.NewHeadless(plain.New(a.stdout).WithPaths(a.shown))
	}
	moderate := func(note string) bool {
		select {
		case notes <- note:
			return true
		default:
			return false // the engine is not taking notes: the run is over
		}
	}
	return tui.NewLive(tui.Options{Cancel: cancel, Moderate: moderate, FollowUp: followUp, Paths: a.shown})
}

// afterScreen leaves a short account in the scrollback once the screen,
// drawn on the alternate screen, is gone.
func (a *app) afterScreen(noun string, out engine.Outcome, saved []engine.Saved) {
	// The summary and failures quote the agents.
	fmt.Fprint(trust.Writer{W: a.stdout}, plain.Account(noun, out, saved, a.shown))
}

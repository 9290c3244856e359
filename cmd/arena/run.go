package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/mcpserver"
	"github.com/arenadebate/arena/engine/runlog"
	"github.com/arenadebate/arena/settings"
	"github.com/arenadebate/arena/tui"
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

// outputFlags choose the front end.
type outputFlags struct {
	noTUI    bool
	json     bool
	moderate moderateFile // notes for every seat, a line each (moderate.go)
	// includeSecrets sends input files that look like secrets (input.go)
	includeSecrets bool
	// dryRun shows what each seat would receive and calls none (dryrun.go)
	dryRun bool
}

func (o *outputFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.BoolVar(&o.noTUI, "no-tui", false, "print the run as plain text instead of the live screen")
	fl.BoolVar(&o.json, "json", false, "print the run's events as JSON Lines")
	fl.BoolVar(&o.includeSecrets, "include-secrets", false, "send input files that look like secrets (.env, keys, tokens) to the models anyway")
	fl.BoolVar(&o.dryRun, "dry-run", false, "show what each seat would receive (files and bytes), and call no model")
	o.registerModerate(cmd)
}

func (o *outputFlags) registerModerate(cmd *cobra.Command) {
	cmd.Flags().Var(&o.moderate, "moderate", "read moderator's notes for every seat from FILE (or a fifo), a line each, as they are written")
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
		if f.json || f.noTUI || !a.isTTY() {
			fmt.Fprintf(a.stderr, "arena: internal error: %s (the stack is in the outcome document and the log)\n", out.InternalError)
		}
	}
	if !f.json && !f.noTUI && a.isTTY() {
		a.afterScreen(p.Start().RunNoun(), out, saved)
	}
	return out
}

// invoked is a protocol whose start event records how arena was run, so
// that arena resume can run it again.
type invoked struct {
	engine.Protocol
	inv engine.Invocation
	key []byte // the user's log key, to sign the invocation (logkey.go)
}

func (p invoked) Start() engine.DebateStarted {
	st := p.Protocol.Start()
	inv := p.inv
	if p.key != nil {
		inv.MAC = runlog.Sign(p.key, st.Protocol, inv)
	}
	st.Invocation = &inv
	return st
}

// recorded records in p's start event the command line, the directory
// and what was read from stdin, signed with the user's log key.
func (a *app) recorded(p engine.Protocol) engine.Protocol {
	inv := engine.Invocation{Args: a.args}
	inv.Dir, _ = os.Getwd()
	if a.stdinRead != nil {
		inv.Stdin = string(a.stdinRead.buf)
	}
	key, err := a.logKey(true)
	if err != nil {
		a.warn("the log will not be signed (%v): arena resume will ask before running it again", err)
	}
	return invoked{p, inv, key}
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

// closeLog closes the log; if writing failed along the way, the events
// that could not be written are saved elsewhere so the run is not lost. A
// log deleted during the run was written again: it says where.
func (a *app) closeLog(w *runlog.Writer) {
	if w == nil {
		return
	}
	err := w.Close()
	for _, p := range w.Rewritten() {
		a.warn("the debate log was deleted during the run; arena wrote it again, with every event, at %s (arena replay %s)", p, p)
	}
	if err == nil {
		return
	}
	a.warn("the debate log %s could not be fully written: %v", w.Path(), runlog.Trouble(err))
	path, n, err := w.Rescue()
	switch {
	case n == 0:
	case err == nil:
		a.warn("the %d events not written there were saved to %s (arena replay %s)", n, path, path)
	default:
		a.warn("they could not be saved elsewhere either (%v); the outcome above is all that remains", err)
	}
}

// frontEnd shows a run as it happens: *tui.Live, or *plain.Headless.
type frontEnd interface {
	Sink() engine.Sink
	// EngineDone is called once the engine has returned and every event
	// has been handed over.
	EngineDone(err error)
	// Run blocks until the front end is finished with the run; the run
	// stops when ctx ends.
	Run(ctx context.Context) error
}

// savedFiles collects the Saved events, for the account after the screen.
type savedFiles struct {
	mu    sync.Mutex
	files []engine.Saved
}

// Inline: Handle only appends under the mutex (engine.InlineSink).
func (s *savedFiles) Inline() {}

func (s *savedFiles) Handle(e engine.Event) {
	if v, ok := e.Payload.(engine.Saved); ok {
		s.mu.Lock()
		s.files = append(s.files, v)
		s.mu.Unlock()
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
	out := a.drive(sigCtx, ctx, cancel, engineRun{p, bus, opts}, fe)
	return out, saved.files
}

// engineRun is a protocol to run on its bus.
type engineRun struct {
	p    engine.Protocol
	bus  *engine.Bus
	opts engine.Options
}

// drive runs the engine (until ctx ends) beside the front end, and
// returns the outcome once both are done. The screen watches sigCtx, not
// ctx: after the person asks to quit it must live on to see the
// interrupted outcome. It stops by itself after an internal error, so the
// terminal is back at once.
func (a *app) drive(sigCtx, ctx context.Context, cancel func(), r engineRun, fe frontEnd) engine.Outcome {
	done := make(chan engine.Outcome, 1)
	showCtx, stopShow := context.WithCancel(sigCtx)
	defer stopShow()
	go func() {
		out := r.run(ctx)
		fe.EngineDone(nil)
		if out.InternalError != "" {
			stopShow()
		}
		done <- out
	}()
	if err := fe.Run(showCtx); err != nil && showCtx.Err() == nil {
		// The screen failed (it crashed, or could not start): the run
		// ends with an outcome saying so, not as if interrupted.
		r.bus.Fail(&challengers.Panic{Value: err, Where: "the live screen"})
		a.warn("%v", err)
	}
	cancel()
	return <-done
}

// run runs the engine, and closes the bus once every consumer has handled
// every event. engine.Run turns a panic into an outcome; one here (in a
// consumer's Close) must still not take the terminal down raw.
func (r engineRun) run(ctx context.Context) (out engine.Outcome) {
	if pn := challengers.Catch(func() {
		out = engine.Run(ctx, r.p, r.bus, r.opts)
		r.bus.Close()
	}); pn != nil {
		out = engine.InternalError(pn)
	}
	return out
}

// runOptions are a run's options: the agents' environment, the
// moderator's notes (the screen's, and those written to --moderate's
// file until ctx ends), the budget, and a resumed run's earlier part.
func (a *app) runOptions(ctx context.Context, f outputFlags, notes chan string, bus *engine.Bus, fe frontEnd) engine.Options {
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
func (a *app) subscribeOutputs(bus *engine.Bus, logw *runlog.Writer, fe frontEnd, opts *engine.Options) *savedFiles {
	saved := &savedFiles{}
	logPath := ""
	if logw != nil {
		logPath = logw.Path()
	}
	if w := server.Events(logPath); w != nil {
		bus.Subscribe(plain.NewJSON(w))
	}
	if logw != nil {
		bus.Subscribe(logw)
		opts.LogPath = logw.Path()
		doc := &engine.DocumentWriter{Path: strings.TrimSuffix(logw.Path(), ".jsonl") + ".md", Bus: bus}
		if rr := a.resume; rr != nil {
			doc.Earlier = rr.hist.Document // the document is the run's final one
		}
		bus.Subscribe(doc)
	}
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
func (a *app) replayBefore(fe frontEnd, f outputFlags, rr *resumeRun) {
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

func isLive(fe frontEnd) bool {
	_, ok := fe.(*tui.Live)
	return ok
}

func (a *app) frontEnd(f outputFlags, cancel func(), notes chan<- string, followUp func(string) bool) frontEnd {
	switch {
	case f.json:
		return plain.NewHeadless(plain.NewJSON(a.stdout))
	case f.noTUI || !a.isTTY():
		return plain.NewHeadless(plain.New(a.stdout))
	}
	moderate := func(note string) bool {
		select {
		case notes <- note:
			return true
		default:
			return false // the engine is not taking notes: the run is over
		}
	}
	return tui.NewLive(tui.Options{Cancel: cancel, Moderate: moderate, FollowUp: followUp})
}

// afterScreen leaves a short account in the scrollback once the screen,
// drawn on the alternate screen, is gone.
func (a *app) afterScreen(noun string, out engine.Outcome, saved []engine.Saved) {
	// The summary and failures quote the agents.
	fmt.Fprint(trust.Writer{W: a.stdout}, plain.Account(noun, out, saved))
}

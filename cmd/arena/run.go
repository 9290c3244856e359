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
	"unicode/utf8"

	"github.com/spf13/cobra"
	"golang.org/x/sys/unix"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/resume"
	"github.com/arenadebate/arena/engine/runlog"
	"github.com/arenadebate/arena/settings"
	"github.com/arenadebate/arena/tui"
	"github.com/arenadebate/arena/tui/plain"
)

// This file is what every protocol's command shares: the log, the
// outcome document beside it, signals, the front end, and the account
// left in the scrollback. A command builds its protocol and hands it to
// runProtocol.

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
	a.closeLog(logw)
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
	return w, nil
}

// closeLog closes the log; if writing failed along the way, the events
// that could not be written are saved elsewhere so the run is not lost.
func (a *app) closeLog(w *runlog.Writer) {
	if w == nil {
		return
	}
	err := w.Close()
	if err == nil {
		return
	}
	a.warn("the debate log %s could not be fully written: %v", w.Path(), err)
	// The writer keeps every event that may not have reached the file;
	// those the file does hold whole are dropped, and the rescue file
	// starts with the run's first event so that it replays on its own.
	written, _ := runlog.ReadFile(w.Path())
	var last int64
	if n := len(written.Events); n > 0 {
		last = written.Events[n-1].Seq
	}
	var kept []engine.Event
	for _, e := range w.Kept() {
		if e.Seq > last {
			kept = append(kept, e)
		}
	}
	if len(kept) == 0 {
		return
	}
	events := kept
	if kept[0].Kind() != engine.KindDebateStarted && len(written.Events) > 0 {
		events = append([]engine.Event{written.Events[0]}, kept...)
	}
	if path, rerr := rescue(events); rerr == nil {
		a.warn("the %d events not written there were saved to %s (arena replay %s)", len(kept), path, path)
	} else {
		a.warn("they could not be saved elsewhere either (%v); the outcome above is all that remains", rerr)
	}
}

func rescue(events []engine.Event) (string, error) {
	f, err := os.CreateTemp("", "arena-rescued-*.jsonl")
	if err != nil {
		return "", err
	}
	sink := plain.NewJSON(f)
	for _, e := range events {
		sink.Handle(e)
	}
	return f.Name(), errors.Join(sink.Err(), f.Close())
}

// frontEnd shows a run as it happens.
type frontEnd interface {
	sink() engine.Sink
	// engineDone is called once the engine has returned and every event
	// has been handed over.
	engineDone()
	// show blocks until the front end is finished with the run; the run
	// stops when ctx ends.
	show(ctx context.Context) error
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
	defer a.stopWhenStdoutCloses(cancel)()
	notes := make(chan string, 16)
	run := &transcript{}
	fu := &screenFollowUps{a: a, ctx: ctx, run: run, logw: logw}
	fe := a.frontEnd(f, cancel, notes, fu.ask)
	fu.screen = fe.sink()
	defer fu.wait() // before the log is closed
	bus := engine.NewBus()
	bus.Subscribe(run)
	opts := engine.Options{Env: a.agentEnv, Moderator: notes}
	a.withBudget(&opts)
	if f.moderate != "" {
		go a.followModerator(ctx, string(f.moderate), notes, bus)
	}
	if rr := a.resume; rr != nil {
		var after int64
		opts.Resume, after = resume.Options(rr.lc, rr.changed, rr.swap)
		bus.ContinueAfter(after)
		a.replayBefore(fe, f, rr.lc.Events)
	}
	if injectPanic != nil {
		p = injectPanic(p, bus, &opts)
	}
	saved := subscribeOutputs(bus, logw, fe, &opts)
	done := make(chan engine.Outcome, 1)
	// The screen watches sigCtx, not ctx: after the person asks to quit it
	// must live on to see the interrupted outcome. It stops by itself
	// after an internal error, so the terminal is back at once.
	showCtx, stopShow := context.WithCancel(sigCtx)
	defer stopShow()
	go func() {
		// engine.Run turns a panic into an outcome; one here (in a
		// consumer's Close) must still not take the terminal down raw.
		var out engine.Outcome
		if pn := challengers.Catch(func() {
			out = engine.Run(ctx, p, bus, opts)
			bus.Close() // every consumer has handled every event
		}); pn != nil {
			out = engine.InternalError(pn)
		}
		fe.engineDone()
		if out.InternalError != "" {
			stopShow()
		}
		done <- out
	}()
	if err := fe.show(showCtx); err != nil && showCtx.Err() == nil {
		// The screen failed (it crashed, or could not start): the run
		// ends with an outcome saying so, not as if interrupted.
		bus.Fail(&challengers.Panic{Value: err, Where: "the live screen"})
		a.warn("%v", err)
	}
	cancel()
	out := <-done
	return out, saved.files
}

// followModerator hands the notes the person writes to path (--moderate) to
// the run until ctx ends; a panic while reading them ends the run as an
// internal error rather than taking the terminal down.
func (a *app) followModerator(ctx context.Context, path string, notes chan<- string, bus *engine.Bus) {
	if pn := challengers.Catch(func() { followNotes(ctx, path, notes, a.warn) }); pn != nil {
		bus.Fail(&challengers.Panic{Value: pn.Value, Stack: pn.Stack, Where: "reading the moderator's notes"})
	}
}

// subscribeOutputs subscribes to the bus, in this order, what a run's
// events go out to: arena mcp's stream when it started this run
// (mcp_events.go), the log and its outcome document when there is a log
// (opts is told its path), the collector of saved files, and the front
// end. It returns the collector.
func subscribeOutputs(bus *engine.Bus, logw *runlog.Writer, fe frontEnd, opts *engine.Options) *savedFiles {
	saved := &savedFiles{}
	streamEvents(bus, logw)
	if logw != nil {
		bus.Subscribe(logw)
		opts.LogPath = logw.Path()
		bus.Subscribe(&engine.DocumentWriter{Path: strings.TrimSuffix(logw.Path(), ".jsonl") + ".md", Bus: bus})
	}
	bus.Subscribe(saved)
	bus.Subscribe(fe.sink())
	return saved
}

// injectPanic is set only in a test build (go build -tags arenapanic,
// testpanic.go): it makes the run panic where ARENA_TEST_PANIC says, to
// test that a panic anywhere ends as an aborted outcome.
var injectPanic func(p engine.Protocol, bus *engine.Bus, opts *engine.Options) engine.Protocol

// replayBefore shows a resumed run's earlier part before it goes on: the
// live screen plays it at once; the printer shows the run's banner again.
func (a *app) replayBefore(fe frontEnd, f outputFlags, events []engine.Event) {
	switch {
	case f.json:
	case isLive(fe):
		for _, e := range events {
			fe.sink().Handle(e)
		}
	default:
		fe.sink().Handle(events[0])
	}
}

func isLive(fe frontEnd) bool {
	_, ok := fe.(liveScreen)
	return ok
}

// stopWhenStdoutCloses interrupts the run when whoever reads arena's
// output goes away (arena --no-tui topic | head -1): by default Go would
// die of SIGPIPE on the next write, leaving the log cut short and no
// outcome document. With SIGPIPE caught, writes fail with EPIPE instead;
// the signal also comes for an agent that closed its stdin early, so it
// only counts when stdout itself is broken. It returns the function that
// stops watching.
func (a *app) stopWhenStdoutCloses(cancel func()) func() {
	out, ok := a.stdout.(*os.File)
	if !ok {
		return func() {}
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGPIPE)
	quit := make(chan struct{})
	go func() {
		for {
			select {
			case <-sigs:
				if writeEndBroken(out) {
					cancel()
				}
			case <-quit:
				return
			}
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(quit)
	}
}

// writeEndBroken reports whether f is a pipe whose reader has gone.
func writeEndBroken(f *os.File) bool {
	fds := []unix.PollFd{{Fd: int32(f.Fd()), Events: unix.POLLOUT}}
	n, err := unix.Poll(fds, 0)
	return err == nil && n > 0 && fds[0].Revents&(unix.POLLERR|unix.POLLHUP) != 0
}

// headless prints the run as text or JSON Lines.
type headless struct {
	engine.Sink
	done chan struct{}
}

func (h *headless) sink() engine.Sink { return h.Sink }
func (h *headless) engineDone()       { close(h.done) }
func (h *headless) show(context.Context) error {
	<-h.done
	return nil
}

// liveScreen is the live terminal UI.
type liveScreen struct{ ui *tui.Live }

func (l liveScreen) sink() engine.Sink { return l.ui.Sink() }
func (l liveScreen) engineDone()       { l.ui.EngineDone(nil) }
func (l liveScreen) show(ctx context.Context) error {
	return l.ui.Run(ctx)
}

func (a *app) frontEnd(f outputFlags, cancel func(), notes chan<- string, followUp func(string) bool) frontEnd {
	switch {
	case f.json:
		return &headless{Sink: plain.NewJSON(a.stdout), done: make(chan struct{})}
	case f.noTUI || !a.isTTY():
		return &headless{Sink: plain.New(a.stdout), done: make(chan struct{})}
	}
	moderate := func(note string) bool {
		select {
		case notes <- note:
			return true
		default:
			return false // the engine is not taking notes: the run is over
		}
	}
	return liveScreen{tui.NewLive(tui.Options{Cancel: cancel, Moderate: moderate, FollowUp: followUp})}
}

// afterScreen leaves a short account in the scrollback once the screen,
// drawn on the alternate screen, is gone.
func (a *app) afterScreen(noun string, out engine.Outcome, saved []engine.Saved) {
	w := trust.Writer{W: a.stdout} // the summary and failures quote the agents
	fmt.Fprintf(w, "arena: %s\n", out.Summary)
	for _, f := range out.Failures {
		fmt.Fprintf(w, "  ✗ %s\n", f)
	}
	logWords := strings.ToLower(plain.LogWords(noun)) + ":"
	width := utf8.RuneCountInString(logWords)
	for _, s := range saved {
		width = max(width, utf8.RuneCountInString(s.What)+1)
	}
	for _, s := range saved {
		fmt.Fprintf(w, "  %-*s %s\n", width, s.What+":", s.Path)
	}
	if out.LogPath != "" {
		fmt.Fprintf(w, "  %-*s %s  (arena replay %s)\n", width, logWords, out.LogPath, out.LogPath)
	}
}

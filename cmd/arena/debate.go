package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"golang.org/x/sys/unix"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/settings"
	"github.com/arenadebate/arena/tui"
	"github.com/arenadebate/arena/tui/plain"
)

// maxContextBytes bounds one --context file: the whole file goes into
// every prompt.
const maxContextBytes = 4 << 20

func (a *app) runDebate(cmd *cobra.Command, f *debateFlags, args []string) error {
	if err := mistypedCommand(cmd, args); err != nil {
		return err
	}
	topic, err := a.readTopic(f, args)
	if err != nil {
		return err
	}
	docs, err := readContext(f.context)
	if err != nil {
		return err
	}
	s, err := a.loadSettings(cmd, &f.commonFlags)
	if err != nil {
		return err
	}
	cfg, err := a.engineConfig(s, topic, docs)
	if err != nil {
		return err
	}
	logw, err := a.openLog(s, &cfg, topic)
	if err != nil {
		return err
	}
	if rp := a.startReaper(); rp != nil {
		defer rp.Close()
	}
	out := a.debate(cfg, logw, f)
	a.closeLog(logw)
	if !f.json && !f.noTUI && a.isTTY() {
		a.afterScreen(out)
	}
	return exitCode(outcomeExit(out.Result))
}

// startReaper starts the watchdog that kills the agents' process groups
// if arena is killed outright. Without it the debate still runs; only a
// SIGKILL of arena could then leave an agent's own children behind.
func (a *app) startReaper() *challengers.Reaper {
	self, err := os.Executable()
	if err != nil {
		a.warn("cannot find arena's own binary to watch over the agents: %v", err)
		return nil
	}
	rp, err := challengers.StartReaper([]string{self, reaperCommand})
	if err != nil {
		a.warn("%v", err)
		return nil
	}
	return rp
}

// mistypedCommand catches "arena docter": any word is a valid topic, so a
// mistyped command would otherwise start a debate and spend model calls on
// it.
func mistypedCommand(cmd *cobra.Command, args []string) error {
	if len(args) != 1 || strings.ContainsAny(args[0], " ?") {
		return nil
	}
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		return usagef("%q is not a command: did you mean arena %s? (to debate a single word, ask it as a question: arena \"%s?\")", args[0], s[0], args[0])
	}
	return nil
}

// readTopic takes the topic from -f FILE, from stdin ("-"), or from the
// arguments (joined by spaces, for those who forget the quotes).
func (a *app) readTopic(f *debateFlags, args []string) (string, error) {
	var topic string
	switch {
	case f.topicFile != "" && len(args) > 0:
		return "", usagef("give the topic either as an argument or with -f, not both")
	case f.topicFile == "-" || (len(args) == 1 && args[0] == "-"):
		b, err := io.ReadAll(io.LimitReader(a.stdin, maxContextBytes+1))
		if err != nil {
			return "", usagef("reading the topic from stdin: %w", err)
		}
		topic = string(b)
	case f.topicFile != "":
		b, err := os.ReadFile(f.topicFile)
		if err != nil {
			return "", usagef("topic file: %w", err)
		}
		topic = string(b)
	default:
		topic = strings.Join(args, " ")
	}
	if strings.TrimSpace(topic) == "" {
		return "", usagef("no topic given: run arena \"your question or decision\" (see arena --help)")
	}
	if len(topic) > maxContextBytes {
		return "", usagef("the topic is larger than %d MiB; attach big material with --context instead", maxContextBytes>>20)
	}
	if !utf8.ValidString(topic) {
		return "", usagef("the topic is not valid UTF-8 text")
	}
	return topic, nil
}

func readContext(paths []string) ([]engine.Doc, error) {
	var docs []engine.Doc
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, usagef("context file: %w", err)
		}
		if st.IsDir() {
			return nil, usagef("context file %s is a directory; attach files one by one", p)
		}
		if st.Size() > maxContextBytes {
			return nil, usagef("context file %s is %d MiB; the limit is %d MiB", p, st.Size()>>20, maxContextBytes>>20)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, usagef("context file: %w", err)
		}
		if !utf8.Valid(b) {
			return nil, usagef("context file %s is not UTF-8 text", p)
		}
		docs = append(docs, engine.Doc{Name: p, Content: string(b)})
	}
	return docs, nil
}

func (a *app) engineConfig(s *settings.Settings, topic string, docs []engine.Doc) (engine.Config, error) {
	cfg := engine.Config{
		ID: engine.Slug(topic, 40), Topic: topic, Context: docs,
		MaxRounds: s.MaxRounds, Timeout: s.TimeoutPerCLI, Skeptical: s.SkepticalOfEarlyAgreement,
		Env: a.agentEnv,
	}
	def, ok := s.Agents[s.Defender]
	if !ok {
		return cfg, fmt.Errorf("defender %q has no agent definition", s.Defender)
	}
	cfg.Defender = def
	for _, name := range s.Challengers {
		c, ok := s.Agents[name]
		if !ok {
			return cfg, fmt.Errorf("challenger %q has no agent definition", name)
		}
		cfg.Challengers = append(cfg.Challengers, c)
	}
	return cfg, nil
}

// openLog creates the debate log before anything runs, so a log directory
// that cannot be written is a clear error up front, not a lost debate.
func (a *app) openLog(s *settings.Settings, cfg *engine.Config, topic string) (*engine.LogWriter, error) {
	if !s.SaveDebateLogs {
		return nil, nil
	}
	w, err := engine.CreateLog(s.DebateLogPath, engine.LogName(time.Now(), topic))
	if err != nil {
		// The sentence leaves out CreateLog's "create log:" prefix, which
		// says again what the sentence says; the cause is kept whole.
		return nil, usageCause(err, "cannot save the debate log in %s: %v (choose another with --log-dir DIR, or run with --no-log)", s.DebateLogPath, errors.Unwrap(err))
	}
	cfg.LogPath = w.Path()
	cfg.ReportPath = strings.TrimSuffix(w.Path(), ".jsonl") + ".md"
	return w, nil
}

// closeLog closes the log; if writing failed along the way, the events
// that could not be written are saved elsewhere so the debate is not lost.
func (a *app) closeLog(w *engine.LogWriter) {
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
	// starts with the debate's first event so that it replays on its own.
	written, _ := engine.ReadLogFile(w.Path())
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

// frontEnd shows a debate as it happens.
type frontEnd interface {
	sink() engine.Sink
	// engineDone is called once the engine has returned.
	engineDone()
	// show blocks until the front end is finished with the debate; the
	// debate stops when ctx ends.
	show(ctx context.Context) error
}

// debate runs the engine with the log writer and a front end on its bus.
// SIGINT, SIGTERM and SIGHUP cancel it: the agents are killed, the engine
// writes its interrupted outcome, and the log is closed cleanly. A second
// signal gets the default action.
func (a *app) debate(cfg engine.Config, logw *engine.LogWriter, f *debateFlags) engine.Outcome {
	sigCtx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	go func() {
		<-sigCtx.Done()
		stop()
	}()
	ctx, cancel := context.WithCancel(sigCtx)
	defer cancel()
	defer a.stopWhenStdoutCloses(cancel)()
	fe := a.frontEnd(f, cancel)
	bus := engine.NewBus()
	if logw != nil {
		bus.Subscribe(logw)
	}
	bus.Subscribe(fe.sink())
	done := make(chan engine.Outcome, 1)
	go func() {
		out := engine.Run(ctx, cfg, bus)
		fe.engineDone()
		done <- out
	}()
	// The screen watches sigCtx, not ctx: after the person asks to quit it
	// must live on to see the interrupted outcome.
	if err := fe.show(sigCtx); err != nil && sigCtx.Err() == nil {
		a.warn("%v", err)
	}
	cancel()
	return <-done
}

// stopWhenStdoutCloses interrupts the debate when whoever reads arena's
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

// headless prints the debate as text or JSON Lines.
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

func (a *app) frontEnd(f *debateFlags, cancel func()) frontEnd {
	switch {
	case f.json:
		return &headless{Sink: plain.NewJSON(a.stdout), done: make(chan struct{})}
	case f.noTUI || !a.isTTY():
		return &headless{Sink: plain.New(a.stdout), done: make(chan struct{})}
	}
	return liveScreen{tui.NewLive(tui.Options{Cancel: cancel})}
}

// afterScreen leaves a short account in the scrollback once the screen,
// drawn on the alternate screen, is gone.
func (a *app) afterScreen(out engine.Outcome) {
	fmt.Fprintf(a.stdout, "arena: %s\n", out.Summary)
	for _, f := range out.Failures {
		fmt.Fprintf(a.stdout, "  ✗ %s\n", f)
	}
	if out.ReportPath != "" {
		fmt.Fprintf(a.stdout, "  outcome document: %s\n", out.ReportPath)
	}
	if out.LogPath != "" {
		fmt.Fprintf(a.stdout, "  debate log:       %s  (arena replay %s)\n", out.LogPath, out.LogPath)
	}
}

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
	"github.com/arenadebate/arena/settings"
	"github.com/arenadebate/arena/tui/plain"
)

var askExits = exits{
	{code: exitOK, means: "the seat answered"},
	{code: exitError, means: "internal error"},
	{code: exitUsage, means: "usage error (no such log, a run without an outcome, an unknown seat)"},
	{code: exitAborted, means: "the seat's agent failed"},
	{code: exitInterrupted, means: "interrupted (Ctrl+C, SIGTERM, SIGHUP)"},
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
		Args: cobra.ExactArgs(2),
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
	logw, lc, err := lockLog(path, "ask")
	if err != nil {
		return err
	}
	if lc.Problem != "" {
		a.warn("%s is damaged (%s): the follow-up is asked from the events that can be read, and appended after every byte of it", path, lc.Problem)
	}
	if o, ok := runlog.LastOutcome(lc.Events); !ok || o.Result == engine.OutcomeInterrupted || o.Result == engine.OutcomeOverBudget {
		logw.Close()
		return usagef("ask %s: the run has no outcome to follow up yet; resume it first (arena resume %s)", path, path)
	}
	start := lc.Events[0].Payload.(engine.DebateStarted)
	seat, agent, err := followUpSeat(s, start, f.seat)
	if err != nil {
		logw.Close()
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	a.startReaper() // a SIGKILL leaves nothing behind
	var printer engine.Sink = plain.New(a.stdout)
	if f.json {
		printer = plain.NewJSON(a.stdout)
	}
	bus := engine.NewBus(logw, printer)
	bus.ContinueAfter(lc.LastSeq)
	ans := a.followUp(ctx, bus, lc.Events, seat, agent, question, documentOf(path, lc.Events))
	bus.Close()
	a.closeLog(logw)
	if !f.json && ans.OK() {
		fmt.Fprintf(trust.Writer{W: a.stdout}, "\n%s\n", strings.TrimSpace(ans.Text))
	}
	switch {
	case ans.Cancelled:
		return exitCode(exitInterrupted)
	case !ans.OK():
		return exitCode(exitAborted)
	}
	return nil
}

// lockLog takes the writer's lock of the log at path (a FIFO or a device
// refused by name before anything opens it to write; a log another arena
// is writing refused naming that process), then reads it.
func lockLog(path, what string) (*runlog.Writer, runlog.Contents, error) {
	var lc runlog.Contents
	f, err := trust.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, lc, usageCause(err, "%s: %s: no such file", what, path)
		}
		return nil, lc, usagef("%s: %w", what, err)
	}
	f.Close()
	w, err := runlog.Append(path)
	if err != nil {
		if errors.Is(err, runlog.ErrLocked) {
			return nil, lc, usageCause(err, "%s: %v; try again once that run has ended", what, err)
		}
		return nil, lc, usagef("%s %s: %w", what, path, err)
	}
	lc, err = runlog.ReadFile(path)
	switch {
	case err != nil:
		w.Close()
		return nil, lc, usagef("%s %s: %w", what, path, err)
	case len(lc.Events) == 0:
		w.Close()
		return nil, lc, usagef("%s %s: %w: the file is empty", what, path, runlog.ErrNotALog)
	}
	return w, lc, nil
}

// followUpSeat is the seat named (by seat or agent name), or the default
// one, with the agent the settings define for it.
func followUpSeat(s *settings.Settings, start engine.DebateStarted, name string) (engine.Seat, challengers.Agent, error) {
	var seat engine.Seat
	found := false
	seats := start.Seats
	if name == "" {
		seat, found = engine.FollowUpSeat(start)
	} else {
		for _, st := range seats {
			if st.Name == name || st.Agent == name {
				seat, found = st, true
				break
			}
		}
	}
	if !found {
		var names []string
		for _, st := range seats {
			names = append(names, st.Name)
		}
		return seat, challengers.Agent{}, usagef("--seat %q: the run has no such seat (its seats: %s)", name, strings.Join(names, ", "))
	}
	agent, ok := s.Agents[seat.Agent]
	if !ok {
		return seat, agent, usagef("the %s seat's agent %q is not defined in the settings now", seat.Name, seat.Agent)
	}
	return seat, agent, nil
}

// documentOf is the outcome document saved beside a log ("" when none
// was): the latest one, in the log's directory.
func documentOf(logPath string, events []engine.Event) string {
	var doc string
	for _, e := range events {
		if s, ok := e.Payload.(engine.Saved); ok && s.What == engine.WhatOutcomeDocument {
			doc = filepath.Join(filepath.Dir(logPath), filepath.Base(s.Path))
		}
	}
	return doc
}

// followUp asks the follow-up, emitting it on bus, and appends the
// answer to the outcome document (arena wrote it, so appending to it is
// ours to do).
func (a *app) followUp(ctx context.Context, bus *engine.Bus, events []engine.Event, seat engine.Seat, agent challengers.Agent, question, doc string) engine.Answer {
	ans := engine.AskFollowUp(ctx, bus, engine.Options{Env: a.agentEnv}, events, seat, agent, question)
	if doc == "" {
		return ans
	}
	f, err := openDocument(doc, events)
	if err == nil {
		_, err = f.WriteString(trust.Text(engine.FollowUpMarkdown(seat, agent.Name, question, ans)))
		err = errors.Join(err, f.Close())
	}
	if err != nil {
		bus.Emit(engine.Note{Level: engine.NoteWarn, Message: "could not add the follow-up to the outcome document: " + err.Error()})
	}
	return ans
}

// openDocument opens the outcome document at doc for appending, once it
// has shown itself to be the one arena wrote for this run: a regular file
// of this user's (no link: its name comes from a log, which anyone can
// hand arena), beginning with the outcome the log records.
func openDocument(doc string, events []engine.Event) (*os.File, error) {
	var outcome string
	for _, e := range events {
		if o, ok := e.Payload.(engine.Outcome); ok {
			outcome = o.Markdown
		}
	}
	if outcome == "" {
		return nil, errors.New("the log holds no outcome document")
	}
	f, err := trust.OpenAppend(doc, false)
	if err != nil {
		return nil, err
	}
	content, err := trust.ReadFile(doc, 64<<20)
	same := err == nil && isFileAt(f, doc)
	if !same || !bytes.HasPrefix(content, []byte(trust.Text(outcome))) {
		f.Close()
		if err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%s is not the outcome document arena saved for this run (it does not begin with the run's outcome); it is left as it is", doc)
	}
	return f, nil
}

// isFileAt reports whether f is the file now at path.
func isFileAt(f *os.File, path string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Lstat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// transcript keeps a run's events other than chunks, for a follow-up
// asked on the screen.
type transcript struct {
	mu     sync.Mutex
	events []engine.Event
	last   int64
}

// Inline: Handle only appends under the mutex (engine.InlineSink).
func (t *transcript) Inline() {}

func (t *transcript) Handle(e engine.Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.last = max(t.last, e.Seq)
	if e.Kind() != engine.KindChunk {
		t.events = append(t.events, e)
	}
}

func (t *transcript) snapshot() ([]engine.Event, int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.events), t.last
}

// screenFollowUps asks the follow-ups typed on the live screen (f), one
// at a time, after the outcome: on a bus of their own that feeds the
// screen, the log and the transcript, continuing the run's numbering.
type screenFollowUps struct {
	a      *app
	ctx    context.Context
	run    *transcript
	logw   *runlog.Writer
	screen engine.Sink
	mu     sync.Mutex
	busy   bool
	wg     sync.WaitGroup
}

func (fu *screenFollowUps) ask(question string) bool {
	fu.mu.Lock()
	defer fu.mu.Unlock()
	events, last := fu.run.snapshot()
	if fu.busy || len(events) == 0 || fu.a.settings == nil {
		return false
	}
	if _, ok := runlog.LastOutcome(events); !ok {
		return false
	}
	start, ok := events[0].Payload.(engine.DebateStarted)
	if !ok {
		return false
	}
	seat, agent, err := followUpSeat(fu.a.settings, start, "")
	if err != nil {
		return false
	}
	fu.busy = true
	fu.wg.Add(1)
	go func() {
		defer fu.wg.Done()
		bus := engine.NewBus(fu.screen, fu.run)
		var doc string
		if fu.logw != nil {
			bus.Subscribe(fu.logw)
			doc = documentOf(fu.logw.Path(), events)
		}
		bus.ContinueAfter(last)
		if pn := challengers.Catch(func() { fu.a.followUp(fu.ctx, bus, events, seat, agent, question, doc) }); pn != nil {
			// After the outcome: the follow-up's failure is said where
			// the follow-up was, and arena exits 1.
			bus.Emit(engine.Note{Level: engine.NoteWarn, Message: "the follow-up stopped on an internal error: " + pn.Error()})
			fu.a.internalError = true
		}
		bus.Close()
		fu.mu.Lock()
		fu.busy = false
		fu.mu.Unlock()
	}()
	return true
}

// wait waits for a follow-up in progress (the run's context ends first,
// so it is cut short).
func (fu *screenFollowUps) wait() { fu.wg.Wait() }

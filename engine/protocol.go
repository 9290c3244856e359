package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/arenadebate/arena/challengers"
)

// costHeading heads the section WithCosts adds.
const costHeading = "## What each agent cost"

// WithCosts ends an outcome document with what each agent cost so far
// (once: a document that has the section already is returned as it is).
// engine.Run adds it to every outcome; a protocol that saves a copy of its
// document itself calls it first, so the copy is the same document.
func (rt *Runtime) WithCosts(md string) string {
	if rt.Ledger == nil || strings.Contains(md, costHeading) {
		return md
	}
	cost := CostSection(rt.Ledger.Accounts(), rt.Ledger.Total())
	if cost == "" {
		return md
	}
	if b := rt.budgetLines(); b != "" {
		cost += "\n" + b
	}
	return strings.TrimRight(md, "\n") + "\n\n" + cost
}

// Protocol is one way of running a debate: it owns its phases, seats,
// prompts, reply shapes, rules and outcome document. Everything else is
// shared: asking agents (Runtime), events, the log, the bus, and the
// consumers that save the outcome document.
type Protocol interface {
	// Start is the run's first event: the protocol, its phases and seats.
	Start() DebateStarted
	// Run runs the protocol to its outcome, emitting every step on rt's
	// bus, and returns the Outcome; Run (the function) emits it. It must
	// return when ctx is cancelled, with an interrupted outcome.
	Run(ctx context.Context, rt *Runtime) Outcome
}

// Options are a run's plumbing, the same for every protocol.
type Options struct {
	Run RunFunc  // nil: challengers.Run
	Env []string // for the agents (nil: this process's)
	// LogPath is where the caller writes the log, for the outcome ("" when
	// not saved). A run that asks no model names none in its outcome: the
	// caller then discards the log (runlog.Writer.Discard).
	LogPath string
	// LogAt, when set, says where the log is once every event emitted so
	// far is in it: a log deleted during the run is written again, beside
	// its name when another file took it meanwhile (runlog's place.go),
	// and the outcome names the file arena wrote, not the other one.
	LogAt func() string
	// Resume, when set, resumes an earlier run whose log the caller
	// appends to: the Resumed event is emitted instead of the start, and
	// the earlier run's replies are reused (resume.go).
	Resume *Resume
	// Moderator delivers the moderator's notes as they are given (nil:
	// none); every prompt sent after a note carries it.
	Moderator <-chan string
	// Budget limits what the run spends (zero: nothing; budget.go), and
	// Agents are the agents the settings define, by name: how each is
	// billed, for the calls a resumed run's log holds.
	Budget Budget
	Agents map[string]challengers.Agent
	// SeatNotes are what the seating said of the seats (one vendor
	// family holding several, a judge of its own family's work): said as
	// the run starts, and in its outcome document.
	SeatNotes []string
}

// Run runs a protocol, emitting its start, every step and its outcome on
// bus, and returns the outcome. It returns when the protocol is over: at
// its outcome, on abort, or when ctx is cancelled (the outcome then says
// interrupted).
func Run(ctx context.Context, p Protocol, bus *Bus, opts Options) Outcome {
	rt := &Runtime{Bus: bus, Run: opts.Run, Env: opts.Env, Ledger: &Ledger{}}
	var start DebateStarted
	if r := opts.Resume; r != nil {
		if len(r.Events) > 0 {
			start, _ = r.Events[0].Payload.(DebateStarted)
		}
		cache := r.Cache
		if cache == nil {
			cache = NewReplayCache(r.Events)
		}
		rt.resume = &resumeState{cache: cache, swap: r.Swap}
		for _, e := range r.Events {
			if n, ok := e.Payload.(ModeratorNote); ok {
				rt.notes = append(rt.notes, n) // still said to every seat
			}
		}
		bus.setDrop(func(p Payload) bool { return !rt.published(p) })
		bus.Emit(r.Event)
	} else {
		start = p.Start()
		start.Version = LogVersion
		start.Families = familiesOf(opts.Agents, start.Agents)
		bus.Emit(start)
		for _, n := range opts.SeatNotes {
			bus.Emit(Note{Level: NoteWarn, Message: n})
		}
	}
	ctx = rt.startBudget(ctx, opts, start)
	stop := make(chan struct{})
	var listening sync.WaitGroup
	if opts.Moderator != nil {
		listening.Add(1)
		go func() {
			defer listening.Done()
			for {
				select {
				case text, ok := <-opts.Moderator:
					if !ok {
						return
					}
					if p := challengers.Catch(func() { rt.AddModeratorNote(text) }); p != nil {
						rt.Bus.Emit(Note{Level: NoteWarn, Message: "a moderator's note was lost: " + p.Error()})
					}
				case <-stop:
					return
				}
			}
		}()
	}
	out := runGuarded(ctx, p, rt, bus)
	close(stop)
	listening.Wait() // no note after the outcome
	if out.Result == "" {
		out.Result = OutcomeAborted
	}
	// A run that asked no model (its preflight aborted: a CLI is not
	// installed) has nothing to replay or resume: its outcome names no
	// log, and the caller discards the file and writes no document.
	logPath := opts.LogPath
	if opts.Resume == nil && !rt.asked.Load() {
		logPath = ""
	}
	if logPath != "" && opts.LogAt != nil {
		bus.Flush()
		logPath = opts.LogAt()
	}
	out = rt.budgetOutcome(out, logPath)
	out = resumeHint(out, logPath)
	if n := rt.ReusedCalls(); n > 0 {
		out.Summary += " (resumed: " + replies(n) + " reused)"
	}
	out.Markdown = rt.WithResume(rt.WithCosts(rt.WithModerator(withSeatNotes(out.Markdown, opts.SeatNotes))))
	out.LogPath = logPath
	bus.Emit(out)
	return out
}

// seatsHeading heads the outcome document's notes on the seats.
const seatsHeading = "## Seats"

// withSeatNotes adds what the seating said of the seats to an outcome
// document.
func withSeatNotes(md string, notes []string) string {
	if len(notes) == 0 {
		return md
	}
	var b strings.Builder
	b.WriteString(strings.TrimRight(md, "\n") + "\n\n" + seatsHeading + "\n\n")
	for _, n := range notes {
		b.WriteString("- " + n + "\n")
	}
	return b.String()
}

// familiesOf are the vendor families of the settings' agents and of the
// run's own (nil when there are none).
func familiesOf(agents map[string]challengers.Agent, infos []AgentInfo) map[string]string {
	out := map[string]string{}
	for n, a := range agents {
		out[n] = challengers.Family(a)
	}
	for _, i := range infos {
		if i.Family != "" {
			out[i.Name] = i.Family
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// runGuarded runs the protocol; a panic in it (or raised again from a
// goroutine it started: AskAll, the runner), or in a sink of the bus,
// ends the run with an aborted outcome that says what failed, instead of
// killing arena with the terminal raw and the log without an outcome. A
// sink that panics cancels the protocol: the run cannot be shown or
// recorded whole any more.
func runGuarded(ctx context.Context, p Protocol, rt *Runtime, bus *Bus) (out Outcome) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-bus.Broken():
			cancel()
		case <-ctx.Done():
		}
	}()
	if pn := challengers.Catch(func() { out = p.Run(ctx, rt) }); pn != nil {
		if pn.Where == "" {
			name := "the protocol"
			challengers.Catch(func() { name = "the " + p.Start().Protocol + " protocol" })
			pn.Where = name
		}
		return InternalError(pn)
	}
	if pn := bus.Failure(); pn != nil {
		return InternalError(pn)
	}
	return out
}

// InternalError is the outcome of a run that a panic ended: aborted,
// naming what failed, with the stack in the document for a bug report.
func InternalError(p *challengers.Panic) Outcome {
	what := p.Error()
	md := fmt.Sprintf("# Run aborted: internal error\n\narena stopped the run: %s. This is a bug in arena; "+
		"the log holds everything up to it. Please report it with the stack below.\n\n```\n%s\n```\n", what, strings.TrimSpace(p.Stack))
	return Outcome{
		Result: OutcomeAborted, Stance: StanceDisagree,
		Summary:       "Aborted: internal error: " + what,
		Markdown:      md,
		Failures:      []string{what},
		InternalError: what,
	}
}

// resumeHint says, in an interrupted outcome's summary and at the top of
// its document, how to carry the run on: the screen, the printed run and
// the saved document all show it (issue 32, point 3: Ctrl+C never
// mentioned arena resume, though an over-budget stop did).
func resumeHint(out Outcome, logPath string) Outcome {
	if out.Result != OutcomeInterrupted || logPath == "" {
		return out
	}
	cmd := "arena resume " + ShellWord(logPath)
	out.Summary += "; carry on with " + cmd
	block := "> **Interrupted.** Every reply so far is in the log, and none is asked again: carry on with `" + cmd + "`."
	out.Markdown = belowTitle(out.Markdown, block)
	return out
}

package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine/doc"
)

// Protocol is one way of running a debate: it owns its phases, seats,
// prompts, reply shapes, rules and outcome document. Everything else is
// shared: asking agents (Runtime), events, the log, the bus, and the
// consumers that save the outcome document.
type Protocol interface {
	// Start is the run's first event: the protocol, its phases and seats.
	Start() DebateStarted
	// Run runs the protocol to its outcome, emitting every step on rt's
	// bus, and returns the Outcome with its Document; Run (the function)
	// adds arena's sections to the document and emits it. It must return
	// when ctx is cancelled, with an interrupted outcome.
	Run(ctx context.Context, rt *Runtime) Outcome
}

// KeepDocument asks for keep to be handed the outcome, its document whole
// as arena closes it, just before it is emitted: a protocol that keeps a
// copy of its document (judge's reports directory) calls it as it runs.
func (rt *Runtime) KeepDocument(keep func(Outcome)) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.keep = append(rt.keep, keep)
}

// kept hands the outcome to what keeps a copy of it; one that panics
// costs the copy, not the run.
func (rt *Runtime) kept(out Outcome) {
	rt.mu.Lock()
	keep := rt.keep
	rt.mu.Unlock()
	for _, k := range keep {
		if pn := challengers.Catch(func() { k(out) }); pn != nil {
			rt.Note(NoteError, "a copy of the outcome document was not kept: %s", pn.Error())
		}
	}
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
	out.LogPath = logPath
	d := rt.closing(out, opts.SeatNotes)
	out.Document, out.Markdown = &d, doc.Markdown(d)
	rt.kept(out)
	bus.Emit(out)
	return out
}

// closing is the outcome's document as arena closes it: the protocol's,
// its result as the run ended and its summary, with arena's sections
// after the protocol's: the seats, the moderator's notes, what each agent
// cost and the budget, the resume.
func (rt *Runtime) closing(out Outcome, seatNotes []string) doc.Document {
	var d doc.Document
	if out.Document != nil {
		d = *out.Document
		d.Notices = slices.Clone(d.Notices)
		d.Sections = slices.Clone(d.Sections)
	} else {
		d = doc.Document{Title: "Outcome"}
	}
	if d.Result == "" || out.Result == OutcomeOverBudget {
		d.Result = ResultWords(out.Result)
	}
	d.Summary = out.Summary
	d.Notices = append(rt.stopNotices(out), d.Notices...)
	if len(seatNotes) > 0 {
		d.Sections = append(d.Sections, doc.Section{ID: doc.SectionSeats, Heading: "Seats", Restates: &doc.Restates{Notes: true},
			Blocks: []doc.Block{doc.Bullets("", seatNotes...)}})
	}
	if sec, ok := rt.moderatorSection(); ok {
		d.Sections = append(d.Sections, sec)
	}
	if rt.Ledger != nil {
		if sec, ok := CostSection(rt.Ledger.Accounts(), rt.Ledger.Total()); ok {
			d.Sections = append(d.Sections, sec)
			if b, ok := rt.budgetSection(); ok {
				d.Sections = append(d.Sections, b)
			}
		}
	}
	if sec, ok := rt.resumeSection(); ok {
		d.Sections = append(d.Sections, sec)
	}
	return d
}

// ResultWords are how a document's title says a result arena decides:
// "over budget" for OutcomeOverBudget.
func ResultWords(k OutcomeKind) string {
	return strings.ReplaceAll(string(k), "_", " ")
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
	d := doc.Document{Title: "Run aborted", Result: "internal error"}
	d.Add("What failed",
		doc.Para(fmt.Sprintf("arena stopped the run: %s. This is a bug in arena; the log holds everything up to it. Please report it with the stack below.", what)),
		doc.Block{Code: strings.TrimSpace(p.Stack)})
	return Outcome{
		Result: OutcomeAborted, Stance: StanceDisagree,
		Summary:       "Aborted: internal error: " + what,
		Document:      &d,
		Failures:      []string{what},
		InternalError: what,
	}
}

// resumeHint says, in an interrupted outcome's summary, how to carry the
// run on; its document says it too (stopNotices): the screen, the printed
// run and the saved document all show it (issue 32, point 3: Ctrl+C never
// mentioned arena resume, though an over-budget stop did).
func resumeHint(out Outcome, logPath string) Outcome {
	if out.Result != OutcomeInterrupted || logPath == "" {
		return out
	}
	out.Summary += "; carry on with " + resumeCommand(logPath)
	return out
}

func resumeCommand(logPath string) string { return "arena resume " + ShellWord(logPath) }

// stopNotices are what a stopped run's document says first: why it
// stopped, and how to carry it on.
func (rt *Runtime) stopNotices(out Outcome) []doc.Notice {
	switch {
	case out.Result == OutcomeOverBudget:
		return []doc.Notice{rt.overBudgetNotice(out.LogPath)}
	case out.Result == OutcomeInterrupted && out.LogPath != "":
		return []doc.Notice{{Label: "Interrupted", Text: "Every reply so far is in the log, and none is asked again: carry on with `" + resumeCommand(out.LogPath) + "`."}}
	}
	return nil
}

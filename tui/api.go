// Package tui is arena's terminal screen. It draws a debate from the
// engine's event stream: live, through the Sink of a Live screen, or from
// a saved log with Replay. It knows nothing of protocol rules: phases,
// badges and stances are shown as the events state them.
package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/arenadebate/arena/challengers/pace"
	"github.com/arenadebate/arena/engine"
)

// Options configure the screen.
type Options struct {
	// Replay: playing a saved log. Quitting needs no confirmation, and the
	// playback keys work.
	Replay bool
	// Speed is the replay speed factor; <= 0 plays the log instantly.
	Speed float64
	// Watching: the screen follows a run another process owns (arena
	// replay --follow). Quitting stops the watching, not the run, so it
	// needs no confirmation.
	Watching bool
	// Cancel cancels the running debate (live). It must not block; the
	// engine then emits an Outcome with Result interrupted.
	Cancel func()
	// Moderate sends a moderator's note typed on the live screen (m) to
	// the engine; it must not block, and reports whether the note was
	// taken. Nil: no input line.
	Moderate func(note string) bool
	// FollowUp asks a follow-up question typed on the live screen after
	// the outcome (f); it must not block, and reports whether it was
	// taken. Its events come to the screen's sink. Nil: not offered.
	FollowUp func(question string) bool
	// TruncatedNote is shown when a replay's events end without an
	// Outcome, e.g. "log ends here (cut short at event 812)".
	TruncatedNote string
	// Paths is how the outcome's footer names a file (the command line's
	// plain.RelativeTo); nil: as its event gives it.
	Paths func(string) string
	// NoColor forces a colourless screen. NO_COLOR is honoured too.
	NoColor bool
	// Input and Output replace the terminal (tests). Nil: stdin, stdout.
	Input  io.Reader
	Output io.Writer
}

// Live is the screen of a debate in progress. Wire it as:
//
//	ctx, cancel := context.WithCancel(parent) // the debate's context
//	ui := tui.NewLive(tui.Options{Cancel: cancel})
//	bus.Subscribe(ui.Sink())
//	errc := make(chan error, 1)
//	go func() {
//		err := eng.Run(ctx) // emits on bus, its Outcome last
//		ui.EngineDone(err)
//		errc <- err
//	}()
//	uiErr := ui.Run(parent) // not ctx: the screen must outlive Cancel to see the Outcome
//	cancel()                // idempotent: the person may have quit before the end
//	engErr := <-errc
type Live struct {
	opts Options
	sink *sink
	once sync.Once
}

// NewLive returns a screen; nothing is drawn until Run.
func NewLive(opts Options) *Live {
	opts.Replay = false
	return &Live{opts: opts, sink: newSink()}
}

// Sink is what to subscribe to the engine's bus. It never blocks the
// engine and never drops a non-chunk event; events that arrive before Run
// are kept until the screen starts.
func (l *Live) Sink() engine.Sink { return l.sink }

// EngineDone tells the screen the engine returned (err: what it
// returned), after every event it emitted. Without an Outcome the screen
// then says the debate stopped, and quitting needs no confirmation. It
// does not block.
func (l *Live) EngineDone(err error) { l.sink.finish(err) }

// Run draws the debate until the person quits, or ctx ends. It restores
// the terminal whatever happens, and reports a panic of the screen as an
// error once the terminal is restored. Call it once.
func (l *Live) Run(ctx context.Context) error {
	err := errors.New("tui: Live.Run called twice")
	l.once.Do(func() {
		m := NewModel(l.opts, nil)
		p := tea.NewProgram(m, programOptions(ctx, l.opts)...)
		stop := make(chan struct{})
		var wg sync.WaitGroup
		var pumpErr error
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { // a panic here would kill the process with the terminal raw
				if r := recover(); r != nil {
					pumpErr = fmt.Errorf("tui: internal error delivering events: %v\n%s", r, debug.Stack())
					p.Kill()
				}
			}()
			l.sink.pump(p.Send, stop, untilFrame)
		}()
		// The renderer's clock starts with Run: its flushes then come
		// flushLag after each tick, once the tick's frame is drawn.
		time.Sleep(pace.UntilTick(time.Now(), frameInterval, flushLag))
		final, runErr := p.Run()
		close(stop)
		wg.Wait()
		l.sink.close()
		if err = runResult(final, runErr); pumpErr != nil {
			err = pumpErr
		}
	})
	return err
}

// Replay plays a saved debate until the person quits.
func Replay(ctx context.Context, events []engine.Event, opts Options) error {
	opts.Replay = true
	p := tea.NewProgram(NewModel(opts, events), programOptions(ctx, opts)...)
	final, err := p.Run()
	return runResult(final, err)
}

func programOptions(ctx context.Context, o Options) []tea.ProgramOption {
	// The renderer writes what changed once a frame.
	opts := []tea.ProgramOption{tea.WithAltScreen(), tea.WithFPS(int(time.Second / frameInterval))}
	if ctx != nil {
		// The caller handles signals through ctx. bubbletea's own SIGINT
		// and SIGTERM handler would race with it: when ctx ends first, that
		// handler blocks for ever sending a quit message nobody reads, and
		// Run never returns (bubbletea v1.3.10, Program.handleSignals).
		opts = append(opts, tea.WithContext(ctx), tea.WithoutSignalHandler())
	}
	if o.Input != nil {
		opts = append(opts, tea.WithInput(o.Input))
	}
	if o.Output != nil {
		opts = append(opts, tea.WithOutput(o.Output))
	}
	return opts
}

// runResult turns the program's end into the caller's error: a panic we
// recovered ourselves (with its stack), one bubbletea recovered (it
// printed the stack after restoring the terminal), or a cancelled context.
func runResult(final tea.Model, err error) error {
	if m, ok := final.(*Model); ok && m.fatal != nil {
		return m.fatal
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(err, tea.ErrProgramPanic):
		return fmt.Errorf("tui: the screen crashed (stack printed above): %w", err)
	}
	return fmt.Errorf("tui: %w", err)
}

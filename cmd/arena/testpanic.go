//go:build arenapanic

package main

// A test build of arena (go build -tags arenapanic) that panics where
// ARENA_TEST_PANIC says, for the tests of issue 19 item 5: a panic
// anywhere ends the run with an aborted outcome that says what failed,
// exit 1, the terminal restored. Never part of a release build.

import (
	"context"
	"os"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine"
)

// outOfRange panics as an index bug does: with a runtime error.
func outOfRange() {
	var xs []int
	_ = xs[len(os.Args)+5]
}

func init() {
	at := os.Getenv("ARENA_TEST_PANIC")
	injectPanic = func(p engine.Protocol, bus *engine.Bus, opts *engine.Options) engine.Protocol {
		switch at {
		case "protocol":
			return panicking{p}
		case "sink":
			bus.Subscribe(engine.SinkFunc(func(e engine.Event) {
				if _, ok := e.Payload.(engine.AgentStarted); ok {
					outOfRange()
				}
			}))
		case "ask", "chunk":
			// gemini is a challenger, asked in parallel with the others.
			run := opts.Run
			if run == nil {
				run = challengers.Run
			}
			opts.Run = func(ctx context.Context, req challengers.Request) challengers.Result {
				if req.Agent.Name == "gemini" {
					if at == "ask" {
						outOfRange()
					}
					onChunk := req.OnChunk
					req.OnChunk = func(text string) {
						outOfRange()
						onChunk(text)
					}
				}
				return run(ctx, req)
			}
		}
		return p
	}
}

// panicking is a protocol that panics once it has started.
type panicking struct{ engine.Protocol }

func (p panicking) Run(ctx context.Context, rt *engine.Runtime) engine.Outcome {
	rt.Note(engine.NoteInfo, "about to panic")
	outOfRange()
	return engine.Outcome{}
}

package engine

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/arenadebate/arena/challengers"
)

// funcProtocol is a protocol whose Run is a function.
type funcProtocol func(ctx context.Context, rt *Runtime) Outcome

func (funcProtocol) Start() DebateStarted                           { return DebateStarted{Protocol: "test"} }
func (f funcProtocol) Run(ctx context.Context, rt *Runtime) Outcome { return f(ctx, rt) }

// collect is a sink that keeps what it is given.
type collect struct {
	mu     sync.Mutex
	events []Event
}

func (c *collect) Handle(e Event) { c.mu.Lock(); c.events = append(c.events, e); c.mu.Unlock() }

func (c *collect) outcome(t *testing.T) Outcome {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := len(c.events) - 1; i >= 0; i-- {
		if o, ok := c.events[i].Payload.(Outcome); ok {
			return o
		}
	}
	t.Fatal("no outcome reached the sink")
	return Outcome{}
}

func TestAPanicInAParallelAskIsAnAbortedOutcome(t *testing.T) {
	bus, log := NewBus(), &collect{}
	bus.Subscribe(log)
	run := func(ctx context.Context, req challengers.Request) challengers.Result {
		if req.Agent.Name == "bad" {
			var xs []int
			_ = xs[len(req.Prompt)]
		}
		<-ctx.Done() // the others are stopped, not waited for
		return challengers.Result{Reason: challengers.ReasonCancelled}
	}
	p := funcProtocol(func(ctx context.Context, rt *Runtime) Outcome {
		qs := []Question{{Agent: challengers.Agent{Name: "good"}, Prompt: "x"}, {Agent: challengers.Agent{Name: "bad"}, Prompt: "x"}}
		rt.AskAll(ctx, qs)
		return Outcome{Result: "done"}
	})
	out := Run(context.Background(), p, bus, Options{Run: run})
	bus.Close()
	if out.Result != OutcomeAborted || !strings.Contains(out.InternalError, "asking bad panicked: runtime error: index out of range") {
		t.Fatalf("%+v", out)
	}
	if got := log.outcome(t); got.InternalError != out.InternalError {
		t.Fatalf("the log got %+v", got)
	}
}

func TestAPanickingSinkIsDroppedAndAbortsTheRun(t *testing.T) {
	bus, log := NewBus(), &collect{}
	bus.Subscribe(SinkFunc(func(e Event) {
		if n, ok := e.Payload.(Note); ok && n.Message == "boom" {
			panic("the screen broke")
		}
	}))
	bus.Subscribe(log)
	p := funcProtocol(func(ctx context.Context, rt *Runtime) Outcome {
		rt.Note(NoteInfo, "boom")
		<-ctx.Done() // the broken sink cancels the run
		return Outcome{Result: OutcomeInterrupted}
	})
	out := Run(context.Background(), p, bus, Options{})
	bus.Close() // does not wait for the dropped sink's queue
	if out.Result != OutcomeAborted || !strings.Contains(out.InternalError, "engine.SinkFunc panicked: the screen broke") {
		t.Fatalf("%+v", out)
	}
	if got := log.outcome(t); got.Result != OutcomeAborted {
		t.Fatalf("the other sink got %+v", got)
	}
}

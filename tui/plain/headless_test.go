package plain

import (
	"bytes"
	"context"
	"testing"

	"github.com/arenadebate/arena/engine"
)

// Headless's Run lasts until the engine is done, as the live screen's
// does, and prints through the printer it was given.
func TestHeadlessRunsUntilTheEngineIsDone(t *testing.T) {
	var out bytes.Buffer
	p := New(&out)
	h := NewHeadless(p)
	ran := make(chan error)
	go func() { ran <- h.Run(context.Background()) }()
	h.Sink().Handle(engine.Event{Seq: 1, Payload: engine.Note{Level: engine.NoteWarn, Message: "a note"}})
	select {
	case <-ran:
		t.Fatal("Run returned before the engine was done")
	default:
	}
	h.EngineDone(nil)
	if err := <-ran; err != nil || h.Sink() != p || !bytes.Contains(out.Bytes(), []byte("a note")) {
		t.Fatalf("run: %v; printed %q", err, out.String())
	}
}

package runlog

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/engine"
)

// A run whose log was deleted, and could not be written again, ends with
// what became of it said: where its events are now.
func TestFinishSaysWhereTheEventsWent(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	w := strandedLog(t, sampleEvents())
	got := w.Finish()
	if len(got) != 2 || !strings.HasPrefix(got[0], "the debate log "+w.Path()+" could not be fully written: ") ||
		!strings.HasPrefix(got[1], "the 11 events not written there were saved to ") {
		t.Fatalf("%q", got)
	}
}

func TestFinishSaysALogWasWrittenAgain(t *testing.T) {
	w, err := Create(filepath.Join(t.TempDir(), "logs"), Name(time.Now(), "t"))
	if err != nil {
		t.Fatal(err)
	}
	w.Handle(sampleEvents()[0])
	os.Remove(w.Path())
	w.Handle(sampleEvents()[1])
	want := "the debate log was deleted during the run; arena wrote it again, with every event, at " + w.Path() + " (arena replay " + w.Path() + ")"
	if got := w.Finish(); len(got) != 1 || got[0] != want {
		t.Fatalf("%q", got)
	}
}

// The outcome document goes beside the log, named after it, and the log
// records where.
func TestAttachSavesTheDocumentBesideTheLog(t *testing.T) {
	w, err := Create(filepath.Join(t.TempDir(), "logs"), Name(time.Now(), "t"))
	if err != nil {
		t.Fatal(err)
	}
	bus := engine.NewBus()
	w.Attach(bus, nil)
	bus.Emit(sampleEvents()[0].Payload)
	bus.Emit(engine.Outcome{Result: "done", Markdown: "# the outcome\n", LogPath: w.Path()})
	bus.Close()
	if warnings := w.Finish(); warnings != nil {
		t.Fatal(warnings)
	}
	doc := strings.TrimSuffix(w.Path(), ".jsonl") + ".md"
	if b, err := os.ReadFile(doc); err != nil || !strings.HasPrefix(string(b), "# the outcome") {
		t.Fatalf("%q, %v", b, err)
	}
	lc, err := ReadFile(w.Path())
	if err != nil || engine.DocumentBeside(w.Path(), lc.Events) != doc {
		t.Fatalf("the log names %q, %v", engine.DocumentBeside(w.Path(), lc.Events), err)
	}
}

// protocolFunc is a protocol whose Run is a function.
type protocolFunc func(ctx context.Context, rt *engine.Runtime) engine.Outcome

func (protocolFunc) Start() engine.DebateStarted { return engine.DebateStarted{Protocol: "test"} }
func (f protocolFunc) Run(ctx context.Context, rt *engine.Runtime) engine.Outcome {
	return f(ctx, rt)
}

// The start event records how arena was run, signed with the user's key
// (or not at all without one).
func TestInvokedRecordsTheSignedInvocation(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	inv := engine.Invocation{Args: []string{"topic"}, Dir: "/work", Stdin: "x"}
	st := Invoked(protocolFunc(nil), inv, key).Start()
	if st.Invocation == nil || st.Invocation.Dir != "/work" || !Signed(key, "test", *st.Invocation) {
		t.Fatalf("%+v", st.Invocation)
	}
	if st := Invoked(protocolFunc(nil), inv, nil).Start(); st.Invocation.MAC != "" || st.Invocation.Args[0] != "topic" {
		t.Fatalf("%+v", st.Invocation)
	}
}

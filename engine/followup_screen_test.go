package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/enginetest"
)

// events is a sink that keeps what it is given.
type events struct {
	mu   sync.Mutex
	list []engine.Event
}

func (c *events) Handle(e engine.Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.list = append(c.list, e)
}

func (c *events) all() []engine.Event {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]engine.Event(nil), c.list...)
}

// finishedRun is a run's events up to its outcome, whose document was
// saved in dir; it returns them and the document's path.
func finishedRun(t *testing.T, dir string) ([]engine.Event, string) {
	t.Helper()
	doc := filepath.Join(dir, "run.md")
	if err := os.WriteFile(doc, []byte("# The outcome\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ps := []engine.Payload{
		engine.DebateStarted{Protocol: "toy", Topic: "queues", FollowUpSeat: "judge",
			Seats: []engine.Seat{{Name: "advocate", Agent: "b", Role: "advocate"}, {Name: "judge", Agent: "a", Role: "judge"}}},
		engine.AgentFinished{CallInfo: engine.CallInfo{Seat: "advocate", Role: "advocate", Phase: "argue"}, Display: "Kafka scales."},
		engine.Outcome{Result: "done", Markdown: "# The outcome\n"},
		engine.Saved{What: engine.WhatOutcomeDocument, Path: "/elsewhere/run.md", SHA256: engine.Hash("# The outcome\n")},
	}
	var out []engine.Event
	for i, p := range ps {
		out = append(out, engine.Event{Seq: int64(i + 1), Payload: p})
	}
	return out, doc
}

func TestScreenFollowUpAfterTheOutcome(t *testing.T) {
	dir := t.TempDir()
	run, doc := finishedRun(t, dir)
	gate := make(chan struct{})
	s := enginetest.NewScript().On("a", engine.ShapeFollowUp, enginetest.Step{Reply: "Latency would."})
	s.Before = func(string, string) { <-gate }
	log, screen := &events{}, &events{}
	fu := &engine.ScreenFollowUps{Ctx: context.Background(), Opts: engine.Options{Run: s.Run},
		Agents: map[string]challengers.Agent{"a": enginetest.Agent("a")}, Log: log, LogPath: filepath.Join(dir, "run.jsonl"), Screen: screen}
	fu.Handle(run[0])
	if fu.Ask("too soon?") {
		t.Fatal("a follow-up started before the outcome")
	}
	for _, e := range run[1:] {
		fu.Handle(e)
	}
	if !fu.Ask("what would change your mind?") {
		t.Fatal("the follow-up did not start")
	}
	if fu.Ask("and another?") {
		t.Fatal("a second follow-up started while the first was asked")
	}
	close(gate)
	if fu.Wait() {
		t.Fatal("the follow-up panicked")
	}
	got := log.all()
	asked := enginetest.Payloads[engine.FollowUp](got)
	if len(asked) != 1 || asked[0].Seat != "judge" || asked[0].Agent != "a" || got[0].Seq != int64(len(run)+1) {
		t.Fatalf("the log got %+v, numbered from %d", asked, got[0].Seq)
	}
	if len(screen.all()) != len(got) {
		t.Fatalf("the screen got %d events, the log %d", len(screen.all()), len(got))
	}
	prompt := s.Calls()[0].Prompt
	if !strings.Contains(prompt, "Kafka scales.") || !strings.Contains(prompt, "THE OUTCOME DOCUMENT:\n# The outcome") {
		t.Fatalf("the prompt does not carry the run:\n%s", prompt)
	}
	b, _ := os.ReadFile(doc)
	if !strings.HasPrefix(string(b), "# The outcome\n\n\n## Follow-up: what would change your mind?") || !strings.HasSuffix(string(b), "Latency would.\n") {
		t.Fatalf("the outcome document:\n%s", b)
	}
	// The follow-up is in the transcript: the next one numbers after it.
	s.Before = nil
	if !fu.Ask("and then?") || fu.Wait() {
		t.Fatal("the second follow-up")
	}
	if all := log.all(); all[len(got)].Seq != got[len(got)-1].Seq+1 {
		t.Fatalf("the second follow-up is numbered %d after %d", all[len(got)].Seq, got[len(got)-1].Seq)
	}
	// Appended to the same document: the first recorded its hash after.
	if b, _ := os.ReadFile(doc); !strings.Contains(string(b), "## Follow-up: and then?") {
		t.Fatalf("the second follow-up is not in the outcome document:\n%s", b)
	}
}

// A follow-up that panics is said where the follow-up was, and Wait
// reports it, for arena to exit 1.
func TestScreenFollowUpPanic(t *testing.T) {
	run, _ := finishedRun(t, t.TempDir())
	screen := &events{}
	s := enginetest.NewScript() // no step for the follow-up: the script panics
	fu := &engine.ScreenFollowUps{Ctx: context.Background(), Opts: engine.Options{Run: s.Run},
		Agents: map[string]challengers.Agent{"a": enginetest.Agent("a")}, Screen: screen}
	for _, e := range run {
		fu.Handle(e)
	}
	if !fu.Ask("why?") || !fu.Wait() {
		t.Fatal("the panic was not reported")
	}
	notes := enginetest.Payloads[engine.Note](screen.all())
	if len(notes) == 0 || !strings.HasPrefix(notes[len(notes)-1].Message, "the follow-up stopped on an internal error: ") {
		t.Fatalf("notes %+v", notes)
	}
}

// No follow-up goes to a seat whose agent the settings do not define.
func TestScreenFollowUpNeedsTheSeatsAgent(t *testing.T) {
	run, _ := finishedRun(t, t.TempDir())
	fu := &engine.ScreenFollowUps{Ctx: context.Background(), Screen: &events{}}
	for _, e := range run {
		fu.Handle(e)
	}
	if fu.Ask("why?") {
		t.Fatal("a follow-up started without the seat's agent")
	}
}

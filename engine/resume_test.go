package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers"
)

func call(seat string, round int) CallInfo {
	return CallInfo{Seat: seat, Agent: seat, Phase: "p", Round: round, Task: "t", Attempt: 1}
}

func TestReplayCacheReusesOnlyTheSameQuestion(t *testing.T) {
	ev := func(p Payload) Event { return Event{Payload: p} }
	events := []Event{
		ev(AgentStarted{CallInfo: call("a", 1), PromptHash: Hash("ask a")}),
		ev(AgentFinished{CallInfo: call("a", 1), Text: "reply a"}),
		ev(AgentStarted{CallInfo: call("b", 1), PromptHash: Hash("ask b")}),
		ev(AgentFailed{CallInfo: call("b", 1)}), // failed: asked again
		ev(AgentStarted{CallInfo: call("c", 1), PromptHash: Hash("ask c")}),
		// cut off: no end
		ev(AgentStarted{CallInfo: call("a", 1), PromptHash: Hash("ask a")}),
		ev(AgentFinished{CallInfo: call("a", 1), Text: "reply a", Reused: true}), // a copy
	}
	c := NewReplayCache(events)
	if c.Len() != 1 {
		t.Fatalf("%d replies to reuse, want 1", c.Len())
	}
	if _, ok := c.take(callKey{"a", "p", 1, "t", Hash("ask a, reworded")}); ok {
		t.Fatal("a different prompt reused the reply")
	}
	if _, ok := c.take(callKey{"a", "p", 2, "t", Hash("ask a")}); ok {
		t.Fatal("another round reused the reply")
	}
	if f, ok := c.take(callKey{"a", "p", 1, "t", Hash("ask a")}); !ok || f.Text != "reply a" {
		t.Fatal("the same question did not get its reply")
	}
	if _, ok := c.take(callKey{"a", "p", 1, "t", Hash("ask a")}); ok {
		t.Fatal("a reply was reused twice")
	}
}

// A resumed run publishes nothing the log holds until its first call is
// made, then everything; the moderator's notes of the earlier run still
// reach every prompt, and the outcome says what was reused.
func TestResumedRunGoesLiveAtItsFirstCall(t *testing.T) {
	q := func(seat, prompt string) Question {
		return Question{Seat: seat, Agent: challengers.Agent{Name: seat}, Phase: "p", Round: 1, Task: "t", Prompt: prompt,
			Parse: func(s string) (Reply, error) { return proseReply(s), nil }}
	}
	var sent []string
	run := func(_ context.Context, r challengers.Request) challengers.Result {
		sent = append(sent, r.Prompt)
		return challengers.Result{Reason: challengers.ReasonOK, Text: "live " + r.Agent.Name}
	}
	earlier := []Event{
		{Seq: 1, Payload: DebateStarted{Protocol: "x"}},
		{Seq: 2, Payload: AgentStarted{CallInfo: call("a", 1), PromptHash: Hash("ask a")}},
		{Seq: 3, Payload: AgentFinished{CallInfo: call("a", 1), Text: "reply a"}},
		{Seq: 4, Payload: ModeratorNote{Text: "mind the budget"}},
	}
	var got []Event
	bus := NewBus(SinkFunc(func(e Event) { got = append(got, e) }))
	bus.ContinueAfter(4)
	p := protocolFunc(func(ctx context.Context, rt *Runtime) Outcome {
		rt.Bus.Emit(PhaseStarted{Phase: "p", Round: 1})
		a := rt.Ask(ctx, q("a", "ask a"))
		b := rt.Ask(ctx, q("b", "ask b"))
		rt.Bus.Emit(Note{Message: "after"})
		return Outcome{Result: "done", Summary: a.Text + ", " + b.Text, Markdown: "# done"}
	})
	out := Run(context.Background(), p, bus, Options{Run: run, Resume: &Resume{Events: earlier, Event: Resumed{After: 4}}})
	bus.Close()
	if !strings.HasPrefix(out.Summary, "reply a, live b") || !strings.Contains(out.Summary, "1 reply reused") {
		t.Fatalf("summary %q", out.Summary)
	}
	if len(sent) != 1 || !strings.Contains(sent[0], "MODERATOR NOTES") || !strings.Contains(sent[0], "- mind the budget") {
		t.Fatalf("prompts sent: %q", sent)
	}
	var kinds []string
	for _, e := range got {
		kinds = append(kinds, string(e.Kind()))
	}
	want := "resumed agent_started agent_finished note outcome"
	if strings.Join(kinds, " ") != want {
		t.Fatalf("published %v, want %s", kinds, want)
	}
	if got[0].Seq != 5 {
		t.Fatalf("the resumed run's first event is numbered %d, want 5", got[0].Seq)
	}
	if !strings.Contains(out.Markdown, "## Resumed") || !strings.Contains(out.Markdown, "1 reply given before the interruption was reused") ||
		!strings.Contains(out.Markdown, "## The moderator's notes") {
		t.Fatalf("outcome document:\n%s", out.Markdown)
	}
}

type protocolFunc func(ctx context.Context, rt *Runtime) Outcome

func (protocolFunc) Start() DebateStarted                           { return DebateStarted{Protocol: "x"} }
func (f protocolFunc) Run(ctx context.Context, rt *Runtime) Outcome { return f(ctx, rt) }

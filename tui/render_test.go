package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/layout"
	"github.com/arenadebate/arena/tui/tuitest"
)

// streamingStart is a run with two seats whose replies have a layout,
// both working.
func streamingStart() []engine.Event {
	seats := []engine.Seat{{Name: "claude", Agent: "claude"}, {Name: "gemini", Agent: "gemini"}}
	ev := []engine.Event{{Time: tuitest.Start, Payload: engine.DebateStarted{Topic: "t", Seats: seats,
		Layouts: map[string]layout.Layout{"critique": {}}}}}
	for _, s := range seats {
		ev = append(ev, engine.Event{Time: tuitest.Start, Payload: engine.AgentStarted{
			CallInfo: engine.CallInfo{Seat: s.Name, Agent: s.Agent, Phase: "challenge", Round: 1, Attempt: 1},
			Shape:    "critique", Timeout: engine.Duration(time.Minute)}})
	}
	return ev
}

// paneText is what a seat's pane shows, as plain text.
func paneText(m *Model, seat string) string {
	p := m.panes[m.byName[seat]]
	var b strings.Builder
	for _, l := range p.window() {
		b.WriteString(plain(l.text) + "\n")
	}
	return b.String()
}

// No frame waits for a render it started longer than its budget: a reply
// whose render does not come back shows as text in the frame, keys are
// handled meanwhile, another pane renders and draws its reply while the
// render is held up, and the render, once back, is drawn.
func TestARenderHoldsUpNoFrame(t *testing.T) {
	h := newHarness(t, Options{}, streamingStart(), 120, 40)
	release := make(chan struct{})
	h.m.renderBudget = 0
	h.m.renderWith = func(j renderJob) renderedMsg {
		if j.seat == "claude" {
			<-release // a render that takes seconds
		}
		return j.run()
	}
	chunk := func(seat string) eventsMsg {
		return eventsMsg{events: []engine.Event{{Payload: engine.Chunk{Seat: seat, Text: `{"critique": "the **held** render`}}}}
	}
	_, held := h.m.Update(chunk("claude"))
	if got := paneText(h.m, "claude"); !strings.Contains(got, "**Critique:** the **held** render") {
		t.Fatalf("the reply whose render is held up does not show as text:\n%s", got)
	}
	h.m.Update(keyMsg("tab"))
	if h.m.focus != 1 {
		t.Fatalf("a key waited for the render: focus %d", h.m.focus)
	}
	h.m.renderBudget = time.Minute // the frame waits for gemini's render, and not for claude's
	h.m.Update(chunk("gemini"))
	if got := paneText(h.m, "gemini"); !strings.Contains(got, "Critique: the held render") {
		t.Fatalf("the other pane's reply is not drawn by glamour:\n%s", got)
	}
	if !strings.Contains(paneText(h.m, "claude"), "**held**") {
		t.Fatal("the held render came back before it was let go")
	}
	close(release)
	h.run(held)
	if got := paneText(h.m, "claude"); !strings.Contains(got, "Critique: the held render") {
		t.Fatalf("the render, once back, is not drawn:\n%s", got)
	}
}

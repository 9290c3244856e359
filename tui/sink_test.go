package tui

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/tui/tuitest"
)

var agents = []string{"claude", "gemini", "codex", "qwen"}

// stream is 10,000 chunks from four agents, interleaved as the bus would
// order parallel streams, with a non-chunk event every 1,000 chunks.
func stream() []engine.Event {
	var ev []engine.Event
	for i := range 10000 {
		a := agents[i%len(agents)]
		ev = append(ev, engine.Event{Seq: int64(len(ev) + 1),
			Payload: engine.Chunk{Seat: a, Text: fmt.Sprintf("%s-%d ", a, i)}})
		if i%1000 == 999 {
			ev = append(ev, engine.Event{Seq: int64(len(ev) + 1),
				Payload: engine.Note{Level: "info", Message: fmt.Sprint("note ", i)}})
		}
	}
	return ev
}

// texts is each agent's text, and the non-chunk events in order.
func texts(ev []engine.Event) (map[string]string, []engine.Event) {
	b := map[string]*strings.Builder{}
	var other []engine.Event
	for _, e := range ev {
		if c, ok := e.Payload.(engine.Chunk); ok {
			if b[c.Seat] == nil {
				b[c.Seat] = &strings.Builder{}
			}
			b[c.Seat].WriteString(c.Text)
			continue
		}
		other = append(other, e)
	}
	out := map[string]string{}
	for a, s := range b {
		out[a] = s.String()
	}
	return out, other
}

func TestSinkCoalescesWithoutLosingText(t *testing.T) {
	in := stream()
	s := newSink()
	for _, e := range in {
		s.Handle(e)
	}
	msg := s.take()
	if msg == nil {
		t.Fatal("nothing taken")
	}
	// 10 runs of chunks, each closed by a note: one chunk per agent each.
	if want := 10*len(agents) + 10; len(msg.events) != want {
		t.Fatalf("%d events after coalescing, want %d", len(msg.events), want)
	}
	wantText, wantOther := texts(in)
	gotText, gotOther := texts(msg.events)
	for _, a := range agents {
		if gotText[a] != wantText[a] {
			t.Fatalf("%s: %d bytes delivered, %d streamed", a, len(gotText[a]), len(wantText[a]))
		}
	}
	if len(gotOther) != len(wantOther) {
		t.Fatalf("%d non-chunk events, want %d", len(gotOther), len(wantOther))
	}
	for i := range wantOther {
		if gotOther[i].Seq != wantOther[i].Seq {
			t.Fatalf("non-chunk event %d out of order", i)
		}
	}
	if s.take() != nil {
		t.Fatal("a second take returned events again")
	}
}

func TestSinkKeepsChunksBeforeTheirFinish(t *testing.T) {
	s := newSink()
	s.Handle(chunk("x", "a"))
	s.Handle(chunk("y", "b"))
	s.Handle(chunk("x", "c"))
	s.Handle(engine.Event{Payload: engine.AgentFinished{CallInfo: engine.CallInfo{Seat: "x"}}})
	s.Handle(chunk("x", "late"))
	var got []string
	for _, e := range s.take().events {
		switch p := e.Payload.(type) {
		case engine.Chunk:
			got = append(got, p.Seat+":"+p.Text)
		default:
			got = append(got, string(e.Kind())+":"+e.SeatOf())
		}
	}
	want := "x:ac y:b agent_finished:x x:late"
	if strings.Join(got, " ") != want {
		t.Fatalf("got %q, want %q", strings.Join(got, " "), want)
	}
}

func TestSinkPumpDeliversEverythingInFewMessages(t *testing.T) {
	in := stream()
	s := newSink()
	var (
		mu   sync.Mutex
		msgs []eventsMsg
		done = make(chan struct{})
	)
	send := func(m tea.Msg) {
		mu.Lock()
		defer mu.Unlock()
		em := m.(eventsMsg)
		msgs = append(msgs, em)
		if em.done {
			close(done)
		}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); s.pump(send, stop, untilFrame) }()
	for _, e := range in {
		s.Handle(e)
	}
	s.finish(nil)
	<-done
	close(stop)
	wg.Wait()

	var all []engine.Event
	for _, m := range msgs {
		all = append(all, m.events...)
	}
	wantText, wantOther := texts(in)
	gotText, gotOther := texts(all)
	for _, a := range agents {
		if len(gotText[a]) != len(wantText[a]) || gotText[a] != wantText[a] {
			t.Fatalf("%s: %d bytes delivered, %d streamed", a, len(gotText[a]), len(wantText[a]))
		}
	}
	for i := range wantOther {
		if gotOther[i].Seq != wantOther[i].Seq {
			t.Fatalf("non-chunk event %d out of order", i)
		}
	}
	// 10,000 chunks handled in a tight loop arrive as a handful of frames.
	if len(msgs) > 200 {
		t.Fatalf("%d messages for %d events: not coalesced", len(msgs), len(in))
	}
	t.Logf("%d events in %d messages", len(in), len(msgs))
}

func TestSinkDropsAfterClose(t *testing.T) {
	s := newSink()
	s.Handle(chunk("x", "a"))
	s.close()
	s.Handle(chunk("x", "b"))
	if msg := s.take(); msg != nil {
		t.Fatalf("events after close: %+v", msg.events)
	}
}

// TestSinkDebateThroughModel: the synthetic debate through the sink and
// the model shows the same screen as applying it directly.
func TestSinkDebateThroughModel(t *testing.T) {
	ev := tuitest.Debate()
	s := newSink()
	for _, e := range ev {
		s.Handle(e)
	}
	direct := newHarness(t, Options{}, ev, 120, 40)
	viaSink := newHarness(t, Options{}, nil, 120, 40)
	viaSink.clock = direct.clock
	viaSink.send(*s.take())
	viaSink.keys("o")
	direct.keys("o")
	if direct.view() != viaSink.view() {
		t.Fatalf("screens differ:\n%s\n---\n%s", plain(direct.view()), plain(viaSink.view()))
	}
}

// Once something is pending the pump waits for the frame's instant, and
// everything handled meanwhile (the other agents read on the same tick)
// goes out in that frame's one batch.
func TestSinkPumpWaitsForTheFrame(t *testing.T) {
	s := newSink()
	asked, gate := make(chan struct{}, 1), make(chan struct{})
	until := func(time.Time) time.Duration {
		asked <- struct{}{}
		<-gate // the frame's instant comes when the test says
		return 0
	}
	sent := make(chan eventsMsg, 4)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); s.pump(func(m tea.Msg) { sent <- m.(eventsMsg) }, stop, until) }()
	defer func() { close(stop); wg.Wait() }()

	s.Handle(chunk("claude", "a"))
	<-asked // the pump woke and waits for the frame
	select {
	case m := <-sent:
		t.Fatalf("sent before the frame: %+v", m.events)
	default:
	}
	s.Handle(chunk("gemini", "b"))
	s.Handle(chunk("qwen", "c"))
	close(gate)
	m := <-sent
	var got []string
	for _, e := range m.events {
		got = append(got, e.SeatOf()+":"+e.Payload.(engine.Chunk).Text)
	}
	if strings.Join(got, " ") != "claude:a gemini:b qwen:c" {
		t.Fatalf("the frame's batch: %q", got)
	}
}

// The heartbeat turns the spinners on the frames' instants, not on a
// clock of its own that would wake arena between frames.
func TestHeartbeatKeepsTheFramesClock(t *testing.T) {
	h := newHarness(t, Options{}, round2(t), 120, 40)
	for range 3 {
		var d time.Duration
		n := 0
		for _, s := range h.timers {
			if _, ok := s.msg.(heartbeatMsg); ok {
				d, n = s.d, n+1
			}
		}
		if n != 1 {
			t.Fatalf("%d heartbeats pending, want 1", n)
		}
		at := h.clock.Add(d)
		if d <= 0 || d > heartbeatInterval || (time.Duration(at.UnixNano())-frameLag)%frameInterval != 0 {
			t.Fatalf("heartbeat in %v from %v: lands at %v, off the frames' clock", d, h.clock.Format(time.StampMicro), at.Format(time.StampMicro))
		}
		h.clock = at.Add(3 * time.Millisecond) // a late timer
		h.fire(func(m tea.Msg) bool { _, ok := m.(heartbeatMsg); return ok })
	}
}

package tui

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/tui/tuitest"
)

func plain(s string) string { return ansi.Strip(s) }

// paneTop returns the top border line of the named pane, or "".
func paneTop(view, name string) string {
	for _, l := range strings.Split(plain(view), "\n") {
		if i := strings.Index(l, "━ "+name+" "); i >= 0 {
			return "focused"
		}
		if strings.Contains(l, "─ "+name+" ") {
			return "unfocused"
		}
	}
	return ""
}

func TestFocusMovesWithTab(t *testing.T) {
	h := newHarness(t, Options{}, round2(t), 120, 40)
	if got := paneTop(h.view(), "claude"); got != "focused" {
		t.Fatalf("claude starts %q, want focused", got)
	}
	h.keys("tab")
	if h.m.focus != 1 || paneTop(h.view(), "gemini") != "focused" || paneTop(h.view(), "claude") != "unfocused" {
		t.Fatalf("after tab: focus %d", h.m.focus)
	}
	h.keys("tab", "tab", "tab")
	if h.m.focus != 0 {
		t.Fatalf("tab does not wrap: focus %d", h.m.focus)
	}
	h.keys("shift+tab")
	if h.m.focus != 3 || paneTop(h.view(), "qwen") != "focused" {
		t.Fatalf("shift+tab: focus %d", h.m.focus)
	}
}

func TestEnterZoomsEscUnzooms(t *testing.T) {
	h := newHarness(t, Options{}, round2(t), 120, 40)
	h.keys("tab", "enter")
	v := plain(h.view())
	if !h.m.zoomed || strings.Contains(v, "claude · defender") || !strings.Contains(v, "━ gemini ") {
		t.Fatalf("enter does not zoom gemini:\n%s", v)
	}
	if w := h.m.panes[1].w; w != 120 {
		t.Fatalf("zoomed pane is %d wide, want 120", w)
	}
	h.keys("esc")
	if h.m.zoomed || !strings.Contains(plain(h.view()), "claude · defender") {
		t.Fatal("esc does not unzoom")
	}
	h.keys("enter", "enter")
	if h.m.zoomed {
		t.Fatal("enter does not toggle zoom off")
	}
}

func chunk(agent, text string) engine.Event {
	return engine.Event{Payload: engine.Chunk{Seat: agent, Text: text}}
}

func TestScrollUpStopsFollowingAndGResumes(t *testing.T) {
	h := newHarness(t, Options{}, round2(t), 120, 40)
	h.keys("tab") // gemini, streaming
	p := h.m.panes[1]
	if !p.follow {
		t.Fatal("a pane starts following its tail")
	}
	h.keys("up", "up")
	if p.follow {
		t.Fatal("scrolling up still follows")
	}
	before := p.window()
	h.events(chunk("gemini", "\nmore text from gemini\n"))
	if got := p.window(); got[0] != before[0] {
		t.Fatal("new text moved a pane the person scrolled")
	}
	if !strings.Contains(plain(h.view()), "↓ new text") {
		t.Fatalf("no new-text hint:\n%s", plain(h.view()))
	}
	h.keys("G")
	if !p.follow || strings.Contains(plain(h.view()), "↓ new text") {
		t.Fatal("G does not resume following")
	}
	// The text joins the paragraph it continues (a single newline is a
	// soft break): the pane ends with it.
	if last := ansi.Strip(p.window()[len(p.window())-1].text); !strings.HasSuffix(last, "from gemini") {
		t.Fatalf("tail is %q", last)
	}
}

func TestScrollToBottomRejoinsTail(t *testing.T) {
	h := newHarness(t, Options{}, round2(t), 120, 40)
	p := h.m.panes[0]
	h.keys("k", "j")
	if !p.follow {
		t.Fatal("scrolling back to the bottom does not follow again")
	}
	h.keys("g")
	if p.follow || p.top != 0 {
		t.Fatal("g does not go to the top")
	}
	h.keys("pgdown", "pgdown", "pgdown", "pgdown", "pgdown")
	if !p.follow {
		t.Fatal("paging down to the end does not follow")
	}
}

func TestChunksAfterFinishDoNotCorruptTheReply(t *testing.T) {
	h := newHarness(t, Options{}, round2(t), 120, 40)
	display := "**Verdict:** disagree (strong)\n\nThe relay is the hard part."
	h.events(
		chunk("gemini", `", "tail": "x"}`),
		engine.Event{Payload: engine.AgentFinished{CallInfo: engine.CallInfo{Seat: "gemini", Agent: "gemini", Role: "challenger",
			Phase: "rebuttal", Round: 2}, Display: display, Badge: "disagree · strong",
			Stance: engine.StanceDisagree}},
		chunk("gemini", `{"late": "raw json"}`),
		chunk("codex", "still streaming"),
	)
	v := plain(h.view())
	if strings.Contains(v, "raw json") || strings.Contains(v, `"tail"`) {
		t.Fatalf("raw text shown after the reply:\n%s", v)
	}
	if !strings.Contains(v, "The relay is the hard part.") || !strings.Contains(v, "● disagree · strong") {
		t.Fatalf("reply or badge missing:\n%s", v)
	}
	if h.m.lateChunk != 1 {
		t.Fatalf("late chunks: %d, want 1", h.m.lateChunk)
	}
	if !strings.Contains(v, "still streaming") {
		t.Fatal("the next agent's text in the same batch was lost")
	}
}

func TestFailedPaneShowsMessageAndRetry(t *testing.T) {
	// Challengers get no retry in the recording; the defender does.
	retry := engine.Event{Payload: engine.AgentFailed{
		CallInfo: engine.CallInfo{Seat: "codex", Agent: "codex", Phase: "rebuttal", Round: 2, Attempt: 1},
		Reason:   "stream_error", Message: "stream error: overloaded", WillRetry: true,
	}}
	h := newHarness(t, Options{}, append(round2(t), retry), 120, 40)
	top := plain(strings.Join(h.m.panes[2].Render(paneView{th: &h.m.th, now: h.clock}), "\n"))
	if !strings.Contains(top, "↻ retrying · stream error") {
		t.Fatalf("retrying pane:\n%s", top)
	}
}

func TestQuitWhileRunningConfirmsAndCancelsOnce(t *testing.T) {
	cancels := 0
	h := newHarness(t, Options{Cancel: func() { cancels++ }}, round2(t), 100, 30)
	h.keys("q")
	if !h.m.confirming || h.quit {
		t.Fatal("q while running does not ask")
	}
	h.keys("n")
	if h.m.confirming || cancels != 0 {
		t.Fatal("n does not dismiss the prompt")
	}
	h.keys("ctrl+c", "esc", "q", "y")
	if cancels != 1 || !h.m.stopping || h.quit {
		t.Fatalf("after y: cancels %d, stopping %v, quit %v", cancels, h.m.stopping, h.quit)
	}
	if len(h.timers) == 0 {
		t.Fatal("no safety timeout scheduled")
	}
	if !strings.Contains(plain(h.view()), "stopping the debate") {
		t.Fatal("no stopping message")
	}
	h.events(engine.Event{Payload: engine.Outcome{Result: engine.OutcomeInterrupted}})
	if !h.quit {
		t.Fatal("the interrupted Outcome does not quit")
	}
	if cancels != 1 {
		t.Fatalf("Cancel called %d times", cancels)
	}
}

// The quit prompt and the stopping message call the run what its
// protocol calls it: a verdict is not a debate.
func TestQuitWordsComeFromTheProtocol(t *testing.T) {
	for name, noun := range map[string]string{"adversarial": "debate", "compare": "comparison", "judge": "judging", "verdict": "verdict", "rank": "ranking"} {
		t.Run(name, func(t *testing.T) {
			ev := tuitest.Run(name)
			running := ev[:tuitest.Index(ev, func(e engine.Event) bool { _, ok := e.Payload.(engine.AgentFinished); return ok })]
			h := newHarness(t, Options{Cancel: func() {}}, running, 100, 30)
			h.keys("q")
			if v := plain(h.view()); !strings.Contains(v, "Stop the "+noun+"?") {
				t.Fatalf("the prompt does not ask to stop the %s:\n%s", noun, v)
			}
			h.keys("y")
			if v := plain(h.view()); !strings.Contains(v, "stopping the "+noun+"…") {
				t.Fatalf("no stopping message for the %s:\n%s", noun, v)
			}
		})
	}
}

func TestQuitSafetyTimeout(t *testing.T) {
	cancels := 0
	h := newHarness(t, Options{Cancel: func() { cancels++ }}, round2(t), 100, 30)
	h.keys("ctrl+c", "enter")
	if cancels != 1 || h.quit {
		t.Fatal("enter does not confirm")
	}
	if n := h.fire(func(m tea.Msg) bool { _, ok := m.(quitDeadlineMsg); return ok }); n != 1 || !h.quit {
		t.Fatalf("deadline fired %d, quit %v", n, h.quit)
	}
	for _, s := range h.timers {
		if _, ok := s.msg.(quitDeadlineMsg); ok && s.d != quitGrace {
			t.Fatalf("deadline after %v", s.d)
		}
	}
}

func TestQuitAfterOutcomeDoesNotAsk(t *testing.T) {
	cancels := 0
	h := newHarness(t, Options{Cancel: func() { cancels++ }}, tuitest.Debate(), 100, 30)
	h.keys("q")
	if !h.quit || h.m.confirming || cancels != 0 {
		t.Fatalf("quit %v, confirming %v, cancels %d", h.quit, h.m.confirming, cancels)
	}
}

func TestEngineDoneWithoutOutcome(t *testing.T) {
	h := newHarness(t, Options{Cancel: func() {}}, round2(t), 100, 30)
	h.send(eventsMsg{done: true, err: errors.New("defender failed twice")})
	if !strings.Contains(plain(h.view()), "stopped without an outcome: defender failed twice") {
		t.Fatalf("no end message:\n%s", plain(h.view()))
	}
	h.keys("q")
	if !h.quit || h.m.confirming {
		t.Fatal("quitting a stopped debate asks")
	}
}

func TestOutcomeViewToggles(t *testing.T) {
	h := newHarness(t, Options{}, tuitest.Debate(), 100, 30)
	if !h.m.showOutcome || !strings.Contains(plain(h.view()), "TRADEOFF") {
		t.Fatal("the outcome does not show")
	}
	h.keys("tab")
	if h.m.showOutcome || !strings.Contains(plain(h.view()), "claude") {
		t.Fatal("tab does not go back to the panes")
	}
	h.keys("tab")
	if h.m.showOutcome || h.m.focus != 1 {
		t.Fatal("tab in the panes should move focus")
	}
	h.keys("o")
	if !h.m.showOutcome {
		t.Fatal("o does not show the outcome")
	}
	h.keys("o")
	if h.m.showOutcome {
		t.Fatal("o does not go back to the panes")
	}
}

func TestOutcomeRenderedOncePerWidth(t *testing.T) {
	h := newHarness(t, Options{}, tuitest.Debate(), 100, 30)
	if _, ok := h.m.doc.cache[100]; !ok {
		t.Fatal("no render at width 100")
	}
	h.send(resize(90, 30))
	h.send(resize(100, 30))
	if len(h.m.doc.cache) != 2 {
		t.Fatalf("%d renders cached, want 2", len(h.m.doc.cache))
	}
	if cmd := h.m.renderOutcome(); cmd != nil {
		t.Fatal("a cached width renders again")
	}
}

func TestOutcomeShowsRenderingUntilRendered(t *testing.T) {
	h := newHarness(t, Options{}, round2(t), 100, 30)
	_, cmd := h.m.Update(eventsMsg{events: []engine.Event{{Payload: engine.Outcome{
		Result: "consensus", Stance: engine.StanceAgree, Summary: "agreed", Markdown: "# Consensus\n\nAll agree.",
	}}}})
	if !strings.Contains(plain(h.view()), "rendering…") {
		t.Fatal("no rendering placeholder")
	}
	h.run(cmd)
	v := plain(h.view())
	if strings.Contains(v, "rendering…") || !strings.Contains(v, "All agree.") || !strings.Contains(v, "CONSENSUS") {
		t.Fatalf("rendered outcome:\n%s", v)
	}
}

func TestResizeRelaysPanes(t *testing.T) {
	h := newHarness(t, Options{}, round2(t), 120, 40)
	if len(h.m.layout) != 2 || len(h.m.layout[0].panes) != 2 {
		t.Fatalf("120×40: %+v", h.m.layout)
	}
	h.send(resize(200, 40))
	if len(h.m.layout) != 1 || h.m.panes[0].w != 50 {
		t.Fatalf("200×40: %d rows, pane %d wide", len(h.m.layout), h.m.panes[0].w)
	}
	h.send(resize(60, 20))
	compact := 0
	for _, r := range h.m.layout {
		if r.compact {
			compact++
		}
	}
	if compact != 3 {
		t.Fatalf("60×20: %d compact panes, want 3", compact)
	}
	h.keys("tab")
	if h.m.layout[1].compact || !h.m.layout[0].compact {
		t.Fatal("the compact layout does not follow focus")
	}
}

func TestViewFitsTheTerminal(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 24}, {60, 20}, {40, 12}, {200, 60}, {30, 8}} {
		for _, keys := range [][]string{nil, {"enter"}, {"?"}, {"q"}} {
			for _, ev := range [][]engine.Event{round2(t), tuitest.Debate(), nil} {
				h := newHarness(t, Options{Cancel: func() {}}, ev, size[0], size[1])
				h.keys(keys...)
				lines := strings.Split(h.view(), "\n")
				if size[0] < minWidth {
					continue
				}
				if len(lines) != size[1] {
					t.Fatalf("%v %v: %d lines", size, keys, len(lines))
				}
				for i, l := range lines {
					if w := ansi.StringWidth(l); w != size[0] {
						t.Fatalf("%v %v: line %d is %d wide: %q", size, keys, i, w, plain(l))
					}
				}
			}
		}
	}
}

func TestHelpToggles(t *testing.T) {
	h := newHarness(t, Options{}, round2(t), 120, 40)
	short := h.m.footerHeight()
	h.keys("?")
	if !h.m.help.ShowAll || h.m.footerHeight() <= short {
		t.Fatal("? does not show the full help")
	}
	if !strings.Contains(plain(h.view()), "previous pane") {
		t.Fatal("full help lacks shift+tab")
	}
	h.keys("?")
	if h.m.help.ShowAll {
		t.Fatal("? does not hide the full help")
	}
}

func TestUnknownEventsAreIgnored(t *testing.T) {
	h := newHarness(t, Options{}, round2(t), 100, 30)
	before := h.view()
	h.events(engine.Event{Seq: 9999, Payload: engine.Unknown{Type: "from_the_future"}})
	if h.view() != before {
		t.Fatal("an unknown event changed the screen")
	}
}

func TestNoColorHasNoEscapes(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	for _, ev := range [][]engine.Event{round2(t), tuitest.Debate()} {
		h := newHarness(t, Options{}, ev, 100, 30, keepColors)
		if v := h.view(); strings.Contains(v, "\x1b") {
			t.Fatalf("escape sequences under NO_COLOR:\n%q", v)
		}
	}
	t.Setenv("NO_COLOR", "")
	h := newHarness(t, Options{NoColor: true}, round2(t), 100, 30, keepColors)
	if strings.Contains(h.view(), "\x1b") {
		t.Fatal("escape sequences with Options.NoColor")
	}
}

func TestPanicInViewIsRecovered(t *testing.T) {
	h := newHarness(t, Options{}, round2(t), 100, 30)
	h.m.panes[0].calls = append(h.m.panes[0].calls, nil) // break an invariant
	if v := h.m.View(); !strings.Contains(v, "internal error") {
		t.Fatalf("view after a panic: %q", v)
	}
	if h.m.fatal == nil || !strings.Contains(h.m.fatal.Error(), "goroutine") {
		t.Fatalf("fatal error lacks the stack: %v", h.m.fatal)
	}
	_, cmd := h.m.Update(keyMsg("j"))
	if cmd == nil {
		t.Fatal("no quit after a panic")
	}
}

// A reply reads as prose while it streams, as it will once done: no raw
// JSON in the pane, each field shown as its text arrives.
func TestStreamingReplyReadsAsProse(t *testing.T) {
	h := newHarness(t, Options{}, round2(t), 120, 40)
	v := plain(h.view())
	if strings.Contains(v, `"choice"`) || strings.Contains(v, "```json") {
		t.Fatalf("raw JSON while streaming:\n%s", v)
	}
	if !strings.Contains(v, "MAINTAIN: Under 1% on a normal deploy") {
		t.Fatalf("the streaming rebuttal is not shown as prose:\n%s", v)
	}
	// A reply that turns out to be prose streams as text.
	var prose []engine.Event
	for i := 0; i < 80; i++ {
		prose = append(prose, chunk("codex", fmt.Sprintf("plain words, line %d, no JSON in sight\n", i)))
	}
	h.events(prose...)
	h.keys("tab", "tab")
	if v := plain(h.view()); !strings.Contains(v, "no JSON in sight") {
		t.Fatalf("a prose reply does not stream:\n%s", v)
	}
}

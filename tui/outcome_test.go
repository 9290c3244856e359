package tui

import (
	"strings"
	"testing"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/tui/tuitest"
)

// The outcome's banner says the result once: "Consensus after 1 round"
// was followed by "· 1 round" (the header counts the rounds).
func TestOutcomeBannerSaysTheRoundsOnce(t *testing.T) {
	for _, protocol := range tuitest.Protocols() {
		h := newHarness(t, Options{}, tuitest.Run(protocol), 120, 40)
		banner := strings.Split(plain(h.view()), "\n")[2]
		if n := strings.Count(banner, " round"); n > 1 {
			t.Errorf("%s: the banner %q counts the rounds %d times", protocol, strings.TrimSpace(banner), n)
		}
	}
}

// The outcome view draws the document without its summary: the banner
// above it says it. A log written before documents were data shows its
// Markdown as it is.
func TestOutcomeViewSaysTheSummaryOnce(t *testing.T) {
	for _, protocol := range tuitest.Protocols() {
		var o engine.Outcome
		for _, e := range tuitest.Run(protocol) {
			if p, ok := e.Payload.(engine.Outcome); ok {
				o = p
			}
		}
		if o.Document == nil {
			t.Fatalf("%s: the recording's outcome has no document", protocol)
		}
		md := screenDocument(o)
		if strings.Contains(md, o.Summary) || !strings.Contains(o.Markdown, o.Summary) || !strings.HasPrefix(md, "# ") {
			t.Errorf("%s: the screen's document says the summary %q:\n%s", protocol, o.Summary, md)
		}
	}
	old := engine.Outcome{Summary: "s", Markdown: "# An old outcome\n\n**s.**\n"}
	if screenDocument(old) != old.Markdown {
		t.Error("an old log's document is not shown as it is")
	}
}

// A table drawn under the panes says what was decided in its head; the
// status line does not say it again (issue 40, point 11: "⚖ Verdicts,
// round 1 → Disagreement…" then "⚖ Disagreement…"), unless the head had
// to cut it.
func TestATablesDecisionIsSaidOnce(t *testing.T) {
	squash := func(s string) string {
		var lines []string
		for _, l := range strings.Split(s, "\n") {
			lines = append(lines, strings.TrimSpace(l))
		}
		return strings.Join(strings.Fields(strings.Join(lines, " ")), " ")
	}
	for _, protocol := range tuitest.Protocols() {
		ev := tuitest.Run(protocol)
		for i, e := range ev {
			tb, ok := e.Payload.(engine.Table)
			if !ok || tb.Decision == "" {
				continue
			}
			for _, size := range [][2]int{{80, 24}, {120, 40}} {
				h := newHarness(t, Options{}, ev[:i+1], size[0], size[1])
				view := plain(h.view())
				if n := strings.Count(squash(view), squash(tb.Decision)); n > 1 {
					t.Errorf("%s, table %q at %dx%d: its decision said %d times:\n%s", protocol, tb.Title, size[0], size[1], n, view)
				}
			}
		}
	}
}

// A resumed run on the screen replays its log, with the outcome document
// the earlier run saved, and then saves it again: the footer names it
// once, where it was saved last, in the form the command line gives
// (issue 40, item 12: "outcome document debate-logs/X.md · outcome
// document /…/X.md").
func TestTheFooterNamesASavedFileOnce(t *testing.T) {
	var events []engine.Event
	for _, e := range tuitest.Debate() {
		if _, ok := e.Payload.(engine.Outcome); ok {
			events = append(events, engine.Event{Payload: engine.Saved{What: engine.WhatOutcomeDocument, Path: "debate-logs/x.md"}})
		}
		events = append(events, e)
	}
	events = append(events, engine.Event{Payload: engine.Saved{What: engine.WhatOutcomeDocument, Path: "/home/u/work/debate-logs/x.md"}})
	shown := func(p string) string { return strings.TrimPrefix(p, "/home/u/work/") }
	h := newHarness(t, Options{Paths: shown}, events, 160, 40)
	view := plain(h.view())
	if n := strings.Count(view, "outcome document "); n != 1 || !strings.Contains(view, "outcome document debate-logs/x.md") {
		t.Fatalf("the footer names the outcome document %d times:\n%s", n, view)
	}
}

package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers"
	odoc "github.com/arenadebate/arena/engine/doc"
)

// answering is a RunFunc whose every call succeeds with text.
func answering(text string) RunFunc {
	return func(context.Context, challengers.Request) challengers.Result {
		return challengers.Result{Reason: challengers.ReasonOK, Text: text}
	}
}

// TestARunThatAskedNoModelKeepsNoLog: a run whose preflight aborted
// before any call names no log in its outcome, and the document writer
// saves nothing beside it; a run that asked names its log (issue 32,
// point 2).
func TestARunThatAskedNoModelKeepsNoLog(t *testing.T) {
	dir := t.TempDir()
	for _, ask := range []bool{false, true} {
		bus := NewBus()
		doc := &DocumentWriter{Path: filepath.Join(dir, "run.md"), Bus: bus}
		bus.Subscribe(doc)
		p := funcProtocol(func(ctx context.Context, rt *Runtime) Outcome {
			if ask {
				rt.Ask(ctx, Question{Agent: challengers.Agent{Name: "a"}, Prompt: "x", Parse: func(s string) (Reply, error) { return proseReply(s), nil }})
			}
			return Outcome{Result: OutcomeAborted, Summary: "Aborted: the defender claude is not installed", Markdown: "# Debate: aborted\n"}
		})
		out := Run(context.Background(), p, bus, Options{Run: answering("ok"), LogPath: filepath.Join(dir, "run.jsonl")})
		bus.Close()
		_, err := os.Stat(doc.Path)
		switch {
		case !ask && (out.LogPath != "" || err == nil):
			t.Fatalf("a run that asked no model: log %q, document saved: %v", out.LogPath, err == nil)
		case ask && (out.LogPath == "" || err != nil):
			t.Fatalf("a run that asked a model: log %q, document: %v", out.LogPath, err)
		}
	}
}

// TestAnInterruptedOutcomeSaysHowToCarryOn: the summary (what the screen
// and the printed run end with) and the document both name arena resume
// with the log, quoted for the shell (issue 32, point 3).
func TestAnInterruptedOutcomeSaysHowToCarryOn(t *testing.T) {
	log := "/tmp/my logs/20261121-153000.042-t.jsonl"
	bus := NewBus()
	p := funcProtocol(func(ctx context.Context, rt *Runtime) Outcome {
		rt.Ask(ctx, Question{Agent: challengers.Agent{Name: "a"}, Prompt: "x", Parse: func(s string) (Reply, error) { return proseReply(s), nil }})
		return Outcome{Result: OutcomeInterrupted, Summary: "Interrupted during the challenge", Document: &odoc.Document{Title: "Debate outcome", Result: "interrupted", Facts: []odoc.Fact{{Name: "How far it got", Value: "the challenge"}}}}
	})
	out := Run(context.Background(), p, bus, Options{Run: answering("ok"), LogPath: log})
	bus.Close()
	want := "arena resume '/tmp/my logs/20261121-153000.042-t.jsonl'"
	if !strings.Contains(out.Summary, want) {
		t.Fatalf("summary %q does not say %s", out.Summary, want)
	}
	title, rest, _ := strings.Cut(out.Markdown, "\n")
	if title != "# Debate outcome: interrupted" || !strings.Contains(rest, "> **Interrupted:** Every reply so far is in the log") || !strings.Contains(rest, "`"+want+"`") ||
		strings.Index(rest, "> **Interrupted:**") > strings.Index(rest, "**How far it got:**") {
		t.Fatalf("document:\n%s", out.Markdown)
	}
}

func TestShellWord(t *testing.T) {
	for in, want := range map[string]string{
		"debate-logs/20261121-153000.042-t.jsonl": "debate-logs/20261121-153000.042-t.jsonl",
		"my logs/x.jsonl":                         "'my logs/x.jsonl'",
		"it's":                                    `'it'\''s'`,
		"":                                        "''",
	} {
		if got := ShellWord(in); got != want {
			t.Errorf("ShellWord(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestAResumedRunsDocumentIsTheFinalOne: after a resume the document
// named after the log holds the final outcome, the earlier document (and
// a follow-up appended to it) kept below as history, from the data the
// log holds; no -2.md beside it (issue 32, point 4). A file arena did not
// write there, or changed since, is left alone.
func TestAResumedRunsDocumentIsTheFinalOne(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "run.md")
	earlierDoc := &odoc.Document{Title: "Debate outcome", Result: "interrupted", Summary: "Interrupted during the challenge",
		Facts: []odoc.Fact{{Name: "Topic", Value: "Redis or Postgres?"}}}
	earlierDoc.Add("How far it got", odoc.Block{Code: "# not a heading"})
	earlierMD := odoc.Markdown(*earlierDoc)
	seat := Seat{Name: "claude", Agent: "claude", Role: "defender"}
	followedUp := earlierMD + FollowUpMarkdown(seat, "claude", "and the cache?", Answer{Text: "It depends."})
	earlier := []Event{
		{Seq: 1, Payload: DebateStarted{Protocol: "test", Seats: []Seat{seat}}},
		{Seq: 2, Payload: Outcome{Result: OutcomeInterrupted, Document: earlierDoc, Markdown: earlierMD}},
		{Seq: 3, Payload: Saved{What: WhatOutcomeDocument, Path: doc, SHA256: Hash(earlierMD)}},
		{Seq: 4, Payload: FollowUp{Seat: "claude", Agent: "claude", Question: "and the cache?"}},
		{Seq: 5, Payload: AgentFinished{CallInfo: CallInfo{Seat: "claude", Agent: "claude", Phase: PhaseFollowUp}, Text: "It depends."}},
		{Seq: 6, Payload: Saved{What: WhatFollowUpAppended, Path: doc, SHA256: Hash(followedUp)}},
	}
	save := func(earlier []Event) (string, []Event) {
		bus, got := NewBus(), &collect{}
		w := &DocumentWriter{Path: doc, Bus: bus, Earlier: earlier}
		bus.Subscribe(w)
		bus.Subscribe(got)
		bus.Emit(Outcome{Result: "consensus", Markdown: "# Debate outcome: consensus\n\nDone.\n", LogPath: filepath.Join(dir, "run.jsonl")})
		bus.Close()
		if w.Err != nil {
			t.Fatal(w.Err)
		}
		return DocumentBeside(filepath.Join(dir, "run.jsonl"), got.events), got.events
	}

	os.WriteFile(doc, []byte(followedUp), 0o600)
	path, events := save(earlier)
	b, _ := os.ReadFile(doc)
	got := string(b)
	if s, _ := recordedDocument(events); s.SHA256 != Hash(got) {
		t.Errorf("the log records the hash %s of the document, not that of what was written", s.SHA256)
	}
	if path != doc || !strings.HasPrefix(got, "# Debate outcome: consensus\n\nDone.\n\n## Before the resume\n") ||
		!strings.Contains(got, "\n### Debate outcome: interrupted\n\n**Interrupted during the challenge**\n\n**Topic:** Redis or Postgres?\n") ||
		!strings.Contains(got, "\n#### How far it got\n") || !strings.Contains(got, "\n```\n# not a heading\n```\n") ||
		!strings.Contains(got, "\n#### Follow-up: and the cache?\n\nAsked of claude (defender, claude) after the outcome.\n\nIt depends.\n") {
		t.Fatalf("saved at %s:\n%s", path, got)
	}
	if _, err := os.Stat(filepath.Join(dir, "run-2.md")); err == nil {
		t.Fatal("a -2.md was written beside it")
	}

	// A log written before documents were data: the earlier file's text
	// is kept as it is.
	oldMD := "# Debate outcome: interrupted\n\nHow far it got.\n"
	os.WriteFile(doc, []byte(oldMD), 0o600)
	old := []Event{earlier[0], {Seq: 2, Payload: Outcome{Result: OutcomeInterrupted, Markdown: oldMD}}, {Seq: 3, Payload: Saved{What: WhatOutcomeDocument, Path: doc, SHA256: Hash(oldMD)}}}
	if path, _ = save(old); path != doc {
		t.Fatalf("an old log's document saved at %s", path)
	}
	if b, _ := os.ReadFile(doc); !strings.Contains(string(b), "## Before the resume") || !strings.Contains(string(b), oldMD) {
		t.Fatalf("an old log's earlier document:\n%s", b)
	}

	for i, other := range []string{"my notes\n", followedUp + "a line of mine\n"} {
		os.WriteFile(doc, []byte(other), 0o600)
		path, _ = save(earlier)
		if b, _ := os.ReadFile(doc); string(b) != other || path != filepath.Join(dir, fmt.Sprintf("run-%d.md", i+2)) {
			t.Fatalf("a file arena did not write, or changed since: now %q, the document at %s", b, path)
		}
	}
}

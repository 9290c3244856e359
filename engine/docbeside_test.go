package engine

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers"
)

// savedAs is the Saved event of an outcome document named name holding
// content.
func savedAs(name, content string) Event {
	return Event{Payload: Saved{What: WhatOutcomeDocument, Path: name, SHA256: Hash(content)}}
}

// A log names its outcome document, but chooses no file: the document is
// <log stem>.md beside the log, or the numbered name arena gives in its
// place; any other name a log holds (.bashrc, a path elsewhere) is not
// taken.
func TestDocumentBesideIsNamedAfterTheLog(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "run.jsonl")
	for name, want := range map[string]string{
		"run.md":           "run.md",
		"/far/away/run.md": "run.md",
		"run-2.md":         "run-2.md",
		"logs/run-17.md":   "run-17.md",
		".bashrc":          "run.md",
		"../../.bashrc":    "run.md",
		"run-1.md":         "run.md",
		"run-02.md":        "run.md",
		"run-x.md":         "run.md",
		"run-2.md.bak":     "run.md",
		"run-99999.md":     "run.md",
		"other.md":         "run.md",
	} {
		if got := DocumentBeside(log, []Event{savedAs(name, "")}); got != filepath.Join(dir, want) {
			t.Errorf("a log naming %q: the document is %s, want %s", name, got, want)
		}
	}
	if got := DocumentBeside(log, []Event{{Payload: Outcome{Markdown: "# x"}}}); got != "" {
		t.Errorf("a log that saved no document: %q", got)
	}
}

// A follow-up is appended to the document arena saved for the run only
// while it holds what arena wrote (the hash the log last recorded), and to
// nothing else of its name: a file edited since, another file, a link,
// one the log records no hash of (issue 36, item 1: any file beginning
// with the outcome the log supplied used to do).
func TestAppendToDocumentOnlyToWhatArenaWrote(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "run.md")
	const md = "# Outcome\n"
	events := []Event{{Payload: Outcome{Markdown: "# Outcome\x1b[2J\n"}}, savedAs(doc, md)}
	if err := os.WriteFile(doc, []byte(md), 0o600); err != nil {
		t.Fatal(err)
	}
	sum, err := AppendToDocument(doc, events, "\n## Follow-up\x1b[31m\n")
	if err != nil {
		t.Fatal(err)
	}
	want := md + "\n## Follow-up\n"
	if b, _ := os.ReadFile(doc); string(b) != want || sum != Hash(want) {
		t.Fatalf("%q, hash %s", b, sum)
	}
	// The log's hash is now the old one: the file is not what it records.
	if _, err := AppendToDocument(doc, events, "x"); !errors.Is(err, ErrNotTheDocument) {
		t.Fatalf("appended past the recorded hash: %v", err)
	}
	// With the hash the append recorded, it goes on.
	events = append(events, Event{Payload: Saved{What: WhatFollowUpAppended, Path: doc, SHA256: sum}})
	if _, err := AppendToDocument(doc, events, "\nmore\n"); err != nil {
		t.Fatal(err)
	}

	refused := func(what, path string, events []Event) {
		t.Helper()
		before, _ := os.ReadFile(path)
		if _, err := AppendToDocument(path, events, "x"); err == nil {
			t.Errorf("%s: appended", what)
		}
		if after, _ := os.ReadFile(path); string(after) != string(before) {
			t.Errorf("%s: changed to %q", what, after)
		}
	}
	mine := filepath.Join(dir, "notes.md")
	os.WriteFile(mine, []byte("# Outcome\nmy notes\n"), 0o600)
	refused("a file that begins with the outcome", mine, []Event{{Payload: Outcome{Markdown: md}}, savedAs(mine, md)})
	refused("a file the log records no hash of", mine, []Event{{Payload: Outcome{Markdown: md}}, {Payload: Saved{What: WhatOutcomeDocument, Path: mine}}})
	refused("a file under another name than the log records", mine, []Event{savedAs("run.md", "# Outcome\nmy notes\n")})
	link := filepath.Join(dir, "link.md")
	os.Symlink(mine, link)
	refused("a link", link, []Event{savedAs(link, "# Outcome\nmy notes\n")})
	hard := filepath.Join(dir, "hard.md")
	os.Link(mine, hard)
	refused("a second link", hard, []Event{savedAs(hard, "# Outcome\nmy notes\n")})
	refused("no document saved", mine, []Event{{Payload: Outcome{Markdown: md}}})
}

// A follow-up on a hostile log (its document named .bashrc, its seat's
// name holding a newline and a command) writes only <log stem>.md beside
// the log, a new file, says so, and the name is one line in it.
func TestAFollowUpOnAHostileLogWritesOnlyBesideIt(t *testing.T) {
	dir := t.TempDir()
	bashrc := filepath.Join(dir, ".bashrc")
	os.WriteFile(bashrc, []byte("# .bashrc\n"), 0o600)
	log := filepath.Join(dir, "shared.jsonl")
	raw := []string{
		`{"seq":1,"t":"2026-11-21T15:30:00Z","type":"debate_started","data":{"version":2,"protocol":"adversarial","title":"Debate","topic":"t","seats":[{"name":"claude\n$(touch X)\n","agent":"claude","role":"defender"}],"follow_up_seat":"claude\n$(touch X)\n"}}`,
		`{"seq":2,"t":"2026-11-21T15:30:01Z","type":"outcome","data":{"result":"consensus","summary":"s","markdown":"#"}}`,
		`{"seq":3,"t":"2026-11-21T15:30:01Z","type":"saved","data":{"what":"outcome document","path":".bashrc","sha256":"` + Hash("# .bashrc\n") + `"}}`,
	}
	var events []Event
	for _, line := range raw {
		var e Event
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatal(err)
		}
		events = append(events, e)
	}
	seat, agent, err := FollowUpTo(events[0].Payload.(DebateStarted), "", map[string]challengers.Agent{"claude": {Name: "claude"}})
	if err != nil || seat.Name != "claude $(touch X)" {
		t.Fatalf("the seat %q, %v", seat.Name, err)
	}
	bus, got := NewBus(), &collect{}
	bus.Subscribe(got)
	AnswerFollowUp(context.Background(), bus, Options{Run: answering("It depends.")}, events, seat, agent, "why?", log)
	bus.Close()

	if b, _ := os.ReadFile(bashrc); string(b) != "# .bashrc\n" {
		t.Fatalf(".bashrc was written: %q", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 || entries[1].Name() != "shared.md" {
		t.Fatalf("the directory holds %v", entries)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "shared.md"))
	for _, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, "$(touch X)") && !strings.HasPrefix(line, "Asked of claude $(touch X) (defender, claude)") {
			t.Errorf("the seat's name is not one line in the document:\n%s", b)
		}
	}
	var saved *Saved
	warned := false
	for _, e := range got.events {
		switch p := e.Payload.(type) {
		case Saved:
			saved = &p
		case Note:
			warned = warned || strings.Contains(p.Message, "in a new document beside the log, "+filepath.Join(dir, "shared.md"))
		}
	}
	if saved == nil || saved.Path != filepath.Join(dir, "shared.md") || saved.SHA256 != Hash(string(b)) || !warned {
		t.Fatalf("saved %+v, warned %v", saved, warned)
	}
}

// Every name a decoded event holds is one line; prose keeps its lines.
func TestDecodedNamesAreOneLine(t *testing.T) {
	var e Event
	line := `{"seq":1,"t":"2026-11-21T15:30:00Z","type":"agent_finished","data":{"seat":"a\nb","agent":"c\r\nd","role":"e\u2028f","phase":"g\th","task":"i\u0085j","text":"one\ntwo","display":"three\nfour"}}`
	if err := json.Unmarshal([]byte(line), &e); err != nil {
		t.Fatal(err)
	}
	f := e.Payload.(AgentFinished)
	// U+2028 is shown by the cleaner, which every decoded event goes
	// through first (<U+2028>: one line too, and visible).
	if f.Seat != "a b" || f.Agent != "c d" || f.Role != "e<U+2028>f" || f.Phase != "g h" || f.Task != "ij" || f.Text != "one\ntwo" || f.Display != "three\nfour" {
		t.Fatalf("%+v", f)
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/challengers/fakecli/fakeapi"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
)

const moderatorNote = "assume we have no Postgres DBA"

// slowOpening keeps the defender's opening streaming, held before its
// last piece until the test, having seen the note taken, calls
// s.fakes.Release(noteTaken): the note is given while the run goes on,
// however long a loaded machine takes to type and pass it on.
func slowOpening() *clitest.Script {
	return &clitest.Script{Agents: map[string]clitest.AgentScript{
		"claude": {Steps: map[string][]clitest.Step{"opening": {{Mode: clitest.ModeSlow, DelayMS: 300, Chunks: 10, Hold: noteTaken}}}},
	}}
}

// noteTaken is the hold of slowOpening.
const noteTaken = "note-taken"

// waitForNote waits until the run's log holds the moderator's note.
func waitForNote(t *testing.T, s *sandbox) {
	t.Helper()
	waitForEvents(t, s, "the moderator's note in the log", 1, func(e engine.Event) bool {
		_, ok := e.Payload.(engine.ModeratorNote)
		return ok
	})
}

// checkModerated checks that a note given during the run reached every
// prompt sent after it, and no prompt sent before, and that the outcome
// lists it.
func checkModerated(t *testing.T, s *sandbox, lc runlog.Contents) {
	t.Helper()
	after, seen := 0, false
	for _, e := range lc.Events {
		switch p := e.Payload.(type) {
		case engine.ModeratorNote:
			if p.Text != moderatorNote {
				t.Fatalf("moderator note %q", p.Text)
			}
			seen = true
		case engine.AgentStarted:
			if seen {
				after++
			}
		}
	}
	if !seen || after == 0 {
		t.Fatalf("note in the log: %v; calls after it: %d", seen, after)
	}
	carried := 0
	for _, c := range s.fakes.Calls() {
		if c.Kind == fakeapi.KindVersion {
			continue
		}
		if strings.Contains(c.Prompt, "MODERATOR NOTES (from the person running arena, not a model") && strings.Contains(c.Prompt, "- "+moderatorNote) {
			carried++
		}
	}
	if carried != after {
		t.Fatalf("%d prompts carry the note; %d calls were made after it", carried, after)
	}
	o := outcomeOf(t, lc)
	if !strings.Contains(o.Markdown, "## The moderator's notes") || !strings.Contains(o.Markdown, moderatorNote) {
		t.Fatalf("the outcome does not list the note:\n%s", o.Markdown)
	}
	doc, err := os.ReadFile(filepath.Join(s.dir, latestDocument(lc)))
	if err != nil || !strings.Contains(string(doc), moderatorNote) {
		t.Fatalf("the saved outcome document does not list the note (%v)", err)
	}
}

func latestDocument(lc runlog.Contents) string {
	var path string
	for _, e := range lc.Events {
		if s, ok := e.Payload.(engine.Saved); ok && s.What == engine.WhatOutcomeDocument {
			path = s.Path // the latest
		}
	}
	return path
}

func TestModerateHeadless(t *testing.T) {
	for _, kind := range []string{"fifo", "file"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			s := newSandbox(t)
			s.fakes.SetScript(slowOpening())
			path := filepath.Join(s.dir, "notes")
			if kind == "fifo" {
				if err := syscall.Mkfifo(path, 0o600); err != nil {
					t.Fatal(err)
				}
			} else if err := os.WriteFile(path, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			cmd, out := s.start("--no-tui", "--moderate", "notes", "should we move sessions to Postgres?")
			waitForCall(t, s, "claude", "opening")
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			// Half a line, then the rest: a note is taken when its line ends.
			f.WriteString("assume we have ")
			f.WriteString("no Postgres DBA\n")
			f.Close()
			waitForNote(t, s)
			s.fakes.Release(noteTaken)
			if code := exitCodeOf(cmd.Wait()); code != exitConsensus {
				t.Fatalf("exit %d\n%s", code, out)
			}
			if !strings.Contains(out.String(), "✎ moderator: "+moderatorNote) {
				t.Fatalf("the printer does not show the note:\n%s", out)
			}
			checkModerated(t, s, s.onlyLog())
		})
	}
	t.Run("missing file", func(t *testing.T) {
		s := newSandbox(t)
		r := s.run("--no-tui", "--moderate", "nowhere", "a topic")
		if r.code != exitUsage || !strings.Contains(r.stderr, "--moderate") || !strings.Contains(r.stderr, "nowhere") {
			t.Fatalf("exit %d\n%s", r.code, r.stderr)
		}
	})
}

func TestModerateOnTheLiveScreenInTmux(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	s.fakes.SetScript(slowOpening())
	ts := s.startTmux(120, 40, nil, "should we move sessions to Postgres?")
	ts.waitText("m moderate", 30*time.Second)
	waitForCall(t, s, "claude", "opening")
	ts.keys("m")
	ts.waitText("note to every seat:", 10*time.Second)
	ts.keys(moderatorNote)
	ts.waitText(moderatorNote+"▏", 10*time.Second)
	ts.keys("Enter")
	screen := ts.waitText("✎ moderator: "+moderatorNote, 20*time.Second)
	if strings.Count(screen, "✎ moderator:") < 2 { // in the panes, not only the status line
		t.Fatalf("the note is not shown in the panes:\n%s", screen)
	}
	s.fakes.Release(noteTaken)
	ts.waitText("Debate outcome: consensus", 60*time.Second)
	ts.keys("q")
	if code := ts.exitCode(10 * time.Second); code != "0" {
		t.Fatalf("exit %s\n%s", code, ts.scrollback())
	}
	checkModerated(t, s, s.onlyLog())
}

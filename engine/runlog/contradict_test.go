package runlog

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/engine"
)

// logOf writes events as a log's lines, numbered in order.
func logOf(t *testing.T, ps ...engine.Payload) []byte {
	t.Helper()
	var b bytes.Buffer
	t0 := time.Date(2026, 11, 21, 15, 30, 0, 0, time.UTC)
	for i, p := range ps {
		line, err := json.Marshal(engine.Event{Seq: int64(i + 1), Time: t0.Add(time.Duration(i) * time.Second), Payload: p})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(line, '\n'))
	}
	return b.Bytes()
}

func start(protocol string) engine.DebateStarted {
	return engine.DebateStarted{Version: engine.LogVersion, Protocol: protocol, Topic: "a " + protocol + " topic",
		Seats: []engine.Seat{{Name: "claude", Agent: "claude", Role: "defender"}}}
}

// TestReadNamesWhatContradictsTheRun (issue 29 item 8): a second start,
// a second outcome, and events after the outcome that arena does not add
// to a finished run are left out and named; the run is the first start's.
func TestReadNamesWhatContradictsTheRun(t *testing.T) {
	followUp := engine.CallInfo{Seat: "claude", Agent: "claude", Phase: engine.PhaseFollowUp, Task: "follow-up", Attempt: 1}
	b := logOf(t,
		start("adversarial"),
		engine.PhaseStarted{Phase: "opening", Round: 1, Title: "Opening"},
		engine.DebateStarted{Version: engine.LogVersion, Protocol: "compare", Topic: "another", Seats: []engine.Seat{{Name: "x", Agent: "x"}}}, // line 3
		engine.Outcome{Result: "consensus", Rounds: 1, Summary: "first"},
		engine.Saved{What: engine.WhatOutcomeDocument, Path: "x.md"},
		engine.Label{Winner: "x", By: "person"},
		engine.Note{Level: engine.NoteInfo, Message: "the person's own verdict"},
		engine.FollowUp{Seat: "claude", Agent: "claude", Question: "why?"},
		engine.AgentStarted{CallInfo: followUp},
		engine.Chunk{Seat: "claude", Text: "because"},
		engine.AgentFinished{CallInfo: followUp, Text: "because"},
		engine.Outcome{Result: "aborted", Summary: "second"},                     // line 12
		engine.PhaseStarted{Phase: "confront", Round: 2, Title: "Confrontation"}, // line 13
		engine.Chunk{Seat: "claude", Text: "stray"},                              // line 14
	)
	lc, err := Read(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`line 3 starts another run (a compare run, "another") after the one started on line 1`,
		"line 12 is a second outcome (aborted) after the run's outcome on line 4",
		"line 13 (a phase_started event) comes after the run's outcome on line 4",
		"line 14 (a chunk event) comes after the run's outcome on line 4",
	}
	if strings.Join(lc.Contradictions, "\n") != strings.Join(want, "\n") {
		t.Errorf("contradictions:\n%s\nwant:\n%s", strings.Join(lc.Contradictions, "\n"), strings.Join(want, "\n"))
	}
	if lc.Count != 10 || len(lc.Events) != 10 || lc.Start.Payload.(engine.DebateStarted).Protocol != "adversarial" {
		t.Errorf("%d events, start %v", len(lc.Events), lc.Start.Payload)
	}
	if o, ok := engine.LastOutcome(lc.Events); !ok || o.Summary != "first" {
		t.Errorf("the outcome that counts: %+v", o)
	}
	if c := lc.Contradiction(); !strings.HasPrefix(c, "the log contradicts itself: line 3 starts another run") || !strings.Contains(c, "and 3 more events") {
		t.Errorf("Contradiction() = %q", c)
	}
}

// TestReadTakesAResumedRunAsOneRun: an interrupted outcome, then a
// resumed run to an outcome of its own, is one run, not a contradiction.
func TestReadTakesAResumedRunAsOneRun(t *testing.T) {
	b := logOf(t,
		start("adversarial"),
		engine.PhaseStarted{Phase: "opening", Round: 1, Title: "Opening"},
		engine.Outcome{Result: engine.OutcomeInterrupted, Summary: "cut"},
		engine.Saved{What: engine.WhatOutcomeDocument, Path: "x.md"},
		engine.Resumed{After: 4, From: "Opening"},
		engine.PhaseStarted{Phase: "challenge", Round: 1, Title: "Challenge"},
		engine.Outcome{Result: "consensus", Summary: "done"},
		engine.Saved{What: engine.WhatOutcomeDocument, Path: "x.md"},
	)
	lc, err := Read(bytes.NewReader(b))
	if err != nil || len(lc.Contradictions) != 0 || len(lc.Events) != 8 {
		t.Fatalf("%v %q %d", err, lc.Contradictions, len(lc.Events))
	}
	if o, _ := engine.LastOutcome(lc.Events); o.Summary != "done" {
		t.Errorf("outcome %+v", o)
	}
}

// TestScanKeepsNothing: Scan hands every event over, in order, and
// returns what Read does but the events.
func TestScanKeepsNothing(t *testing.T) {
	b := logOf(t, start("adversarial"), engine.Note{Message: "n"}, engine.Outcome{Result: "consensus"})
	var kinds []engine.Kind
	lc, err := Scan(bytes.NewReader(b), func(e engine.Event) { kinds = append(kinds, e.Kind()) })
	if err != nil || lc.Events != nil || lc.Count != 3 || !lc.Complete || lc.LastSeq != 3 {
		t.Fatalf("%v %+v", err, lc)
	}
	if len(kinds) != 3 || kinds[2] != engine.KindOutcome {
		t.Errorf("handed over %v", kinds)
	}
}

package engine

import (
	"errors"
	"testing"

	"github.com/arenadebate/arena/challengers"
)

func TestFollowUpSeatIsTheOneTheProtocolMarked(t *testing.T) {
	seats := []Seat{{Name: "for Kafka", Role: "advocate for Kafka"}, {Name: "judge", Role: "judge"}, {Name: "judge, reversed", Role: "judge, options reversed"}}
	if s, ok := FollowUpSeat(DebateStarted{Seats: seats, FollowUpSeat: "judge, reversed"}); !ok || s.Name != "judge, reversed" {
		t.Errorf("marked seat: %+v %v", s, ok)
	}
	// A log written before protocols marked the seat: the first one.
	if s, ok := FollowUpSeat(DebateStarted{Seats: seats}); !ok || s.Name != "for Kafka" {
		t.Errorf("unmarked: %+v %v", s, ok)
	}
	if _, ok := FollowUpSeat(DebateStarted{}); ok {
		t.Error("a run without seats has a follow-up seat")
	}
}

func TestRunNoun(t *testing.T) {
	if n := (DebateStarted{Noun: "ranking"}).RunNoun(); n != "ranking" {
		t.Errorf("%q", n)
	}
	if n := (DebateStarted{}).RunNoun(); n != "run" {
		t.Errorf("an older log: %q", n)
	}
}

func TestFollowUpToNamedSeat(t *testing.T) {
	start := DebateStarted{FollowUpSeat: "judge", Seats: []Seat{{Name: "advocate", Agent: "gemini"}, {Name: "judge", Agent: "claude"}}}
	agents := map[string]challengers.Agent{"claude": {Name: "claude"}, "gemini": {Name: "gemini"}}
	for name, want := range map[string]string{"": "judge", "advocate": "advocate", "gemini": "advocate"} {
		if s, a, err := FollowUpTo(start, name, agents); err != nil || s.Name != want || a.Name != s.Agent {
			t.Errorf("%q: %+v %+v %v", name, s, a, err)
		}
	}
	_, _, err := FollowUpTo(start, "nobody", agents)
	if !errors.Is(err, ErrFollowUpSeat) || err.Error() != `--seat "nobody": the run has no such seat (its seats: advocate, judge)` {
		t.Errorf("no such seat: %v", err)
	}
	_, _, err = FollowUpTo(start, "", map[string]challengers.Agent{"gemini": {Name: "gemini"}})
	if !errors.Is(err, ErrFollowUpSeat) || err.Error() != `the agent of the judge seat, "claude", is not defined in the settings now` {
		t.Errorf("an agent gone from the settings: %v", err)
	}
}

func TestLastOutcomeIsTheLatestRuns(t *testing.T) {
	ev := func(p Payload) Event { return Event{Payload: p} }
	events := []Event{ev(DebateStarted{}), ev(Outcome{Result: OutcomeInterrupted})}
	if o, ok := LastOutcome(events); !ok || o.Result != OutcomeInterrupted {
		t.Errorf("%+v %v", o, ok)
	}
	// Resumed, and not finished yet: no outcome.
	if _, ok := LastOutcome(append(events, ev(Resumed{}), ev(Note{}))); ok {
		t.Error("a resumed run without its outcome has one")
	}
	if o, ok := LastOutcome(append(events, ev(Resumed{}), ev(Outcome{Result: "done"}), ev(FollowUp{}))); !ok || o.Result != "done" {
		t.Errorf("after a follow-up: %+v %v", o, ok)
	}
}

// A seat's name reads as words in a sentence, whatever its shape (issue
// 40, item 14): every protocol's seats, as their recorded demos name them.
func TestTheSeat(t *testing.T) {
	for name, want := range map[string]string{
		"for Postgres LISTEN/NOTIFY":    "the seat for Postgres LISTEN/NOTIFY",
		"for Kafka, with Zookeeper":     "the seat for Kafka, with Zookeeper",
		"judge":                         "the judge seat",
		"judge, reversed":               "the judge seat (reversed)",
		"judge, order 3":                "the judge seat (order 3)",
		"functionality judge, reversed": "the functionality judge seat (reversed)",
		"facts: Claude":                 "the facts seat (Claude)",
		"Judge 1":                       "the Judge 1 seat",
		"quick":                         "the quick seat",
		"verdict writer":                "the verdict writer seat",
		"qwen":                          "the qwen seat",
		"":                              "a seat",
	} {
		if got := TheSeat(name); got != want {
			t.Errorf("TheSeat(%q) = %q, want %q", name, got, want)
		}
	}
}

package engine

import "testing"

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

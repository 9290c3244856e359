package rank

import (
	"testing"

	"github.com/arenadebate/arena/engine"
)

// A ranking resumed from its log keeps the seed of its judges' orders,
// which the run drew at random when none was given: the judges' prompts
// are then the same, and their replies can be reused.
func TestStartAgainKeepsTheSeed(t *testing.T) {
	t.Parallel()
	st := engine.DebateStarted{Settings: []engine.Setting{{Name: "judge order seed", Value: "12345"}}}
	r := &Request{Spec: "spec.md", Repos: []string{"a", "b"}}
	Spec.Resume.Again(st, r)
	if r.Seed != 12345 {
		t.Fatalf("seed %d", r.Seed)
	}
	r.Seed = 9
	if Spec.Resume.Again(st, r); r.Seed != 9 {
		t.Fatalf("a seed the user gave is replaced: %d", r.Seed)
	}
}

func TestFirstAloneWantsNoTie(t *testing.T) {
	t.Parallel()
	rep := &Report{Places: []Place{{Label: "a", Place: 1}, {Label: "b", Place: 2}}}
	if !rep.FirstAlone("a") || rep.FirstAlone("b") {
		t.Fatal("a ranks first alone")
	}
	rep.Places[1].Place = 1
	if rep.FirstAlone("a") {
		t.Fatal("a shares first place")
	}
}

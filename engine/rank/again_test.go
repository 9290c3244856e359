package rank

import (
	"slices"
	"testing"

	"github.com/arenadebate/arena/engine"
)

// A ranking resumed from its log keeps the seed of its judges' orders,
// which the run drew at random when none was given: the judges' prompts
// are then the same, and their replies can be reused.
func TestStartAgainKeepsTheSeed(t *testing.T) {
	t.Parallel()
	st := engine.DebateStarted{
		Invocation: &engine.Invocation{Args: []string{"rank", "spec.md", "a", "b"}},
		Settings:   []engine.Setting{{Name: "judge order seed", Value: "12345"}},
	}
	args, err := StartAgain(st)
	if err != nil || !slices.Equal(args, []string{"rank", "spec.md", "a", "b", "--seed", "12345"}) {
		t.Fatalf("%q %v", args, err)
	}
	st.Invocation.Args = []string{"rank", "--seed", "9", "spec.md", "a", "b"}
	if args, _ := StartAgain(st); slices.Contains(args, "12345") {
		t.Fatalf("a seed the user gave is replaced: %q", args)
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

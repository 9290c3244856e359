package rank

import (
	"slices"
	"strings"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/resume"
)

// StartAgain starts a ranking again as it was started, with the seed of
// its judges' orders: a random seed drawn again would shuffle the judges'
// prompts differently, and none of their replies could be reused.
func StartAgain(st engine.DebateStarted) ([]string, error) {
	args, err := resume.ByInvocation(st)
	if err != nil {
		return nil, err
	}
	for _, set := range st.Settings {
		if set.Name == "judge order seed" && !slices.Contains(args, "--seed") && !slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "--seed=") }) {
			args = resume.WithFlags(args, "--seed", set.Value)
		}
	}
	return args, nil
}

// FirstAlone says whether the repository labelled label ranks first, and
// no other with it.
func (r *Report) FirstAlone(label string) bool {
	var first []string
	for _, pl := range r.Places {
		if pl.Place == 1 {
			first = append(first, pl.Label)
		}
	}
	return len(first) == 1 && first[0] == label
}

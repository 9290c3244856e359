package rank

import (
	"strconv"

	"github.com/arenadebate/arena/engine"
)

// startAgain starts a ranking again as it was started, with the seed of
// its judges' orders: a random seed drawn again would shuffle the judges'
// prompts differently, and none of their replies could be reused.
func startAgain(st engine.DebateStarted, req engine.Request) {
	r, ok := req.(*Request)
	if !ok || r.Seed != 0 {
		return
	}
	for _, set := range st.Settings {
		if set.Name == "judge order seed" {
			if seed, err := strconv.ParseUint(set.Value, 10, 64); err == nil {
				r.Seed = seed
			}
		}
	}
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

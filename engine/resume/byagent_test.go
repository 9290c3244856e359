package resume

import (
	"maps"
	"slices"
	"testing"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine"
)

// The quorum counts a seat given by its name in its agent's place when
// that agent holds no other seat, and beside it when it does.
func TestByAgentCountsAGivenSeatInItsAgentsPlace(t *testing.T) {
	t.Parallel()
	start := engine.DebateStarted{Seats: []engine.Seat{
		{Name: "judge", Agent: "claude"}, {Name: "judge, reversed", Agent: "claude"},
		{Name: "analyst", Agent: "codex"}, {Name: "critic", Agent: "gemini"},
	}}
	sonnet, qwen := challengers.Agent{Name: "sonnet"}, challengers.Agent{Name: "qwen"}
	for _, c := range []struct {
		name string
		swap map[string]challengers.Agent
		want []string // the keys, sorted
	}{
		{"its only seat", map[string]challengers.Agent{"analyst": sonnet}, []string{"codex"}},
		{"one of two seats", map[string]challengers.Agent{"judge": sonnet}, []string{"judge"}},
		{"both seats", map[string]challengers.Agent{"judge": sonnet, "judge, reversed": qwen}, []string{"claude", "judge, reversed"}},
		{"by agent", map[string]challengers.Agent{"codex": sonnet}, []string{"codex"}},
	} {
		got := ByAgent(start, c.swap)
		if keys := slices.Sorted(maps.Keys(got)); !slices.Equal(keys, c.want) {
			t.Errorf("%s: keyed %v, want %v", c.name, keys, c.want)
		}
	}
}

package verdict

import (
	"errors"
	"slices"
	"testing"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/seating"
)

func roster(config map[string][]string) seating.Roster {
	agents := map[string]challengers.Agent{}
	for _, n := range []string{"claude", "gemini", "codex", "qwen"} {
		agents[n] = challengers.Agent{Name: n}
	}
	return seating.Roster{Pool: []string{"claude", "gemini", "codex", "qwen"}, Agents: agents,
		Config: func(_, key string) ([]string, string) { return config[key], "config.yaml:2" }}
}

func names(agents []challengers.Agent) []string {
	var out []string
	for _, a := range agents {
		out = append(out, a.Name)
	}
	return out
}

func TestSeatKeepsTheAuthorOutUnlessNamed(t *testing.T) {
	t.Parallel()
	modes := []Mode{Quick, Deep}
	judges, notes, err := Seat(roster(nil), Seats{Modes: modes, Author: "claude"})
	if err != nil || !slices.Equal(names(judges), []string{"gemini", "codex"}) || len(notes) != 0 {
		t.Fatalf("judges %q, notes %q, err %v", names(judges), notes, err)
	}
	// The config names the author for the quick seat: another takes it.
	judges, notes, err = Seat(roster(map[string][]string{"quick": {"claude"}, "deep": {"gemini"}}), Seats{Modes: modes, Author: "claude"})
	if err != nil || !slices.Equal(names(judges), []string{"codex", "gemini"}) || !slices.Equal(notes, []string{"claude wrote the work, so codex takes its seat as the quick judge"}) {
		t.Fatalf("judges %q, notes %q, err %v", names(judges), notes, err)
	}
	// A flag insists, even on the author.
	judges, notes, err = Seat(roster(nil), Seats{Modes: modes, Author: "claude", Named: map[Mode]string{Deep: "claude"}})
	if err != nil || names(judges)[1] != "claude" || len(notes) != 1 || notes[0] != "claude wrote the work and judges it as the deep judge, because --deep-judge names it" {
		t.Fatalf("judges %q, notes %q, err %v", names(judges), notes, err)
	}
}

func TestSeatRefusesWhatCannotBeSeated(t *testing.T) {
	t.Parallel()
	_, _, err := Seat(roster(nil), Seats{Modes: []Mode{Quick}, Named: map[Mode]string{Quick: "grok"}})
	if !errors.Is(err, seating.ErrSeat) || err.Error() != `--quick-judge: unknown agent "grok" (known: claude, codex, gemini, qwen)` {
		t.Fatalf("an unknown agent: %v", err)
	}
	alone := roster(map[string][]string{"quick": {"claude"}})
	alone.Pool = []string{"claude"}
	_, _, err = Seat(alone, Seats{Modes: []Mode{Quick}, Author: "claude"})
	if !errors.Is(err, seating.ErrSeat) || err.Error() != "claude wrote the work and no other agent can take its seat as the quick judge (config.yaml:2): configure another agent, or name it with --quick-judge" {
		t.Fatalf("nobody but the author: %v", err)
	}
}

// Issue 31: the author's family is kept out too: the config's deep judge,
// Claude through OpenRouter, gives its seat to an agent of another family
// when claude wrote the work, and the pool gives it none.
func TestSeatKeepsTheAuthorsFamilyOut(t *testing.T) {
	t.Parallel()
	r := roster(map[string][]string{"deep": {"sonnet"}})
	for n, a := range r.Agents {
		a.Command = []string{n}
		r.Agents[n] = a
	}
	r.Agents["sonnet"] = challengers.Agent{Name: "sonnet", API: challengers.APIOpenAI, BaseURL: "https://openrouter.ai/api/v1", Model: "anthropic/claude-sonnet-4.5"}
	r.Pool = []string{"claude", "sonnet", "gemini", "codex"}
	judges, notes, err := Seat(r, Seats{Modes: []Mode{Quick, Deep}, Author: "claude"})
	if err != nil || !slices.Equal(names(judges), []string{"gemini", "codex"}) {
		t.Fatalf("judges %q, notes %q, err %v", names(judges), notes, err)
	}
	want := "sonnet is of the family of claude (anthropic), which wrote the work, so codex takes its seat as the deep judge"
	if !slices.Contains(notes, want) {
		t.Fatalf("notes %q, want %q", notes, want)
	}
	// No other family left: the config's seat stands, and the notes say
	// it judges its own family's work.
	r.Pool = []string{"claude", "sonnet"}
	judges, notes, err = Seat(r, Seats{Modes: []Mode{Deep}, Author: "claude"})
	if err != nil || !slices.Equal(names(judges), []string{"sonnet"}) ||
		!slices.Contains(notes, "sonnet judges work of its own family (anthropic, like claude, which wrote it) as the deep judge") {
		t.Fatalf("judges %q, notes %q, err %v", names(judges), notes, err)
	}
}

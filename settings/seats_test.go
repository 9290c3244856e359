package settings

import (
	"slices"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers/seating"
)

// testPlans are seating plans shaped like the protocols' (settings knows
// none of them; cmd/arena hands it theirs).
var testPlans = []seating.Plan{
	{Protocol: "compare", Seats: []seating.Seat{{Key: "advocates", Label: "advocate", Many: true}, {Key: "judge", Label: "judge"}}},
	{Protocol: "judge", Seats: []seating.Seat{{Key: "judges", Label: "judge", Many: true, Default: 3}}},
	{Protocol: "verdict", Seats: []seating.Seat{{Key: "quick", Label: "quick judge"}, {Key: "deep", Label: "deep judge"}, {Key: "tiebreaker", Label: "tiebreaker judge"}}},
	{Protocol: "rank", Values: []string{"test_command"}, Seats: []seating.Seat{
		{Key: "facts", Label: "fact gatherer", Many: true}, {Key: "judges.functionality", Label: "functionality judge"},
		{Key: "judges.security", Label: "security judge"}, {Key: "judges.dead_code", Label: "dead code judge"}, {Key: "verdict", Label: "verdict writer"},
	}},
}

func TestProtocolSeats(t *testing.T) {
	e := newTestEnv(t, "gemini", "codex")
	cfg := e.write(e.configPath(), `compare:
  advocates: [gemini, codex]
  judge: claude
verdict:
  quick: gemini
  deep: claude
  tiebreker: codex
rank:
  facts: claude, gemini
  judges:
    security: codex
    dead_code: qwen
  verdict: gemini
  test_command: make test
`)
	s, err := Load(Flags{}, e.Env, testPlans...)
	if err != nil {
		t.Fatal(err)
	}
	if got, src := s.Seats("compare", "advocates"); !slices.Equal(got, []string{"gemini", "codex"}) || src != cfg+":2" {
		t.Errorf("compare.advocates = %q from %q", got, src)
	}
	if got, _ := s.Seats("compare", "judge"); !slices.Equal(got, []string{"claude"}) {
		t.Errorf("compare.judge = %q", got)
	}
	if got, _ := s.Seats("rank", "facts"); !slices.Equal(got, []string{"claude", "gemini"}) {
		t.Errorf("rank.facts = %q", got)
	}
	if got, src := s.Seats("rank", "judges.security"); !slices.Equal(got, []string{"codex"}) || src != cfg+":11" {
		t.Errorf("rank.judges.security = %q from %q", got, src)
	}
	if got, _ := s.Seats("judge", "judges"); got != nil {
		t.Errorf("judge.judges = %q, want none", got)
	}
	if got, _ := s.Seats("rank", "verdict"); !slices.Equal(got, []string{"gemini"}) {
		t.Errorf("rank.verdict = %q", got)
	}
	if v, _ := s.ProtocolValue("rank", "test_command"); v != "make test" {
		t.Errorf("rank.test_command = %q", v)
	}
	if !slices.ContainsFunc(s.Warnings, func(w string) bool {
		return strings.Contains(w, "verdict.tiebreker") && strings.Contains(w, "did you mean tiebreaker")
	}) {
		t.Errorf("no warning for the misspelt seat: %q", s.Warnings)
	}
	if got := s.Pool(); !slices.Equal(got, []string{"claude", "gemini", "codex"}) {
		t.Errorf("pool = %q", got)
	}
}

func TestProtocolSeatErrors(t *testing.T) {
	for name, tc := range map[string]struct{ config, want string }{
		"unknown agent":        {"judge:\n  judges: [gemini, nobody]\n", `:2: judge.judges: unknown agent "nobody"`},
		"not a mapping":        {"compare: gemini\n", ":1: compare: must be a mapping of seats to agents"},
		"bad entry":            {"verdict:\n  quick: [[gemini]]\n", ":2: verdict.quick: each entry must be an agent name"},
		"empty list":           {"verdict:\n  quick: []\n", ":2: verdict.quick: names no agent"},
		"one seat, two agents": {"compare:\n  judge: claude, gemini\n", ":2: compare.judge: the judge seat takes one agent, got 2 (claude, gemini)"},
		"nested one seat":      {"rank:\n  judges:\n    security: [claude, gemini]\n", ":3: rank.judges.security: the security judge seat takes one agent, got 2"},
	} {
		t.Run(name, func(t *testing.T) {
			e := newTestEnv(t)
			e.write(e.configPath(), tc.config)
			_, err := Load(Flags{}, e.Env, testPlans...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// Settings knows only the sections of the plans it is given: another
// protocol's section is an unknown key, warned about and ignored, and a
// plan given adds its section without any change to settings.
func TestSectionsComeFromThePlans(t *testing.T) {
	e := newTestEnv(t)
	cfg := e.write(e.configPath(), "compare:\n  judge: claude\nduel:\n  second: gemini\n")
	s, err := Load(Flags{}, e.Env, testPlans...)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(s.Warnings, func(w string) bool { return strings.Contains(w, cfg+":3: duel: unknown key") }) {
		t.Errorf("warnings %q", s.Warnings)
	}
	duel := seating.Plan{Protocol: "duel", Seats: []seating.Seat{{Key: "second", Label: "second"}}}
	s, err = Load(Flags{}, e.Env, append(slices.Clone(testPlans), duel)...)
	if err != nil {
		t.Fatal(err)
	}
	if got, src := s.Seats("duel", "second"); !slices.Equal(got, []string{"gemini"}) || src != cfg+":4" {
		t.Errorf("duel.second = %q from %q; warnings %q", got, src, s.Warnings)
	}
}

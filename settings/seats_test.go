package settings

import (
	"slices"
	"strings"
	"testing"
)

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
  test_command: make test
`)
	s := e.load(Flags{})
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
		"unknown agent": {"judge:\n  judges: [gemini, nobody]\n", `:2: judge.judges: unknown agent "nobody"`},
		"not a mapping": {"compare: gemini\n", ":1: compare: must be a mapping of seats to agents"},
		"bad entry":     {"verdict:\n  quick: [[gemini]]\n", ":2: verdict.quick: each entry must be an agent name"},
		"empty list":    {"verdict:\n  quick: []\n", ":2: verdict.quick: names no agent"},
	} {
		t.Run(name, func(t *testing.T) {
			e := newTestEnv(t)
			e.write(e.configPath(), tc.config)
			_, err := Load(Flags{}, e.Env)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

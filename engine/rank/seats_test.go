package rank

import (
	"slices"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine/enginetest"
)

// seats are who holds the fact seats, each dimension's judge, then the
// verdict.
func seats(cfg Config) []string {
	var out []string
	for _, r := range cfg.Repos {
		out = append(out, r.Agent.Name)
	}
	for _, d := range cfg.Weights.Active() {
		out = append(out, cfg.Judges[d].Name)
	}
	return append(out, cfg.Verdict.Name)
}

func TestUnsafeFlag(t *testing.T) {
	for _, tc := range []struct {
		ag   challengers.Agent
		want string
	}{
		{challengers.Agent{Command: []string{"claude", "-p"}}, ""},
		{challengers.Agent{Command: []string{"claude", "--dangerously-skip-permissions"}}, "--dangerously-skip-permissions"},
		{challengers.Agent{StdinCommand: []string{"codex", "exec", "--sandbox", "danger-full-access"}}, "danger-full-access"},
		{challengers.Agent{Args: []string{"--permission-mode=bypassPermissions"}}, "bypassPermissions"},
	} {
		if got := UnsafeFlag(tc.ag); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.ag, got, tc.want)
		}
	}
}

func TestAvoidAuthorsMovesTheAuthorsJudgesToOthers(t *testing.T) {
	cfg := config("a", "b") // judges codex, gemini, qwen, claude, codex; verdict claude
	agents := map[string]challengers.Agent{}
	for _, n := range []string{"claude", "gemini", "codex", "qwen"} {
		agents[n] = enginetest.Agent(n)
	}
	notes := AvoidAuthors(&cfg, []string{"claude", "gemini", "codex", "qwen"}, agents, []string{"codex", "claude"})
	want := []string{
		"the functionality judge went to gemini instead of codex, which wrote one of the repositories",
		"the overengineering judge went to qwen instead of claude, which wrote one of the repositories",
		"the dead code judge went to gemini instead of codex, which wrote one of the repositories",
		"the verdict writer went to qwen instead of claude, which wrote one of the repositories",
	}
	if !slices.Equal(notes, want) {
		t.Fatalf("notes %q\nwant  %q", notes, want)
	}
	if got := strings.Join(seats(cfg)[2:], " "); got != "gemini gemini qwen qwen gemini qwen" {
		t.Fatalf("judges and verdict %s", got)
	}
	cfg = config("a", "b")
	notes = AvoidAuthors(&cfg, []string{"claude"}, agents, []string{"claude"})
	if len(notes) != 2 || notes[1] != "the verdict writer is held by claude, which wrote one of the repositories: no other usable agent to take it" {
		t.Fatalf("notes %q", notes)
	}
	if AvoidAuthors(&cfg, []string{"claude"}, agents, nil) != nil {
		t.Fatal("notes without authors")
	}
}

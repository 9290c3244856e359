package rank

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/seating"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/enginetest"
)

// picker seats from claude, gemini, codex and qwen, the config naming
// the seats of config.
func picker(config map[string][]string, agents ...challengers.Agent) *seating.Picker {
	r := seating.Roster{Pool: []string{"claude", "gemini", "codex", "qwen"}, Agents: map[string]challengers.Agent{}}
	for _, n := range r.Pool {
		r.Agents[n] = enginetest.Agent(n)
	}
	for _, a := range agents {
		r.Agents[a.Name] = a
	}
	r.Config = func(protocol, key string) ([]string, string) {
		if protocol != Name || config[key] == nil {
			return nil, ""
		}
		return config[key], "arena.yaml:2"
	}
	return seating.New(Seating, r)
}

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

func TestSeatGivesEveryAgentASeatBeforeAnyHoldsTwo(t *testing.T) {
	for name, tc := range map[string]struct {
		config map[string][]string
		want   string
	}{
		// A fact seat per repository, five judges, the verdict.
		"the pool in turn": {nil, "claude gemini codex qwen claude gemini codex qwen"},
		// codex gathers both repositories' facts: the judges go to the
		// others first.
		"the config's fact agent": {map[string][]string{"facts": {"codex"}}, "codex codex claude gemini qwen claude gemini codex"},
		"a named judge":           {map[string][]string{"judges.tests": {"claude"}}, "gemini codex qwen claude claude gemini codex qwen"},
	} {
		t.Run(name, func(t *testing.T) {
			cfg := config("a", "b")
			if err := Seat(&cfg, picker(tc.config)); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(seats(cfg), " "); got != tc.want {
				t.Fatalf("seats %s, want %s", got, tc.want)
			}
		})
	}
}

func TestSeatLeavesOutTheDimensionsWeighedAtZero(t *testing.T) {
	cfg := config("a", "b")
	cfg.Weights[DimDeadCode] = 0
	if err := Seat(&cfg, picker(nil)); err != nil {
		t.Fatal(err)
	}
	if _, ok := cfg.Judges[DimDeadCode]; ok || len(cfg.Judges) != 4 {
		t.Fatalf("judges %v", cfg.Judges)
	}
}

func TestSeatRefusesAFactSeatThatCouldWriteTheRepository(t *testing.T) {
	yolo := enginetest.Agent("yolo")
	yolo.Args = []string{"--approval-mode=yolo"}
	cfg := config("a", "b")
	err := Seat(&cfg, picker(map[string][]string{"facts": {"claude", "yolo"}}, yolo))
	want := "the fact seat of b would be held by yolo, whose command has --approval-mode=yolo: fact seats run inside the repository and must be read-only (remove the flag from its args)"
	if err == nil || err.Error() != want || !errors.Is(err, ErrInput) {
		t.Fatalf("error %v, want %q", err, want)
	}
}

func TestSeatPassesOnTheSeatingsMistakes(t *testing.T) {
	cfg := config("a", "b")
	err := Seat(&cfg, picker(map[string][]string{"verdict": {"gpt5"}}))
	if !errors.Is(err, seating.ErrSeat) || !strings.Contains(err.Error(), `arena.yaml:2: unknown agent "gpt5" for the verdict writer seat`) {
		t.Fatalf("error %v", err)
	}
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

// Issue 31: Claude through OpenRouter does not judge a repository claude
// wrote while an agent of another family is free.
func TestAvoidAuthorsKeepsTheAuthorsFamilyOut(t *testing.T) {
	cfg := config("a", "b") // judges codex, gemini, qwen, claude, codex; verdict claude
	agents := map[string]challengers.Agent{}
	for _, n := range []string{"claude", "gemini", "codex", "qwen"} {
		agents[n] = challengers.Agent{Name: n, Command: []string{n}}
	}
	agents["sonnet"] = challengers.Agent{Name: "sonnet", API: challengers.APIOpenAI, BaseURL: "https://openrouter.ai/api/v1", Model: "anthropic/claude-sonnet-4.5"}
	cfg.Judges[Dimensions[1]] = agents["sonnet"]
	notes := AvoidAuthors(&cfg, []string{"claude", "sonnet", "gemini"}, agents, []string{"claude"})
	want := []string{
		"the security judge went to gemini instead of sonnet, of the family of claude (anthropic), which wrote one of the repositories",
		"the overengineering judge went to gemini instead of claude, which wrote one of the repositories",
		"the verdict writer went to gemini instead of claude, which wrote one of the repositories",
	}
	if !slices.Equal(notes, want) {
		t.Fatalf("notes %q\nwant  %q", notes, want)
	}
	cfg = config("a", "b")
	cfg.Judges[Dimensions[1]] = agents["sonnet"]
	notes = AvoidAuthors(&cfg, []string{"claude", "sonnet"}, agents, []string{"claude"})
	if !slices.Contains(notes, "the verdict writer went to sonnet instead of claude, which wrote one of the repositories") ||
		!slices.Contains(notes, "the security judge is held by sonnet, of the family of claude (anthropic), which wrote one of the repositories: no agent of another family is free") {
		t.Fatalf("notes %q", notes)
	}
}

// Config seats the ranking, keeps the authors' agents off the judges'
// seats where another can hold them, draws a seed when none was given,
// and runs the tests only when asked.
func TestRequestConfig(t *testing.T) {
	in := Input{Repos: config("a", "b").Repos, Labels: []string{"a", "b"}, Weights: DefaultWeights()}
	p := picker(nil)
	pool := []string{"claude", "gemini", "codex", "qwen"}
	agents := map[string]challengers.Agent{}
	for _, n := range pool {
		agents[n] = enginetest.Agent(n)
	}
	req := Request{Authors: []string{"claude", "gemini"}, Orders: 2, RunTests: true}
	cfg, err := req.Config(engine.Doc{Name: "spec.md"}, in, p, pool, agents, "make test")
	if err != nil || cfg.ID != "rank-a-b" || cfg.Seed == 0 || cfg.RunTests == nil || !slices.Equal(cfg.Authors, req.Authors) {
		t.Fatalf("%+v %v", cfg, err)
	}
	for d, j := range cfg.Judges {
		if j.Name == "claude" || j.Name == "gemini" {
			t.Errorf("the %s judge is %s, an author", d, j.Name)
		}
	}
	req = Request{Seed: 7, Orders: 2}
	if cfg, err := req.Config(engine.Doc{}, in, picker(nil), pool, agents, ""); err != nil || cfg.Seed != 7 || cfg.RunTests != nil {
		t.Fatalf("%+v %v", cfg, err)
	}
	req.Authors = []string{"grok", "claude"}
	if _, err := req.Config(engine.Doc{}, in, picker(nil), pool, agents, ""); !errors.Is(err, ErrInput) || err.Error() != `--authors: unknown agent "grok"` {
		t.Fatal(err)
	}
}

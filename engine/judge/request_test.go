package judge

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine/inputs"
)

func TestRequestConfigReadsTheSolution(t *testing.T) {
	t.Parallel()
	r := Request{Task: "fix \x1b[31mit", MaxBytes: DefaultBudget, MinScore: ptr(3.5), Author: "claude"}
	cfg, err := r.Config([]string{"-"}, strings.NewReader("package main\n"), false)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Preset != "code" || len(cfg.Criteria) == 0 || cfg.Task != "fix it" || cfg.MinScore != 3.5 || cfg.Author != "claude" ||
		len(cfg.Solution.Files) != 1 || !strings.HasPrefix(cfg.ID, "judge-") {
		t.Fatalf("%+v", cfg)
	}
	r.Criteria = "correctness:60,docs:40"
	if cfg, err := r.Config([]string{"-"}, strings.NewReader("x"), false); err != nil || cfg.Preset != "" || len(cfg.Criteria) != 2 {
		t.Fatalf("%+v %v", cfg, err)
	}
}

// Every mistake is the person's, in the order they would fix them, before
// anything is read.
func TestRequestConfigRefusesMistakes(t *testing.T) {
	t.Parallel()
	ok := Request{Task: "t", MaxBytes: DefaultBudget}
	with := func(change func(*Request)) Request { r := ok; change(&r); return r }
	for want, c := range map[string]struct {
		r     Request
		paths []string
	}{
		"--task is required: say what the solution was supposed to accomplish": {with(func(r *Request) { r.Task = " " }), []string{"-"}},
		"give either --criteria or --preset, not both":                         {with(func(r *Request) { r.Criteria, r.Preset = "a:1", "docs" }), []string{"-"}},
		`--preset "poetry": not a preset (choose code, design, docs)`:          {with(func(r *Request) { r.Preset = "poetry" }), []string{"-"}},
		"--min-score must be from 1 to 5, got NaN":                             {with(func(r *Request) { r.MinScore = ptr(math.NaN()) }), []string{"-"}},
		"--max-bytes must be at least 1024, got 10":                            {with(func(r *Request) { r.MaxBytes = 10 }), []string{"-"}},
		`arena judge needs the solution to judge (its files or directories, or - for stdin): arena judge FILE|DIR|- ... --task "what it should do" [flags] (see arena judge --help)`: {ok, nil},
		"read the solution from stdin (-) or from paths, not both": {ok, []string{"-", "a.go"}},
	} {
		if _, err := c.r.Config(c.paths, strings.NewReader("x"), false); !errors.Is(err, inputs.ErrInput) || err.Error() != want {
			t.Errorf("%s: got %v", want, err)
		}
	}
	_, err := ok.Config([]string{"/nonexistent/solution.go"}, nil, false)
	if !errors.Is(err, inputs.ErrInput) || strings.HasPrefix(err.Error(), ErrInput.Error()) {
		t.Errorf("a missing path: %v", err)
	}
}

// The author holds no judge seat the pool fills; nor does the defender
// when the other challengers fill them all.
func TestRequestExclude(t *testing.T) {
	t.Parallel()
	agents := map[string]challengers.Agent{"claude": {}, "gemini": {}, "codex": {}, "qwen": {}}
	r := Request{Author: "codex"}
	for _, c := range []struct {
		challengers []string
		named       bool
		want        []string
	}{
		{[]string{"gemini", "codex", "qwen"}, false, []string{"codex"}},
		{[]string{"gemini", "qwen", "claude"}, false, []string{"codex", "claude"}},
		{[]string{"gemini", "qwen", "claude"}, true, []string{"codex"}},
	} {
		if got, err := r.Exclude(agents, "claude", c.challengers, c.named); err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%+v: %q %v", c, got, err)
		}
	}
	if _, err := (Request{Author: "grok"}).Exclude(agents, "claude", nil, false); !errors.Is(err, inputs.ErrInput) || err.Error() != `--author: unknown agent "grok"` {
		t.Error(err)
	}
}

func ptr[T any](v T) *T { return &v }

package compare

import (
	"errors"
	"slices"
	"testing"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine/inputs"
)

func TestRequestCheck(t *testing.T) {
	t.Parallel()
	criteria, err := Request{Criteria: ptr("safety:high,speed:low"), Orders: ptr(6)}.Check(3)
	if err != nil || len(criteria) != 2 || criteria[0].Name != "safety" {
		t.Fatalf("%+v %v", criteria, err)
	}
	if criteria, err := (Request{}).Check(2); err != nil || criteria != nil {
		t.Fatalf("criteria not given: %+v %v", criteria, err)
	}
	for want, r := range map[string]Request{
		"--orders 3: 2 options can be shown in 1 to 2 counterbalanced orders":                                  {Orders: ptr(3)},
		"--orders 0: 2 options can be shown in 1 to 2 counterbalanced orders":                                  {Orders: ptr(0)},
		`--authors names 1 agent for 2 options (one per option, in order; "" for one not written by an agent)`: {Authors: []string{"claude"}},
		"--quick and --single do not go together: --single has no advocates to rebut":                          {Quick: true, Single: true},
	} {
		if _, err := r.Check(2); !errors.Is(err, inputs.ErrInput) || err.Error() != want {
			t.Errorf("%+v: %v", r, err)
		}
	}
	if _, err := (Request{Criteria: ptr("")}).Check(2); !errors.Is(err, inputs.ErrInput) || err.Error()[:11] != "--criteria:" {
		t.Errorf("empty criteria: %v", err)
	}
}

// The author of the options holds no seat the defaults fill.
func TestRequestExcludesTheAuthor(t *testing.T) {
	t.Parallel()
	agents := map[string]challengers.Agent{"claude": {Name: "claude"}, "gemini": {Name: "gemini"}}
	if ex, err := (Request{Authors: []string{"claude", ""}}).Exclude(agents); err != nil || ex != nil {
		t.Fatalf("%q %v", ex, err)
	}
	if ex, err := (Request{Author: "gemini"}).Exclude(agents); err != nil || !slices.Equal(ex, []string{"gemini"}) {
		t.Fatalf("%q %v", ex, err)
	}
	if _, err := (Request{Authors: []string{"grok"}}).Exclude(agents); !errors.Is(err, inputs.ErrInput) || err.Error() != `--authors: unknown agent "grok"` {
		t.Fatal(err)
	}
	if _, err := (Request{Author: "grok"}).Exclude(agents); !errors.Is(err, inputs.ErrInput) || err.Error() != `--author: unknown agent "grok" (known: claude, gemini)` {
		t.Fatal(err)
	}
}

func TestRequestWantsAndConfig(t *testing.T) {
	t.Parallel()
	r := Request{Judge: "claude", Advocates: []string{"gemini", "codex"}, Author: "qwen", Quick: true}
	wants := r.Wants(2)
	if len(wants) != 2 || !slices.Equal(wants[0].Named, []string{"claude"}) || wants[1].Key != "advocates" || wants[1].N != 2 || !slices.Equal(wants[1].Named, r.Advocates) {
		t.Fatalf("%+v", wants)
	}
	judge, a, b := challengers.Agent{Name: "claude"}, challengers.Agent{Name: "gemini"}, challengers.Agent{Name: "codex"}
	cfg := r.Config(Input{Decision: "which queue?", Options: []string{"A", "B"}}, [][]challengers.Agent{{judge}, {a, b}}, 0)
	if cfg.ID != "which-queue" || cfg.Judge.Name != "claude" || len(cfg.Advocates) != 2 || !cfg.Quick || !slices.Equal(cfg.Authors, []string{"qwen", "qwen"}) {
		t.Fatalf("%+v", cfg)
	}
	single := Request{Single: true}
	if w := single.Wants(3); len(w) != 1 || w[0].Key != "judge" || w[0].N != 1 || w[0].Named != nil {
		t.Fatalf("%+v", w)
	}
	if cfg := single.Config(Input{Options: []string{"A", "B"}}, [][]challengers.Agent{{judge}}, 0); cfg.Advocates != nil || cfg.Authors != nil {
		t.Fatalf("%+v", cfg)
	}
}

func ptr[T any](v T) *T { return &v }

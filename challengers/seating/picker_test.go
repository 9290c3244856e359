package seating

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers"
)

// plan is compare's seating, as engine/compare declares it, and a panel
// that takes three agents by default, as judge's does.
var plan = Plan{Protocol: "compare", Seats: []Seat{
	{Key: "judge", Label: "judge", Judging: true},
	{Key: "advocates", Label: "advocate", Many: true},
	{Key: "panel", Label: "panel judge", Many: true, Default: 3, Judging: true},
	{Key: "time_keeper", Label: "time keeper"},
}}

func roster(config map[string][]string, exclude ...string) Roster {
	agents := map[string]challengers.Agent{}
	for _, n := range []string{"claude", "gemini", "codex", "qwen"} {
		agents[n] = challengers.Agent{Name: n}
	}
	return Roster{
		Pool:   []string{"claude", "gemini", "codex", "qwen", "gemini"},
		Agents: agents,
		Config: func(protocol, key string) ([]string, string) {
			if protocol != "compare" || config[key] == nil {
				return nil, ""
			}
			return config[key], "arena.yaml:3"
		},
		Exclude: exclude,
	}
}

func names(seats [][]challengers.Agent) [][]string {
	out := make([][]string, len(seats))
	for i, s := range seats {
		out[i] = []string{}
		for _, a := range s {
			out[i] = append(out[i], a.Name)
		}
	}
	return out
}

func pickNames(t *testing.T, p *Picker, wants ...Want) [][]string {
	t.Helper()
	got, err := p.Pick(wants...)
	if err != nil {
		t.Fatal(err)
	}
	return names(got)
}

func TestPickerSeats(t *testing.T) {
	judge := func(named ...string) Want { return Want{Key: "judge", Named: named, N: 1} }
	advocates := func(n int, named ...string) Want { return Want{Key: "advocates", Named: named, N: n} }
	for name, tc := range map[string]struct {
		config  map[string][]string
		exclude []string
		wants   []Want
		want    [][]string
	}{
		"the pool in order": {
			wants: []Want{judge(), advocates(2)},
			want:  [][]string{{"claude"}, {"gemini", "codex"}},
		},
		// Issue 27: --judge gemini seated gemini as an advocate too, with
		// codex and qwen unused.
		"a flag's judge is no advocate while others are free": {
			wants: []Want{judge("gemini"), advocates(2)},
			want:  [][]string{{"gemini"}, {"claude", "codex"}},
		},
		// The judge is asked for first, but the advocates named later
		// are settled before it.
		"a later seat's flag keeps its agents from an earlier pool seat": {
			wants: []Want{judge(), advocates(2, "claude", "gemini")},
			want:  [][]string{{"codex"}, {"claude", "gemini"}},
		},
		"the config's seat is settled first too": {
			config: map[string][]string{"advocates": {"codex", "claude"}},
			wants:  []Want{judge(), advocates(2)},
			want:   [][]string{{"gemini"}, {"codex", "claude"}},
		},
		"a flag wins over the config": {
			config: map[string][]string{"judge": {"codex"}},
			wants:  []Want{judge("qwen"), advocates(2)},
			want:   [][]string{{"qwen"}, {"claude", "gemini"}},
		},
		"the rounds wrap only when every agent holds a seat": {
			wants: []Want{judge("gemini"), advocates(4)},
			want:  [][]string{{"gemini"}, {"claude", "codex", "qwen", "claude"}},
		},
		"wrapping gives the next seat to who holds the fewest": {
			config: map[string][]string{"judge": {"claude"}, "panel": {"claude", "claude"}},
			wants:  []Want{judge(), {Key: "panel", N: -1}, advocates(4)},
			want:   [][]string{{"claude"}, {"claude", "claude"}, {"gemini", "codex", "qwen", "gemini"}},
		},
		"an excluded agent takes no pool seat": {
			exclude: []string{"claude"},
			wants:   []Want{judge(), advocates(2)},
			want:    [][]string{{"gemini"}, {"codex", "qwen"}},
		},
		"a flag can still name an excluded agent": {
			exclude: []string{"claude"},
			wants:   []Want{judge("claude"), advocates(2)},
			want:    [][]string{{"claude"}, {"gemini", "codex"}},
		},
		"a seat of many takes its default from the pool": {
			wants: []Want{{Key: "panel", N: -1}},
			want:  [][]string{{"claude", "gemini", "codex"}},
		},
		"a seat of many takes as many as are named": {
			wants: []Want{{Key: "panel", Named: []string{"qwen", "codex"}, N: -1}},
			want:  [][]string{{"qwen", "codex"}},
		},
		"the command's default for a seat of many": {
			config: map[string][]string{"judge": {"claude"}},
			wants:  []Want{{Key: "advocates", N: -1, Default: 3}, {Key: "judge", N: 1}},
			want:   [][]string{{"gemini", "codex", "qwen"}, {"claude"}},
		},
		"the command's default yields to the names": {
			config: map[string][]string{"advocates": {"qwen"}},
			wants:  []Want{{Key: "advocates", N: -1, Default: 3}},
			want:   [][]string{{"qwen"}},
		},
		"a seat without a default takes one": {
			wants: []Want{{Key: "time_keeper", N: -1}},
			want:  [][]string{{"claude"}},
		},
	} {
		t.Run(name, func(t *testing.T) {
			got := pickNames(t, New(plan, roster(tc.config, tc.exclude...)), tc.wants...)
			if !slices.EqualFunc(got, tc.want, slices.Equal) {
				t.Fatalf("seats %q, want %q", got, tc.want)
			}
		})
	}
}

// A second Pick counts the seats the first gave.
func TestPickerRemembersEarlierPicks(t *testing.T) {
	p := New(plan, roster(nil))
	first := pickNames(t, p, Want{Key: "advocates", N: 3})
	second := pickNames(t, p, Want{Key: "judge", N: 1}, Want{Key: "panel", N: 2})
	if want := [][]string{{"qwen"}, {"claude", "gemini"}}; !slices.Equal(first[0], []string{"claude", "gemini", "codex"}) || !slices.EqualFunc(second, want, slices.Equal) {
		t.Fatalf("first %q, then %q", first, second)
	}
}

func TestPickerErrors(t *testing.T) {
	for name, tc := range map[string]struct {
		config  map[string][]string
		exclude []string
		wants   []Want
		want    string
	}{
		"unknown agent of a flag": {
			wants: []Want{{Key: "judge", Named: []string{"gpt5"}, N: 1}},
			want:  `--judge: unknown agent "gpt5" for the judge seat (known: claude, codex, gemini, qwen)`,
		},
		"unknown agent of the config": {
			config: map[string][]string{"advocates": {"gemini", "gpt5"}},
			wants:  []Want{{Key: "advocates", N: 2}},
			want:   `arena.yaml:3: unknown agent "gpt5" for the advocate seat (known: claude, codex, gemini, qwen)`,
		},
		"a flag names too few": {
			wants: []Want{{Key: "advocates", Named: []string{"gemini"}, N: 2}},
			want:  "the advocate seat needs 2 agents, --advocates names 1 (gemini)",
		},
		"the config names too many": {
			config: map[string][]string{"judge": {"gemini", "codex"}},
			wants:  []Want{{Key: "judge", N: 1}},
			want:   "the judge seat needs 1 agent, arena.yaml:3 names 2 (gemini, codex)",
		},
		"an underscore of a key is a dash of its flag": {
			wants: []Want{{Key: "time_keeper", Named: []string{}, N: 1}},
			want:  "the time keeper seat needs 1 agent, --time-keeper names 0 ()",
		},
		"every agent of the pool excluded": {
			exclude: []string{"claude", "gemini", "codex", "qwen"},
			wants:   []Want{{Key: "judge", N: 1}},
			want:    "no agent is left for the judge seat: the defender and every challenger are excluded; add an agent to the config, or name one under compare: in it (judge: AGENT)",
		},
		// The named seats are checked before any pool seat is filled.
		"a named seat's mistake before an empty pool": {
			exclude: []string{"claude", "gemini", "codex", "qwen"},
			wants:   []Want{{Key: "judge", N: 1}, {Key: "advocates", Named: []string{"gpt5", "codex"}, N: 2}},
			want:    `--advocates: unknown agent "gpt5" for the advocate seat (known: claude, codex, gemini, qwen)`,
		},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := New(plan, roster(tc.config, tc.exclude...)).Pick(tc.wants...)
			if err == nil || err.Error() != tc.want || !errors.Is(err, ErrSeat) {
				t.Fatalf("error %v, want %q (a seating error)", err, tc.want)
			}
		})
	}
}

// A key the plan lacks is arena's mistake, not the person's.
func TestPickerUnknownKeyIsNoSeatError(t *testing.T) {
	_, err := New(plan, roster(nil)).Pick(Want{Key: "jury", N: 1})
	if err == nil || errors.Is(err, ErrSeat) || !strings.Contains(err.Error(), `the compare protocol's seating plan has no seat "jury"`) {
		t.Fatalf("error %v", err)
	}
}

func TestPickerStandInsAndSharedSeats(t *testing.T) {
	p := New(plan, roster(nil, "qwen"))
	pickNames(t, p, Want{Key: "judge", Named: []string{"gemini"}, N: 1}, Want{Key: "advocates", Named: []string{"gemini", "qwen"}, N: 2})
	if ins := names([][]challengers.Agent{p.StandIns()}); !slices.Equal(ins[0], []string{"claude", "codex"}) {
		t.Fatalf("stand-ins %q, want the pool's unseated agents, the excluded qwen not among them", ins[0])
	}
	want := []string{"gemini holds 2 seats (judge, advocate): those seats are not independent models; name other agents to compare different ones"}
	if got := p.Shared(); !slices.Equal(got, want) {
		t.Fatalf("warnings %q, want %q", got, want)
	}
	if got := New(plan, roster(nil)).Shared(); got != nil {
		t.Fatalf("warnings %q before any seat", got)
	}
}

func TestPickerPoolLeavesOutExcludedAndRepeats(t *testing.T) {
	if got := New(plan, roster(nil, "codex")).Pool(); !slices.Equal(got, []string{"claude", "gemini", "qwen"}) {
		t.Fatalf("pool %q", got)
	}
}

// familyRoster is the four CLIs and three API agents: sonnet is Claude
// through OpenRouter, flash Gemini through it, llama a local model.
func familyRoster(exclude ...string) Roster {
	agents := map[string]challengers.Agent{}
	for _, n := range []string{"claude", "gemini", "codex", "qwen"} {
		agents[n] = challengers.Agent{Name: n, Command: []string{n}}
	}
	api := func(name, model string) {
		agents[name] = challengers.Agent{Name: name, API: challengers.APIOpenAI, BaseURL: "https://openrouter.ai/api/v1", Model: model}
	}
	api("sonnet", "anthropic/claude-sonnet-4.5")
	api("flash", "google/gemini-2.5-flash")
	api("llama", "meta-llama/llama-3.3-70b-instruct")
	return Roster{Pool: []string{"claude", "sonnet", "flash", "llama"}, Agents: agents, Exclude: exclude}
}

// Issue 31: a Claude-written change is not judged by Claude through
// OpenRouter either, while an agent of another family is free; and the
// notes say so.
func TestPickerKeepsTheAuthorsFamilyOut(t *testing.T) {
	p := New(plan, familyRoster("claude"))
	got := pickNames(t, p, Want{Key: "panel", N: 3})
	if !slices.Equal(got[0], []string{"flash", "llama", "flash"}) {
		t.Errorf("panel %v: sonnet, an anthropic model, must not judge claude's work while flash and llama are free", got[0])
	}
	notes := p.Notes()
	if len(notes) != 1 || notes[0] != "sonnet (anthropic, the family of claude, which wrote the work) gets no seat nobody named, while an agent of another family is free" {
		t.Errorf("notes %q", notes)
	}
	// Named by a flag, it judges; the notes say it judges its own family's work.
	p = New(plan, familyRoster("claude"))
	got = pickNames(t, p, Want{Key: "panel", Named: []string{"sonnet", "llama"}, N: -1})
	if !slices.Equal(got[0], []string{"sonnet", "llama"}) {
		t.Fatalf("panel %v", got[0])
	}
	if n := p.Notes(); !slices.Contains(n, "sonnet judges work of its own family (anthropic, like claude, which wrote it) as the panel judge") {
		t.Errorf("notes %q", n)
	}
}

func TestPickerTakesTheAuthorsFamilyWhenNoOtherIsFree(t *testing.T) {
	r := familyRoster("claude")
	r.Pool = []string{"claude", "sonnet"}
	p := New(plan, r)
	got := pickNames(t, p, Want{Key: "judge", N: 1})
	if !slices.Equal(got[0], []string{"sonnet"}) {
		t.Fatalf("judge %v", got[0])
	}
	want := []string{
		"sonnet (anthropic, the family of claude, which wrote the work) may take seats: no agent of another family is free",
		"sonnet judges work of its own family (anthropic, like claude, which wrote it) as the judge",
	}
	if n := p.Notes(); !slices.Equal(n, want) {
		t.Errorf("notes %q\nwant %q", n, want)
	}
}

func TestSameFamilyFlagsSeatsThatAreNotIndependent(t *testing.T) {
	p := New(plan, familyRoster())
	pickNames(t, p, Want{Key: "panel", N: 4})
	want := []string{"claude and sonnet are all anthropic models: their seats are not independent (a vendor's models share their training); name an agent of another family to compare different ones"}
	if got := p.SameFamily(); !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	r := familyRoster()
	if got := SameFamily([]challengers.Agent{r.Agents["gemini"], r.Agents["flash"], r.Agents["llama"], r.Agents["gemini"]}); len(got) != 1 || !strings.HasPrefix(got[0], "gemini and flash are all google models") {
		t.Errorf("got %q", got)
	}
}

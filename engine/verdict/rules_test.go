package verdict

import (
	"strings"
	"testing"
)

func TestThresholdEdges(t *testing.T) {
	for _, tc := range []struct {
		lowest int
		mean   float64
		want   Verdict
	}{
		{3, 3.5, Accept},     // 3.5 exactly accepts
		{3, 3.49, Improve},   // just under
		{3, 3.4999, Improve}, // rounding never helps
		{2, 4.5, Improve},    // a 2 never accepts, however high the rest
		{2, 2.0, Improve},    // a 2 is not a reject
		{1, 4.33, Reject},    // a 1 rejects, however high the rest
		{5, 5, Accept},
	} {
		if got := threshold(tc.lowest, tc.mean); got != tc.want {
			t.Errorf("lowest %d mean %v: %s, want %s", tc.lowest, tc.mean, got, tc.want)
		}
	}
}

func TestDecideFromScores(t *testing.T) {
	for _, tc := range []struct {
		s    Scores
		want Verdict
		avg  float64
	}{
		{Scores{4, 4, 5}, Accept, 4.33},
		{Scores{3, 4, 4}, Accept, 3.67},  // sum 11: the lowest sum that accepts
		{Scores{3, 3, 4}, Improve, 3.33}, // sum 10: just under 3.5
		{Scores{3, 3, 3}, Improve, 3},
		{Scores{2, 5, 5}, Improve, 4},
		{Scores{1, 5, 5}, Reject, 3.67},
		{Scores{5, 5, 1}, Reject, 3.67},
		{Scores{2, 2, 2}, Improve, 2},
	} {
		if got := Decide(tc.s); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.s, got, tc.want)
		}
		if got := tc.s.Average(); got != tc.avg {
			t.Errorf("%+v: average %v, want %v", tc.s, got, tc.avg)
		}
		if Why(tc.s, Decide(tc.s)) == "" {
			t.Errorf("%+v: no reason", tc.s)
		}
	}
}

func ok(v Verdict) Judged { return Judged{Verdict: v} }

func TestNextSequential(t *testing.T) {
	for name, tc := range map[string]struct {
		got    map[Mode]Judged
		ask    []Mode
		final  Verdict
		reason string
	}{
		"start":                   {got: nil, ask: []Mode{Quick}},
		"quick accept is final":   {got: map[Mode]Judged{Quick: ok(Accept)}, final: Accept},
		"quick reject is final":   {got: map[Mode]Judged{Quick: ok(Reject)}, final: Reject},
		"quick improve → deep":    {got: map[Mode]Judged{Quick: ok(Improve)}, ask: []Mode{Deep}},
		"deep accept is final":    {got: map[Mode]Judged{Quick: ok(Improve), Deep: ok(Accept)}, final: Accept},
		"deep reject is final":    {got: map[Mode]Judged{Quick: ok(Improve), Deep: ok(Reject)}, final: Reject},
		"improve twice escalates": {got: map[Mode]Judged{Quick: ok(Improve), Deep: ok(Improve)}, final: Escalate, reason: "both say improve"},
		"quick fails":             {got: map[Mode]Judged{Quick: {Failed: "(gemini) timed out"}}, final: Escalate, reason: "quick judge (gemini) timed out"},
		"deep fails":              {got: map[Mode]Judged{Quick: ok(Improve), Deep: {Failed: "(claude) gave no valid JSON"}}, final: Escalate, reason: "deep judge (claude)"},
	} {
		t.Run(name, func(t *testing.T) {
			s := Next(false, tc.got)
			if strings.Join(modes(s.Ask), ",") != strings.Join(modes(tc.ask), ",") || s.Final != tc.final {
				t.Fatalf("%+v", s)
			}
			if !strings.Contains(s.Reason, tc.reason) {
				t.Fatalf("reason %q lacks %q", s.Reason, tc.reason)
			}
		})
	}
}

func TestNextThorough(t *testing.T) {
	for name, tc := range map[string]struct {
		got   map[Mode]Judged
		ask   []Mode
		final Verdict
	}{
		"start: both in parallel":       {got: nil, ask: []Mode{Quick, Deep}},
		"same accept is final":          {got: map[Mode]Judged{Quick: ok(Accept), Deep: ok(Accept)}, final: Accept},
		"same reject is final":          {got: map[Mode]Judged{Quick: ok(Reject), Deep: ok(Reject)}, final: Reject},
		"both improve escalates":        {got: map[Mode]Judged{Quick: ok(Improve), Deep: ok(Improve)}, final: Escalate},
		"differ → tiebreaker":           {got: map[Mode]Judged{Quick: ok(Accept), Deep: ok(Reject)}, ask: []Mode{Tiebreaker}},
		"tiebreaker sides with quick":   {got: map[Mode]Judged{Quick: ok(Accept), Deep: ok(Reject), Tiebreaker: ok(Accept)}, final: Accept},
		"tiebreaker sides with deep":    {got: map[Mode]Judged{Quick: ok(Accept), Deep: ok(Improve), Tiebreaker: ok(Improve)}, final: Improve},
		"tiebreaker matches neither":    {got: map[Mode]Judged{Quick: ok(Accept), Deep: ok(Reject), Tiebreaker: ok(Improve)}, final: Escalate},
		"one of the parallel two fails": {got: map[Mode]Judged{Quick: ok(Accept), Deep: {Failed: "(claude) timed out"}}, final: Escalate},
		"tiebreaker fails":              {got: map[Mode]Judged{Quick: ok(Accept), Deep: ok(Reject), Tiebreaker: {Failed: "x"}}, final: Escalate},
	} {
		t.Run(name, func(t *testing.T) {
			s := Next(true, tc.got)
			if strings.Join(modes(s.Ask), ",") != strings.Join(modes(tc.ask), ",") || s.Final != tc.final {
				t.Fatalf("%+v", s)
			}
		})
	}
}

// Whatever the judges say, the rule asks at most three of them, never one
// twice, and always ends.
func TestNextCallCap(t *testing.T) {
	outcomes := []Judged{ok(Accept), ok(Improve), ok(Reject), {Failed: "failed"}}
	var walk func(thorough bool, got map[Mode]Judged, calls int)
	walk = func(thorough bool, got map[Mode]Judged, calls int) {
		s := Next(thorough, got)
		if s.Done() {
			if s.Final == "" || s.Reason == "" {
				t.Fatalf("final step without a decision: %+v after %v", s, got)
			}
			return
		}
		if calls+len(s.Ask) > MaxCalls {
			t.Fatalf("asks %v after %d calls (%v)", s.Ask, calls, got)
		}
		// every combination of answers to this step
		var each func(i int, g map[Mode]Judged)
		each = func(i int, g map[Mode]Judged) {
			if i == len(s.Ask) {
				walk(thorough, g, calls+len(s.Ask))
				return
			}
			if _, dup := g[s.Ask[i]]; dup {
				t.Fatalf("asks %s twice", s.Ask[i])
			}
			for _, o := range outcomes {
				next := map[Mode]Judged{}
				for k, v := range g {
					next[k] = v
				}
				next[s.Ask[i]] = o
				each(i+1, next)
			}
		}
		each(0, got)
	}
	walk(false, map[Mode]Judged{}, 0)
	walk(true, map[Mode]Judged{}, 0)
}

func TestSensitiveAlwaysEscalates(t *testing.T) {
	s := Sensitive(Step{Final: Accept, Reason: "the quick judge said accept"})
	if s.Final != Escalate || !strings.Contains(s.Reason, "decided accept") {
		t.Fatalf("%+v", s)
	}
	s = Sensitive(Step{Final: Escalate, Reason: "both improve"})
	if s.Final != Escalate || !strings.Contains(s.Reason, "sensitive") {
		t.Fatalf("%+v", s)
	}
	if s := Sensitive(Step{Ask: []Mode{Deep}}); s.Done() {
		t.Fatalf("a step that asks is not final: %+v", s)
	}
}

func modes(ms []Mode) []string {
	var out []string
	for _, m := range ms {
		out = append(out, string(m))
	}
	return out
}

func TestParseJudgement(t *testing.T) {
	j, err := Parse("Sure! Here it is:\n```json\n{\"Verdict\": \"ACCEPT\", \"scores\": {\"Semantic\": 4, \"pragmatic\": \"4\", \"syntactic\": 5}, \"reasoning\": [\"facts check out\", \"usable\"], \"improvements\": []}\n```\nthanks")
	if err != nil {
		t.Fatal(err)
	}
	if j.Verdict != Accept || j.Stated != "" || j.Scores != (Scores{4, 4, 5}) || j.Average != 4.33 {
		t.Fatalf("%+v", j)
	}
	if j.Reasoning != "1. facts check out\n2. usable" {
		t.Fatalf("reasoning %q", j.Reasoning)
	}
	if strings.Join(j.Stripped, ",") != "a code fence,text before the JSON,text after the JSON" {
		t.Fatalf("stripped %q", j.Stripped)
	}
	// The model says accept; its scores say reject: arena's reading wins,
	// the model's is kept.
	j, err = Parse(`{"verdict": "accept", "scores": {"semantic": 1, "pragmatic": 5, "syntactic": 5}, "reasoning": "fine", "improvements": ["x"]}`)
	if err != nil || j.Verdict != Reject || j.Stated != Accept || len(j.Stripped) != 0 {
		t.Fatalf("%+v %v", j, err)
	}
	if !strings.Contains(j.Display(), "the model said accept, the thresholds win") {
		t.Fatalf("display:\n%s", j.Display())
	}
	for _, bad := range []string{
		`{"verdict": "maybe", "scores": {"semantic": 3, "pragmatic": 3, "syntactic": 3}, "reasoning": "x", "improvements": []}`,
		`{"verdict": "accept", "scores": {"semantic": 6, "pragmatic": 3, "syntactic": 3}, "reasoning": "x", "improvements": []}`,
		`{"verdict": "accept", "scores": {"semantic": 3, "pragmatic": 3}, "reasoning": "x", "improvements": []}`,
		`{"verdict": "accept", "scores": [3, 3, 3], "reasoning": "x", "improvements": []}`,
		`{"verdict": "accept", "scores": {"semantic": 3.5, "pragmatic": 3, "syntactic": 3}, "reasoning": "x", "improvements": []}`,
		`no json at all`,
	} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("parsed %s", bad)
		}
	}
}

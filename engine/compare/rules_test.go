package compare

import (
	"slices"
	"strings"
	"testing"
)

var crit = []Criterion{{Name: "throughput", Weight: "high"}, {Name: "ops cost", Weight: "medium"}, {Name: "team skills", Weight: "low"}}

func TestParseCriteria(t *testing.T) {
	got, err := ParseCriteria("throughput:high, ops cost:Medium,team skills:low")
	if err != nil || len(got) != 3 || got[1] != (Criterion{Name: "ops cost", Weight: "medium"}) {
		t.Fatalf("%+v %v", got, err)
	}
	for in, want := range map[string]string{
		"throughput":         `"throughput" has no weight`,
		"throughput:huge":    `the weight "huge" is not high, medium or low`,
		":high":              "has no name",
		"a:high,A:low":       `"A" is named twice`,
		" , ":                "no criteria",
		"latency:medium,x:3": `"x": the weight "3"`,
	} {
		if _, err := ParseCriteria(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseCriteria(%q) = %v, want %q", in, err, want)
		}
	}
}

func TestWeightedTotalsAndMath(t *testing.T) {
	c := Card([]Score{
		{Criterion: "throughput", Option: "Kafka", Score: 5}, {Criterion: "ops cost", Option: "Kafka", Score: 2}, {Criterion: "team skills", Option: "Kafka", Score: 2},
		{Criterion: "throughput", Option: "Postgres", Score: 3}, {Criterion: "ops cost", Option: "Postgres", Score: 5}, {Criterion: "team skills", Option: "Postgres", Score: 5},
	})
	if got := Total(c, "Kafka", crit); got != 5*3+2*2+2*1 {
		t.Fatalf("Kafka total %d", got)
	}
	if got := Math(c, "Postgres", crit); got != "3×3 + 5×2 + 5×1 = 24" {
		t.Fatalf("math %q", got)
	}
	// A second reading, swapped order, scores Kafka higher on throughput
	// only: the averages are the means of the totals.
	c2 := Card([]Score{
		{Criterion: "throughput", Option: "Kafka", Score: 4}, {Criterion: "ops cost", Option: "Kafka", Score: 2}, {Criterion: "team skills", Option: "Kafka", Score: 2},
		{Criterion: "throughput", Option: "Postgres", Score: 3}, {Criterion: "ops cost", Option: "Postgres", Score: 5}, {Criterion: "team skills", Option: "Postgres", Score: 5},
	})
	cards := []Scorecard{c, c2}
	if got := Average(cards, "Kafka", crit); got != (21+18)/2.0 {
		t.Fatalf("average %v", got)
	}
	if l, alone := Leader(cards, []string{"Kafka", "Postgres"}, crit); l != "Postgres" || !alone {
		t.Fatalf("leader %s %v", l, alone)
	}
	if _, alone := Leader([]Scorecard{{}}, []string{"a", "b"}, crit); alone {
		t.Fatal("a tie reported as a lone leader")
	}
}

func TestDecideSeesTheOrderFlip(t *testing.T) {
	if v := Decide([]string{"Kafka", "Kafka"}); v.Flipped || v.Recommendation != "Kafka" {
		t.Fatalf("%+v", v)
	}
	if v := Decide([]string{"Kafka", "Postgres"}); !v.Flipped || v.Recommendation != "" || !slices.Equal(v.Picks, []string{"Kafka", "Postgres"}) {
		t.Fatalf("%+v", v)
	}
}

func TestHedge(t *testing.T) {
	for text, want := range map[string]string{
		"Kafka wins on throughput.":                  "",
		"Honestly, both are good options, but Kafka": "both are good options",
		"It  Depends on the team.":                   "it depends",
		"Either could work here.":                    "either could work",
	} {
		if got := Hedge(text); got != want {
			t.Errorf("Hedge(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestQuoted(t *testing.T) {
	opening := "**For:** Kafka\n\n- **throughput:** Kafka sustains 1M events/s on three brokers — against the other: NOTIFY payloads are capped at 8000 bytes."
	for claim, want := range map[string]bool{
		"Kafka sustains 1M events/s on three brokers":           true,
		"  \"kafka SUSTAINS 1M   events/s on three brokers.\" ": true,
		"Kafka sustains 1M events/s … capped at 8000 bytes":     true,
		"Kafka sustains 10M events/s":                           false,
		"NOTIFY payloads are capped at 8000 bytes and are lost": false,
		"": false,
	} {
		if got := Quoted(claim, opening); got != want {
			t.Errorf("Quoted(%q) = %v, want %v", claim, got, want)
		}
	}
}

func TestMatchOption(t *testing.T) {
	opts := []string{"Kafka", "Postgres LISTEN/NOTIFY"}
	for in, want := range map[string]string{
		"kafka": "Kafka", "POSTGRES listen/notify": "Postgres LISTEN/NOTIFY", "Postgres": "Postgres LISTEN/NOTIFY",
		"Option B": "Postgres LISTEN/NOTIFY", "a": "Kafka", "Redis": "",
	} {
		got, ok := MatchOption(in, opts)
		if got != want || ok != (want != "") {
			t.Errorf("MatchOption(%q) = %q %v, want %q", in, got, ok, want)
		}
	}
	if _, ok := MatchOption("Postgres", []string{"Postgres 15", "Postgres 16"}); ok {
		t.Error("an ambiguous name matched")
	}
}

package mcpserver

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

func TestFromFlagsDrawsEachInputFromItsFlag(t *testing.T) {
	t.Parallel()
	fs := pflag.NewFlagSet("compare", pflag.ContinueOnError)
	fs.StringArray("option", nil, "an option to compare (repeatable)")
	fs.StringSlice("advocates", nil, "advocate agents, comma-separated")
	fs.Bool("quick", false, "skip the rebuttals")
	fs.Int("max-rounds", 0, "rounds")
	fs.Float64("min-score", 0, "the least score")
	fs.Uint64("seed", 0, "a seed")
	fs.Duration("test-timeout", time.Minute, "how long")
	fs.String("labels", "", "labels, comma-separated")
	params, err := FromFlags(fs.Lookup, []FlagInput{
		{Flag: "option", Name: "options", Required: true}, {Flag: "advocates"}, {Flag: "quick"},
		{Flag: "max-rounds", About: "debate rounds"}, {Flag: "min-score"}, {Flag: "seed"}, {Flag: "test-timeout"},
		{Flag: "labels", List: true}, {Flag: "preset", Enum: []string{"code"}},
	}[:8])
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		name, about string
		typ         Type
	}
	var got []row
	for _, p := range params {
		got = append(got, row{p.Name, p.About, p.Type})
	}
	want := []row{
		{"options", "an option to compare", Repeated}, {"advocates", "advocate agents", List}, {"quick", "skip the rebuttals", Bool},
		{"max_rounds", "debate rounds", Int}, {"min_score", "the least score", Number}, {"seed", "a seed", Int},
		{"test_timeout", "how long", String}, {"labels", "labels", List},
	}
	if !slices.Equal(got[:len(want)], want) {
		t.Fatalf("got %v\nwant %v", got[:len(want)], want)
	}
	if names := got[len(want):]; len(names) != 3 || names[0].name != "max_cost" || names[0].typ != Number {
		t.Fatalf("the budget's inputs: %v", names)
	}
	if !params[0].Required {
		t.Error("a required input is not required")
	}
	if _, err := FromFlags(fs.Lookup, []FlagInput{{Flag: "preset"}}); err == nil || !strings.Contains(err.Error(), "no flag --preset") {
		t.Fatalf("a flag the command lacks: %v", err)
	}
}

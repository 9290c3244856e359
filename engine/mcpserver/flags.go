package mcpserver

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"
)

// FlagInput is a flag of a command that a run tool takes as an input.
// The input is named after the flag (max-rounds: max_rounds), typed by
// its value and described by its help, unless Name or About say otherwise
// (where the command line's words do not fit an agent).
type FlagInput struct {
	Flag, Name, About string
	Required          bool
	Enum              []string
	// List: a comma-separated string on the command line, an array here.
	List bool
}

// budgetParams are the inputs of the budget every run tool takes: their
// flags take "2.50" and "200k" on the command line, and numbers here.
var budgetParams = []Param{
	{Name: "max_cost", Flag: "max-cost", Type: Number, About: "stop the run before a call once this many US dollars are spent (only claude's CLI reports a cost: other seats count against max_calls and max_tokens)"},
	{Name: "max_calls", Flag: "max-calls", Type: Int, About: "stop the run before a call once this many model calls are made"},
	{Name: "max_tokens", Flag: "max-tokens", Type: Int, About: "stop the run before a call once this many tokens (in and out) are used"},
}

// FromFlags are the inputs of the flags a tool takes, found by lookup in
// its command's flags (a flag it names that the command lacks is an
// error, so a renamed flag fails in a test, not in a user's agent), then
// the budget's.
func FromFlags(lookup func(string) *pflag.Flag, flags []FlagInput) ([]Param, error) {
	var params []Param
	for _, in := range flags {
		f := lookup(in.Flag)
		if f == nil {
			return nil, fmt.Errorf("no flag --%s for its MCP tool", in.Flag)
		}
		p := Param{Name: in.Name, About: in.About, Type: flagType(f), Flag: in.Flag, Required: in.Required, Enum: in.Enum}
		if in.List {
			p.Type = List
		}
		if p.Name == "" {
			p.Name = strings.ReplaceAll(in.Flag, "-", "_")
		}
		if p.About == "" {
			p.About = agentWords(f.Usage)
		}
		params = append(params, p)
	}
	return append(params, budgetParams...), nil
}

// flagType is the input type of a flag's value.
func flagType(f *pflag.Flag) Type {
	switch f.Value.Type() {
	case "bool":
		return Bool
	case "int", "int64", "uint", "uint64":
		return Int
	case "float64":
		return Number
	case "stringSlice":
		return List
	case "stringArray":
		return Repeated
	}
	return String
}

// agentWords is a flag's help as an input's description: what is said of
// the flag itself (that it repeats, that it is required) is the schema's.
func agentWords(usage string) string {
	for _, cut := range []string{" (repeatable)", " (required)", ", comma-separated"} {
		usage = strings.ReplaceAll(usage, cut, "")
	}
	return usage
}

package main

import (
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/arenadebate/arena/engine/mcpserver"
)

// runTools are the run tools arena mcp serves, drawn from a fresh root
// command as runMCP draws them.
func runTools(t *testing.T) (*cobra.Command, []mcpserver.Tool) {
	t.Helper()
	root := newApp(strings.NewReader(""), io.Discard, io.Discard).rootCmd()
	tools, err := mcpTools(root)
	if err != nil {
		t.Fatal(err)
	}
	return root, tools
}

// sample is a value of p's type for a test call; Timeout flags parse it.
func sample(p mcpserver.Param) any {
	switch p.Type {
	case mcpserver.Bool:
		return true
	case mcpserver.Int:
		return json.Number("7")
	case mcpserver.Number:
		return json.Number("3.5")
	case mcpserver.List, mcpserver.Repeated:
		return []any{"a-" + p.Name, "b-" + p.Name}
	}
	if len(p.Enum) > 0 {
		return p.Enum[len(p.Enum)-1]
	}
	if strings.HasSuffix(p.Name, "timeout") {
		return "90s" // a duration flag parses its value
	}
	return "x-" + p.Name
}

// Every input of a run tool becomes a flag or an argument of its
// command, every flag it becomes is one the command has and parses to
// the value given: a flag renamed on the command line fails here, not in
// a user's agent.
func TestMCPToolInputsAreTheCommandsFlags(t *testing.T) {
	t.Parallel()
	root, tools := runTools(t)
	for _, tool := range tools {
		base, baseStdin := tool.Args(mcpserver.Input{})
		for _, p := range tool.Params {
			in := mcpserver.Input{p.Name: sample(p)}
			args, stdin := tool.Args(in)
			if slices.Equal(args, base) && stdin == baseStdin {
				t.Errorf("%s.%s changes nothing of the command line", tool.Name, p.Name)
				continue
			}
			cmd, rest, err := root.Find(args)
			if err != nil || cmd.Name() != tool.Name {
				t.Fatalf("%s.%s: %v runs %q (%v)", tool.Name, p.Name, args, cmd.Name(), err)
			}
			if err := cmd.ParseFlags(rest); err != nil {
				t.Errorf("%s.%s: arena %s does not take %v: %v", tool.Name, p.Name, cmd.Name(), args, err)
				continue
			}
			if p.Place == mcpserver.AsFlag {
				checkParsed(t, cmd, tool.Name, p, in[p.Name])
			}
			resetFlags(cmd)
		}
	}
}

// checkParsed checks that the flag p became holds the value given.
func checkParsed(t *testing.T, cmd *cobra.Command, tool string, p mcpserver.Param, v any) {
	t.Helper()
	f := cmd.Flag(p.Flag)
	got := f.Value.String()
	want := ""
	switch x := v.(type) {
	case []any:
		var parts []string
		for _, s := range x {
			parts = append(parts, s.(string))
		}
		want = strings.Join(parts, ",")
		got = strings.Trim(got, "[]")
	case json.Number:
		want = x.String()
	case bool:
		want = "true"
	case string:
		want = x
	}
	if strings.HasSuffix(p.Flag, "timeout") && got == "1m30s" {
		got = "90s"
	}
	if got != want {
		t.Errorf("%s.%s: --%s = %q, want %q", tool, p.Name, p.Flag, got, want)
	}
}

// resetFlags sets every flag of cmd (and those it inherits) back to its
// default, for the next parse.
func resetFlags(cmd *cobra.Command) {
	reset := func(f *pflag.Flag) {
		if f.Changed {
			if sv, ok := f.Value.(interface{ Replace([]string) error }); ok {
				_ = sv.Replace(nil)
			} else {
				_ = f.Value.Set(f.DefValue)
			}
			f.Changed = false
		}
	}
	cmd.Flags().VisitAll(reset)
	cmd.InheritedFlags().VisitAll(reset)
}

// Every run tool's budget becomes the command's budget flags.
func TestMCPBudgetInputs(t *testing.T) {
	t.Parallel()
	root, tools := runTools(t)
	for _, tool := range tools {
		args, _ := tool.Args(mcpserver.Input{"max_cost": json.Number("0.5"), "max_calls": json.Number("7"), "max_tokens": json.Number("9000")})
		cmd, rest, err := root.Find(args)
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.ParseFlags(rest); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		for flag, want := range map[string]string{"max-cost": "0.5", "max-calls": "7", "max-tokens": "9000"} {
			if f := cmd.Flag(flag); f == nil || f.Value.String() != want {
				t.Errorf("%s: --%s = %v, want %s", tool.Name, flag, f, want)
			}
		}
		resetFlags(cmd)
	}
}

// The tools' exit meanings are the commands' own, as their --help says.
func TestMCPExitMeaningsAreTheCommands(t *testing.T) {
	t.Parallel()
	_, tools := runTools(t)
	m := map[string]map[int]string{}
	for _, tool := range tools {
		m[tool.Name] = tool.Exits
		if tool.Exits[0] == "" || tool.Exits[2] == "" || tool.Exits[130] == "" || tool.Exits[75] == "" {
			t.Errorf("%s: %v", tool.Name, tool.Exits)
		}
	}
	if m["verdict"][5] != "reject" || !strings.HasPrefix(m["verdict"][6], "escalate") || m["debate"][3] != "no consensus: a tradeoff document was written" {
		t.Fatalf("%v", m)
	}
}

package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/demo"
	"github.com/arenadebate/arena/engine/mcpserver"
)

// Every protocol of the list has every part: a name its logs use and a
// command named once for everything (the command itself, its MCP tool,
// --protocol, demo), exit codes for every outcome it can end with, a
// resume rule whose flags its command has, a seating plan for its config
// section, an MCP tool, a recorded demo and its golden screens. A protocol
// added to the list without one of them fails here, not in a user's hands.
func TestEveryProtocolHasEveryPart(t *testing.T) {
	t.Parallel()
	root := newApp(strings.NewReader(""), io.Discard, io.Discard).rootCmd()
	tools, err := mcpTools(root)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]int{}
	for _, p := range protocols() {
		if p.name == "" || p.command == "" {
			t.Errorf("%+v: a protocol without a name or a command", p)
		}
		names[p.name]++
		if p.command != p.name {
			names[p.command]++
		}
		cmd, _, err := root.Find([]string{p.command})
		if err != nil || cmd == root || !p.runBy(cmd) {
			t.Errorf("%s: no command arena %s", p.name, p.command)
			continue
		}
		checkExits(t, p, cmd.UsageTemplate())
		checkResumeRule(t, p, cmd.Flags().Lookup)
		if p.seating.Protocol != p.name && !(p.root && p.seating.Protocol == "") {
			t.Errorf("%s: its seating plan is %q's", p.name, p.seating.Protocol)
		}
		if !slices.ContainsFunc(tools, func(tl mcpserver.Tool) bool {
			return tl.Name == p.command && tl.Protocol == p.name && tl.Description != ""
		}) {
			t.Errorf("%s: no MCP tool named %s", p.name, p.command)
		}
		checkDemo(t, p)
	}
	for n, count := range names {
		if count > 1 {
			t.Errorf("%q names %d protocols", n, count)
		}
	}
}

// checkExits wants the common codes and the protocol's own in its help.
func checkExits(t *testing.T, p protocol, usage string) {
	t.Helper()
	for _, code := range []int{exitOK, exitError, exitUsage, exitAborted, exitOverBudget, exitInterrupted} {
		if p.exits.meanings()[code] == "" {
			t.Errorf("%s: exit %d has no meaning", p.name, code)
		}
	}
	for _, k := range []engine.OutcomeKind{engine.OutcomeAborted, engine.OutcomeInterrupted, engine.OutcomeOverBudget} {
		if !slices.ContainsFunc(p.exits, func(e exit) bool { return slices.Contains(e.outcomes, k) }) {
			t.Errorf("%s: no exit code for a run that ends %s", p.name, k)
		}
	}
	if !strings.Contains(usage, p.exits.help()) {
		t.Errorf("%s: --help does not end with its exit codes", p.name)
	}
}

// checkResumeRule wants every flag the rule names to be the command's.
func checkResumeRule(t *testing.T, p protocol, lookup func(string) *pflag.Flag) {
	t.Helper()
	if len(p.resume.Flags) == 0 {
		t.Errorf("%s: no resume rule", p.name)
	}
	for _, f := range slices.Concat(p.resume.Flags, p.resume.Reads, p.resume.Writes) {
		if lookup(f) == nil {
			t.Errorf("%s: its resume rule names --%s, which arena %s does not take", p.name, f, p.command)
		}
	}
	for _, f := range slices.Concat(p.resume.Reads, p.resume.Writes) {
		if !slices.Contains(p.resume.Flags, f) {
			t.Errorf("%s: its resume rule reads or writes --%s without letting it through", p.name, f)
		}
	}
}

// checkDemo wants a recorded run of the protocol that reaches its outcome,
// and the golden screens drawn from it.
func checkDemo(t *testing.T, p protocol) {
	t.Helper()
	lc, err := demo.Read(p.name)
	if err != nil || len(lc.Events) == 0 || !lc.Complete {
		t.Errorf("%s: no demo that reaches an outcome (%v)", p.name, err)
	} else if st, _ := lc.Events[0].Payload.(engine.DebateStarted); st.Protocol != p.name {
		t.Errorf("%s: its demo is a %s run", p.name, st.Protocol)
	}
	root, err := clitest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	goldens, _ := filepath.Glob(filepath.Join(root, "tui", "testdata", "TestGolden", p.name+"_*.golden"))
	if len(goldens) == 0 {
		t.Errorf("%s: no golden screens in tui/testdata/TestGolden", p.name)
	}
	if _, err := os.Stat(filepath.Join(root, "engine", p.name)); err != nil {
		t.Errorf("%s: no engine/%s: %v", p.name, p.name, err)
	}
}

package main

import (
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/demo"
	"github.com/arenadebate/arena/settings"
	"github.com/arenadebate/arena/tui/mcpserver"
)

// Every protocol of the list (engine/protocols) has every part: a name its
// logs use and a command named once for everything (the command itself,
// its MCP tool, --protocol, demo), its words, a request, exit codes for
// every outcome it can end with, a resume rule naming its request's
// fields, a seating plan for its config section and that section in the
// starter config, an MCP tool, the fakes' replies to each of its reply
// shapes, a recorded demo and its golden screens. A protocol added to the
// list without one of them fails here, not in a user's hands; what a
// protocol needs to be one at all is TestAToyProtocolNeedsOnlyItsSpecAndItsLine's.
func TestEveryProtocolHasEveryPart(t *testing.T) {
	t.Parallel()
	a := newApp(strings.NewReader(""), io.Discard, io.Discard)
	root := a.rootCmd()
	tools := a.mcpTools()
	names := map[string]int{}
	shapes := fakeShapes(t)
	for _, p := range a.protocols() {
		if p.Name == "" || p.Command == "" {
			t.Errorf("%+v: a protocol without a name or a command", p)
		}
		names[p.Name]++
		if p.Command != p.Name {
			names[p.Command]++
		}
		cmd, _, err := root.Find([]string{p.Command})
		if err != nil || cmd == root || !p.runBy(cmd) {
			t.Errorf("%s: no command arena %s", p.Name, p.Command)
			continue
		}
		checkExits(t, p, cmd.UsageTemplate())
		checkResumeRule(t, p)
		if p.Seating.Protocol != p.Name && !(p.Root && p.Seating.Protocol == "") {
			t.Errorf("%s: its seating plan is %q's", p.Name, p.Seating.Protocol)
		}
		if !slices.ContainsFunc(tools, func(tl mcpserver.Tool) bool {
			return tl.Name == p.Command && tl.Protocol == p.Name && tl.Description != ""
		}) {
			t.Errorf("%s: no MCP tool named %s", p.Name, p.Command)
		}
		checkDemo(t, p)
		if p.Title == "" || p.Noun == "" || p.Words.Topic == "" || p.New == nil || len(p.Phases) == 0 || p.Phases[len(p.Phases)-1].Phase != engine.PhaseOutcome {
			t.Errorf("%s: a spec without a title, a noun, its words, a request or phases ending in the outcome", p.Name)
		}
		if (p.Seating.Protocol != "") != (p.ConfigExample != "") {
			t.Errorf("%s: a seating plan without its section in the starter config, or the other way round", p.Name)
		}
		for _, sh := range p.Shapes() {
			if !slices.Contains(shapes, sh) {
				t.Errorf("%s: the fake CLIs have no reply of its shape %s (challengers/fakecli/replies_%s.go)", p.Name, sh, p.Command)
			}
		}
	}
	for n, count := range names {
		if count > 1 {
			t.Errorf("%q names %d protocols", n, count)
		}
	}
	checkStarter(t, a)
}

// checkStarter wants the starter config, every line uncommented, to load
// with the protocols' seating plans and no warning: each protocol's
// section is one the settings read.
func checkStarter(t *testing.T, a *app) {
	t.Helper()
	yamlLine := regexp.MustCompile(`^# ( *[a-z_]+:.*| +#.*)$`) // a key, or a comment under one
	var on []string
	for _, l := range strings.Split(a.starter(), "\n") {
		if m := yamlLine.FindStringSubmatch(l); m != nil {
			on = append(on, m[1])
		}
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(path, []byte(strings.Join(on, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := settings.Load(settings.Flags{Config: &path}, settings.Env{Home: dir}, a.seatingPlans()...)
	if err != nil || len(s.Warnings) > 0 {
		t.Errorf("the starter config, uncommented, does not load: %v %q\n%s", err, s.Warnings, strings.Join(on, "\n"))
	}
}

// checkExits wants the common codes and the protocol's own in its help.
func checkExits(t *testing.T, p protocol, usage string) {
	t.Helper()
	for _, code := range []int{exitOK, exitError, exitUsage, exitAborted, exitOverBudget, exitInterrupted} {
		if p.AllExits().Meanings()[code] == "" {
			t.Errorf("%s: exit %d has no meaning", p.Name, code)
		}
	}
	for _, k := range []engine.OutcomeKind{engine.OutcomeAborted, engine.OutcomeInterrupted, engine.OutcomeOverBudget} {
		if !slices.ContainsFunc(p.AllExits(), func(e exit) bool { return slices.Contains(e.Outcomes, k) }) {
			t.Errorf("%s: no exit code for a run that ends %s", p.Name, k)
		}
	}
	if !strings.Contains(usage, p.AllExits().Help()) {
		t.Errorf("%s: --help does not end with its exit codes", p.Name)
	}
}

// checkResumeRule wants every field the rule names to be the request's.
func checkResumeRule(t *testing.T, p protocol) {
	t.Helper()
	fields := map[string]bool{}
	for _, f := range engine.FieldsOf(p.New()) {
		fields[f.Name] = true
	}
	r := p.Resume
	named := slices.Concat(r.Reads, r.Writes, r.Attached, slices.Collect(maps.Keys(r.Runs)))
	if r.First != "" {
		named = append(named, r.First)
	}
	for _, f := range named {
		if !fields[f] {
			t.Errorf("%s: its resume rule names %s, which its request does not hold", p.Name, f)
		}
	}
}

// checkDemo wants a recorded run of the protocol that reaches its outcome,
// and the golden screens drawn from it.
func checkDemo(t *testing.T, p protocol) {
	t.Helper()
	lc, err := demo.Read(p.Name)
	if err != nil || len(lc.Events) == 0 || !lc.Complete {
		t.Errorf("%s: no demo that reaches an outcome (%v)", p.Name, err)
	} else if st, _ := lc.Events[0].Payload.(engine.DebateStarted); st.Protocol != p.Name {
		t.Errorf("%s: its demo is a %s run", p.Name, st.Protocol)
	}
	root, err := clitest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	goldens, _ := filepath.Glob(filepath.Join(root, "tui", "testdata", "TestGolden", p.Name+"_*.golden"))
	if len(goldens) == 0 {
		t.Errorf("%s: no golden screens in tui/testdata/TestGolden", p.Name)
	}
	if _, err := os.Stat(filepath.Join(root, "engine", p.Name)); err != nil {
		t.Errorf("%s: no engine/%s: %v", p.Name, p.Name, err)
	}
}

// fakeShapes are the reply shapes the fake CLIs answer (fakecli shapes).
func fakeShapes(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command(clitest.Binary(t), "shapes").Output()
	if err != nil {
		t.Fatalf("fakecli shapes: %v", err)
	}
	return strings.Fields(string(out))
}

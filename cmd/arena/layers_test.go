package main

import (
	"encoding/json"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
)

// The top level's layers, and which of arena's packages each may import,
// its tests included: the command line on top; the screen and the
// settings beside each other over the engine; the engine over the agents.
// A test-support package sits at or below the packages it serves, so no
// test reaches up for it. A package lives at or below its lowest user;
// the only exceptions are the leaves, which import nothing of arena's and
// which the screen may import from below it: the cleaner of untrusted
// text (challengers/trust) and the clock (challengers/pace).
// Benchmarks (bench_test.go files) may also time
// the layers above them, the printer included, as bench/run reports it,
// but never import the command line or the settings.
func TestImportsPointDown(t *testing.T) {
	root, err := clitest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-json=ImportPath,Dir,GoFiles,TestGoFiles,XTestGoFiles", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	fset := token.NewFileSet()
	dec := json.NewDecoder(strings.NewReader(string(out)))
	checked := 0
	for dec.More() {
		var p struct {
			ImportPath, Dir                    string
			GoFiles, TestGoFiles, XTestGoFiles []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkg := strings.TrimPrefix(p.ImportPath, arenaModule)
		for _, name := range slices.Concat(p.GoFiles, p.TestGoFiles, p.XTestGoFiles) {
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			checked++
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if dep, ok := strings.CutPrefix(path, arenaModule); ok {
					checkImport(t, pkg, name, dep)
				}
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d files checked", checked)
	}
}

const arenaModule = "github.com/arenadebate/arena/"

// Issue 37: the command line is glue, and nothing below it knows it: no
// package outside cmd/ depends on cobra or pflag, so no request, rule or
// tool is written in flags (what arena mcp and arena resume rebuilt
// command lines from before).
func TestNothingBelowTheCommandLineKnowsFlags(t *testing.T) {
	root, err := clitest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Deps}} {{.}}{{end}}", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, deps, _ := strings.Cut(line, " ")
		if under(strings.TrimPrefix(pkg, arenaModule), "cmd") {
			continue
		}
		checked++
		for _, dep := range strings.Fields(deps) {
			if dep == "github.com/spf13/cobra" || dep == "github.com/spf13/pflag" {
				t.Errorf("%s depends on %s: only the command line knows flags", pkg, dep)
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d packages checked", checked)
	}
}

// forbidden are the layers each layer must not import.
var forbidden = map[string][]string{
	"engine":      {"cmd", "tui", "settings", "bench"},
	"tui":         {"cmd", "settings", "challengers", "bench"},
	"settings":    {"cmd", "tui", "engine", "bench"},
	"challengers": {"cmd", "tui", "settings", "engine", "bench"},
	"bench":       {"cmd", "tui", "settings"},
}

func under(path, dir string) bool { return path == dir || strings.HasPrefix(path, dir+"/") }

func isLeaf(pkg string) bool {
	return under(pkg, "challengers/trust") || under(pkg, "challengers/pace")
}

// checkImport checks that file name of package pkg may import dep.
func checkImport(t *testing.T, pkg, name, dep string) {
	t.Helper()
	layer, _, _ := strings.Cut(pkg, "/")
	if !strings.HasSuffix(name, "_test.go") && isLeaf(pkg) && !isLeaf(dep) {
		t.Errorf("%s/%s imports %s: a leaf imports nothing of arena's", pkg, name, dep)
	}
	if under(dep, layer) || isLeaf(dep) {
		return
	}
	rules := forbidden[layer]
	if strings.HasSuffix(name, "bench_test.go") {
		rules = []string{"cmd", "settings"}
	}
	for _, f := range rules {
		if under(dep, f) {
			t.Errorf("%s/%s imports %s: it points upward", pkg, name, dep)
		}
	}
}

// Only a protocol's own command file knows it: in cmd/arena, engine/NAME
// is imported by NAME.go (and NAME_*.go, such as verdict_hook.go) and its
// tests alone; the adversarial debate's command is debate.go. So a new
// protocol touches its own command's file, and no shared one.
func TestOnlyItsCommandKnowsAProtocol(t *testing.T) {
	command := map[string]string{"adversarial": "debate"} // protocol → its command's file name
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	const engine = "github.com/arenadebate/arena/engine/"
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		base := strings.TrimSuffix(strings.TrimSuffix(name, ".go"), "_test")
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			pkg, ok := strings.CutPrefix(path, engine)
			if !ok {
				continue
			}
			protocol, _, _ := strings.Cut(pkg, "/")
			if !isProtocol(t, protocol) {
				continue
			}
			own := command[protocol]
			if own == "" {
				own = protocol
			}
			if strings.HasSuffix(name, "_test.go") || base == own || strings.HasPrefix(base, own+"_") {
				continue
			}
			t.Errorf("%s imports %s: only %s.go, the protocol's command, may know it", name, path, own)
		}
	}
}

// isProtocol reports whether engine/dir is a protocol: a package whose
// Name constant the engine's start event carries.
func isProtocol(t *testing.T, dir string) bool {
	t.Helper()
	root, err := clitest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	matches, _ := filepath.Glob(filepath.Join(root, "engine", dir, "*.go"))
	for _, m := range matches {
		b, err := os.ReadFile(m)
		if err == nil && strings.Contains(string(b), "\nconst Name = ") {
			return true
		}
	}
	return false
}

package main

import (
	"encoding/json"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
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
	const mod = "github.com/arenadebate/arena/"
	forbidden := map[string][]string{ // layer → what it must not import
		"engine":      {"cmd", "tui", "settings", "bench"},
		"tui":         {"cmd", "settings", "challengers", "bench"},
		"settings":    {"cmd", "tui", "engine", "bench"},
		"challengers": {"cmd", "tui", "settings", "engine", "bench"},
		"bench":       {"cmd", "tui", "settings"},
	}
	leaves := []string{"challengers/trust", "challengers/pace"}
	under := func(path, dir string) bool { return path == dir || strings.HasPrefix(path, dir+"/") }
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
		pkg := strings.TrimPrefix(p.ImportPath, mod)
		layer, _, _ := strings.Cut(pkg, "/")
		for _, name := range append(append(p.GoFiles, p.TestGoFiles...), p.XTestGoFiles...) {
			rules := forbidden[layer]
			if strings.HasSuffix(name, "bench_test.go") {
				rules = []string{"cmd", "settings"}
			}
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			checked++
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				dep, ok := strings.CutPrefix(path, mod)
				if !ok {
					continue
				}
				leaf := false
				for _, l := range leaves {
					leaf = leaf || under(dep, l)
					if under(pkg, l) && !under(dep, l) && !strings.HasSuffix(name, "_test.go") {
						t.Errorf("%s/%s imports %s: a leaf imports nothing of arena's", pkg, name, dep)
					}
				}
				if under(pkg, layer) && under(dep, layer) {
					continue
				}
				for _, f := range rules {
					if !leaf && under(dep, f) {
						t.Errorf("%s/%s imports %s: it points upward", pkg, name, dep)
					}
				}
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d files checked", checked)
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

package main

import (
	"encoding/json"
	"go/ast"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
)

// Every usagef given an error wraps it with %w, as usagef's comment asks:
// with %v the cause is only text, and errors.Is and errors.As can no
// longer find it. The linters' errorlint checks fmt.Errorf alone, so this
// test type-checks the command's files and reads each usagef's format.
func TestUsageErrorsWrapTheirCause(t *testing.T) {
	root, err := clitest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	goList := func(args ...string) *json.Decoder {
		cmd := exec.Command("go", append([]string{"list"}, args...)...)
		cmd.Dir = root
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list %v: %v", args, err)
		}
		return json.NewDecoder(strings.NewReader(string(out)))
	}
	exports := map[string]string{}
	for dec := goList("-export", "-deps", "-json=ImportPath,Export", "./cmd/arena"); dec.More(); {
		var p struct{ ImportPath, Export string }
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		exports[p.ImportPath] = p.Export
	}
	var pkg struct {
		Dir     string
		GoFiles []string
	}
	if err := goList("-json=Dir,GoFiles", "./cmd/arena").Decode(&pkg); err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range pkg.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(pkg.Dir, name), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		return os.Open(exports[path])
	})}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	if _, err := conf.Check("main", fset, files, info); err != nil {
		t.Fatal(err)
	}
	errorType := types.Universe.Lookup("error").Type().Underlying().(*types.Interface)
	calls := 0
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "usagef" {
				return true
			}
			calls++
			format := info.Types[call.Args[0]].Value
			if format == nil || format.Kind() != constant.String {
				t.Errorf("%s: usagef's format is not a constant", fset.Position(call.Pos()))
				return true
			}
			for i, verb := range verbs(constant.StringVal(format)) {
				if 1+i >= len(call.Args) {
					break
				}
				if arg := call.Args[1+i]; verb != 'w' && types.Implements(info.Types[arg].Type, errorType) {
					t.Errorf("%s: usagef formats the error %s with %%%c: wrap it with %%w", fset.Position(arg.Pos()), types.ExprString(arg), verb)
				}
			}
			return true
		})
	}
	// A floor that a finder that found nothing would fail: the protocols'
	// own mistakes in what they are asked are inputs.Errorf, below.
	if calls < 30 {
		t.Fatalf("only %d calls of usagef found", calls)
	}
}

// verbs are a format's verbs, one per operand, in order.
func verbs(format string) []rune {
	var out []rune
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && strings.ContainsRune("+-# 0123456789.*[]", rune(format[i])) {
			i++
		}
		if i < len(format) && format[i] != '%' {
			out = append(out, rune(format[i]))
		}
	}
	return out
}

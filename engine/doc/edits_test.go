package doc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// The outcome document is built once, as data, and rendered per medium:
// no code edits a rendered document (issue 37). The rewriters that did are
// gone, and no function of the code that handles outcomes takes Markdown
// (a string parameter named md or markdown) and returns a string, but
// those named here with what they return instead of an edit.
func TestNoFunctionEditsARenderedDocument(t *testing.T) {
	gone := map[string]bool{
		"WithCosts": true, "WithResume": true, "WithModerator": true, "withSeatNotes": true,
		"belowTitle": true, "afterTitle": true,
		"foldSections": true, "foldTrail": true, "demote": true, "withHistory": true, "boundDocument": true,
	}
	notEdits := map[string]string{
		"replaceEarlier":   "the path of the file it wrote md to",
		"Outcome":          "the path of the copy of md it saved (judge's reports directory)",
		"renderOutcomeDoc": "md drawn for the screen (glamour)",
	}
	root := filepath.Join("..", "..")
	for _, dir := range []string{"engine", "tui"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			// tui/markdown draws any Markdown for a terminal, a reply
			// half-written included: it is the screen's renderer.
			if d.IsDir() && d.Name() == "markdown" || d.IsDir() && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
			if err != nil {
				return err
			}
			for _, decl := range f.Decls {
				fd, ok := decl.(*ast.FuncDecl)
				if !ok {
					continue
				}
				if gone[fd.Name.Name] {
					t.Errorf("%s: %s is back", path, fd.Name.Name)
				}
				if takesMarkdown(fd) && returnsString(fd) && notEdits[fd.Name.Name] == "" {
					t.Errorf("%s: %s takes Markdown and returns a string: build the document as data instead, and render it", path, fd.Name.Name)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func takesMarkdown(fd *ast.FuncDecl) bool {
	for _, p := range fd.Type.Params.List {
		if id, ok := p.Type.(*ast.Ident); ok && id.Name == "string" {
			for _, n := range p.Names {
				if l := strings.ToLower(n.Name); l == "md" || l == "markdown" {
					return true
				}
			}
		}
	}
	return false
}

func returnsString(fd *ast.FuncDecl) bool {
	if fd.Type.Results == nil {
		return false
	}
	for _, r := range fd.Type.Results.List {
		if id, ok := r.Type.(*ast.Ident); ok && id.Name == "string" {
			return true
		}
	}
	return false
}

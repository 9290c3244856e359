package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoSyntaxHighlighterLinked: Go runs every linked package's init
// before main, and chroma's (reached through glamour) parsed every lexer
// and style it embeds there: more than half of arena's start, for
// --version, doctor and headless debates alike. The outcome document has
// its own renderer now (tui/markdown.go); this keeps the heavy
// initialisers from coming back unnoticed through a new import.
func TestNoSyntaxHighlighterLinked(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, heavy := range []string{"github.com/alecthomas/chroma", "github.com/charmbracelet/glamour", "github.com/yuin/goldmark", "github.com/microcosm-cc/bluemonday"} {
			if strings.HasPrefix(pkg, heavy) {
				t.Errorf("arena links %s: its package initialisers run at every start (see GODEBUG=inittrace=1 arena --version)", pkg)
			}
		}
	}
}

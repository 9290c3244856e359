package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLibrariesLinked: arena draws Markdown with glamour (code highlighted
// by chroma), decodes the CLIs' stream events with encoding/json, infers
// and checks every JSON Schema (verdict records, the MCP tools) with one
// JSON Schema library, and has no hand-written stand-in for any of them.
// Three JSON Schema libraries were linked once (one to infer, one to
// validate, one for MCP); google/jsonschema-go does all of it. Glamour's and chroma's package
// initialisers cost tens of milliseconds at every start; that is
// accepted (issue 20), and this keeps a future "optimisation" from
// unlinking them again unnoticed.
func TestLibrariesLinked(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	for _, want := range []string{
		"github.com/charmbracelet/glamour",
		"github.com/alecthomas/chroma/v2",
		"encoding/json",
		"github.com/google/jsonschema-go/jsonschema",
	} {
		found := false
		for _, pkg := range deps {
			found = found || pkg == want
		}
		if !found {
			t.Errorf("arena does not link %s", want)
		}
	}
	for _, gone := range []string{"github.com/invopop/jsonschema", "github.com/santhosh-tekuri/jsonschema/v6"} {
		for _, pkg := range deps {
			if pkg == gone {
				t.Errorf("arena links %s besides google/jsonschema-go", gone)
			}
		}
	}
}

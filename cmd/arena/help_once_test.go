package main

import (
	"strings"
	"testing"
)

// Each command's help says its exit codes once, in its table: resume's
// said them in its prose too, worded otherwise.
func TestEachHelpSaysItsExitCodesOnce(t *testing.T) {
	t.Parallel()
	root := newApp(strings.NewReader(""), nil, nil).rootCmd()
	for _, c := range root.Commands() {
		if c.Hidden || c.Name() == "help" {
			continue
		}
		code, out, stderr := runHere(c.Name(), "--help")
		if code != 0 {
			t.Fatalf("arena %s --help: exit %d\n%s", c.Name(), code, stderr)
		}
		if n := strings.Count(out, "Exit codes"); n > 1 {
			t.Errorf("arena %s --help says its exit codes %d times:\n%s", c.Name(), n, out)
		}
	}
}

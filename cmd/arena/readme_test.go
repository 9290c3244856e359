package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
)

// readmeBlock returns the lines of the first code block after a heading
// of the README.
func readmeBlock(t *testing.T, heading string) []string {
	t.Helper()
	root, err := clitest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("the README has no %q", heading)
	}
	_, rest, _ = strings.Cut(rest, "```\n")
	block, _, ok := strings.Cut(rest, "```\n")
	if !ok {
		t.Fatalf("no code block under %q", heading)
	}
	return strings.Split(strings.TrimSpace(block), "\n")
}

// The README's way to try arena without any model CLI works as written:
// the fake CLIs installed under the real names, put first on PATH, carry a
// whole debate. Only `go install …@latest`, which fetches the published
// module, is replaced by building the same package from this checkout.
func TestREADMETryItWithoutAModelCLI(t *testing.T) {
	lines := readmeBlock(t, "### Try it without a model CLI")
	const install = "go install github.com/arenadebate/arena/challengers/fakecli@latest"
	if len(lines) != 3 || lines[0] != install || !strings.HasPrefix(lines[1], "fakecli install ") || !strings.HasPrefix(lines[2], "PATH=") {
		t.Fatalf("the README's commands changed; update this test:\n%s", strings.Join(lines, "\n"))
	}
	root := t.TempDir()
	bin, home, work := filepath.Join(root, "gobin"), filepath.Join(root, "home"), filepath.Join(root, "work")
	for _, d := range []string{bin, home, work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// What go install would put in GOBIN, and arena itself on PATH.
	for name, pkg := range map[string]string{"fakecli": "./challengers/fakecli", "arena": "./cmd/arena"} {
		flags := []string{}
		if name == "arena" {
			flags = clitest.WithRace() // the binary the other end-to-end tests run
		}
		if err := os.Symlink(clitest.Build(t, pkg, flags...), filepath.Join(bin, name)); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	script := "set -e\n" + strings.Join(lines[1:], "\n") + "\n"
	cmd := exec.CommandContext(ctx, "bash", "-c", script)
	cmd.Dir = work
	cmd.Env = []string{"HOME=" + home, "PATH=" + bin + ":/usr/local/bin:/usr/bin:/bin", "NO_COLOR=1"}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s\n%s", err, out.String(), errb.String())
	}
	for _, want := range []string{"(DEBATE)", "Seats: claude (defender), gemini (challenger), codex (challenger), qwen (challenger)", "Log of this debate: debate-logs/"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the run printed no %q:\n%s\n%s", want, out.String(), errb.String())
		}
	}
	for _, fake := range []string{"claude", "gemini", "codex", "qwen"} {
		if _, err := os.Lstat(filepath.Join(home, ".cache", "arena-fakes", fake)); err != nil {
			t.Errorf("fakecli install made no %s: %v", fake, err)
		}
	}
}

// The README's go install commands name this module's packages.
func TestREADMEInstallNamesThisModule(t *testing.T) {
	root, err := clitest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	module, _, _ := strings.Cut(strings.TrimPrefix(string(gomod), "module "), "\n")
	if got, want := readmeBlock(t, "## Install"), "go install "+module+"/cmd/arena@latest"; len(got) != 1 || got[0] != want {
		t.Errorf("the README installs with %q, want %q", got, want)
	}
	if got := readmeBlock(t, "### Try it without a model CLI")[0]; !strings.HasPrefix(got, "go install "+module+"/challengers/fakecli@") {
		t.Errorf("the README installs the fakes with %q", got)
	}
}

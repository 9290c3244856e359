package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
)

// readmeBlock returns the lines of the first code block after a heading
// of the README.
func readmeBlock(t *testing.T, heading string) []string {
	t.Helper()
	return readmeBlocks(t, heading)[0]
}

// readmeBlocks returns the lines of each code block after a heading of
// the README, up to the next heading.
func readmeBlocks(t *testing.T, heading string) [][]string {
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
	var blocks [][]string
	for {
		before, after, ok := strings.Cut(rest, "```\n")
		if !ok || strings.Contains(before, "\n#") {
			break
		}
		block, next, ok := strings.Cut(after, "```\n")
		if !ok {
			break
		}
		blocks = append(blocks, strings.Split(strings.TrimSpace(block), "\n"))
		rest = next
	}
	if len(blocks) == 0 {
		t.Fatalf("no code block under %q", heading)
	}
	return blocks
}

// The README's way to try arena without any model CLI works as written:
// the fake CLIs installed under the real names, put first on PATH, carry a
// whole debate. Only `go install …@latest`, which fetches the published
// module, is replaced by building the same package from this checkout.
func TestREADMETryItWithoutAModelCLI(t *testing.T) {
	t.Parallel()
	blocks := readmeBlocks(t, "### Try it without a model CLI")
	const install = "go install ./challengers/fakecli"
	if len(blocks) != 2 || len(blocks[1]) != 3 || blocks[1][0] != install || !strings.HasPrefix(blocks[1][1], "fakecli install ") || !strings.HasPrefix(blocks[1][2], "PATH=") {
		t.Fatalf("the README's commands changed; update this test:\n%q", blocks)
	}
	for i, lines := range blocks {
		t.Run([]string{"from a clone", "installed"}[i], func(t *testing.T) {
			t.Parallel()
			tryFakes(t, lines)
		})
	}
}

// cloneBuild is how the README builds the fakes in a clone; the test puts
// the binary it built there instead (issue 32, point 11: the commands
// called arena, which a clone's ./arena is not).
const cloneBuild = "go build -o fakecli ./challengers/fakecli && "

// tryFakes runs the README's lines for the fakes: a clone's, with ./arena
// and ./fakecli built, or an installed arena's, with both on PATH.
func tryFakes(t *testing.T, lines []string) {
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
	if strings.HasPrefix(lines[0], cloneBuild) {
		// A clone: ./arena and ./fakecli in the working directory, neither on PATH.
		for _, name := range []string{"arena", "fakecli"} {
			if err := os.Rename(filepath.Join(bin, name), filepath.Join(work, name)); err != nil {
				t.Fatal(err)
			}
		}
		lines = append([]string{strings.TrimPrefix(lines[0], cloneBuild)}, lines[1:]...)
	} else {
		lines = lines[1:] // go install: done above
	}
	script := "set -e\n" + strings.Join(lines, "\n") + "\n"
	cmd := exec.CommandContext(ctx, "bash", "-c", script)
	cmd.Dir = work
	// GORACE: the race detector's arena (and its run's supervisor) would
	// otherwise sleep a second as it exits (faults_test.go's init).
	cmd.Env = []string{"HOME=" + home, "PATH=" + bin + ":/usr/local/bin:/usr/bin:/bin", "NO_COLOR=1", "GORACE=" + os.Getenv("GORACE")}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s\n%s", err, out.String(), errb.String())
	}
	for _, want := range []string{"(DEBATE)", "Seats: claude (defender), gemini (challenger), codex (challenger),", "Log of this debate: debate-logs/"} {
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

// The README's install lines work on a fresh home from a clone (issue 40,
// point 2): `go install ./cmd/arena` puts arena in GOBIN, and the copy
// into ~/.local/bin makes the directory it needs. The module is not
// published, so nothing may say `go install …@latest`.
func TestREADMEInstallWorksOnAFreshHome(t *testing.T) {
	clitest.SkipShort(t)
	t.Parallel()
	root, err := clitest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(readme), "@latest") {
		t.Error("the README installs with go install …@latest: the module is not published")
	}
	block := readmeBlock(t, "## Install")
	if len(block) != 1 || block[0] != "go install ./cmd/arena" {
		t.Fatalf("the README's install block changed; update this test:\n%q", block)
	}
	copyLine := regexp.MustCompile("`(mkdir -p ~/.local/bin && install -m 755 arena ~/.local/bin/)`").FindStringSubmatch(string(readme))
	if copyLine == nil {
		t.Fatal("the README no longer says how to copy arena into ~/.local/bin; update this test")
	}
	home, gobin, work := t.TempDir(), t.TempDir(), t.TempDir()
	if err := os.Symlink(clitest.Build(t, "./cmd/arena"), filepath.Join(work, "arena")); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "HOME="+home, "GOBIN="+gobin)
	for _, c := range []struct{ dir, line string }{{root, block[0]}, {work, copyLine[1]}} {
		cmd := exec.Command("bash", "-c", "set -e\n"+c.line)
		cmd.Dir, cmd.Env = c.dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", c.line, err, out)
		}
	}
	for _, bin := range []string{filepath.Join(gobin, "arena"), filepath.Join(home, ".local", "bin", "arena")} {
		out, err := exec.Command(bin, "--version").CombinedOutput()
		if err != nil || !strings.HasPrefix(string(out), "arena ") {
			t.Errorf("%s --version: %v %q", bin, err, out)
		}
	}
}

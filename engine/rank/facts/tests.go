package facts

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/trust"
)

// TestRun is the result of running a repository's own tests.
type TestRun struct {
	Ran      bool   `json:"ran"`
	Command  string `json:"command,omitempty"`
	Passed   int    `json:"passed"`
	Failed   int    `json:"failed"`
	Skipped  int    `json:"skipped"`
	ExitCode int    `json:"exit_code"`
	TimedOut bool   `json:"timed_out,omitempty"`
	// Counted says whether the counts were read from the runner's output
	// (false: arena could not find them, and they are 0).
	Counted bool   `json:"counted"`
	Error   string `json:"error,omitempty"`
	// LeftOut names what the export of the tree left out ("path: why"):
	// symbolic links, submodules, the model CLIs' configuration.
	LeftOut []string `json:"left_out,omitempty"`
	Output  string   `json:"-"` // the tail of the output, for the person
}

// Total is every test counted.
func (t TestRun) Total() int { return t.Passed + t.Failed + t.Skipped }

// Detect names the test command of a checked-out tree, from the files at
// its root: go.mod, package.json with a test script, Cargo.toml, a Python
// project. nil when none is recognised. The tree is read beneath itself
// (trust.OpenRoot), as every file set from a directory is.
func Detect(dir string) []string {
	root, err := trust.OpenRoot(dir)
	if err != nil {
		return nil
	}
	defer root.Close()
	has := func(name string) bool { _, err := root.Stat(name); return err == nil }
	switch {
	case has("go.mod"):
		// -json lets arena count every test, subtests included, without
		// reading prose; -count=1 runs them rather than replaying a
		// cached result.
		return []string{"go", "test", "-count=1", "-json", "./..."}
	case has("Cargo.toml"):
		return []string{"cargo", "test"}
	case has("package.json") && npmHasTest(root):
		return []string{"npm", "test"}
	case has("pytest.ini") || has("pyproject.toml") || has("setup.py") || has("setup.cfg") || has("tox.ini") || has("tests") && hasPy(dir):
		return []string{"pytest"}
	}
	return nil
}

// npmHasTest says whether the tree's package.json (at most 1 MiB) names a
// test script.
func npmHasTest(root *trust.Dir) bool {
	b, err := root.ReadFile("package.json", 1<<20)
	if err != nil {
		return false
	}
	var p struct {
		Scripts map[string]string `json:"scripts"`
	}
	return json.Unmarshal(b, &p) == nil && p.Scripts["test"] != ""
}

func hasPy(dir string) bool {
	m, _ := filepath.Glob(filepath.Join(dir, "tests", "*.py"))
	return len(m) > 0
}

// Export writes the tree of rev into a new private temporary directory
// and returns it with the function that removes it. arena runs tests
// there, not in the repository: the export leaves the repository
// untouched (no worktree entry, no lock left behind if arena is killed),
// the tests cannot write into the person's work tree, and the export
// applies none of the repository's own configuration (trust.ExportTree:
// no filter driver runs, symbolic links, submodules and the model CLIs'
// configuration are left out and named). The directory is the reaper's
// (challengers.TempDir): a SIGKILL of arena does not leave it behind.
func Export(ctx context.Context, dir, rev string) (trust.Export, func(), error) {
	tmp, remove, err := challengers.TempDir("arena-rank-tests-")
	if err != nil {
		return trust.Export{}, remove, err
	}
	ex, err := trust.ExportTree(ctx, dir, rev, tmp)
	if err != nil {
		remove()
		return ex, func() {}, fmt.Errorf("export %s: %w", rev, err)
	}
	return ex, remove, nil
}

// maxOutput bounds the test output kept in memory to count from.
const maxOutput = 16 << 20

// Run runs command in a temporary checkout of rev with a timeout, and
// counts passed, failed and skipped tests from its output. command is
// an argv, or one shell command line when it has a single element holding
// spaces (the config's rank.test_command).
func Run(ctx context.Context, dir, rev string, command []string, timeout time.Duration) TestRun {
	tr := TestRun{Command: strings.Join(command, " ")}
	ex, remove, err := Export(ctx, dir, rev)
	if err != nil {
		tr.Error = err.Error()
		return tr
	}
	defer remove()
	tree := ex.Dir
	tr.LeftOut = ex.LeftOut
	if command == nil {
		command = Detect(tree)
		tr.Command = strings.Join(command, " ")
	}
	if command == nil {
		tr.Error = "no test suite found (no go.mod, package.json test script, Cargo.toml or Python project); set rank.test_command in the config"
		return tr
	}
	return runIn(ctx, tree, command, timeout, tr)
}

func runIn(ctx context.Context, tree string, command []string, timeout time.Duration, tr TestRun) TestRun {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	argv := command
	if len(argv) == 1 && strings.ContainsAny(argv[0], " \t|&;") {
		argv = []string{"sh", "-c", argv[0]}
	}
	// Its own process group, under the run's supervisor: the timeout
	// stops what the tests started too, so does a SIGKILL of arena, and
	// what they leave running when they exit is ended then.
	var out bytes.Buffer
	w := &capped{b: &out, n: maxOutput}
	run := challengers.RunGroup(ctx, argv, tree, append(os.Environ(), "CI=true", "NO_COLOR=1"), w)
	if !run.Started {
		tr.Error = run.Err.Error()
		tr.ExitCode = -1
		return tr
	}
	tr.Ran = true
	tr.ExitCode = run.ExitCode
	if ctx.Err() == context.DeadlineExceeded {
		tr.TimedOut = true
		tr.Error = fmt.Sprintf("timed out after %s", timeout)
	} else if run.Err != nil && tr.ExitCode < 0 {
		tr.Error = run.Err.Error()
		tr.Ran = false
	}
	text := out.String()
	tr.Output = tail(text, 4000)
	if len(command) > 2 && command[0] == "go" && command[1] == "test" && contains(command, "-json") {
		tr.Passed, tr.Failed, tr.Skipped, tr.Counted = CountGoJSON(text)
	} else {
		tr.Passed, tr.Failed, tr.Skipped, tr.Counted = Count(text)
	}
	if !tr.Counted && tr.ExitCode != 0 && tr.Error == "" {
		tr.Error = fmt.Sprintf("exited %d and no test counts could be read from its output", tr.ExitCode)
	}
	return tr
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

type capped struct {
	b *bytes.Buffer
	n int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.n - c.b.Len(); room > 0 {
		c.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// CountGoJSON counts the test results of `go test -json` output: one
// pass, fail or skip action per test (subtests included). A package that
// fails to build has no test actions; it counts as one failure, so a
// broken build never reads as a clean run.
func CountGoJSON(out string) (passed, failed, skipped int, ok bool) {
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	pkgFailed := map[string]bool{}
	pkgHasTests := map[string]bool{}
	for sc.Scan() {
		var ev struct{ Action, Package, Test string }
		if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Action == "" {
			continue
		}
		ok = true
		if ev.Test == "" {
			if ev.Action == "fail" {
				pkgFailed[ev.Package] = true
			}
			continue
		}
		switch ev.Action {
		case "pass":
			passed++
			pkgHasTests[ev.Package] = true
		case "fail":
			failed++
			pkgHasTests[ev.Package] = true
		case "skip":
			skipped++
			pkgHasTests[ev.Package] = true
		}
	}
	for p := range pkgFailed {
		if !pkgHasTests[p] {
			failed++
		}
	}
	return passed, failed, skipped, ok
}

var (
	// pytest: "== 3 passed, 1 failed, 2 skipped in 0.12s ==".
	pytestRe = regexp.MustCompile(`(?m)^=+ .*\b(?:passed|failed|skipped|error)\b.* in [\d.]+s`)
	countRe  = regexp.MustCompile(`(\d+) (passed|failed|skipped|errors?|xfailed|xpassed)`)
	// cargo: "test result: ok. 3 passed; 1 failed; 2 ignored; ...", one per binary.
	cargoRe = regexp.MustCompile(`test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored`)
	// jest: "Tests:       1 failed, 1 skipped, 4 passed, 6 total".
	jestRe = regexp.MustCompile(`(?m)^Tests:\s+(.*\d+ total)`)
	// mocha: "  4 passing", "  1 failing", "  2 pending".
	mochaRe = regexp.MustCompile(`(?m)^\s*(\d+) (passing|failing|pending)\b`)
	// go test -v: "--- PASS: TestX", also indented for subtests.
	goVRe = regexp.MustCompile(`(?m)^\s*--- (PASS|FAIL|SKIP): `)
)

// Count reads test counts from a runner's text output: pytest, cargo,
// jest, mocha or `go test -v`. ok is false when none is recognised.
func Count(out string) (passed, failed, skipped int, ok bool) {
	if ms := cargoRe.FindAllStringSubmatch(out, -1); len(ms) > 0 {
		for _, m := range ms {
			passed += atoi(m[1])
			failed += atoi(m[2])
			skipped += atoi(m[3])
		}
		return passed, failed, skipped, true
	}
	if m := jestRe.FindStringSubmatch(out); m != nil {
		for _, c := range regexp.MustCompile(`(\d+) (passed|failed|skipped|todo)`).FindAllStringSubmatch(m[1], -1) {
			switch c[2] {
			case "passed":
				passed += atoi(c[1])
			case "failed":
				failed += atoi(c[1])
			default:
				skipped += atoi(c[1])
			}
		}
		return passed, failed, skipped, true
	}
	if ls := pytestRe.FindAllString(out, -1); len(ls) > 0 {
		for _, c := range countRe.FindAllStringSubmatch(ls[len(ls)-1], -1) {
			switch c[2] {
			case "passed", "xpassed":
				passed += atoi(c[1])
			case "failed", "error", "errors":
				failed += atoi(c[1])
			default:
				skipped += atoi(c[1])
			}
		}
		return passed, failed, skipped, true
	}
	if ms := mochaRe.FindAllStringSubmatch(out, -1); len(ms) > 0 {
		for _, m := range ms {
			switch m[2] {
			case "passing":
				passed += atoi(m[1])
			case "failing":
				failed += atoi(m[1])
			default:
				skipped += atoi(m[1])
			}
		}
		return passed, failed, skipped, true
	}
	if ms := goVRe.FindAllStringSubmatch(out, -1); len(ms) > 0 {
		for _, m := range ms {
			switch m[1] {
			case "PASS":
				passed++
			case "FAIL":
				failed++
			default:
				skipped++
			}
		}
		return passed, failed, skipped, true
	}
	return 0, 0, 0, false
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

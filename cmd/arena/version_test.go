package main

import (
	"debug/buildinfo"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
)

// buildInfo parses the build information as `go version -m` prints it.
func buildInfo(t *testing.T, text string) *debug.BuildInfo {
	t.Helper()
	bi, err := debug.ParseBuildInfo(strings.ReplaceAll(text, "|", "\t"))
	if err != nil {
		t.Fatal(err)
	}
	return bi
}

func TestVersionText(t *testing.T) {
	const head = "go|go1.26.8\npath|github.com/arenadebate/arena/cmd/arena\n"
	cases := []struct {
		name, stamped, info, want string
	}{
		{"go install @version", "", head + "mod|github.com/arenadebate/arena|v1.4.0|h1:abc=\n", "v1.4.0"},
		{"go install @latest of a commit", "", head + "mod|github.com/arenadebate/arena|v0.0.0-20250314093000-0123456789ab|h1:abc=\n",
			"v0.0.0-20250314093000-0123456789ab"},
		{"go build in a clean clone", "", head + "mod|github.com/arenadebate/arena|(devel)|\nbuild|vcs=git\n" +
			"build|vcs.revision=0123456789abcdef0123456789abcdef01234567\nbuild|vcs.time=2025-03-14T09:30:00Z\nbuild|vcs.modified=false\n",
			"dev (commit 0123456789ab, 2025-03-14T09:30:00Z)"},
		{"go build with changes", "", head + "mod|github.com/arenadebate/arena|(devel)|\nbuild|vcs=git\n" +
			"build|vcs.revision=0123456789abcdef0123456789abcdef01234567\nbuild|vcs.time=2025-03-14T09:30:00Z\nbuild|vcs.modified=true\n",
			"dev (commit 0123456789ab, modified)"},
		{"go 1.24+ in a clone: a pseudo-version and the commit", "", head + "mod|github.com/arenadebate/arena|v0.0.0-20250314093000-0123456789ab+dirty|\nbuild|vcs=git\n" +
			"build|vcs.revision=0123456789abcdef0123456789abcdef01234567\nbuild|vcs.modified=true\n",
			"v0.0.0-20250314093000-0123456789ab+dirty (commit 0123456789ab, modified)"},
		{"-buildvcs=false", "", head + "mod|github.com/arenadebate/arena|(devel)|\n", "dev"},
		{"stamped", "v2.0.0", head + "mod|github.com/arenadebate/arena|(devel)|\nbuild|vcs.revision=0123456789abcdef\n", "v2.0.0 (commit 0123456789ab)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := versionText(c.stamped, buildInfo(t, c.info)); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
	if got := versionText("", nil); got != "dev" {
		t.Errorf("no build information: %q", got)
	}
}

// The built binary says what its own build information says, and a
// stamped version wins over it.
func TestVersionFromTheBuiltBinary(t *testing.T) {
	for _, c := range []struct {
		name    string
		flags   []string
		stamped string
	}{
		{"unstamped", clitest.WithRace(), ""},
		{"stamped", clitest.WithRace("-ldflags=-X main.version=v9.8.7"), "v9.8.7"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // each links a binary of its own
			bin := clitest.Build(t, "./cmd/arena", c.flags...)
			out, err := exec.Command(bin, "--version").Output()
			if err != nil {
				t.Fatal(err)
			}
			info, err := buildinfo.ReadFile(bin)
			if err != nil {
				t.Fatal(err)
			}
			want := "arena version " + versionText(c.stamped, info) + "\n"
			if string(out) != want {
				t.Fatalf("--version printed %q, want %q", out, want)
			}
			if c.stamped != "" && !strings.HasPrefix(string(out), "arena version "+c.stamped) {
				t.Fatalf("--version printed %q", out)
			}
		})
	}
}

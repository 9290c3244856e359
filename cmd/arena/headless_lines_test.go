package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// headlessLines bounds each protocol's printed run with the fakes, so
// that what issue 32 (point 8) cut cannot creep back: the ledger twice,
// every justification twice, each judge's report twice, the secret-skip
// warning three times, 25-column seat prefixes, rank's 900-character
// "Seats:" line. Before: debate (one round) 145 lines, compare 303,
// judge 449, verdict 54, rank 372.
var headlessLines = map[string]int{"debate": 123, "compare": 258, "judge": 263, "verdict": 51, "rank": 362}

func TestHeadlessRunsSayEachThingOnce(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	spec, repos := rankSetup(t, s, "alpha", "gamma")
	sol := s.writeSolution(t)
	os.WriteFile(filepath.Join(s.dir, "src", "api", ".env"), []byte("API_KEY=sk-0123456789abcdef0123456789abcdef\n"), 0o600)
	runs := map[string][]string{
		"debate":  {"--max-rounds", "1", "should we move sessions from Redis to Postgres?"},
		"compare": compareArgs[1:],
		"judge":   {"judge", filepath.Dir(sol), "--task", "create users"},
		"verdict": {"verdict", sol, "--task-id", "issue-18"},
		"rank":    append([]string{"rank", spec}, repos...),
	}
	for name, args := range runs {
		if name == "compare" {
			args = append([]string{"compare"}, args...)
		}
		r := s.run(append([]string{"--no-tui", "--no-log"}, args...)...)
		if r.code == exitUsage || r.code == exitError || r.code == exitAborted {
			t.Fatalf("%s: exit %d\n%s\n%s", name, r.code, tail(r.stdout, 2000), r.stderr)
		}
		n := strings.Count(r.stdout, "\n")
		t.Logf("%s: %d lines", name, n)
		if n > headlessLines[name] {
			t.Errorf("%s prints %d lines, more than %d", name, n, headlessLines[name])
		}
		for _, l := range strings.Split(r.stdout, "\n") {
			if prefix, _, ok := strings.Cut(l, " │ "); ok && len([]rune(prefix)) > 20 {
				t.Errorf("%s: a %d-column prefix: %q", name, len([]rune(prefix)), l)
				break
			}
		}
	}
}

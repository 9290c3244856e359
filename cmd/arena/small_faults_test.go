package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The small faults of issue 19 item 8, each against the built binary.

func TestWrongArgumentCountsAreUsageErrors(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	for _, args := range [][]string{{"ask"}, {"replay", "a", "b"}, {"demo", "a", "b"}, {"doctor", "extra"}, {"logs", "x", "y"}, {"config", "x"}} {
		if r := s.run(args...); r.code != exitUsage || r.stderr == "" {
			t.Errorf("arena %s: exit %d, want %d\n%s", strings.Join(args, " "), r.code, exitUsage, r.stderr)
		}
	}
	if len(s.fakes.Calls()) != 0 {
		t.Fatal("a usage error asked a model")
	}
}

func TestJudgeRefusesBadNumbersBeforeAskingAnyone(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	sol := s.writeSolution(t)
	file := filepath.Join(s.dir, "a-file")
	os.WriteFile(file, []byte("x"), 0o600)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--min-score", "NaN"}, "--min-score must be from 1 to 5, got NaN"},
		{[]string{"--criteria", "a:1e308,b:1"}, `the weight "1e308" must be a number above 0 and at most 1000`},
		{[]string{"--reports-dir", file}, "--reports-dir " + file + " cannot hold the reports: " + file + ": cannot be written: not a directory"},
		{[]string{"--reports-dir", filepath.Join(file, "sub")}, "cannot hold the reports: " + file + ": cannot be written: not a directory"},
	} {
		r := s.run(append([]string{"judge", sol, "--task", "user API", "--no-tui"}, c.args...)...)
		if r.code != exitUsage || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%q: exit %d, want %d and %q\n%s", c.args, r.code, exitUsage, c.want, r.stderr)
		}
	}
	if len(s.fakes.Calls()) != 0 {
		t.Fatal("a refused judging asked a judge")
	}
}

// TestNoChallengersIsSaidByTheDebateAlone: with no challenger installed,
// only a debate says "challengers: none usable"; doctor, logs, config and
// the other protocols do not print it.
func TestNoChallengersIsSaidByTheDebateAlone(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, "claude")
	const warning = "challengers: none usable"
	for _, args := range [][]string{{"config"}, {"logs"}, {"doctor"}, {"judge", s.writeSolution(t), "--task", "x", "--no-tui", "--no-log"}} {
		if r := s.run(args...); strings.Contains(r.stderr+r.stdout, warning) {
			t.Errorf("arena %s says %q:\n%s", args[0], warning, r.stderr)
		}
	}
	if r := s.run("--no-tui", "a topic"); !strings.Contains(r.stderr, warning) {
		t.Errorf("the debate does not say %q: exit %d\n%s", warning, r.code, r.stderr)
	}
}

// TestJudgeWithNoCLIInstalledSaysSo: the abort names no judge left, not
// "0 judges left, and one judge cannot reach a consensus".
func TestJudgeWithNoCLIInstalledSaysSo(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	sol := s.writeSolution(t)
	r := s.runWithEnv([]string{"PATH=" + t.TempDir() + ":/usr/bin:/bin"}, "judge", sol, "--task", "user API", "--no-tui", "--no-log")
	if r.code != exitAborted || !strings.Contains(r.stdout, "no judge left: a consensus needs at least two") ||
		!strings.Contains(r.stdout, `is not installed ("claude" is not on PATH)`) || strings.Contains(r.stdout, "0 judges left") {
		t.Fatalf("exit %d\n%s\n%s", r.code, tail(r.stdout, 2000), r.stderr)
	}
}

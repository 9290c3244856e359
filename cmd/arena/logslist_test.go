package main

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestLogsFitEightyColumns: arena logs, printed to a pipe, fits 80
// columns; -n keeps the newest N; --json is a line a run (issue 32,
// point 6).
func TestLogsFitEightyColumns(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	for _, topic := range []string{"should we move the sessions of every user from Redis to Postgres before March?", "which queue?"} {
		if r := s.run("--no-tui", "--max-rounds", "1", topic); r.code != exitConsensus {
			t.Fatalf("exit %d\n%s", r.code, r.stderr)
		}
	}
	r := s.run("logs")
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if r.code != 0 || len(lines) != 6 {
		t.Fatalf("exit %d, %d lines:\n%s%s", r.code, len(lines), r.stdout, r.stderr)
	}
	for _, l := range lines {
		if utf8.RuneCountInString(l) > 80 {
			t.Errorf("%d columns: %s", utf8.RuneCountInString(l), l)
		}
	}
	if !strings.Contains(lines[0], "which queue?") || !strings.HasSuffix(lines[2], ".jsonl") {
		t.Fatalf("not newest first, or no log path:\n%s", r.stdout)
	}
	if r := s.run("logs", "-n", "1"); strings.Count(r.stdout, "\n") != 3 {
		t.Fatalf("-n 1:\n%s", r.stdout)
	}
	r = s.run("logs", "--json", "-n", "1")
	var run struct{ Path, Result, Topic string }
	if err := json.Unmarshal([]byte(r.stdout), &run); err != nil || strings.Count(r.stdout, "\n") != 1 || run.Result != "consensus" || run.Topic != "which queue?" {
		t.Fatalf("--json -n 1: %v\n%s", err, r.stdout)
	}
}

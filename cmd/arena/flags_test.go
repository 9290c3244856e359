package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// runHere runs arena in this process, with nothing on stdin.
func runHere(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = newApp(strings.NewReader(""), &out, &errb).execute(args)
	return code, out.String(), errb.String()
}

// Issue 37: each command takes the settings' flags it uses and no other;
// one it would ignore is a usage error, not silence.
func TestACommandRefusesSettingsItDoesNotUse(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"man", "--max-cost", "5"},
		{"logs", "--max-rounds", "2"},
		{"demo", "--defender", "codex"},
		{"config", "--max-rounds", "2"},
		{"replay", "--challengers", "gemini"},
		{"install", "claude", "--timeout", "5s"},
		{"label", "x.jsonl", "accept", "--config", "c.yaml"},
		{"compare", "which?", "--option", "a", "--option", "b", "--max-rounds", "2"},
		{"verdict", "--task-id", "x", "--timeout", "5s", "-"},
	} {
		// Parsed as arena parses them, without running what they would.
		root := newApp(strings.NewReader(""), io.Discard, io.Discard).rootCmd()
		cmd, rest, err := root.Find(args)
		if err == nil {
			err = cmd.ParseFlags(rest)
		}
		if err == nil || !strings.Contains(err.Error(), "unknown flag: --") {
			t.Errorf("arena %s: %v", strings.Join(args, " "), err)
		}
	}
	// And as arena runs them: a usage error, exit 2.
	for _, args := range [][]string{{"man", "--max-cost", "5"}, {"logs", "--max-rounds", "2"}} {
		if code, _, stderr := runHere(args...); code != exitUsage || !strings.Contains(stderr, "unknown flag") {
			t.Errorf("arena %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
		}
	}
}

// Issue 37 and 40.10: each command's help shows its own defaults, and no
// other command's flags.
func TestEachCommandsHelpIsItsOwn(t *testing.T) {
	t.Parallel()
	help := func(args ...string) string {
		t.Helper()
		code, out, stderr := runHere(append(args, "--help")...)
		if code != 0 {
			t.Fatalf("arena %v --help: exit %d\n%s", args, code, stderr)
		}
		return out
	}
	if h := help("judge"); !strings.Contains(h, "debate rounds between the judges (default 3)") || strings.Contains(h, "(default 5)") {
		t.Errorf("arena judge --help:\n%s", h)
	}
	for _, args := range [][]string{{}, {"debate"}} {
		if h := help(args...); !strings.Contains(h, "maximum confrontation rounds (default 5)") {
			t.Errorf("arena %v --help:\n%s", args, h)
		}
	}
	if h := help("verdict"); !strings.Contains(h, "out of the work tree") || strings.Contains(h, "--max-rounds") || strings.Contains(h, "--timeout") {
		t.Errorf("arena verdict --help:\n%s", h)
	}
	for _, cmd := range []string{"demo", "config", "replay", "install", "logs", "stats", "man", "label"} {
		h := help(cmd)
		for _, debate := range []string{"--defender", "--challengers", "--max-rounds", "--max-cost", "--no-log", "--context"} {
			if strings.Contains(h, debate) {
				t.Errorf("arena %s --help lists %s:\n%s", cmd, debate, h)
			}
		}
	}
}

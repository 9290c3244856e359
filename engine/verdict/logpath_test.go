package verdict

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"
)

func TestLogPath(t *testing.T) {
	dir := t.TempDir()
	if got, err := LogPath("", dir, false); err != nil || got != "" {
		t.Fatalf("logs off: %q, %v", got, err)
	}
	want := filepath.Join(dir, "verdicts", "verdicts.jsonl")
	if got, err := LogPath("", dir, true); err != nil || got != want {
		t.Fatalf("default: %q, %v", got, err)
	}
	// Made by the first record, not before: a run that asks no judge
	// leaves nothing (issue 32, point 2).
	if _, err := os.Stat(filepath.Dir(want)); !os.IsNotExist(err) {
		t.Fatalf("the log's directory was made before any record: %v", err)
	}
	// --log is written even with logs off.
	own := filepath.Join(dir, "mine.jsonl")
	if got, err := LogPath(own, dir, false); err != nil || got != own {
		t.Fatalf("--log: %q, %v", got, err)
	}
	if err := os.WriteFile(own, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := LogPath(filepath.Join(dir, "mine.jsonl", "x.jsonl"), dir, true); err == nil {
		t.Fatalf("a log under a file: %q", got)
	}
}

func TestRunID(t *testing.T) {
	if got := RunID("/logs/2026-11-23-100000-verdict-t.jsonl", "t"); got != "2026-11-23-100000-verdict-t" {
		t.Fatalf("from the log: %q", got)
	}
	got := RunID("", "issue 18")
	if !regexp.MustCompile(`verdict.*-` + strconv.Itoa(os.Getpid()) + `$`).MatchString(got) {
		t.Fatalf("without a log: %q", got)
	}
}

func TestParseSeatTimeout(t *testing.T) {
	for in, want := range map[string]time.Duration{"30s": 30 * time.Second, " 2m ": 2 * time.Minute, "45": 45 * time.Second} {
		if got, err := ParseSeatTimeout(in); err != nil || got != want {
			t.Errorf("%q: %v, %v; want %v", in, got, err, want)
		}
	}
	for in, msg := range map[string]string{
		"soon": `"soon" is not a duration (use 30s, 2m, or a number of seconds)`,
		"0":    `must be more than 0, got "0"`,
		"-5s":  `must be more than 0, got "-5s"`,
	} {
		if _, err := ParseSeatTimeout(in); err == nil || err.Error() != msg {
			t.Errorf("%q: %v, want %q", in, err, msg)
		}
	}
}

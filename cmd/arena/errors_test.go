package main

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
	"github.com/arenadebate/arena/settings"
)

// TestUsageErrorsKeepTheirCause: a usage error says its sentence to the
// user and still carries its cause, so errors.Is finds the sentinel or
// errno under it. They used to be formatted with %v, which kept only the
// cause's text: errors.Is(err, runlog.ErrNotALog) could never match once
// arena replay had worded it.
func TestUsageErrorsKeepTheirCause(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	junk := write("junk.jsonl", "this is not a log\n")
	empty := write("empty.jsonl", "")
	line, err := json.Marshal(engine.Event{Seq: 1, Payload: engine.DebateStarted{Version: engine.LogVersion + 1, Topic: "t"}})
	if err != nil {
		t.Fatal(err)
	}
	newer := write("newer.jsonl", string(line)+"\n")
	notADir := write("file", "")
	missing := filepath.Join(dir, "missing.jsonl")

	cases := []struct {
		name string
		args []string
		is   error
		says string // part of the sentence the user sees
	}{
		{"replay of a file that is not a log", []string{"replay", "--no-tui", junk}, runlog.ErrNotALog, "not an arena debate log"},
		{"replay of an empty file", []string{"replay", "--no-tui", empty}, runlog.ErrNotALog, "the file is empty"},
		{"replay of a log from a newer arena", []string{"replay", "--no-tui", newer}, runlog.ErrNewerLog, "upgrade arena"},
		{"replay of a missing file", []string{"replay", "--no-tui", missing}, fs.ErrNotExist, "no such file"},
		{"a missing topic file", []string{"-f", missing}, fs.ErrNotExist, "topic file " + missing + ": does not exist"},
		{"a missing context file", []string{"--context", missing, "a topic"}, fs.ErrNotExist, "context file " + missing + ": does not exist"},
		{"a log directory under a file", []string{"--no-tui", "--log-dir", filepath.Join(notADir, "logs"), "a topic"}, syscall.ENOTDIR, "cannot save the debate log"},
		{"logs in a directory under a file", []string{"logs", "--log-dir", filepath.Join(notADir, "logs")}, syscall.ENOTDIR, "cannot list debate logs"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := executeInProcess(t, tc.args...)
			if !errors.Is(err, tc.is) {
				t.Errorf("errors.Is(%v, %v) is false", err, tc.is)
			}
			var ue usageError
			if !errors.As(err, &ue) {
				t.Errorf("%v is not a usage error (exit 2)", err)
			}
			if err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("the user reads %q; want it to say %q", err, tc.says)
			}
		})
	}
}

// executeInProcess runs arena's command line in this process, with no
// agent installed and a home of its own, and returns the error the
// command ended with (what execute turns into a message and exit code).
func executeInProcess(t *testing.T, args ...string) error {
	t.Helper()
	home := t.TempDir()
	a := newApp(strings.NewReader(""), io.Discard, io.Discard)
	a.isTTY = func() bool { return false }
	a.env = settings.Env{
		Home: home, ConfigHome: filepath.Join(home, ".config"), CacheDir: filepath.Join(home, ".cache"),
		LookPath: func(string) (string, error) { return "", exec.ErrNotFound },
	}
	root := a.rootCmd()
	root.SetArgs(args)
	root.SetIn(a.stdin)
	root.SetOut(io.Discard)
	root.SetErr(io.Discard)
	return root.Execute()
}

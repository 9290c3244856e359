package clitest

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers/fakecli/fakeapi"
)

func TestInstallLinksTheFakes(t *testing.T) {
	dir := Install(t, "claude", "agy")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"agy", "claude"}) {
		t.Errorf("installed %q", names)
	}
	out, err := exec.Command(filepath.Join(dir, "claude"), "--version").Output()
	if err != nil || string(out) != "2.1.330 (Claude Code)\n" {
		t.Errorf("claude --version: %q, %v", out, err)
	}
}

func TestEnv(t *testing.T) {
	// A directory with a "real" CLI on the inherited PATH must not survive.
	real := t.TempDir()
	if err := os.WriteFile(filepath.Join(real, "gemini"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", real+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
	t.Setenv("ARENA_FAKE_AGENT", "leaked")

	f := New(t)
	env := f.Env("TERM=dumb", "ARENA_FAKE_LOG=/elsewhere")
	get := func(k string) (string, int) {
		var v string
		n := 0
		for _, kv := range env {
			if key, val, _ := strings.Cut(kv, "="); key == k {
				v, n = val, n+1
			}
		}
		return v, n
	}
	path, _ := get("PATH")
	dirs := filepath.SplitList(path)
	if dirs[0] != f.Dir || slices.Contains(dirs, real) {
		t.Errorf("PATH %q: want %s first and %s gone", path, f.Dir, real)
	}
	if v, n := get("ARENA_FAKE_LOG"); v != "/elsewhere" || n != 1 {
		t.Errorf("ARENA_FAKE_LOG %q set %d times; the extra value should replace ours", v, n)
	}
	if v, _ := get("ARENA_FAKE_SCRIPT"); v != f.Script {
		t.Errorf("ARENA_FAKE_SCRIPT %q, want %q", v, f.Script)
	}
	for _, k := range []string{"GEMINI_CLI_TRUST_WORKSPACE", "ARENA_FAKE_AGENT"} {
		if _, n := get(k); n != 0 {
			t.Errorf("%s inherited", k)
		}
	}
}

func TestSetenvAndCalls(t *testing.T) {
	f := New(t, "codex")
	f.SetScript(&Script{Agents: map[string]AgentScript{"codex": {
		Steps: map[string][]Step{"other": {{Reply: "scripted"}}},
	}}})
	f.Setenv(t)
	out, err := exec.Command("codex", "exec", "--skip-git-repo-check", "Say hello").Output()
	if err != nil || string(out) != "scripted\n" {
		t.Fatalf("codex via PATH: %q, %v", out, err)
	}
	calls := f.Calls()
	if len(calls) != 1 || calls[0].Agent != "codex" || calls[0].Kind != KindOther || calls[0].Index != 0 {
		t.Errorf("calls %+v", calls)
	}
	if got := f.CallsTo("claude"); len(got) != 0 {
		t.Errorf("calls to claude %+v", got)
	}
	if _, ok := f.GrandchildPID("codex"); ok {
		t.Error("a grandchild pid without a grandchild")
	}
}

// A record caught half-written (no newline yet) is left for the next
// read, not taken for a broken log.
func TestCallsSkipsARecordStillBeingWritten(t *testing.T) {
	f := New(t, "codex")
	whole := `{"agent":"codex","argv0":"codex","index":0,"pid":1}` + "\n"
	path := filepath.Join(f.Log, fakeapi.CallLogFile)
	if err := os.MkdirAll(f.Log, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(whole+`{"agent":"codex","argv0":"co`), 0o644); err != nil {
		t.Fatal(err)
	}
	if calls := f.Calls(); len(calls) != 1 || calls[0].Agent != "codex" {
		t.Fatalf("calls %+v", calls)
	}
}

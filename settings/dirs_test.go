package settings

import (
	"path/filepath"
	"slices"
	"testing"
)

// A verdict's logs go out of the work tree, into the state directory,
// unless the person chose a log directory; the saved runs are in both.
func TestLogDirs(t *testing.T) {
	e := newTestEnv(t)
	t.Setenv("XDG_STATE_HOME", "relative/is/ignored")
	state := filepath.Join(e.Home, ".local", "state", "arena")
	if got := StateDir(e.Env); got != state {
		t.Fatalf("StateDir = %q", got)
	}
	s := e.load(Flags{})
	verdicts := filepath.Join(state, "verdict-logs")
	if got := s.LogDirs(e.Env); !slices.Equal(got, []string{"./debate-logs", verdicts}) || s.VerdictLogDir(e.Env) != verdicts {
		t.Fatalf("LogDirs = %q", got)
	}
	dir := "/elsewhere"
	s = e.load(Flags{LogDir: &dir})
	if got := s.LogDirs(e.Env); !slices.Equal(got, []string{dir}) || s.VerdictLogDir(e.Env) != dir {
		t.Fatalf("with --log-dir, LogDirs = %q", got)
	}
	t.Setenv("XDG_STATE_HOME", "/state")
	if got := StateDir(Env{}); got != "/state/arena" {
		t.Fatalf("StateDir = %q", got)
	}
	t.Setenv("XDG_STATE_HOME", "")
	if got := StateDir(Env{}); got != "" {
		t.Fatalf("no home: StateDir = %q", got)
	}
}

package main

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
)

// The key is kept in arena's state directory, and what arena signs with
// it holds for arena itself (runlog: TestKeySignsAndIsPrivate tests the
// key and the signature).
func TestLogKeyIsKeptInTheStateDirectory(t *testing.T) {
	home := t.TempDir()
	a := newApp(strings.NewReader(""), io.Discard, io.Discard)
	a.env.Home = home
	t.Setenv("XDG_STATE_HOME", "")
	if got, want := a.logKeyPath(), filepath.Join(home, ".local", "state", "arena", "log-key"); got != want {
		t.Fatalf("key at %s, want %s", got, want)
	}
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	if got, want := a.logKeyPath(), filepath.Join(state, "arena", "log-key"); got != want {
		t.Fatalf("with XDG_STATE_HOME: key at %s, want %s", got, want)
	}
	key, err := a.logKey(true)
	if err != nil {
		t.Fatal(err)
	}
	inv := engine.Invocation{Args: []string{"--no-tui", "topic"}, Dir: "/work"}
	inv.MAC = runlog.Sign(key, "adversarial", inv)
	if !a.signedHere("adversarial", inv) {
		t.Fatal("arena's own signature does not hold")
	}
}

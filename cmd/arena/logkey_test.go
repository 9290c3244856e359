package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/arenadebate/arena/engine"
)

func TestLogKeySignsAndIsPrivate(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_STATE_HOME", "")
	a := newApp(strings.NewReader(""), io.Discard, io.Discard)
	a.env.Home = home
	// Arenas started together make one key between them.
	keys := make([][]byte, 8)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Go(func() {
			k, err := a.logKey(true)
			if err != nil {
				t.Error(err)
			}
			keys[i] = k
		})
	}
	wg.Wait()
	for _, k := range keys[1:] {
		if string(k) != string(keys[0]) {
			t.Fatal("two keys were made")
		}
	}
	path := filepath.Join(home, ".local", "state", "arena", "log-key")
	st, err := os.Stat(path)
	dst, _ := os.Stat(filepath.Dir(path))
	if err != nil || st.Mode().Perm() != 0o600 || dst.Mode().Perm() != 0o700 {
		t.Fatalf("key %v, dir %v, err %v", st.Mode().Perm(), dst.Mode().Perm(), err)
	}
	inv := engine.Invocation{Args: []string{"--no-tui", "topic"}, Dir: "/work", Stdin: ""}
	inv.MAC = signInvocation(keys[0], "adversarial", inv)
	if !a.signedHere("adversarial", inv) {
		t.Fatal("arena's own signature does not hold")
	}
	for name, bad := range map[string]func(engine.Invocation) (string, engine.Invocation){
		"args": func(i engine.Invocation) (string, engine.Invocation) {
			i.Args = []string{"--context", "/etc/passwd", "topic"}
			return "adversarial", i
		},
		"dir":      func(i engine.Invocation) (string, engine.Invocation) { i.Dir = "/elsewhere"; return "adversarial", i },
		"stdin":    func(i engine.Invocation) (string, engine.Invocation) { i.Stdin = "x"; return "adversarial", i },
		"protocol": func(i engine.Invocation) (string, engine.Invocation) { return "verdict", i },
		"no mac":   func(i engine.Invocation) (string, engine.Invocation) { i.MAC = ""; return "adversarial", i },
	} {
		if p, i := bad(inv); a.signedHere(p, i) {
			t.Errorf("%s changed: the signature still holds", name)
		}
	}
	// A key others can read is no key.
	os.Chmod(path, 0o644)
	if a.signedHere("adversarial", inv) {
		t.Fatal("a world-readable key was trusted")
	}
}

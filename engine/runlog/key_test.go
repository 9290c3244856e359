package runlog

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/arenadebate/arena/engine"
)

func TestKeySignsAndIsPrivate(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "state", "arena", KeyName)
	// Arenas started together make one key between them.
	keys := make([][]byte, 8)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Go(func() {
			k, err := Key(path, true)
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
	st, err := os.Stat(path)
	dst, _ := os.Stat(filepath.Dir(path))
	if err != nil || st.Mode().Perm() != 0o600 || dst.Mode().Perm() != 0o700 {
		t.Fatalf("key %v, dir %v, err %v", st.Mode().Perm(), dst.Mode().Perm(), err)
	}
	inv := engine.Invocation{Args: []string{"--no-tui", "topic"}, Dir: "/work", Stdin: ""}
	inv.MAC = Sign(keys[0], "adversarial", inv)
	if !Signed(keys[0], "adversarial", inv) {
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
		if p, i := bad(inv); Signed(keys[0], p, i) {
			t.Errorf("%s changed: the signature still holds", name)
		}
	}
	// A key others can read is no key.
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Key(path, false); err == nil {
		t.Fatal("a world-readable key was read")
	}
}

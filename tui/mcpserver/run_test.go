package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A run is asked to stop once, however many ask: a second SIGINT is a
// person's second Ctrl+C, which quits at once with no outcome written,
// and a session ending with its server stopped each of its runs twice
// (sessionEnds, then StopAll), leaving their logs without an outcome.
func TestARunIsAskedToStopOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	seen, release := filepath.Join(dir, "seen"), filepath.Join(dir, "release")
	// The stand-in records each SIGINT and SIGUSR1 it gets, in order,
	// until it is released.
	script := "#!/bin/sh\n" +
		"trap 'echo INT >> " + seen + "' INT\n" +
		"trap 'echo USR1 >> " + seen + "' USR1\n" +
		"printf '{\"arena_events\":1,\"log_path\":\"\"}\\n' >&3\n" +
		"while [ ! -e " + release + " ]; do sleep 0.01; done\n"
	fake := filepath.Join(dir, "arena")
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	m := NewManager(Config{Arena: fake, Dir: dir})
	r, err := m.startRun("debate", Launch{Protocol: "adversarial"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	waitFor := func(want string) {
		t.Helper()
		deadline := time.Now().Add(time.Minute) // a hang, not slowness
		for {
			b, _ := os.ReadFile(seen)
			if strings.HasSuffix(string(b), want+"\n") {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the run saw %q, not %s", b, want)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	r.stop()
	waitFor("INT")
	r.stop()
	// A marker sent after the second stop: a SIGINT sent before it,
	// pending or not, is handled first (the lower signal number).
	if err := r.cmd.Process.Signal(syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	waitFor("USR1")
	os.WriteFile(release, nil, 0o600)
	<-r.done
	if b, _ := os.ReadFile(seen); string(b) != "INT\nUSR1\n" {
		t.Fatalf("the run got %q", b)
	}
}

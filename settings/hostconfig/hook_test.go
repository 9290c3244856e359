package hostconfig

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

// The hook is signed on its second line with the SHA-256 of the rest of
// it, and names the arena that wrote it, quoted for sh.
func TestHookScript(t *testing.T) {
	script := string(HookScript("/opt/o'brien/arena"))
	first, rest, _ := strings.Cut(script, "\n")
	sig, body, _ := strings.Cut(rest, "\n")
	sum := sha256.Sum256([]byte(first + "\n" + body))
	if first != "#!/bin/sh" || sig != "# arena-verdict-hook sha256="+hex.EncodeToString(sum[:]) {
		t.Errorf("head:\n%s\n%s", first, sig)
	}
	if !strings.Contains(body, "\ninstalled='/opt/o'\\''brien/arena'\n") {
		t.Errorf("the installed arena is not quoted:\n%s", body)
	}
	if string(HookScript("/a")) == string(HookScript("/b")) {
		t.Error("the hook is not a function of the arena's path")
	}
}

// A hook is arena's while its signature matches: one byte edited, the
// signature line moved or cut short, and it is someone else's.
func TestHookOurs(t *testing.T) {
	script := string(HookScript("/usr/local/bin/arena"))
	sigEnd := strings.Index(script[10:], "\n") + 10
	for _, c := range []struct {
		name, hook string
		ours       bool
	}{
		{"as written", script, true},
		{"for another arena", string(HookScript("/opt/arena")), true},
		{"edited", strings.Replace(script, "blocked=0", "blocked=0\necho extra", 1), false},
		{"a line appended", script + "echo extra\n", false},
		{"the signature changed", strings.Replace(script, "sha256=", "sha256=0", 1), false},
		{"the signature line last, unfinished", script[:sigEnd], false},
		{"no signature", "#!/bin/sh\necho my own checks\n", false},
		{"empty", "", false},
	} {
		if got := HookOurs([]byte(c.hook)); got != c.ours {
			t.Errorf("%s: HookOurs = %v", c.name, got)
		}
	}
}

package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPHTTPTakesTheTokenThePersonMade (issue 36, item 9): the token
// openssl rand -hex 32 writes (64 hex digits and a newline) is taken, and
// a request carrying it goes through; a token file another user owns, or
// other users may read, is refused at once, exit 2, naming the file and
// what is wrong, and nothing is served. (arena failed on the first with
// "the token: F: cannot be read back" after a second of retries, and as
// root took the second.)
func TestMCPHTTPTakesTheTokenThePersonMade(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	const hex = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
	made := filepath.Join(s.home, ".local", "state", "arena", "mcp-token")
	if err := os.MkdirAll(filepath.Dir(made), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(made, []byte(hex+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h := s.httpMCP()
	if res, body := h.post(hex, "", initialize); res.StatusCode != http.StatusOK {
		t.Fatalf("initialize with the token the person made: %s %s", res.Status, body)
	}
	if b, _ := os.ReadFile(made); string(b) != hex+"\n" {
		t.Fatalf("the token file was changed: %q", b)
	}

	refused := func(what, path, says string) {
		t.Helper()
		r := s.run("mcp", "--http", "127.0.0.1:0", "--token-file", path)
		if r.code != exitUsage || !strings.Contains(r.stderr, path) || !strings.Contains(r.stderr, says) || strings.Contains(r.stderr, "serving on") {
			t.Errorf("%s: exit %d\n%s", what, r.code, r.stderr)
		}
	}
	readable := filepath.Join(s.home, "readable-token")
	os.WriteFile(readable, []byte(hex+"\n"), 0o644)
	os.Chmod(readable, 0o644)
	refused("a token other users may read", readable, "can be read or written by other users (mode 0644): chmod 600")
	short := filepath.Join(s.home, "short-token")
	os.WriteFile(short, []byte("hunter2\n"), 0o600)
	refused("a short token", short, "holds a token of 7 bytes: it must have at least 32")
	if os.Geteuid() == 0 {
		planted := filepath.Join(s.home, "planted-token")
		os.WriteFile(planted, []byte(hex+"\n"), 0o600)
		if err := os.Chown(planted, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		refused("a token another user planted", planted, "belongs to ")
	}
}

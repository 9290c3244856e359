package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A token file is any printable secret of 32 bytes or more, surrounding
// white space trimmed, owned by the user and no other user's to read or
// write; each refusal names the file and what is wrong (issue 36, item
// 9: the token openssl rand -hex 32 writes, with its newline, was
// refused as "cannot be read back", and one another user owned taken).
func TestTokenFiles(t *testing.T) {
	hex := "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
	for _, c := range []struct {
		name, content string
		mode          os.FileMode
		uid           int // the owner when not 0 (root only)
		want, refused string
	}{
		{name: "openssl rand -hex 32", content: hex + "\n", mode: 0o600, want: hex},
		{name: "a passphrase among spaces", content: "  \t" + strings.Repeat("Tr0ub4dor&3", 3) + " \r\n\n", mode: 0o600, want: strings.Repeat("Tr0ub4dor&3", 3)},
		{name: "exactly 32 bytes", content: hex[:32], mode: 0o400, want: hex[:32]},
		{name: "31 bytes", content: hex[:31] + "\n", mode: 0o600, refused: "holds a token of 31 bytes: it must have at least 32"},
		{name: "empty", content: "", mode: 0o600, refused: "holds a token of 0 bytes"},
		{name: "a control character", content: hex[:20] + "\x01" + hex[20:], mode: 0o600, refused: "holds a control character at byte 21"},
		{name: "two words", content: hex[:32] + " " + hex[32:], mode: 0o600, refused: "holds a space at byte 33"},
		{name: "two lines", content: hex[:32] + "\n" + hex[32:], mode: 0o600, refused: "holds a line break at byte 33"},
		{name: "not ASCII", content: hex + "é", mode: 0o600, refused: "a byte that is not ASCII"},
		{name: "group-readable", content: hex, mode: 0o640, refused: "can be read or written by other users (mode 0640): chmod 600"},
		{name: "world-readable", content: hex, mode: 0o604, refused: "(mode 0604)"},
		{name: "group-writable", content: hex, mode: 0o620, refused: "(mode 0620)"},
		{name: "another user's", content: hex, mode: 0o600, uid: 65534, refused: "belongs to "},
		{name: "a whole document", content: strings.Repeat(hex+"\n", 100), mode: 0o600, refused: "is larger than 4 KiB"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "token")
			if err := os.WriteFile(path, []byte(c.content), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, c.mode); err != nil {
				t.Fatal(err)
			}
			if c.uid != 0 {
				if os.Geteuid() != 0 {
					t.Skip("a file of another user's is made by root (chown): run the tests as root")
				}
				if err := os.Chown(path, c.uid, c.uid); err != nil {
					t.Fatal(err)
				}
			}
			for _, create := range []bool{false, true} {
				tok, err := Token(path, create)
				switch {
				case c.refused == "" && (err != nil || tok != c.want):
					t.Fatalf("Token = %q, %v; want %q", tok, err, c.want)
				case c.refused != "" && (err == nil || !strings.Contains(err.Error(), c.refused) || !strings.Contains(err.Error(), path)):
					t.Fatalf("Token = %q, %v; want an error naming %s and saying %q", tok, err, path, c.refused)
				}
			}
			if b, _ := os.ReadFile(path); string(b) != c.content {
				t.Fatalf("the token file was changed: %q", b)
			}
		})
	}
}

// A missing token file is made (64 hex digits, 0600, in a
// 0700 directory), and read back as itself; a FIFO is refused without
// waiting for a writer.
func TestTokenFileMadeAndRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "arena")
	path := filepath.Join(dir, "mcp-token")
	if _, err := Token(path, false); err == nil {
		t.Fatal("a missing token file read without making it")
	}
	tok, err := Token(path, true)
	if err != nil || len(tok) != 64 {
		t.Fatalf("made %q, %v", tok, err)
	}
	if again, err := Token(path, true); err != nil || again != tok {
		t.Fatalf("read back %q, %v", again, err)
	}
	for p, want := range map[string]os.FileMode{path: 0o600, dir: 0o700} {
		if st, err := os.Stat(p); err != nil || st.Mode().Perm() != want {
			t.Fatalf("%s: %v %v", p, st.Mode(), err)
		}
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Token(fifo, true); err == nil || !strings.Contains(err.Error(), "the token file "+fifo+": is a FIFO") {
		t.Fatalf("a FIFO: %v", err)
	}
}

package hostconfig

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Read takes a configuration that is not there as an empty one, keeps
// the mode of one that is, and will not edit a link or a directory.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.json")
	if doc, mode, err := Read(dir, missing); doc != nil || mode != 0o600 || err != nil {
		t.Errorf("missing: %q %v %v", doc, mode, err)
	}
	cfg := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(cfg, []byte("{}\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(cfg, 0o640); err != nil { // past the umask
		t.Fatal(err)
	}
	if doc, mode, err := Read(dir, cfg); string(doc) != "{}\n" || mode != 0o640 || err != nil {
		t.Errorf("regular: %q %v %v", doc, mode, err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(cfg, link); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		link: "it is a symbolic link, and arena writes a file by replacing it, which would replace the link",
		dir:  "it is not a regular file",
	} {
		if doc, _, err := Read(dir, path); doc != nil || !errors.Is(err, ErrUnsafe) || err.Error() != want {
			t.Errorf("%s: %q %v", path, doc, err)
		}
	}
	if _, _, err := Read(dir, filepath.Join(cfg, "below")); err == nil || errors.Is(err, ErrUnsafe) {
		t.Errorf("below a file: %v, want an error that is not a refusal", err)
	}
}

// Replace writes the whole file with the mode given, and not through a
// link that appeared since Read.
func TestReplace(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "new", "config.toml")
	if err := Replace(dir, cfg, []byte("a = 1\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(cfg); string(b) != "a = 1\n" {
		t.Errorf("written %q", b)
	}
	if st, _ := os.Stat(cfg); st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v", st.Mode().Perm())
	}
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("theirs\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "new", "link.toml")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := Replace(dir, link, []byte("a = 1\n"), 0o600); err == nil {
		t.Error("replaced a symbolic link")
	}
	if b, _ := os.ReadFile(target); string(b) != "theirs\n" {
		t.Errorf("written through the link: %q", b)
	}
}

func TestTilde(t *testing.T) {
	for _, c := range []struct{ path, home, want string }{
		{"/home/u/.claude.json", "/home/u", "~/.claude.json"},
		{"/home/u", "/home/u", "/home/u"},
		{"/home/user2/.claude.json", "/home/u", "/home/user2/.claude.json"},
		{"/home/u/.claude.json", "", "/home/u/.claude.json"},
	} {
		if got := Tilde(c.path, c.home); got != c.want {
			t.Errorf("Tilde(%q, %q) = %q, want %q", c.path, c.home, got, c.want)
		}
	}
}

// A command file ends with the marker, after one blank line, however its
// text ended; it stays arena's while the marker is there.
func TestCommandFile(t *testing.T) {
	const want = "---\ndescription: x\n---\nDebate $ARGUMENTS.\n\n" + CommandMarker + "\n"
	for _, body := range []string{"---\ndescription: x\n---\nDebate $ARGUMENTS.", "---\ndescription: x\n---\nDebate $ARGUMENTS.\n\n\n"} {
		if got := CommandFile([]byte(body)); string(got) != want {
			t.Errorf("%q:\n%q", body, got)
		}
	}
	for file, ours := range map[string]bool{
		want:                         true,
		"edited\n" + CommandMarker:   true,
		"my own /debate\n":           false,
		CommandMarker[:20] + "...\n": false,
	} {
		if CommandOurs([]byte(file)) != ours {
			t.Errorf("CommandOurs(%q) = %v", file, !ours)
		}
	}
}

// CommandFile does not write into the text it was given.
func TestCommandFileLeavesItsInputAlone(t *testing.T) {
	buf := make([]byte, 0, 256) // room to append in place
	buf = append(buf, "text\n\n\n"...)
	CommandFile(buf)
	if string(buf) != "text\n\n\n" {
		t.Errorf("the body was overwritten: %q", buf)
	}
}

// A configuration made read-only, or one with a second name (a hard
// link, as dotfiles managers make), is not replaced: the first says it
// is not to be changed, and replacing the second would part it from its
// twin, which would keep the old text. Each refusal says how to go on.
func TestReadRefusesWhatItMustNotReplace(t *testing.T) {
	dir := t.TempDir()
	readOnly := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(readOnly, []byte("a = 1\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(linked, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(linked, filepath.Join(dir, "dotfiles-settings.json")); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string][]string{
		readOnly: {"it is read-only (mode 0444)", "chmod u+w " + readOnly},
		linked:   {"it has 2 hard links", "its other names would keep the old text", "cp " + linked + " " + linked + ".copy && mv " + linked + ".copy " + linked},
	} {
		doc, _, err := Read(dir, path)
		if doc != nil || !errors.Is(err, ErrUnsafe) {
			t.Fatalf("%s: %q %v", path, doc, err)
		}
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q lacks %q", path, err, w)
			}
		}
	}
}

// Replace refuses what Read would have, should it have changed since
// Read looked, and leaves the file as it was.
func TestReplaceRefusesWhatChangedSinceRead(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(cfg, []byte("a = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chmod(cfg, 0o400)
	if err := Replace(dir, cfg, []byte("a = 2\n"), 0o600); !errors.Is(err, ErrUnsafe) || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("read-only: %v", err)
	}
	os.Chmod(cfg, 0o600)
	if err := os.Link(cfg, filepath.Join(dir, "twin.toml")); err != nil {
		t.Fatal(err)
	}
	if err := Replace(dir, cfg, []byte("a = 2\n"), 0o600); !errors.Is(err, ErrUnsafe) || !strings.Contains(err.Error(), "hard links") {
		t.Errorf("linked: %v", err)
	}
	if b, _ := os.ReadFile(cfg); string(b) != "a = 1\n" {
		t.Errorf("written: %q", b)
	}
}

// What is written is read back first by a strict parser of its format:
// TOML 1.0 (an inline table is complete in itself), JSON with each key
// once an object. Nothing is written otherwise.
func TestReplaceWritesOnlyWhatAStrictParserReads(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{
		"config.toml":   "mcp_servers = { other = { command = \"x\" } }\n\n[mcp_servers.arena]\ncommand = \"arena\"\n",
		"settings.json": `{"mcpServers": {}, "mcpServers": {"arena": {}}}`,
		"broken.json":   `{"mcpServers": }`,
	} {
		path := filepath.Join(dir, name)
		if err := Replace(dir, path, []byte(data), 0o600); err == nil || !strings.Contains(err.Error(), "nothing written") {
			t.Errorf("%s: %v", name, err)
		}
		if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s was written", name)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
}

// The file keeps the mode it had, whatever the umask: 0644 stays 0644
// under a umask of 077. (Not parallel: the umask is the process's.)
func TestReplaceKeepsTheModePastTheUmask(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(cfg, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chmod(cfg, 0o644)
	_, mode, err := Read(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := Replace(dir, cfg, []byte(`{"a": 1}`), mode); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(cfg); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %04o, want 0644", st.Mode().Perm())
	}
}

package hostconfig

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// Install then uninstall gives back the file as it was, byte for byte,
// wherever arena's entry sat among the person's servers, in either
// format.
func TestUninstallUndoesInstall(t *testing.T) {
	claude, _ := Lookup("claude")
	codex, _ := Lookup("codex")
	cases := []struct {
		name string
		host Host
		doc  string
	}{
		{"json, other servers", claude, "{\n\t\"numStartups\": 12,\n\t\"mcpServers\": {\n\t\t\"github\": {\"command\": \"gh-mcp\"}\n\t},\n\t\"theme\": \"dark\"\n}\n"},
		{"json, no servers", claude, "{\n  \"theme\": \"dark\"\n}\n"},
		{"json, only key", claude, "{\"theme\": \"dark\"}"},
		{"toml, tables around", codex, "model = \"o3\"\n\n[mcp_servers.fs]\ncommand = \"fs\"\n\n# the profile\n[profiles.a]\nmodel = \"x\"\n"},
		{"toml, inline servers", codex, "model = \"o3\"\n"},
		{"toml, comment at the end", codex, "# mine\n[mcp_servers.fs]\ncommand = \"fs\"\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, state, err := c.host.Edit([]byte(c.doc), c.host.Entry("/bin/arena", []string{"OPENAI_API_KEY"}))
			if err != nil || state != Added {
				t.Fatal(state, err)
			}
			out, removed, err := c.host.Unedit(in)
			if err != nil || !removed || string(out) != c.doc {
				t.Fatalf("removed %v, %v:\n%q\nwant\n%q", removed, err, out, c.doc)
			}
		})
	}
}

// Removed from the middle, the start or the end of the servers, arena's
// entry goes with its comma and nothing else; a file without it is left
// as it is; someone else's entry named arena, or one arena cannot find as
// a table, is refused.
func TestUnedit(t *testing.T) {
	gemini, _ := Lookup("gemini")
	codex, _ := Lookup("codex")
	ours := `{"command": "/bin/arena", "args": ["mcp"], "env": {"ARENA_MCP_HOST": "gemini"}}`
	for doc, want := range map[string]string{
		`{"mcpServers": {"a": 1, "arena": ` + ours + `, "b": 2}}`:     `{"mcpServers": {"a": 1, "b": 2}}`,
		`{"mcpServers": {"arena": ` + ours + `, "b": 2}}`:             `{"mcpServers": {"b": 2}}`,
		`{"mcpServers": {"a": 1, "arena": ` + ours + `}}`:             `{"mcpServers": {"a": 1}}`,
		"{\"x\": 1, \"mcpServers\": {\n  \"arena\": " + ours + "\n}}": `{"x": 1}`,
		`{"mcpServers": {"arena": ` + ours + `}, "x": 1}`:             `{"x": 1}`,
		`{"mcpServers": {"arena": ` + ours + `}}`:                     `{}`,
	} {
		out, removed, err := gemini.Unedit([]byte(doc))
		if err != nil || !removed || string(out) != want {
			t.Errorf("%s:\n%s (%v, %v)", doc, out, removed, err)
		}
	}
	for _, doc := range []string{"", "{}", `{"mcpServers": {"a": 1}}`, `{"mcpServers": 3}`} {
		if out, removed, err := gemini.Unedit([]byte(doc)); err != nil || removed || string(out) != doc {
			t.Errorf("%q: %q %v %v", doc, out, removed, err)
		}
	}
	if _, _, err := gemini.Unedit([]byte(`{"mcpServers": {"arena": {"command": "/opt/fork"}}}`)); !errors.Is(err, ErrNotOurs) {
		t.Errorf("someone else's entry: %v", err)
	}
	if _, _, err := codex.Unedit([]byte("[mcp_servers.arena]\ncommand = \"/opt/fork\"\n")); !errors.Is(err, ErrNotOurs) {
		t.Errorf("someone else's table: %v", err)
	}
	inline := "mcp_servers = { arena = { command = \"a\", env = { ARENA_MCP_HOST = \"codex\" } } }\n"
	if _, _, err := codex.Unedit([]byte(inline)); err == nil || !strings.Contains(err.Error(), "edit it by hand") {
		t.Errorf("an inline entry: %v", err)
	}
	if _, _, err := gemini.Unedit([]byte(`{"a": 1, "a": 2}`)); err == nil {
		t.Error("a key twice was read")
	}
}

// Unregister says what it would do and does it; a configuration holding
// nothing else afterwards is removed; a second time there is nothing to
// remove; a link is refused.
func TestUnregister(t *testing.T) {
	home := t.TempDir()
	claude, _ := Lookup("claude")
	path := filepath.Join(home, ".mcp.json")
	var out strings.Builder
	if err := claude.Register(&out, path, home, home, claude.Entry("/bin/arena", nil), false); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := claude.Unregister(&out, path, home, home, true); err != nil || !strings.HasPrefix(out.String(), "  ~/.mcp.json: would remove the MCP server arena, and the file, which would hold nothing else\n    ") {
		t.Fatalf("dry run: %q %v", out.String(), err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal("a dry run removed the file")
	}
	for _, want := range []string{"removed the MCP server arena, and the file, which held nothing else", "arena is not registered there (nothing to remove)"} {
		out.Reset()
		if err := claude.Unregister(&out, path, home, home, false); err != nil || out.String() != "  ~/.mcp.json: "+want+"\n" {
			t.Fatalf("%q %v", out.String(), err)
		}
	}
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Fatalf("the emptied file is still there: %v", err)
	}
	// With something else in it, the file stays, without arena.
	os.WriteFile(path, []byte(`{"theme": "dark"}`), 0o600)
	claude.Register(&out, path, home, home, claude.Entry("/bin/arena", nil), false)
	out.Reset()
	if err := claude.Unregister(&out, path, home, home, false); err != nil || out.String() != "  ~/.mcp.json: removed the MCP server arena\n" {
		t.Fatalf("%q %v", out.String(), err)
	}
	if b, _ := os.ReadFile(path); string(b) != `{"theme": "dark"}` {
		t.Fatalf("%q", b)
	}
	link := filepath.Join(home, "link.json")
	os.Symlink(path, link)
	out.Reset()
	if err := claude.Unregister(&out, link, home, home, false); !errors.Is(err, ErrRefused) || !strings.Contains(out.String(), "refused: it is a symbolic link") {
		t.Fatalf("%q %v", out.String(), err)
	}
}

// Only the command files arena wrote go: a file of the same name that
// the person wrote, one that is a link, and files of other names stay.
func TestUninstallCommands(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, ".claude", "commands")
	commands := fstest.MapFS{"debate.md": {Data: []byte("Run arena.\n")}, "judge.md": {Data: []byte("Judge.\n")}, "verdict.md": {Data: []byte("V.\n")}}
	var out strings.Builder
	if err := UninstallCommands(&out, commands, dir, home, home, false); err != nil || out.String() != "" {
		t.Fatalf("no directory: %q %v", out.String(), err)
	}
	if err := InstallCommands(&out, commands, dir, home, home, false); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "judge.md"), []byte("mine\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "other.md"), []byte("other\n"+CommandMarker+"\n"), 0o644)
	os.Remove(filepath.Join(dir, "verdict.md"))
	os.Symlink(filepath.Join(dir, "other.md"), filepath.Join(dir, "verdict.md"))
	for _, dry := range []bool{true, false} {
		out.Reset()
		verb := "removed"
		if dry {
			verb = "would be removed"
		}
		want := "  ~/.claude/commands/debate.md: /debate " + verb + "\n  ~/.claude/commands/judge.md: kept: arena did not write it\n  ~/.claude/commands/verdict.md: kept: it is not a regular file\n"
		if err := UninstallCommands(&out, commands, dir, home, home, dry); err != nil || out.String() != want {
			t.Fatalf("dry %v: %q %v", dry, out.String(), err)
		}
	}
	left, _ := os.ReadDir(dir)
	var names []string
	for _, e := range left {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "judge.md other.md verdict.md" {
		t.Fatalf("left %v", names)
	}
	// Once the last is gone, so are the directories install made, up to
	// the home directory.
	os.Remove(filepath.Join(dir, "judge.md"))
	os.Remove(filepath.Join(dir, "verdict.md"))
	os.WriteFile(filepath.Join(dir, "other.md"), CommandFile([]byte("x")), 0o644)
	if err := UninstallCommands(&out, fstest.MapFS{"other.md": {Data: []byte("x")}}, dir, home, home, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(home, ".claude")); !os.IsNotExist(err) {
		t.Fatalf("~/.claude is left: %v", err)
	}
	if _, err := os.Stat(home); err != nil {
		t.Fatal("the home directory went")
	}
}

// RemoveEmptyDirs stops at a directory holding anything, at a link, and
// at root.
func TestRemoveEmptyDirs(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b", "c")
	os.MkdirAll(deep, 0o700)
	os.WriteFile(filepath.Join(root, "a", "keep"), nil, 0o600)
	RemoveEmptyDirs(deep, root)
	if _, err := os.Stat(filepath.Join(root, "a", "b")); !os.IsNotExist(err) {
		t.Fatal("a/b is left")
	}
	if _, err := os.Stat(filepath.Join(root, "a", "keep")); err != nil {
		t.Fatal("a went with what it held")
	}
	os.MkdirAll(filepath.Join(root, "real"), 0o700)
	os.Symlink(filepath.Join(root, "real"), filepath.Join(root, "a", "link"))
	RemoveEmptyDirs(filepath.Join(root, "a", "link"), root)
	if _, err := os.Stat(filepath.Join(root, "real")); err != nil {
		t.Fatal("the link's target went")
	}
	empty := filepath.Join(root, "empty")
	os.Mkdir(empty, 0o700)
	RemoveEmptyDirs(root, root)
	if _, err := os.Stat(root); err != nil {
		t.Fatal("root went")
	}
}

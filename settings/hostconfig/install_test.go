package hostconfig

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// Register says what it would do, does it, finds it done, and refuses an
// entry named arena that another hand wrote, each in a line.
func TestRegister(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, ".gemini", "settings.json")
	gemini, _ := Lookup("gemini")
	entry := gemini.Entry("/usr/bin/arena", nil)
	var out strings.Builder
	if err := gemini.Register(&out, path, home, entry, true); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err == nil || !strings.HasPrefix(out.String(), "  ~/.gemini/settings.json: would register the MCP server arena (arena mcp)\n    ") {
		t.Fatalf("a dry run wrote, or said %q", out.String())
	}
	os.MkdirAll(filepath.Dir(path), 0o700)
	for _, want := range []string{"registered the MCP server arena (arena mcp)", "arena is registered already, as it would be (unchanged)"} {
		out.Reset()
		if err := gemini.Register(&out, path, home, entry, false); err != nil || out.String() != "  ~/.gemini/settings.json: "+want+"\n" {
			t.Fatalf("%q %v", out.String(), err)
		}
	}
	os.WriteFile(path, []byte(`{"mcpServers": {"arena": {"command": "someone-else"}}}`), 0o600)
	out.Reset()
	err := gemini.Register(&out, path, home, entry, false)
	if !errors.Is(err, ErrRefused) || !strings.HasPrefix(out.String(), "  ~/.gemini/settings.json: refused: it has an MCP server named arena that arena install did not write (") {
		t.Fatalf("%q %v", out.String(), err)
	}
}

// The slash commands are written, found unchanged, and a file arena did
// not write is kept, each said in a line.
func TestInstallCommands(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, ".claude", "commands")
	commands := fstest.MapFS{"debate.md": {Data: []byte("Run arena.\n")}, "judge.md": {Data: []byte("Judge.\n")}}
	var out strings.Builder
	if err := InstallCommands(&out, commands, dir, home, true); err != nil || out.String() != "  ~/.claude/commands/debate.md: /debate would be added\n  ~/.claude/commands/judge.md: /judge would be added\n" {
		t.Fatalf("dry run: %q %v", out.String(), err)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Fatal("a dry run made the directory")
	}
	out.Reset()
	if err := InstallCommands(&out, commands, dir, home, false); err != nil || out.String() != "  ~/.claude/commands/debate.md: /debate added\n  ~/.claude/commands/judge.md: /judge added\n" {
		t.Fatalf("%q %v", out.String(), err)
	}
	os.WriteFile(filepath.Join(dir, "judge.md"), []byte("mine\n"), 0o644)
	out.Reset()
	if err := InstallCommands(&out, commands, dir, home, false); err != nil ||
		out.String() != "  ~/.claude/commands/debate.md: /debate is there already (unchanged)\n  ~/.claude/commands/judge.md: kept: arena did not write it (/judge not installed)\n" {
		t.Fatalf("%q %v", out.String(), err)
	}
}

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
	if err := gemini.Register(&out, path, home, home, entry, true); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err == nil || !strings.HasPrefix(out.String(), "  ~/.gemini/settings.json: would register the MCP server arena (arena mcp)\n    ") {
		t.Fatalf("a dry run wrote, or said %q", out.String())
	}
	os.MkdirAll(filepath.Dir(path), 0o700)
	for _, want := range []string{"registered the MCP server arena (arena mcp)", "arena is registered already, as it would be (unchanged)"} {
		out.Reset()
		if err := gemini.Register(&out, path, home, home, entry, false); err != nil || out.String() != "  ~/.gemini/settings.json: "+want+"\n" {
			t.Fatalf("%q %v", out.String(), err)
		}
	}
	os.WriteFile(path, []byte(`{"mcpServers": {"arena": {"command": "someone-else"}}}`), 0o600)
	out.Reset()
	err := gemini.Register(&out, path, home, home, entry, false)
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
	if err := InstallCommands(&out, commands, dir, home, home, true); err != nil || out.String() != "  ~/.claude/commands/debate.md: /debate would be added\n  ~/.claude/commands/judge.md: /judge would be added\n" {
		t.Fatalf("dry run: %q %v", out.String(), err)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Fatal("a dry run made the directory")
	}
	out.Reset()
	if err := InstallCommands(&out, commands, dir, home, home, false); err != nil || out.String() != "  ~/.claude/commands/debate.md: /debate added\n  ~/.claude/commands/judge.md: /judge added\n" {
		t.Fatalf("%q %v", out.String(), err)
	}
	os.WriteFile(filepath.Join(dir, "judge.md"), []byte("mine\n"), 0o644)
	out.Reset()
	if err := InstallCommands(&out, commands, dir, home, home, false); err != nil ||
		out.String() != "  ~/.claude/commands/debate.md: /debate is there already (unchanged)\n  ~/.claude/commands/judge.md: kept: arena did not write it (/judge not installed)\n" {
		t.Fatalf("%q %v", out.String(), err)
	}
}

// No install writes through a link (issue 36, item 8): a repository's
// .claude/commands, or its .claude or .gemini, linked elsewhere, is
// refused by name, before anything is written, and nothing appears where
// the link points; uninstall removes nothing through one either.
func TestInstallWritesNothingThroughALink(t *testing.T) {
	parent := t.TempDir()
	repo, home, elsewhere := filepath.Join(parent, "repo"), filepath.Join(parent, "home"), filepath.Join(parent, "elsewhere")
	for _, d := range []string{filepath.Join(repo, ".claude"), home, elsewhere} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	commands := fstest.MapFS{"debate.md": {Data: []byte("Run arena.\n")}}
	claude, _ := Lookup("claude")
	gemini, _ := Lookup("gemini")
	refusedAt := func(what, link string, err error, out string) {
		t.Helper()
		if !errors.Is(err, ErrRefused) || !strings.Contains(out, "refused: "+link+" is a symbolic link, and arena install writes nothing through a link") {
			t.Errorf("%s: %v\n%s", what, err, out)
		}
	}
	// .claude/commands is the link, then .claude itself.
	for _, link := range []string{filepath.Join(repo, ".claude", "commands"), filepath.Join(repo, ".claude")} {
		os.RemoveAll(filepath.Join(repo, ".claude"))
		os.MkdirAll(filepath.Dir(link), 0o700)
		if err := os.Symlink(elsewhere, link); err != nil {
			t.Fatal(err)
		}
		cdir := claude.CommandsDir("project", home, repo)
		var out strings.Builder
		refusedAt("check", link, CheckCommandsDir(&out, repo, cdir, home), out.String())
		for _, dry := range []bool{true, false} {
			out.Reset()
			refusedAt("install", link, InstallCommands(&out, commands, cdir, home, repo, dry), out.String())
		}
		os.WriteFile(filepath.Join(elsewhere, "debate.md"), CommandFile([]byte("Run arena.\n")), 0o644)
		out.Reset()
		refusedAt("uninstall", link, UninstallCommands(&out, commands, cdir, home, repo, false), out.String())
		if entries, _ := os.ReadDir(elsewhere); len(entries) != 1 || entries[0].Name() != "debate.md" {
			t.Fatalf("through %s: %v", link, entries)
		}
		os.Remove(filepath.Join(elsewhere, "debate.md"))
	}
	// A project's .gemini linked elsewhere: its settings.json is neither
	// read nor written.
	if err := os.Symlink(elsewhere, filepath.Join(repo, ".gemini")); err != nil {
		t.Fatal(err)
	}
	path, _ := gemini.ConfigPath("project", home, repo, func(string) string { return "" })
	for _, dry := range []bool{true, false} {
		var out strings.Builder
		refusedAt("register", filepath.Join(repo, ".gemini"), gemini.Register(&out, path, home, repo, gemini.Entry("/bin/arena", nil), dry), out.String())
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Fatalf("written where the links point: %v", entries)
	}
	// A directory the person named themselves (CODEX_HOME) is theirs,
	// link or not.
	codexHome := filepath.Join(parent, "codex-home")
	if err := os.Symlink(elsewhere, codexHome); err != nil {
		t.Fatal(err)
	}
	codex, _ := Lookup("codex")
	path, _ = codex.ConfigPath("user", home, repo, func(string) string { return codexHome })
	var out strings.Builder
	if err := codex.Register(&out, path, home, home, codex.Entry("/bin/arena", nil), false); err != nil {
		t.Fatalf("CODEX_HOME through the person's own link: %v\n%s", err, out.String())
	}
	if _, err := os.Stat(filepath.Join(elsewhere, "config.toml")); err != nil {
		t.Fatal(err)
	}
}

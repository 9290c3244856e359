package hostconfig

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// Where each CLI keeps its configuration, with and without Codex's
// CODEX_HOME, and the scope Codex does not have.
func TestConfigPath(t *testing.T) {
	for _, c := range []struct {
		host, scope, codexHome, want string
	}{
		{"claude", "user", "", "/home/u/.claude.json"},
		{"claude", "project", "", "/src/p/.mcp.json"},
		{"codex", "user", "", "/home/u/.codex/config.toml"},
		{"codex", "user", "/etc/codex", "/etc/codex/config.toml"},
		{"gemini", "user", "/etc/codex", "/home/u/.gemini/settings.json"},
		{"gemini", "project", "", "/src/p/.gemini/settings.json"},
	} {
		h, _ := Lookup(c.host)
		getenv := func(k string) string {
			if k == "CODEX_HOME" {
				return c.codexHome
			}
			return ""
		}
		got, err := h.ConfigPath(c.scope, "/home/u", "/src/p", getenv)
		if err != nil || got != c.want {
			t.Errorf("%s %s (CODEX_HOME=%q): %q %v, want %q", c.host, c.scope, c.codexHome, got, err, c.want)
		}
	}
	h, _ := Lookup("codex")
	_, err := h.ConfigPath("project", "/home/u", "/src/p", func(string) string { return "" })
	const want = "codex registers MCP servers for the user only (~/.codex/config.toml): leave out --scope project"
	if !errors.Is(err, ErrNoProjectScope) || err.Error() != want {
		t.Errorf("codex --scope project: %v", err)
	}
	if _, ok := Lookup("cursor"); ok {
		t.Error("Lookup found cursor")
	}
}

// Only Claude Code takes the slash commands.
func TestCommandsDir(t *testing.T) {
	for _, c := range []struct{ host, scope, want string }{
		{"claude", "user", "/home/u/.claude/commands"},
		{"claude", "project", "/src/p/.claude/commands"},
		{"codex", "user", ""},
		{"gemini", "project", ""},
	} {
		h, _ := Lookup(c.host)
		if got := h.CommandsDir(c.scope, "/home/u", "/src/p"); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.host, c.scope, got, c.want)
		}
	}
}

// The entry names the CLI's agent; Claude Code's names its transport too.
func TestHostEntry(t *testing.T) {
	claude, _ := Lookup("claude")
	codex, _ := Lookup("codex")
	if got := claude.Entry("/usr/local/bin/arena"); !reflect.DeepEqual(got, claudeEntry) {
		t.Errorf("claude: %+v", got)
	}
	if got := codex.Entry("/usr/local/bin/arena"); !reflect.DeepEqual(got, codexEntry) {
		t.Errorf("codex: %+v", got)
	}
}

// Edit picks the CLI's format: Codex's TOML, the others' JSON under
// mcpServers.
func TestHostEdit(t *testing.T) {
	codex, _ := Lookup("codex")
	gemini, _ := Lookup("gemini")
	if out, _, err := codex.Edit(nil, codexEntry); err != nil || !strings.HasPrefix(string(out), "[mcp_servers.arena]\n") {
		t.Errorf("codex: %q %v", out, err)
	}
	if out, _, err := gemini.Edit(nil, codexEntry); err != nil || !strings.HasPrefix(string(out), "{\n  \"mcpServers\": {\n") {
		t.Errorf("gemini: %q %v", out, err)
	}
}

// The CLI's own command, shown when arena will not edit the file: the
// binary's path quoted for a shell when it must be.
func TestAddCommand(t *testing.T) {
	for _, c := range []struct{ host, exe, want string }{
		{"claude", "/usr/local/bin/arena", "claude mcp add --scope user -e ARENA_MCP_HOST=claude arena -- /usr/local/bin/arena mcp"},
		{"codex", "/opt/my tools/arena", "codex mcp add --env ARENA_MCP_HOST=codex arena -- '/opt/my tools/arena' mcp"},
		{"gemini", "/home/o'brien/arena", `gemini mcp add --scope user -e ARENA_MCP_HOST=gemini arena '/home/o'\''brien/arena' mcp`},
		{"gemini", "", "gemini mcp add --scope user -e ARENA_MCP_HOST=gemini arena '' mcp"},
	} {
		h, _ := Lookup(c.host)
		if got := h.AddCommand(c.exe); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}

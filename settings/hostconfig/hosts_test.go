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
// The credentials reach the server as each CLI lets them: Claude Code
// passes its whole environment, Gemini CLI expands ${NAME} in the entry's
// env, Codex passes what env_vars names (and arena's own variables).
func TestHostEntry(t *testing.T) {
	claude, _ := Lookup("claude")
	codex, _ := Lookup("codex")
	gemini, _ := Lookup("gemini")
	pass := []string{"OPENAI_API_KEY", "GEMINI_API_KEY", "OPENAI_API_KEY"}
	if got := claude.Entry("/usr/local/bin/arena", pass); !reflect.DeepEqual(got, claudeEntry) {
		t.Errorf("claude: %+v", got)
	}
	want := codexEntry
	want.EnvVars = []string{"CODEX_HOME", "GEMINI_API_KEY", "OPENAI_API_KEY", "XDG_CONFIG_HOME", "XDG_STATE_HOME"}
	if got := codex.Entry("/usr/local/bin/arena", pass); !reflect.DeepEqual(got, want) {
		t.Errorf("codex: %+v", got)
	}
	wantEnv := map[string]string{HostEnv: "gemini", "GEMINI_API_KEY": "${GEMINI_API_KEY}", "OPENAI_API_KEY": "${OPENAI_API_KEY}"}
	if got := gemini.Entry("/usr/local/bin/arena", pass); !reflect.DeepEqual(got.Env, wantEnv) || got.EnvVars != nil {
		t.Errorf("gemini: %+v", got)
	}
}

// Codex's table lists env_vars after env; an entry without them is not
// the entry with them.
func TestTOMLEnvVars(t *testing.T) {
	e := codexEntry
	e.EnvVars = []string{"GEMINI_API_KEY", "OPENAI_API_KEY"}
	out, state, err := EditTOML(nil, e)
	want := "[mcp_servers.arena]\ncommand = \"/usr/local/bin/arena\"\nargs = [\"mcp\"]\nenv = { ARENA_MCP_HOST = \"codex\" }\nenv_vars = [\"GEMINI_API_KEY\", \"OPENAI_API_KEY\"]\n"
	if err != nil || state != Added || string(out) != want {
		t.Fatalf("%v %v\n%s", state, err, out)
	}
	if _, state, err := EditTOML([]byte(tomlBlock(codexEntry)), e); err != nil || state != Updated {
		t.Fatalf("an entry without env_vars: %v %v", state, err)
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
// binary's path quoted for a shell when it must be, the credentials passed
// through as the CLI lets a command say so (cmd/arena runs each against
// the real CLI: TestSuggestedCommandsWorkInTheRealCLIs).
func TestAddCommand(t *testing.T) {
	pass := []string{"GEMINI_API_KEY"}
	for _, c := range []struct{ host, exe, want string }{
		{"claude", "/usr/local/bin/arena", "claude mcp add --scope user arena -e ARENA_MCP_HOST=claude -- /usr/local/bin/arena mcp"},
		{"codex", "/opt/my tools/arena", "codex mcp add --env ARENA_MCP_HOST=codex arena -- '/opt/my tools/arena' mcp\n" +
			`then add this line to [mcp_servers.arena] in config.toml, above its env table: env_vars = ["CODEX_HOME", "GEMINI_API_KEY", "XDG_CONFIG_HOME", "XDG_STATE_HOME"]`},
		{"gemini", "/home/o'brien/arena", `gemini mcp add --scope user -e ARENA_MCP_HOST=gemini -e GEMINI_API_KEY='${GEMINI_API_KEY}' arena '/home/o'\''brien/arena' mcp`},
		{"gemini", "", "gemini mcp add --scope user -e ARENA_MCP_HOST=gemini -e GEMINI_API_KEY='${GEMINI_API_KEY}' arena '' mcp"},
	} {
		h, _ := Lookup(c.host)
		if got := h.AddCommand(c.exe, pass); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}

// The commands for arena mcp --http have each CLI read the token from
// ARENA_MCP_TOKEN when it starts: none holds a token, reads a file into
// its own arguments ($(cat …)), or lets the shell expand the variable.
func TestAddHTTPCommand(t *testing.T) {
	for host, want := range map[string]string{
		"claude": `claude mcp add --scope user --transport http arena http://127.0.0.1:8765/mcp --header 'Authorization: Bearer ${ARENA_MCP_TOKEN}'`,
		"gemini": `gemini mcp add --scope user --transport http arena http://127.0.0.1:8765/mcp -H 'Authorization: Bearer ${ARENA_MCP_TOKEN}'`,
		"codex": "codex mcp add arena --url http://127.0.0.1:8765/mcp --bearer-token-env-var ARENA_MCP_TOKEN\n" +
			"then, so that Codex says when ARENA_MCP_TOKEN is missing (otherwise it shows no arena tools and no error), add this line to [mcp_servers.arena] in config.toml: required = true",
	} {
		h, _ := Lookup(host)
		if got := h.AddHTTPCommand("http://127.0.0.1:8765/mcp"); got != want {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	}
}

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arenadebate/arena/engine"
)

// Seats run as their users configured them: the real claude, gemini,
// codex and qwen (scripts/agent-clis), each set up in its own files the
// way its user would, a model of the user's behind a base URL or provider
// of theirs (the stand-in API), and each with MCP servers of the user's:
// one in its configuration, and one a plugin or an extension brings.
// Every server is a script that leaves a mark when started.

// userMCPServer is a stand-in for a user's MCP server: started, it
// appends its name to marks, and exits.
func userMCPServer(t *testing.T, marks string) string {
	t.Helper()
	script := filepath.Join(t.TempDir(), "users-mcp-server")
	body := fmt.Sprintf("#!/bin/sh\necho \"$1\" >> '%s'\nexit 1\n", marks)
	if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
		t.Fatal(err)
	}
	return script
}

// configureAsTheirUsers writes each CLI's own configuration into the
// sandbox's home: claude's settings.json and .claude.json, gemini's and
// qwen's settings.json, .env and an extension, codex's config.toml and a
// plugin from a marketplace of the user's (installed by codex itself).
// It returns the environment the user runs arena with.
func configureAsTheirUsers(t *testing.T, s *sandbox, api *standIn, server, codex string) []string {
	t.Helper()
	mcp := func(name string) string {
		return fmt.Sprintf(`{"%s": {"command": %q, "args": [%q]}}`, name, server, name)
	}
	s.writeHome(".claude/settings.json", fmt.Sprintf(`{"model": "users-claude-model", "env": {"ANTHROPIC_BASE_URL": %q, "ANTHROPIC_AUTH_TOKEN": "users-claude-token"}}`, api.URL))
	s.writeHome(".claude.json", fmt.Sprintf(`{"mcpServers": %s}`, mcp("claude-config-server")))
	for _, c := range []struct{ cli, auth, env string }{
		{"gemini", "gemini-api-key", "GEMINI_API_KEY=users-gemini-key\nGOOGLE_GEMINI_BASE_URL=" + api.URL + "\n"},
		{"qwen", "openai", "OPENAI_API_KEY=users-qwen-key\nOPENAI_BASE_URL=" + api.URL + "/v1\n"},
	} {
		s.writeHome("."+c.cli+"/settings.json", fmt.Sprintf(`{"security": {"auth": {"selectedType": %q}}, "model": {"name": "users-%s-model"}, "mcpServers": %s}`,
			c.auth, c.cli, mcp(c.cli+"-config-server")))
		s.writeHome("."+c.cli+"/.env", c.env)
		s.writeHome("."+c.cli+"/extensions/users-extension/"+c.cli+"-extension.json",
			fmt.Sprintf(`{"name": "users-extension", "version": "1.0.0", "mcpServers": %s}`, mcp(c.cli+"-extension-server")))
	}
	s.writeHome(".codex/config.toml", fmt.Sprintf(`model = "users-codex-model"
model_provider = "users-gateway"

[model_providers.users-gateway]
name = "The user's gateway"
base_url = "%s/v1"
env_key = "USERS_GATEWAY_KEY"
wire_api = "responses"

[mcp_servers.codex-config-server]
command = %q
args = ["codex-config-server"]

[mcp_servers."codex.dotted.server"]
command = %q
args = ["codex.dotted.server"]
`, api.URL, server, server))
	market := filepath.Join(t.TempDir(), "market")
	for name, content := range map[string]string{
		".agents/plugins/marketplace.json":               `{"name": "users-market", "plugins": [{"name": "users-plugin", "source": {"source": "local", "path": "./plugins/users-plugin"}}]}`,
		"plugins/users-plugin/.codex-plugin/plugin.json": `{"name": "users-plugin", "version": "1.0.0"}`,
		"plugins/users-plugin/.mcp.json":                 fmt.Sprintf(`{"mcpServers": %s}`, mcp("codex-plugin-server")),
	} {
		writeFile(t, filepath.Join(market, name), content)
	}
	for _, args := range [][]string{{"plugin", "marketplace", "add", market}, {"plugin", "add", "users-plugin@users-market"}} {
		cmd := exec.Command(codex, args...)
		cmd.Dir, cmd.Env = s.dir, s.env()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("codex %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	return []string{"USERS_GATEWAY_KEY=users-codex-key"}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// A debate on arena's defaults, with every CLI configured by its user:
// each seat reaches its user's endpoint and asks for its user's model,
// every seat replies, and no seat starts an MCP server of the user's.
func TestSeatsRunAsTheirUsersConfiguredThem(t *testing.T) {
	t.Parallel()
	clis := map[string]string{}
	for _, name := range []string{"claude", "gemini", "codex", "qwen"} {
		clis[name] = realCLI(t, name)
	}
	s := newSandbox(t)
	api := newStandIn(t, "", nil)
	marks := filepath.Join(t.TempDir(), "started")
	env := configureAsTheirUsers(t, s, api, userMCPServer(t, marks), clis["codex"])
	path := s.pathWith(clis["claude"], clis["gemini"], clis["codex"], clis["qwen"])
	cmd := exec.Command(arenaBinary(t), "--no-tui", "--max-rounds", "1", "should we move sessions from Redis to Postgres?")
	cmd.Dir, cmd.Env = s.dir, withoutCredentials(s.env(append(env, path)...), env)
	out, err := cmd.CombinedOutput()

	models := api.Models()
	for dialect, want := range map[string]string{"anthropic": "users-claude-model", "gemini": "users-gemini-model", "openai": "users-codex-model", "chat": "users-qwen-model"} {
		got := models[dialect]
		if len(got) == 0 || slices.ContainsFunc(got, func(m string) bool { return m != want }) {
			t.Errorf("the %s requests asked for %q, not only the user's %s (%v)\n%s", dialect, got, want, err, out)
		}
	}
	if b, err := os.ReadFile(marks); err == nil {
		t.Errorf("a seat started MCP servers of the user's:\n%s", b)
	}
	replied := map[string]bool{}
	for _, e := range s.onlyLog().Events {
		switch p := e.Payload.(type) {
		case engine.AgentFinished:
			replied[p.Agent] = true
		case engine.AgentFailed:
			t.Errorf("the %s seat failed: %s %s\n%s", p.Seat, p.Reason, p.Message, p.Stderr)
		}
	}
	for name := range clis {
		if !replied[name] {
			t.Errorf("the %s seat never replied (%v)\n%s", name, err, out)
		}
	}
}

// With the fakes, from the built binary: a codex seat names every server
// of the user's config.toml to turn it off, and a config.toml it cannot
// read stops that seat with the file named, before codex starts; the
// debate goes on with the others.
func TestCodexSeatTurnsOffTheServersOfItsUsersConfig(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	s.writeHome(".codex/config.toml", "model = \"users-codex-model\"\n[mcp_servers.theirs]\ncommand = \"/bin/false\"\n")
	if r := s.run("--no-tui", "--max-rounds", "1", "should we move sessions from Redis to Postgres?"); r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	calls := s.fakes.CallsTo("codex")
	if len(calls) == 0 {
		t.Fatal("no codex call")
	}
	for _, c := range calls {
		if !slices.Contains(c.Argv, `mcp_servers={"theirs"={enabled=false}}`) || slices.Contains(c.Argv, "--ignore-user-config") {
			t.Fatalf("codex was called with %q", c.Argv)
		}
	}

	s = newSandbox(t)
	config := s.writeHome(".codex/config.toml", "[mcp_servers.theirs]\ncommand = \n")
	r := s.run("--no-tui", "--max-rounds", "1", "should we move sessions from Redis to Postgres?")
	if n := len(s.fakes.CallsTo("codex")); n != 0 || len(s.fakes.CallsTo("gemini")) == 0 {
		t.Fatalf("%d calls to codex, %d to gemini\n%s", n, len(s.fakes.CallsTo("gemini")), r.stdout)
	}
	if !strings.Contains(r.stdout, config) || !strings.Contains(r.stdout, "MCP servers") {
		t.Fatalf("the codex seat's failure does not name %s:\n%s", config, r.stdout)
	}
}

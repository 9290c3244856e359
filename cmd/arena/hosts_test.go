package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// arena as the real hosts from npm use it (scripts/agent-clis), each
// pointed at the stand-in model API (standin_test.go).

// pathWith is a PATH where the named real CLIs come first, then the
// fakes, then the system's (node for the CLIs written in it).
func (s *sandbox) pathWith(real ...string) string {
	dir := filepath.Join(s.t.TempDir(), "real-clis")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		s.t.Fatal(err)
	}
	for _, p := range real {
		if err := os.Symlink(p, filepath.Join(dir, filepath.Base(p))); err != nil {
			s.t.Fatal(err)
		}
	}
	return "PATH=" + strings.Join([]string{dir, s.fakes.Dir, os.Getenv("PATH")}, string(os.PathListSeparator))
}

// After arena install, a seat is the real CLI with arena registered in
// its configuration: no request a seat's model gets offers arena's tools
// (nor any other MCP server of the user's). The seats are claude (the
// defender), gemini and codex, each reaching the stand-in API in its own
// dialect; codex's provider is named in its agent's args, as a user whose
// codex needs one would name it.
func TestSeatsLoadNoMCPServerOfTheUsers(t *testing.T) {
	t.Parallel()
	claude, gemini, codex := realCLI(t, "claude"), realCLI(t, "gemini"), realCLI(t, "codex")
	s := newSandbox(t)
	s.writeHome(".gemini/settings.json", `{"security": {"auth": {"selectedType": "gemini-api-key"}}}`)
	for _, cli := range []string{"claude", "gemini", "codex"} {
		if r := s.run("install", cli); r.code != 0 {
			t.Fatalf("install %s: %d %s", cli, r.code, r.stdout)
		}
	}
	api := newStandIn(t, "", nil)
	s.writeConfig(fmt.Sprintf(`agents:
  gemini:
    args: [--model, gemini-2.5-flash]
  codex:
    args: [-c, model=gpt-standin, -c, model_provider=standin, -c, 'model_providers.standin={name="standin", base_url="%s/v1", env_key="ARENA_STANDIN_KEY", wire_api="responses"}']
`, api.URL))
	r := s.runWithEnv([]string{s.pathWith(claude, gemini, codex), "ANTHROPIC_BASE_URL=" + api.URL, "ANTHROPIC_API_KEY=sk-standin",
		"GOOGLE_GEMINI_BASE_URL=" + api.URL, "GEMINI_API_KEY=standin", "ARENA_STANDIN_KEY=standin"},
		"--no-tui", "--challengers", "gemini,codex", "--max-rounds", "1", "should we move sessions from Redis to Postgres?")
	dialects := api.Dialects()
	for _, d := range []string{"anthropic", "gemini", "openai"} {
		if !slices.Contains(dialects, d) {
			t.Fatalf("no seat reached the stand-in API in %s's dialect (%v): exit %d\n%s\n%s", d, dialects, r.code, r.stdout, r.stderr)
		}
	}
	if got := api.ArenaTools(); len(got) > 0 {
		t.Fatalf("a seat's model was offered arena's own tools: %v", got)
	}
}

// hostRun is a host CLI set up to run arena mcp as arena install
// registered it, its model the stand-in API: the command that puts prompt
// to it.
func (s *sandbox) hostRun(host string, api *standIn, prompt string, extraEnv ...string) *exec.Cmd {
	s.t.Helper()
	cli := realCLI(s.t, host)
	var args, env []string
	switch host {
	case "claude":
		args = []string{"-p", prompt, "--output-format", "stream-json", "--verbose", "--allowedTools", api.tool}
		env = []string{"ANTHROPIC_BASE_URL=" + api.URL, "ANTHROPIC_API_KEY=sk-standin"}
	case "codex":
		s.writeHome(".codex/config.toml", fmt.Sprintf("model = \"gpt-standin\"\nmodel_provider = \"standin\"\n\n[model_providers.standin]\nname = \"standin\"\nbase_url = \"%s/v1\"\nenv_key = \"ARENA_STANDIN_KEY\"\nwire_api = \"responses\"\n", api.URL))
		args = []string{"exec", "--skip-git-repo-check", "-c", `mcp_servers.arena.default_tools_approval_mode="approve"`, prompt}
		env = []string{"ARENA_STANDIN_KEY=standin"}
	case "gemini":
		s.writeHome(".gemini/settings.json", `{"security": {"auth": {"selectedType": "gemini-api-key"}}}`)
		args = []string{"-m", "gemini-2.5-flash", "--yolo", "-p", prompt}
		env = []string{"GOOGLE_GEMINI_BASE_URL=" + api.URL, "GEMINI_API_KEY=standin", "GEMINI_CLI_TRUST_WORKSPACE=true"}
	default:
		s.t.Fatalf("no host %s", host)
	}
	if r := s.run("install", host); r.code != 0 {
		s.t.Fatalf("install %s: %d %s", host, r.code, r.stdout)
	}
	cmd := exec.Command(cli, args...)
	cmd.Dir = s.dir
	cmd.Env = s.env(append(append(env, s.pathWith()), extraEnv...)...)
	return cmd
}

// Every host hands its model the outcome document of a debate it ran
// through arena: Claude Code and Codex give it only the structured
// result, Gemini CLI the text.
func TestHostsHandTheirModelTheOutcome(t *testing.T) {
	t.Parallel()
	for _, host := range []string{"claude", "codex", "gemini"} {
		t.Run(host, func(t *testing.T) {
			t.Parallel()
			realCLI(t, host)
			s := newSandbox(t)
			api := newStandIn(t, "mcp__arena__debate", map[string]any{"topic": "should we move sessions from Redis to Postgres?", "wait_seconds": 50})
			out, err := s.hostRun(host, api, "put it to a debate").CombinedOutput()
			results := api.Results()
			if len(results) != 1 {
				t.Fatalf("%d tool results reached the model (%v):\n%s", len(results), err, out)
			}
			seen := textOfResult(results[0])
			doc := readFile(t, strings.TrimSuffix(s.logs()[0], ".jsonl")+".md")
			var missing []string
			for _, line := range strings.Split(doc, "\n") {
				if line = strings.TrimSpace(line); line != "" && !strings.Contains(seen, line) {
					missing = append(missing, line)
				}
			}
			if len(missing) > 0 {
				t.Fatalf("%d of the outcome document's lines never reached the model, among them:\n%s\n\nit saw:\n%s", len(missing), strings.Join(missing[:min(len(missing), 5)], "\n"), seen)
			}
		})
	}
}

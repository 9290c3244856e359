package main

import (
	"fmt"
	"os"
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

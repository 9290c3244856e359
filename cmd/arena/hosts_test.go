package main

import (
	"bytes"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/challengers/fakecli/fakeapi"
	"github.com/arenadebate/arena/engine/runlog"
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
	r := s.runWithEnv([]string{s.pathWith(claude, gemini, codex), "ANTHROPIC_BASE_URL=" + api.URL, "ANTHROPIC_API_KEY=sk-standin", claudeOffersEveryTool,
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

// claudeOffersEveryTool makes Claude Code offer its model each MCP tool
// by name: from 2.1.332 on it offers a ToolSearch tool in their place, and
// a request would name none of them.
const claudeOffersEveryTool = "ENABLE_TOOL_SEARCH=false"

// claudeWaitsForServers makes Claude Code 2.1.332 with -p wait for its
// MCP servers before the first turn: without it the turn starts while
// arena is still starting on a busy machine, and the model is offered no
// arena tool (the init event says the server is "pending").
const claudeWaitsForServers = "CLAUDE_CODE_MCP_STARTUP_WAIT_MS=60000"

// hostToolTimeout is the tool timeout hostRun gives Claude Code and Codex,
// as a user may set it: shorter than the 20 s a run tool used to follow
// its run before answering, which left the model without the run's id
// and stopped the run. A run tool answers within about a second; the
// rest is room for a loaded machine (the stand-in follows the run in
// calls of followWait, well inside it).
const hostToolTimeout = 15 * time.Second

// hostRun is a host CLI set up to run arena mcp as arena install
// registered it, its model the stand-in API: the command that puts prompt
// to it.
func (s *sandbox) hostRun(host string, api *standIn, prompt string, extraEnv ...string) *exec.Cmd {
	s.t.Helper()
	cli := realCLI(s.t, host)
	var args, env []string
	switch host {
	case "claude":
		args = []string{"-p", prompt, "--output-format", "stream-json", "--verbose", "--allowedTools", "mcp__arena"} // every arena tool: the run tool, then run_status
		env = []string{"ANTHROPIC_BASE_URL=" + api.URL, "ANTHROPIC_API_KEY=sk-standin", claudeOffersEveryTool, claudeWaitsForServers, "MCP_TOOL_TIMEOUT=" + fmt.Sprint(hostToolTimeout.Milliseconds())}
	case "codex":
		s.writeHome(".codex/config.toml", fmt.Sprintf("model = \"gpt-standin\"\nmodel_provider = \"standin\"\n\n[model_providers.standin]\nname = \"standin\"\nbase_url = \"%s/v1\"\nenv_key = \"ARENA_STANDIN_KEY\"\nwire_api = \"responses\"\n", api.URL))
		// Codex from 0.147 gives an optional MCP server one second to
		// start, then runs the turn without its tools; on a busy machine
		// arena can take longer. A required server is waited for, so the
		// verdict does not depend on the machine's speed.
		args = []string{"exec", "--skip-git-repo-check", "-c", `mcp_servers.arena.default_tools_approval_mode="approve"`, "-c", "mcp_servers.arena.required=true",
			"-c", fmt.Sprintf("mcp_servers.arena.tool_timeout_sec=%d", int(hostToolTimeout.Seconds()))}
		// Codex gives a server none of the fakes' variables: the command
		// line adds them to the entry's env, leaving what arena wrote.
		for k, v := range map[string]string{fakeapi.EnvScript: s.fakes.Script, fakeapi.EnvState: s.fakes.State, fakeapi.EnvLog: s.fakes.Log} {
			args = append(args, "-c", fmt.Sprintf("mcp_servers.arena.env.%s=%q", k, v))
		}
		args = append(args, prompt)
		env = []string{"ARENA_STANDIN_KEY=standin"}
	case "gemini":
		s.writeHome(".gemini/settings.json", `{"security": {"auth": {"selectedType": "gemini-api-key"}}}`)
		args = []string{"-m", "gemini-2.5-flash", "--yolo", "-p", prompt}
		env = []string{"GOOGLE_GEMINI_BASE_URL=" + api.URL, "GEMINI_API_KEY=standin", "GEMINI_CLI_TRUST_WORKSPACE=true"}
	case "qwen":
		// Qwen Code offers an MCP server's tools behind tool_search unless
		// deferred tools may be preloaded (toolSearch.threshold, a share of
		// the context window).
		s.writeHome(".qwen/settings.json", `{"security": {"auth": {"selectedType": "openai"}}, "tools": {"visible": ["mcp__arena__debate", "mcp__arena__run_status"]}}`)
		args = []string{"--yolo", "--auth-type", "openai", "-m", "qwen-standin", "-p", prompt}
		env = []string{"OPENAI_BASE_URL=" + api.URL + "/v1", "OPENAI_API_KEY=standin", "OPENAI_MODEL=qwen-standin", "QWEN_CODE_TRUST_WORKSPACE=true"}
	default:
		s.t.Fatalf("no host %s", host)
	}
	if r := s.run("install", host); r.code != 0 {
		s.t.Fatalf("install %s: %d %s", host, r.code, r.stdout)
	}
	cmd := exec.Command(cli, args...)
	cmd.Dir = s.dir
	cmd.Env = withoutCredentials(s.env(append(append(env, s.pathWith()), extraEnv...)...), append(env, extraEnv...))
	return cmd
}

// withoutCredentials is env without the agents' credential variables the
// test did not set itself (set: "KEY=value"): what arrives at a seat is
// then what the test gave the host.
func withoutCredentials(env, set []string) []string {
	var creds []string
	for _, ag := range challengers.Builtins() {
		creds = append(creds, ag.CredentialEnv...)
	}
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(creds, k) || slices.ContainsFunc(set, func(s string) bool { return strings.HasPrefix(s, k+"=") }) {
			out = append(out, kv)
		}
	}
	return out
}

// Every host hands its model the outcome document of a debate it ran
// through arena: Claude Code and Codex give it only the structured
// result, Gemini CLI the text. The debate tool answers at once with the
// run's id, while the run goes on (the defender holds its opening until
// that answer reached the model: on a machine of any speed), and the
// model follows the run with run_status to its outcome: no host's tool
// timeout is reached before the model knows the run.
func TestHostsHandTheirModelTheOutcome(t *testing.T) {
	t.Parallel()
	for _, host := range []string{"claude", "codex", "gemini", "qwen"} {
		t.Run(host, func(t *testing.T) {
			t.Parallel()
			realCLI(t, host)
			s := newSandbox(t)
			s.fakes.SetScript(holding(&clitest.Script{Agents: map[string]clitest.AgentScript{}}, "opening", "answered", "claude"))
			api := newStandIn(t, "mcp__arena__debate", map[string]any{"topic": "should we move sessions from Redis to Postgres?"})
			out, err := s.hostRunHeld(host, api, "put it to a debate")
			results := api.Results()
			if len(results) < 2 {
				t.Fatalf("%d tool results reached the model (%v); the requests offered %q:\n%s", len(results), err, api.Offered(), out)
			}
			if id := strings.TrimSuffix(filepath.Base(s.logs()[0]), ".jsonl"); runningID(results[0]) != id {
				t.Fatalf("the debate's answer does not name its running run %s:\n%s", id, results[0])
			}
			seen := textOfResult(results[len(results)-1])
			var missing []string
			for _, line := range strings.Split(documentText(t, s.onlyLog()), "\n") {
				if line = strings.TrimSpace(line); line != "" && !strings.Contains(seen, line) {
					missing = append(missing, line)
				}
			}
			if len(missing) > 0 {
				t.Fatalf("%d of the outcome document's lines never reached the model, among them:\n%s\n\nit saw:\n%s", len(missing), strings.Join(missing[:min(len(missing), 5)], "\n"), seen)
			}
			// Once: Qwen Code hands its model the structured result and
			// the text both.
			if line := longestLine(documentText(t, s.onlyLog())); strings.Count(seen, line) != 1 {
				t.Fatalf("the model got the outcome document %d times (its line %q):\n%s", strings.Count(seen, line), line, seen)
			}
		})
	}
}

// longestLine is the longest of text's lines.
func longestLine(text string) string {
	var longest string
	for _, l := range strings.Split(text, "\n") {
		if len(l) > len(longest) {
			longest = l
		}
	}
	return longest
}

// hostRunHeld runs the host as hostRun sets it up, and releases the
// fakes' hold "answered" once the first tool result reached the model
// (or the host exited): its combined output.
func (s *sandbox) hostRunHeld(host string, api *standIn, prompt string, extraEnv ...string) (string, error) {
	s.t.Helper()
	return s.hostRunUntil(host, api, prompt, 1, extraEnv...)
}

// hostRunUntil is hostRunHeld, releasing the hold once n tool results
// reached the model.
func (s *sandbox) hostRunUntil(host string, api *standIn, prompt string, n int, extraEnv ...string) (string, error) {
	s.t.Helper()
	cmd := s.hostRun(host, api, prompt, extraEnv...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return "", err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for {
		select {
		case err := <-exited:
			return out.String(), err
		case <-time.After(50 * time.Millisecond):
		}
		if len(api.Results()) >= n {
			s.fakes.Release("answered")
			err := <-exited
			return out.String(), err
		}
	}
}

// documentText is every text of the run's outcome document (its title,
// facts, paragraphs, list items, table cells...), a line each: what the
// document says, whether a host hands its model the Markdown (the tool
// result's text) or the document as data (its structured content).
func documentText(t *testing.T, lc runlog.Contents) string {
	t.Helper()
	o := outcomeOf(t, lc)
	if o.Document == nil {
		t.Fatal("the outcome has no document")
	}
	var b strings.Builder
	var walk func(reflect.Value, string)
	walk = func(v reflect.Value, field string) {
		switch v.Kind() {
		case reflect.Pointer:
			// What a section restates and its ID are for programs, not
			// said to a person.
			if !v.IsNil() && field != "Restates" {
				walk(v.Elem(), field)
			}
		case reflect.String:
			if field != "ID" {
				b.WriteString(v.String() + "\n")
			}
		case reflect.Slice:
			for i := range v.Len() {
				walk(v.Index(i), field)
			}
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i), v.Type().Field(i).Name)
			}
		}
	}
	walk(reflect.ValueOf(o.Document), "")
	return b.String()
}

// Gemini CLI and Codex keep API keys from the servers they start, and
// more: Codex every proxy, CA and base URL variable, Gemini CLI every
// name holding CERT. The entry arena install writes passes them through
// by name, so a seat that logs in with a key, or reaches its model
// through a proxy or a company CA, gets them, and a key the host does
// not have arrives at no seat, not even empty.
func TestHostsPassTheSeatsCredentials(t *testing.T) {
	t.Parallel()
	for _, host := range []string{"gemini", "codex"} {
		t.Run(host, func(t *testing.T) {
			t.Parallel()
			realCLI(t, host)
			s := newSandbox(t)
			api := newStandIn(t, "mcp__arena__debate", map[string]any{"topic": "should we move sessions from Redis to Postgres?"})
			keys := []string{"GEMINI_API_KEY=seat-gemini-key", "OPENAI_API_KEY=seat-openai-key"}
			if host == "gemini" {
				keys[0] = "GEMINI_API_KEY=standin" // the host's own, which it logs in with too
			}
			// The host reaches the stand-in through the proxy, or directly
			// (NO_PROXY): it answers both.
			network := []string{"HTTPS_PROXY=" + api.URL, "https_proxy=" + api.URL, "NO_PROXY=127.0.0.1,localhost",
				"NODE_EXTRA_CA_CERTS=" + s.companyCA(), "SSL_CERT_FILE=" + s.companyCA(), "OPENAI_BASE_URL=" + api.URL + "/v1"}
			out, err := s.hostRunHeld(host, api, "put it to a debate", append(keys, network...)...)
			if len(api.Results()) < 2 {
				t.Fatalf("the debate never ran (%v):\n%s", err, out)
			}
			for _, c := range []struct{ seat, key string }{{"gemini", keys[0]}, {"codex", keys[1]}} {
				k, v, _ := strings.Cut(c.key, "=")
				calls := s.fakes.CallsTo(c.seat)
				if len(calls) == 0 {
					t.Fatalf("no call to the %s seat", c.seat)
				}
				if calls[0].Env[k] != v {
					t.Errorf("the %s seat did not get %s from %s: %v", c.seat, k, host, calls[0].Env)
				}
				for _, kv := range network {
					if k, v, _ := strings.Cut(kv, "="); calls[0].Env[k] != v {
						t.Errorf("the %s seat did not get %s=%s from %s: %v", c.seat, k, v, host, calls[0].Env)
					}
				}
			}
			for _, call := range s.fakes.CallsTo("claude") {
				if v, ok := call.Env["ANTHROPIC_API_KEY"]; ok {
					t.Fatalf("a key %s does not have arrived at the claude seat as %q", host, v)
				}
			}
		})
	}
}

// companyCA is a certificate authority's file, as a company's would be
// (a self-signed certificate, PEM).
func (s *sandbox) companyCA() string {
	path := filepath.Join(s.home, "company-ca.pem")
	if _, err := os.Stat(path); err == nil {
		return path
	}
	srv := httptest.NewTLSServer(http.NotFoundHandler())
	srv.Close()
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		s.t.Fatal(err)
	}
	return path
}

// The commands arena install suggests when it will not edit a CLI's
// configuration are ones the real CLI accepts: run as printed, by a
// shell, each registers arena (passing the credentials through), and the
// CLI reads the entry back.
func TestSuggestedCommandsWorkInTheRealCLIs(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		host, config, check, want string
	}{
		{"claude", ".claude.json", "claude mcp get arena", "Connected"},
		{"codex", ".codex/config.toml", "codex mcp get arena", "GEMINI_API_KEY=*****"},
		{"gemini", ".gemini/settings.json", "gemini mcp list", "arena: " + arenaBinary(t) + " mcp (stdio) - Connected"},
		{"qwen", ".qwen/settings.json", "qwen mcp list", "arena: " + arenaBinary(t) + " mcp (stdio) - Connected"},
	} {
		t.Run(c.host, func(t *testing.T) {
			t.Parallel()
			cli := realCLI(t, c.host)
			s := newSandbox(t)
			// An entry named arena that arena did not write: install
			// refuses, and says what to run instead.
			theirs := `{"mcpServers": {"arena": {"command": "/opt/fork"}}}`
			if c.host == "codex" {
				theirs = "[mcp_servers.arena]\ncommand = \"/opt/fork\"\n"
			}
			cfg := s.writeHome(c.config, theirs)
			r := s.run("install", c.host)
			_, suggested, ok := strings.Cut(r.stdout, "To register arena yourself: ")
			if r.code != exitRefused || !ok {
				t.Fatalf("exit %d\n%s", r.code, r.stdout)
			}
			command, then, _ := strings.Cut(strings.TrimSpace(suggested), "\n")
			os.Remove(cfg) // they removed their entry, as install said
			env := withoutCredentials(s.env(s.pathWith(cli), "GEMINI_API_KEY=standin", "GEMINI_CLI_TRUST_WORKSPACE=true"), []string{"GEMINI_API_KEY=standin"})
			sh := func(line string) string {
				cmd := exec.Command("sh", "-c", line)
				cmd.Dir, cmd.Env = s.dir, env
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("%s: %v\n%s", line, err, out)
				}
				return string(out)
			}
			sh(command)
			if c.host == "codex" { // the line codex's mcp add cannot write
				line, ok := strings.CutPrefix(then, "then add this line to [mcp_servers.arena] in config.toml, above its env table: ")
				if !ok {
					t.Fatalf("no env_vars line: %q", then)
				}
				doc := readFile(t, cfg)
				os.WriteFile(cfg, []byte(strings.Replace(doc, "args = [\"mcp\"]\n", "args = [\"mcp\"]\n"+line+"\n", 1)), 0o600)
			}
			if out := sh(c.check); !strings.Contains(out, c.want) {
				t.Fatalf("%s:\n%s", c.check, out)
			}
			if doc := readFile(t, cfg); c.host == "gemini" && !strings.Contains(doc, `"GEMINI_API_KEY": "${GEMINI_API_KEY}"`) {
				t.Fatalf("the key is not passed through:\n%s", doc)
			}
		})
	}
}

// arena install qwen registers arena as qwen mcp add would: the real Qwen
// Code connects to it; --uninstall leaves its settings byte for byte as
// they were, with what Qwen Code itself wrote there.
func TestInstallQwenRoundTrip(t *testing.T) {
	t.Parallel()
	qwen := realCLI(t, "qwen")
	s := newSandbox(t)
	before := "{\n  \"model\": {\n    \"name\": \"qwen3-coder-plus\"\n  },\n  \"$version\": 4\n}\n"
	cfg := s.writeHome(".qwen/settings.json", before)
	if r := s.run("install", "qwen"); r.code != 0 || !strings.Contains(r.stdout, "registered the MCP server arena") {
		t.Fatalf("install qwen: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	cmd := exec.Command(qwen, "mcp", "list")
	cmd.Dir, cmd.Env = s.dir, s.env(s.pathWith())
	out, err := cmd.CombinedOutput()
	if !strings.Contains(string(out), "arena: "+arenaBinary(t)+" mcp (stdio) - Connected") {
		t.Fatalf("qwen mcp list (%v):\n%s", err, out)
	}
	if r := s.run("install", "qwen", "--uninstall"); r.code != 0 {
		t.Fatalf("uninstall: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if after := readFile(t, cfg); after != before {
		t.Fatalf("the settings after a round trip:\n%s\nbefore:\n%s", after, before)
	}
}

// Gemini CLI starts no MCP server in a folder it does not trust: right
// after arena install, gemini mcp list there shows arena Disabled. Install
// says so, and how to trust a folder.
func TestInstallSaysWhereGeminiStartsArena(t *testing.T) {
	t.Parallel()
	gemini := realCLI(t, "gemini")
	s := newSandbox(t)
	r := s.run("install", "gemini")
	cmd := exec.Command(gemini, "mcp", "list")
	cmd.Dir, cmd.Env = s.dir, s.env(s.pathWith())
	out, err := cmd.CombinedOutput()
	if !strings.Contains(string(out), "arena: "+arenaBinary(t)+" mcp (stdio) - Disabled") {
		t.Fatalf("gemini mcp list in an untrusted folder (%v):\n%s", err, out)
	}
	for _, want := range []string{"only in folders it trusts", "Disabled", "--skip-trust"} {
		if !strings.Contains(r.stdout, want) {
			t.Fatalf("install does not say %q:\n%s", want, r.stdout)
		}
	}
}

// arena mcp --http prints how to register it with each CLI: run as
// printed, by a shell, each command is accepted, and Claude Code and
// Gemini CLI connect with the token they read from ARENA_MCP_TOKEN,
// started as the last line says. No command holds the token, nor reads it
// onto a command line ($(cat FILE) did: issue 36, item 9), and the
// configuration each CLI writes names the variable, never the token.
func TestHTTPRegistrationCommandsWorkInTheRealCLIs(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ host, config, check, want string }{
		{"claude", ".claude.json", "claude mcp get arena", "Connected"},
		{"gemini", ".gemini/settings.json", "gemini mcp list", "(http) - Connected"},
		{"codex", ".codex/config.toml", "codex mcp get arena", "bearer_token_env_var: ARENA_MCP_TOKEN"},
	} {
		t.Run(c.host, func(t *testing.T) {
			t.Parallel()
			cli := realCLI(t, c.host)
			s := newSandbox(t)
			h := s.httpMCP()
			var command, then, start string
			for i, line := range h.banner {
				if l := strings.TrimSpace(line); strings.HasPrefix(l, c.host+" mcp add") {
					command = l
					if i+1 < len(h.banner) && strings.HasPrefix(strings.TrimSpace(h.banner[i+1]), "then") {
						then = strings.TrimSpace(h.banner[i+1])
					}
				}
				start, _, _ = strings.Cut(strings.TrimPrefix(line, mcpStartLine), " claude (")
			}
			if command == "" || !strings.Contains(command, h.url) || !strings.HasPrefix(start, "ARENA_MCP_TOKEN=") {
				t.Fatalf("no %s command, or no line saying how to start it:\n%s", c.host, strings.Join(h.banner, "\n"))
			}
			if strings.Contains(command, h.token()) || strings.Contains(command, "$(") || strings.Contains(command, `"`) {
				t.Fatalf("the command puts the token on a command line: %s", command)
			}
			env := s.env(s.pathWith(cli), "GEMINI_CLI_TRUST_WORKSPACE=true")
			sh := func(line string) (string, error) {
				cmd := exec.Command("sh", "-c", line)
				cmd.Dir, cmd.Env = s.dir, env
				out, err := cmd.CombinedOutput()
				return string(out), err
			}
			if out, err := sh(command); err != nil {
				t.Fatalf("%s: %v\n%s", command, err, out)
			}
			if config := readFile(t, filepath.Join(s.home, c.config)); strings.Contains(config, h.token()) || !strings.Contains(config, "ARENA_MCP_TOKEN") {
				t.Fatalf("%s holds the token, or does not name ARENA_MCP_TOKEN:\n%s", c.config, config)
			}
			out, err := sh(start + " " + c.check)
			if err != nil || !strings.Contains(out, c.want) || strings.Contains(out, h.token()) {
				t.Fatalf("%s %s: %v\n%s", start, c.check, err, out)
			}
			if c.host == "codex" {
				codexSeesArenaOverHTTP(t, s, start, then, sh)
				return
			}
			if out, _ := sh(c.check); strings.Contains(out, c.want) {
				t.Fatalf("%s connects without the token in its environment:\n%s", c.host, out)
			}
		})
	}
}

// codexSeesArenaOverHTTP: Codex connects to a server only when a session
// starts. Started as the banner says (start), a session's model is
// offered arena's tools; without the token, none, and Codex says
// nothing. With the line the banner adds (then: arena is required), Codex
// started without the token names it and runs nothing.
func codexSeesArenaOverHTTP(t *testing.T, s *sandbox, start, then string, sh func(string) (string, error)) {
	t.Helper()
	api := newStandIn(t, "", nil)
	config := readFile(t, filepath.Join(s.home, ".codex", "config.toml"))
	s.writeHome(".codex/config.toml", fmt.Sprintf("model = \"gpt-standin\"\nmodel_provider = \"standin\"\n\n[model_providers.standin]\nname = \"standin\"\nbase_url = \"%s/v1\"\nenv_key = \"ARENA_STANDIN_KEY\"\nwire_api = \"responses\"\n\n%s", api.URL, config))
	offered := func(prefix string) bool {
		n := len(api.Offered())
		out, err := sh(prefix + "ARENA_STANDIN_KEY=standin codex exec --skip-git-repo-check hello")
		if len(api.Offered()) == n {
			t.Fatalf("codex asked no model (%v):\n%s", err, out)
		}
		return slices.ContainsFunc(api.Offered()[n:], func(tools []string) bool {
			return slices.ContainsFunc(tools, func(tool string) bool { return strings.Contains(tool, "list_runs") })
		})
	}
	if !offered(start + " ") {
		t.Fatal("codex, started with the token, offers its model none of arena's tools")
	}
	if offered("") {
		t.Fatal("codex, started without the token, offers its model arena's tools")
	}
	line, ok := strings.CutPrefix(then, "then, so that Codex says when ARENA_MCP_TOKEN is missing (otherwise it shows no arena tools and no error), add this line to [mcp_servers.arena] in config.toml: ")
	if !ok {
		t.Fatalf("the banner does not say how to make Codex name a missing token: %q", then)
	}
	cfg := filepath.Join(s.home, ".codex", "config.toml")
	config = readFile(t, cfg)
	os.WriteFile(cfg, []byte(strings.Replace(config, "[mcp_servers.arena]\n", "[mcp_servers.arena]\n"+line+"\n", 1)), 0o600)
	n := len(api.Offered())
	out, err := sh("ARENA_STANDIN_KEY=standin codex exec --skip-git-repo-check hello")
	if err == nil || !strings.Contains(out, "ARENA_MCP_TOKEN") || len(api.Offered()) != n {
		t.Fatalf("codex, arena required, started without the token (%v):\n%s", err, out)
	}
	if !offered(start + " ") {
		t.Fatal("codex, arena required, started with the token, offers its model none of arena's tools")
	}
}

// Claude Code names a plugin's commands after the plugin (/arena:verdict),
// not as arena install's files are named (/verdict): the README and the
// marketplace say what the real CLI lists for the plugin.
func TestClaudePluginCommandsAreAsTheDocsSay(t *testing.T) {
	t.Parallel()
	claude := realCLI(t, "claude")
	s := newSandbox(t)
	api := newStandIn(t, "", nil)
	repo, _ := filepath.Abs("../..")
	cmd := exec.Command(claude, "-p", "hi", "--plugin-dir", filepath.Join(repo, "cmd", "arena", "claude-plugin"), "--output-format", "stream-json", "--verbose")
	cmd.Dir, cmd.Env = s.dir, s.env("ANTHROPIC_BASE_URL="+api.URL, "ANTHROPIC_API_KEY=sk-standin")
	out, err := cmd.Output()
	var init struct {
		SlashCommands []string `json:"slash_commands"`
	}
	first, _, _ := strings.Cut(string(out), "\n")
	if json.Unmarshal([]byte(first), &init) != nil {
		t.Fatalf("no init event (%v):\n%s", err, out)
	}
	readme, market := readFile(t, filepath.Join(repo, "docs", "integrations.md")), readFile(t, filepath.Join(repo, ".claude-plugin", "marketplace.json"))
	n := 0
	for _, c := range init.SlashCommands {
		if !strings.HasPrefix(c, "arena:") {
			continue
		}
		n++
		if !strings.Contains(readme, "`/"+c+"`") || !strings.Contains(market, "/"+c) {
			t.Errorf("docs/integrations.md or the marketplace does not name the plugin's /%s", c)
		}
	}
	if n != 5 {
		t.Fatalf("%d of the plugin's commands listed: %v", n, init.SlashCommands)
	}
}

// A host that gives up on a call (its tool timeout) cancels it, saying
// it timed out: the run goes on, and the model follows it again to its
// outcome. Claude Code 2.1, its tool timeout 3 s, the model asking
// run_status to wait 10; the run holds until that call timed out.
func TestAHostsTimeoutLeavesTheRunGoing(t *testing.T) {
	t.Parallel()
	realCLI(t, "claude")
	s := newSandbox(t)
	s.fakes.SetScript(holding(&clitest.Script{Agents: map[string]clitest.AgentScript{}}, "opening", "answered", "claude"))
	api := newStandIn(t, "mcp__arena__debate", map[string]any{"topic": "should we move sessions from Redis to Postgres?"})
	api.firstWait = 10
	out, err := s.hostRunUntil("claude", api, "put it to a debate", 2, "MCP_TOOL_TIMEOUT=3000")
	results := api.Results()
	if len(results) < 3 || !strings.Contains(strings.Join(results, "\n"), "timed out") {
		t.Fatalf("no call timed out (%v); the model saw %d results:\n%s\n%s", err, len(results), strings.Join(results, "\n"), out)
	}
	if o := outcomeOf(t, s.onlyLog()); o.Result != "consensus" {
		t.Fatalf("the run ended %s after the host's timeout", o.Result)
	}
	if seen := textOfResult(results[len(results)-1]); !strings.Contains(seen, "consensus") {
		t.Fatalf("the model did not get the outcome after the timeout:\n%s", seen)
	}
}

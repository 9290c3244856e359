package main

import (
	"encoding/json"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
)

// End-to-end tests of hostile endpoints (issue 36, items 4-6): the built
// arena against an API fake that redirects, reports usage no call can
// have, and echoes the key it was sent.

const sessionsQuestion = "should we move sessions from Redis to Postgres?"

// notes are the warnings and other notes of a run's log.
func notes(s *sandbox) []string {
	var out []string
	for _, e := range s.onlyLog().Events {
		if n, ok := e.Payload.(engine.Note); ok {
			out = append(out, n.Message)
		}
	}
	return out
}

// An endpoint that answers 307 to another port of its host gets neither
// the key nor the prompt there: the seat fails at once, and the person
// is told which seat, and where the endpoint tried to send it.
func TestAPIRedirectIsRefusedEndToEnd(t *testing.T) {
	s := newSandbox(t)
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
		"gemini": {Key: secretKey, Mode: clitest.ModeRedirect},
		"codex":  {Key: secretKey},
		"claude": {Key: secretKey},
	}})
	url := s.apiSeats("    key_env: OPENROUTER_API_KEY\n")
	r := s.runEnv([]string{"OPENROUTER_API_KEY=" + secretKey}, "--no-tui", "--challengers", "gemini,codex", sessionsQuestion)
	for _, c := range s.fakes.Calls() {
		if c.API != nil && c.API.Elsewhere {
			t.Fatalf("the redirect was followed, the key sent: %v\n%+v", c.API.Bearer, c)
		}
	}
	if n := len(s.fakes.CallsTo("gemini")); n != 1 {
		t.Fatalf("%d requests from gemini, want 1: a redirect is not retried", n)
	}
	var failed *engine.AgentFailed
	for _, e := range s.onlyLog().Events {
		if f, ok := e.Payload.(engine.AgentFailed); ok && f.Seat == "gemini" {
			failed = &f
		}
	}
	host := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/v1")
	host = host[:strings.LastIndexByte(host, ':')]
	if failed == nil || !strings.Contains(failed.Message, "the endpoint redirected the request to http://"+host+":") ||
		!strings.Contains(failed.Message, "307 Temporary Redirect") || strings.Contains(failed.Message, url) {
		t.Fatalf("gemini's failure in the log: %+v", failed)
	}
	if out := r.stdout + r.stderr; !strings.Contains(out, "gemini") || !strings.Contains(out, "redirected the request to http://"+host+":") {
		t.Fatalf("the output does not say which seat was redirected where:\n%s\n%s", r.stdout, r.stderr)
	}
}

// Usage an endpoint reports is clamped and said so: a defender whose
// endpoint reports a billion negative tokens no longer lifts
// --max-tokens (the run stops after the challengers' openings, as it
// would had it reported none), and two challengers reporting a cost of
// 1e308 each stop --max-cost with no "$+Inf" anywhere.
func TestAPIUsageIsClampedUnderABudget(t *testing.T) {
	negative := clitest.AgentScript{Usage: json.RawMessage(`{"prompt_tokens":-1000000000,"completion_tokens":-1000000000,"total_tokens":-2000000000}`)}
	huge := clitest.AgentScript{Usage: json.RawMessage(`{"prompt_tokens":100,"completion_tokens":100,"total_tokens":200,"cost":1e308}`)}
	for _, c := range []struct {
		name, flag, value string
		agents            map[string]clitest.AgentScript
		calls             int
		note, hit         string
	}{
		{"tokens", "--max-tokens", "10", map[string]clitest.AgentScript{"claude": negative}, 3,
			"claude reported usage no call can have: -1000000000 input tokens (counted as 0), -1000000000 output tokens (counted as 0)", "tokens used of a 10 budget"},
		{"cost", "--max-cost", "5", map[string]clitest.AgentScript{"gemini": huge, "codex": huge}, 3,
			"gemini reported usage no call can have: a cost of $1e+308 (counted as $1000, the most one call is believed to cost)", "spent of a $5.00 budget"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := newSandbox(t)
			s.fakes.SetScript(&clitest.Script{Agents: c.agents})
			s.apiSeats("")
			r := s.run("--no-tui", c.flag, c.value, "--challengers", "gemini,codex", sessionsQuestion)
			api, _ := apiCalls(s)
			o := outcomeOf(t, s.onlyLog())
			if r.code != exitOverBudget || len(api) != c.calls || !strings.Contains(o.Summary, c.hit) {
				t.Fatalf("exit %d, %d requests (want %d), outcome %q\n%s", r.code, len(api), c.calls, o.Summary, r.stderr)
			}
			if ns := notes(s); !strings.Contains(strings.Join(ns, "\n"), c.note) {
				t.Fatalf("the log's notes %q do not say what was reported", ns)
			}
			if !strings.Contains(r.stdout+r.stderr, c.note) {
				t.Fatalf("the output does not warn of what was reported:\n%s\n%s", r.stdout, r.stderr)
			}
			for _, out := range []string{r.stdout, r.stderr, o.Markdown} {
				if strings.Contains(out, "Inf") || strings.Contains(out, "NaN") || strings.Contains(out, "in · -") {
					t.Fatalf("an impossible amount is shown:\n%s", out)
				}
			}
		})
	}
}

// A key the endpoint echoes (in an error longer than the 300 characters
// shown, in the stream's model field, in the reply, split across its
// chunks) and a secret in base_url's query string are written nowhere:
// not the log, the documents, the output, the dry run, arena config or
// doctor.
func TestAPIEchoedKeyAndBaseURLSecretAreNeverWritten(t *testing.T) {
	const querySecret = "gw-query-secret-0123456789"
	s := newSandbox(t)
	long := strings.Repeat("x", 270) + " " + clitest.EchoKey + " is not allowed here"
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
		"claude": {Model: "acme/" + clitest.EchoKey, Chunks: 60, Steps: map[string][]clitest.Step{
			"opening": {{Prose: "You sent " + clitest.EchoKey + " as your key."}},
		}},
		"gemini": {Steps: map[string][]clitest.Step{"critique": {{Mode: clitest.ModeHTTPError, Status: 400, Message: long}}}},
	}})
	url := s.fakes.ServeAPI() + "?api_key=" + querySecret
	s.appendConfig("agents:\n" +
		"  claude: {api: openai, base_url: \"" + url + "\", model: claude, key_env: OPENROUTER_API_KEY}\n" +
		"  gemini: {api: openai, base_url: \"" + url + "\", model: gemini, key_env: OPENROUTER_API_KEY}\n" +
		"  codex: {api: openai, base_url: \"" + url + "\", model: codex, key_env: OPENROUTER_API_KEY}\n")
	env := []string{"OPENROUTER_API_KEY=" + secretKey}
	var outputs []string
	for _, args := range [][]string{
		{"--no-tui", "--dry-run", "--challengers", "gemini,codex", sessionsQuestion},
		{"--no-tui", "--challengers", "gemini,codex", sessionsQuestion},
		{"config"},
		{"doctor", "--probe"},
	} {
		r := s.runEnv(env, args...)
		outputs = append(outputs, r.stdout, r.stderr)
	}
	o := outcomeOf(t, s.onlyLog())
	log := readFile(t, s.logs()[0])
	if !strings.Contains(o.Markdown, "[the key in OPENR") || !strings.Contains(log, "You sent [the key in OPENROUTER_API_KEY] as your key.") ||
		!strings.Contains(log, `"model":"acme/[the key in OPENROUTER_API_KEY]"`) || !strings.Contains(strings.Join(outputs, ""), "?api_key=REDACTED") {
		t.Fatalf("the run did not meet the echoed key, or base_url is not shown:\n%s\n%s", o.Markdown, strings.Join(outputs, "\n"))
	}
	for i, out := range outputs {
		if strings.Contains(out, secretKey[:len(secretKey)-1]) || strings.Contains(out, querySecret) {
			t.Fatalf("output %d holds a secret:\n%s", i, out)
		}
	}
	for _, root := range []string{s.dir, s.home} {
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() && d.Name() != "config.yaml" { // where the test wrote base_url
				if b := readFile(t, path); strings.Contains(b, secretKey[:len(secretKey)-1]) || strings.Contains(b, querySecret) {
					t.Errorf("%s holds a secret", path)
				}
			}
			return nil
		})
	}
}

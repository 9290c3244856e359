package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
)

// End-to-end tests of API agents: the built arena with seats that are
// OpenAI-compatible endpoints, served by the API fake (fakecli
// serve-api), which answers from the same script and with the same
// replies as the fake CLIs.

// appendConfig adds YAML to the sandbox's config file.
func (s *sandbox) appendConfig(yaml string) {
	s.t.Helper()
	path := filepath.Join(s.home, ".config", "arena", "config.yaml")
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		s.t.Fatal(err)
	}
	s.writeConfig(string(old) + "\n" + yaml)
}

// apiSeats starts the API fake and makes the named agents (every
// built-in when none is named) endpoints on it, each asking for the
// model named after it: every protocol's seats and every script stay as
// they are, answered over HTTP. extra is more YAML for each agent. It
// returns the fake's base URL.
func (s *sandbox) apiSeats(extra string, names ...string) string {
	s.t.Helper()
	if len(names) == 0 {
		names = clitest.DefaultNames
	}
	url := s.fakes.ServeAPI()
	var b strings.Builder
	b.WriteString("agents:\n")
	for _, n := range names {
		fmt.Fprintf(&b, "  %s:\n    api: openai\n    base_url: %s\n    model: %s\n%s", n, url, n, extra)
	}
	s.appendConfig(b.String())
	return url
}

// apiCalls are the requests the API fake got; cliCalls the fake CLIs'
// model calls.
func apiCalls(s *sandbox) (api, cli []clitest.Call) {
	for _, c := range s.fakes.Calls() {
		switch {
		case c.API != nil:
			api = append(api, c)
		case c.Kind != clitest.KindVersion:
			cli = append(cli, c)
		}
	}
	return api, cli
}

// Every protocol runs to the outcome it reaches on the CLIs with API
// seats only: the server gets streamed requests carrying arena's prompts
// and asking for the usage, and the log and the outcome show the tokens
// it reported.
func TestEveryProtocolWithAPISeatsOnly(t *testing.T) {
	for _, c := range resumeCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, base := c.baseline(t)
			s := newSandbox(t)
			s.fakes.SetScript(c.script(nil))
			args := c.setup(s)
			s.apiSeats("")
			r := s.run(args...)
			lc := s.onlyLog()
			o := outcomeOf(t, lc)
			if o.Result != base.Result || !lc.Complete {
				t.Fatalf("outcome %s, want %s as on the CLIs\n%s\n%s", o.Result, base.Result, r.stdout, r.stderr)
			}
			api, cli := apiCalls(s)
			if len(cli) != 0 || len(api) == 0 {
				t.Fatalf("%d CLI calls, %d API requests: every seat is an endpoint", len(cli), len(api))
			}
			for _, call := range api {
				if !call.API.Stream || !call.API.IncludeUsage || !strings.Contains(call.Prompt, "REPLY SHAPE: ") {
					t.Fatalf("request %+v %+v: not a streamed request carrying arena's prompt", call, call.API)
				}
			}
			checkReportedTokens(t, lc, o)
		})
	}
}

// checkReportedTokens: every reply in the log has the tokens the server
// reported, and the outcome's cost section counts them.
func checkReportedTokens(t *testing.T, lc runlog.Contents, o engine.Outcome) {
	t.Helper()
	replies := 0
	for _, e := range lc.Events {
		if f, ok := e.Payload.(engine.AgentFinished); ok {
			replies++
			if f.Usage == nil || f.Usage.InputTokens == 0 || f.Usage.OutputTokens == 0 {
				t.Fatalf("%s's reply has no usage: %+v", f.Seat, f.Usage)
			}
		}
	}
	if replies == 0 || strings.Contains(o.Markdown, "tokens not reported") || !strings.Contains(o.Markdown, " in · ") {
		t.Fatalf("%d replies; the outcome's costs:\n%s", replies, o.Markdown)
	}
}

// The API seats' panes stream as the CLIs' do: chunks arrive before the
// reply is finished.
func TestAPISeatsStreamIntoThePanes(t *testing.T) {
	s := newSandbox(t)
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"gemini": {Chunks: 5}}})
	s.apiSeats("", "gemini", "codex")
	r := s.run("--no-tui", "--challengers", "gemini,codex", "should we move sessions from Redis to Postgres?")
	if r.code != exitConsensus {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	chunks := 0
	for _, e := range s.onlyLog().Events {
		if c, ok := e.Payload.(engine.Chunk); ok && c.Seat == "gemini" {
			chunks++
		}
	}
	if chunks < 5 {
		t.Fatalf("%d chunks from gemini's endpoint, want one per delta (5 a reply)", chunks)
	}
}

// A debate with claude (its CLI) defending against two API challengers,
// one of them reporting a cost, as OpenRouter does.
func TestDebateMixesCLIAndAPISeats(t *testing.T) {
	s := newSandbox(t)
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"gemini": {CostUSD: 0.0125}}})
	s.apiSeats("", "gemini", "codex")
	r := s.run("--no-tui", "--challengers", "gemini,codex", "should we move sessions from Redis to Postgres?")
	if r.code != exitConsensus {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	api, cli := apiCalls(s)
	for _, c := range cli {
		if c.Agent != "claude" {
			t.Fatalf("a CLI call of %s: only claude is a CLI", c.Agent)
		}
	}
	byModel := map[string]int{}
	for _, c := range api {
		byModel[c.Agent]++
	}
	if len(cli) == 0 || byModel["gemini"] == 0 || byModel["codex"] == 0 || len(byModel) != 2 {
		t.Fatalf("%d claude CLI calls, API requests %v", len(cli), byModel)
	}
	o := outcomeOf(t, s.onlyLog())
	row := ""
	for _, l := range strings.Split(o.Markdown, "\n") {
		if strings.HasPrefix(l, "| gemini |") {
			row = l
		}
	}
	if want := fmt.Sprintf("$%.4f", 0.0125*float64(byModel["gemini"])); !strings.Contains(row, want) || !strings.Contains(row, " in · ") {
		t.Fatalf("gemini's costs %q, want the tokens and the %s its endpoint reported\n%s", row, want, o.Markdown)
	}
	if !strings.Contains(r.stdout, "Seats: claude (defender), gemini (challenger), codex (challenger)") {
		t.Fatalf("stdout:\n%s", r.stdout)
	}
}

// --max-calls, --max-tokens and --max-cost stop a run of API seats at
// the call the budget has nothing left for: the defender's opening, one
// call, spends all the tokens or dollars allowed.
func TestBudgetStopsAPISeats(t *testing.T) {
	for _, c := range []struct {
		flag, value string
		calls       int
		hit         string
	}{
		{"--max-calls", "3", 3, "all 3 calls of the budget made"},
		{"--max-tokens", "10", 1, "tokens used of a 10 budget"},
		{"--max-cost", "0.001", 1, "spent of a $0.001 budget"},
	} {
		t.Run(c.flag, func(t *testing.T) {
			t.Parallel()
			s := newSandbox(t)
			costly := clitest.AgentScript{CostUSD: 0.01}
			s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"claude": costly, "gemini": costly, "codex": costly, "qwen": costly}})
			s.apiSeats("")
			r := s.run("--no-tui", c.flag, c.value, "should we move sessions from Redis to Postgres?")
			api, _ := apiCalls(s)
			o := outcomeOf(t, s.onlyLog())
			if r.code != exitOverBudget || len(api) != c.calls || !strings.Contains(o.Summary, c.hit) {
				t.Fatalf("exit %d, %d requests (want %d), outcome %q\n%s", r.code, len(api), c.calls, o.Summary, r.stderr)
			}
		})
	}
}

// A 429 with Retry-After: 1 is tried again after about a second, and the
// retry is a call: in the log, and against --max-calls.
func TestAPIRateLimitIsRetriedAsACall(t *testing.T) {
	script := &clitest.Script{Agents: map[string]clitest.AgentScript{"claude": {Steps: map[string][]clitest.Step{
		"opening": {{Mode: clitest.ModeRateLimit, RetryAfter: "1"}, {}},
	}}}}
	t.Run("retried", func(t *testing.T) {
		t.Parallel()
		s := newSandbox(t)
		s.fakes.SetScript(script)
		s.apiSeats("")
		r := s.run("--no-tui", "should we move sessions from Redis to Postgres?")
		if r.code != exitConsensus {
			t.Fatalf("exit %d\n%s", r.code, r.stderr)
		}
		var opens []clitest.Call
		for _, c := range s.fakes.CallsTo("claude") {
			if c.Kind == "opening" {
				opens = append(opens, c)
			}
		}
		if len(opens) != 2 {
			t.Fatalf("%d opening requests, want the 429 and its retry", len(opens))
		}
		first, _ := time.Parse(time.RFC3339Nano, opens[0].Time)
		second, _ := time.Parse(time.RFC3339Nano, opens[1].Time)
		if gap := second.Sub(first); gap < 900*time.Millisecond {
			t.Fatalf("retried after %s, before the second Retry-After asked for", gap)
		}
		var failed *engine.AgentFailed
		for _, e := range s.onlyLog().Events {
			if f, ok := e.Payload.(engine.AgentFailed); ok && f.Seat == "claude" {
				failed = &f
			}
		}
		if failed == nil || !failed.WillRetry || !strings.Contains(failed.Message, "the endpoint is rate limiting (429 Too Many Requests: Rate limit reached") ||
			!strings.Contains(failed.Message, "trying again in 1s, as it asked") {
			t.Fatalf("the log's failure: %+v", failed)
		}
	})
	t.Run("counted", func(t *testing.T) {
		t.Parallel()
		s := newSandbox(t)
		s.fakes.SetScript(script)
		s.apiSeats("")
		r := s.run("--no-tui", "--max-calls", "1", "should we move sessions from Redis to Postgres?")
		api, _ := apiCalls(s)
		o := outcomeOf(t, s.onlyLog())
		if r.code != exitOverBudget || len(api) != 1 || !strings.Contains(o.Summary, "all 1 calls of the budget made") {
			t.Fatalf("exit %d, %d requests, %q: the retry is a call the budget had no room for\n%s", r.code, len(api), o.Summary, r.stderr)
		}
	})
}

// secretKey is the value of the key: it must appear nowhere arena writes.
const secretKey = "sk-or-v1-SECRET-0123456789abcdef0123456789"

// A key the endpoint refuses fails the seat at once, naming the variable
// that holds it; the key's value is nowhere: the log, the documents, the
// output, the errors, arena config and doctor, an MCP result.
func TestAPIKeyIsNeverWritten(t *testing.T) {
	s := newSandbox(t)
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"gemini": {Key: "sk-or-v1-the-right-key"}, "codex": {Key: secretKey}}})
	s.apiSeats("    key_env: OPENROUTER_API_KEY\n", "gemini", "codex")
	s.writeConfig(strings.Replace(readFile(t, filepath.Join(s.home, ".config", "arena", "config.yaml")), "agents:", "verdict: {quick: codex, deep: codex}\nagents:", 1))
	env := "OPENROUTER_API_KEY=" + secretKey
	var outputs []string
	run := func(args ...string) result {
		cmd := append([]string{}, args...)
		r := s.runEnv([]string{env}, cmd...)
		outputs = append(outputs, r.stdout, r.stderr)
		return r
	}
	r := run("--no-tui", "--challengers", "gemini,codex", "should we move sessions from Redis to Postgres?")
	if gemini := s.fakes.CallsTo("gemini"); len(gemini) != 1 {
		t.Fatalf("%d requests with the refused key, want 1: it fails at once\n%s", len(gemini), r.stderr)
	}
	o := outcomeOf(t, s.onlyLog())
	if !strings.Contains(o.Markdown, "the endpoint refused the key in OPENROUTER_API_KEY") {
		t.Fatalf("the outcome does not say why gemini failed:\n%s", o.Markdown)
	}
	// A defender whose key is refused fails at once, though a defender's
	// failed call is otherwise asked again.
	before := len(s.fakes.CallsTo("gemini"))
	r = run("--no-tui", "--defender", "gemini", "--challengers", "codex", "should we move sessions from Redis to Postgres?")
	if n := len(s.fakes.CallsTo("gemini")) - before; n != 1 || !strings.Contains(r.stdout+r.stderr, "the endpoint refused the key in OPENROUTER_API_KEY") {
		t.Fatalf("the defender's refused key: %d requests, want 1\n%s\n%s", n, r.stdout, r.stderr)
	}
	run("config")
	run("doctor", "--probe")
	ms := s.mcp("arena-test", env)
	res, st := ms.call(bg(t), "verdict", map[string]any{"work": "diff --git a/api.go b/api.go\n+func Users() {}\n", "task_id": "issue-31", "task": "list the users", "wait_seconds": 50})
	for i := 0; st.State == "running" && i < 10; i++ {
		res, st = ms.call(bg(t), "run_status", map[string]any{"run_id": st.RunID, "wait_seconds": 50})
	}
	if st.State != "finished" {
		t.Fatalf("the MCP verdict did not finish: %+v", st)
	}
	b, _ := json.Marshal(res)
	outputs = append(outputs, string(b), textOf(res))
	for i, out := range outputs {
		if strings.Contains(out, secretKey) {
			t.Fatalf("output %d holds the key:\n%s", i, out)
		}
	}
	for _, root := range []string{s.dir, s.home} {
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() && strings.Contains(readFile(t, path), secretKey) {
				t.Errorf("%s holds the key", path)
			}
			return nil
		})
	}
}

// runEnv is run with more environment.
func (s *sandbox) runEnv(env []string, args ...string) result {
	s.t.Helper()
	old := s.extraEnv
	s.extraEnv = append(append([]string{}, old...), env...)
	defer func() { s.extraEnv = old }()
	return s.run(args...)
}

// --author claude keeps Claude through OpenRouter out of the judging
// seats while an agent of another family is free, and the dry run says
// why; named by a flag, it judges, and the outcome says it judges its own
// family's work.
func TestAuthorsFamilyGetsNoJudgingSeat(t *testing.T) {
	s := newSandbox(t)
	url := s.fakes.ServeAPI()
	s.writeConfig(fmt.Sprintf("challengers: [sonnet, llama, gemini]\nagents:\n"+
		"  sonnet: {api: openai, base_url: %s, model: anthropic/claude-sonnet-4.5}\n"+
		"  llama: {api: openai, base_url: %s, model: meta-llama/llama-3.3-70b-instruct}\n", url, url))
	sol := s.writeSolution(t)
	r := s.run("judge", sol, "--task", "REST API for user management", "--criteria", judgeCriteria, "--author", "claude", "--dry-run")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{
		"FAMILY", "meta", "google",
		"sonnet (anthropic, the family of claude, which wrote the work) gets no seat nobody named, while an agent of another family is free",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Fatalf("the dry run lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "anthropic ") {
		t.Fatalf("an Anthropic model has a judging seat:\n%s", r.stdout)
	}
	r = s.run("judge", sol, "--task", "REST API for user management", "--criteria", judgeCriteria, "--author", "claude", "--judges", "sonnet,llama", "--no-tui")
	o := outcomeOf(t, s.onlyLog())
	want := "sonnet judges work of its own family (anthropic, like claude, which wrote it) as the judge"
	if !strings.Contains(r.stderr, want) || !strings.Contains(o.Markdown, "## Seats\n\n- "+want) {
		t.Fatalf("the outcome does not name the seat judging its own family's work:\n%s\n%s", r.stderr, o.Markdown)
	}
}

// Two seats of one family are flagged as not independent.
func TestSameFamilySeatsAreFlagged(t *testing.T) {
	s := newSandbox(t)
	url := s.fakes.ServeAPI()
	s.writeConfig(fmt.Sprintf("agents:\n  sonnet: {api: openai, base_url: %s, model: anthropic/claude-sonnet-4.5}\n", url))
	r := s.run("--no-tui", "--challengers", "sonnet,gemini", "--dry-run", "should we move sessions from Redis to Postgres?")
	want := "claude and sonnet are all anthropic models: their seats are not independent"
	if r.code != 0 || !strings.Contains(r.stderr, want) || !strings.Contains(r.stdout, want) {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
}

// doctor lists an API agent with its endpoint and family, never its key;
// --probe asks GET /models and checks that the model is listed.
func TestDoctorChecksAPIAgents(t *testing.T) {
	s := newSandbox(t)
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"anthropic/claude-sonnet-4.5": {Key: secretKey}}})
	url := s.fakes.ServeAPI()
	s.writeConfig(fmt.Sprintf("agents:\n"+
		"  sonnet: {api: openai, base_url: %s, model: anthropic/claude-sonnet-4.5, key_env: OPENROUTER_API_KEY}\n"+
		"  ghost: {api: openai, base_url: %s, model: no-such-model, key_env: OPENROUTER_API_KEY}\n", url, url))
	r := s.runEnv([]string{"OPENROUTER_API_KEY=" + secretKey}, "doctor", "--probe")
	for _, want := range []string{
		"sonnet: endpoint " + url + " (anthropic/claude-sonnet-4.5)", "it lists anthropic/claude-sonnet-4.5 (of 1 model)",
		"OPENROUTER_API_KEY", "ghost: the endpoint does not list the model \"no-such-model\" (it lists: anthropic/claude-sonnet-4.5)",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Fatalf("doctor lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout+r.stderr, secretKey) {
		t.Fatal("doctor printed the key")
	}
	r = s.run("doctor")
	if !strings.Contains(r.stdout, "sonnet: OPENROUTER_API_KEY is not set") {
		t.Fatalf("doctor without the key:\n%s", r.stdout)
	}
	r = s.run("config")
	if !strings.Contains(r.stdout, "base_url "+url+" · model anthropic/claude-sonnet-4.5 · key_env OPENROUTER_API_KEY") ||
		!strings.Contains(r.stdout, "family anthropic (from the model id)") {
		t.Fatalf("arena config:\n%s", r.stdout)
	}
}

// A run of API seats stopped over budget resumes to its outcome, asking
// nothing twice; a follow-up goes to an API seat.
func TestAPISeatsResumeAndAnswerFollowUps(t *testing.T) {
	s := newSandbox(t)
	s.apiSeats("")
	r := s.run("--no-tui", "--max-calls", "3", "should we move sessions from Redis to Postgres?")
	if r.code != exitOverBudget {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	log := s.logs()[0]
	r = s.run("resume", "--no-tui", "--max-calls", "100", log)
	if r.code != exitConsensus {
		t.Fatalf("resumed: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	seen := map[string]bool{}
	for _, c := range s.fakes.Calls() {
		if c.API == nil {
			t.Fatalf("a CLI call: %+v", c)
		}
		if seen[c.PromptSHA256] && !c.Repair {
			t.Fatalf("%s was asked the same prompt twice", c.Agent)
		}
		seen[c.PromptSHA256] = true
	}
	r = s.run("ask", log, followUpQuestion, "--seat", "gemini")
	if r.code != 0 || !strings.Contains(r.stdout, "Gemini answers") {
		t.Fatalf("follow-up: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if last := s.fakes.Calls(); last[len(last)-1].API == nil || last[len(last)-1].Agent != "gemini" {
		t.Fatalf("the follow-up did not go to gemini's endpoint: %+v", last[len(last)-1])
	}
}

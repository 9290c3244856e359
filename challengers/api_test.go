package challengers_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/clitest"
)

// These tests run API agents against the API fake (fakecli serve-api): a
// real HTTP server speaking the Chat Completions stream as OpenAI's
// reference shows it, scripted like the fake CLIs.

const testKey = "sk-or-v1-test-0123456789abcdef"

func apiAgent(url, model string) challengers.Agent {
	return challengers.Agent{Name: model, API: challengers.APIOpenAI, BaseURL: url, Model: model, Timeout: 20 * time.Second}
}

// serveAPI starts the API fake with a script.
func serveAPI(t *testing.T, s *clitest.Script) (*clitest.Fakes, string) {
	t.Helper()
	f := clitest.New(t)
	f.SetScript(s)
	return f, f.ServeAPI()
}

// opening scripts an agent's opening requests (those runAPI sends).
func opening(st clitest.Step) clitest.AgentScript {
	return clitest.AgentScript{Steps: map[string][]clitest.Step{"opening": {st}}}
}

func runAPI(t *testing.T, a challengers.Agent, env []string) (challengers.Result, []string) {
	t.Helper()
	var mu sync.Mutex
	var chunks []string
	res := challengers.Run(context.Background(), challengers.Request{
		Agent: a, Prompt: "Which is better? REPLY SHAPE: opening", Env: env,
		OnChunk: func(s string) { mu.Lock(); chunks = append(chunks, s); mu.Unlock() },
	})
	return res, chunks
}

func TestAPIStreamsTheReplyWithItsUsageAndCost(t *testing.T) {
	f, url := serveAPI(t, &clitest.Script{Agents: map[string]clitest.AgentScript{
		"anthropic/claude-sonnet-4.5": {Chunks: 4, CostUSD: 0.0123, Key: testKey},
	}})
	a := apiAgent(url, "anthropic/claude-sonnet-4.5")
	a.KeyEnv = "OPENROUTER_API_KEY"
	res, chunks := runAPI(t, a, []string{"OPENROUTER_API_KEY=" + testKey})
	if !res.OK() {
		t.Fatalf("result %s: %s", res.Reason, res.Describe())
	}
	if len(chunks) < 4 || strings.Join(chunks, "") == "" || strings.TrimSpace(strings.Join(chunks, "")) != res.Text {
		t.Errorf("chunks %q do not make up the reply %q", chunks, res.Text)
	}
	if res.Usage == nil || res.Usage.InputTokens == 0 || res.Usage.OutputTokens == 0 {
		t.Fatalf("usage %+v, want the tokens the server reported", res.Usage)
	}
	if res.Usage.CostUSD == nil || *res.Usage.CostUSD != 0.0123 {
		t.Errorf("cost %v, want the 0.0123 the server reported", res.Usage.CostUSD)
	}
	calls := f.CallsTo("anthropic/claude-sonnet-4.5")
	if len(calls) != 1 {
		t.Fatalf("%d calls, want 1", len(calls))
	}
	c := calls[0]
	if !c.API.Stream || !c.API.IncludeUsage || !c.API.KeyOK || !strings.Contains(c.Prompt, "Which is better?") || c.Kind != clitest.KindOpening {
		t.Errorf("the server saw %+v %+v", c, c.API)
	}
	if strings.Contains(strings.Join(res.Command, " "), testKey) {
		t.Errorf("the key is in the command shown: %q", res.Command)
	}
}

func TestAPIWithoutCostReportsNone(t *testing.T) {
	_, url := serveAPI(t, nil)
	res, _ := runAPI(t, apiAgent(url, "llama3.2"), nil)
	if !res.OK() || res.Usage == nil || res.Usage.CostUSD != nil {
		t.Fatalf("result %s %+v, want tokens and no cost", res.Describe(), res.Usage)
	}
}

func TestAPIRefusedKeyNamesTheVariableNotTheKey(t *testing.T) {
	f, url := serveAPI(t, &clitest.Script{Agents: map[string]clitest.AgentScript{"m": {Key: "sk-the-right-key-0000"}}})
	a := apiAgent(url, "m")
	a.KeyEnv = "OPENROUTER_API_KEY"
	start := time.Now()
	res, _ := runAPI(t, a, []string{"OPENROUTER_API_KEY=" + testKey})
	if res.Reason != challengers.ReasonEndpoint || !strings.HasPrefix(res.Describe(), "the endpoint refused the key in OPENROUTER_API_KEY (401 Unauthorized: Incorrect API key provided: [the key in OPENROUTER_API_KEY].") {
		t.Fatalf("result %s: %q", res.Reason, res.Describe())
	}
	if strings.Contains(res.Describe(), testKey) {
		t.Errorf("the key's value is in %q", res.Describe())
	}
	if !res.Final {
		t.Errorf("a refused key is worth no retry: %+v", res)
	}
	if n := len(f.CallsTo("m")); n != 1 {
		t.Errorf("%d requests, want 1: a refused key is not retried", n)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("took %s", took)
	}
}

func TestAPIKeyVariableNotSetFailsBeforeAnyRequest(t *testing.T) {
	f, url := serveAPI(t, nil)
	a := apiAgent(url, "m")
	a.KeyEnv = "ARENA_TEST_UNSET_KEY"
	res, _ := runAPI(t, a, []string{"PATH=/usr/bin"})
	if res.Reason != challengers.ReasonStartFailed || !strings.Contains(res.Describe(), "ARENA_TEST_UNSET_KEY is not set") {
		t.Fatalf("result %s: %q", res.Reason, res.Describe())
	}
	if n := len(f.Calls()); n != 0 {
		t.Errorf("%d requests, want none", n)
	}
}

// The SDK's client reads OPENAI_API_KEY and OPENAI_BASE_URL from the
// environment; an agent's key is only ever the one its key_env names.
func TestAPINeverSendsTheEnvironmentsOpenAIKey(t *testing.T) {
	f, url := serveAPI(t, nil)
	t.Setenv("OPENAI_API_KEY", "sk-person-openai-key-000")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	res, _ := runAPI(t, apiAgent(url, "llama3.2"), nil)
	if !res.OK() {
		t.Fatalf("result %s", res.Describe())
	}
	if c := f.CallsTo("llama3.2"); len(c) != 1 || c[0].API.Bearer {
		t.Fatalf("calls %+v: the request went elsewhere or carried a key", c)
	}
}

func TestAPIRetriesA429AfterItsRetryAfter(t *testing.T) {
	f, url := serveAPI(t, &clitest.Script{Agents: map[string]clitest.AgentScript{"m": {Steps: map[string][]clitest.Step{
		"opening": {{Mode: clitest.ModeRateLimit, RetryAfter: "1"}, {}},
	}}}})
	var asked []time.Duration
	var why string
	res := challengers.Run(context.Background(), challengers.Request{
		Agent: apiAgent(url, "m"), Prompt: "REPLY SHAPE: opening",
		Retry: func(w string, wait time.Duration) bool { why = w; asked = append(asked, wait); return true },
	})
	if !res.OK() {
		t.Fatalf("result %s", res.Describe())
	}
	if len(asked) != 1 || asked[0] != time.Second || !strings.Contains(why, "rate limiting (429 Too Many Requests") {
		t.Errorf("retry asked %v (%q), want once, for 1s, with the server's words", asked, why)
	}
	calls := f.CallsTo("m")
	if len(calls) != 2 {
		t.Fatalf("%d requests, want 2", len(calls))
	}
	first, _ := time.Parse(time.RFC3339Nano, calls[0].Time)
	second, _ := time.Parse(time.RFC3339Nano, calls[1].Time)
	if gap := second.Sub(first); gap < 900*time.Millisecond {
		t.Errorf("retried after %s, before the second the server asked for", gap)
	}
}

func TestAPIRetryRefusedOrPastTheTimeoutEndsTheCall(t *testing.T) {
	f, url := serveAPI(t, &clitest.Script{Agents: map[string]clitest.AgentScript{
		"m": {Mode: clitest.ModeRateLimit},
		"n": opening(clitest.Step{Mode: clitest.ModeHTTPError, Status: 503, RetryAfter: "600", Message: "overloaded"}),
	}})
	res := challengers.Run(context.Background(), challengers.Request{
		Agent: apiAgent(url, "m"), Prompt: "REPLY SHAPE: opening",
		Retry: func(string, time.Duration) bool { return false },
	})
	if res.Reason != challengers.ReasonEndpoint || len(f.CallsTo("m")) != 1 || res.Final {
		t.Errorf("refused retry: %s, %d requests, final %v", res.Describe(), len(f.CallsTo("m")), res.Final)
	}
	start := time.Now()
	res = challengers.Run(context.Background(), challengers.Request{Agent: apiAgent(url, "n"), Prompt: "REPLY SHAPE: opening"})
	if !strings.Contains(res.Describe(), "the endpoint is unavailable (503 Service Unavailable: overloaded); it asked for a retry in 10m0s, after the call's timeout of 20s") {
		t.Errorf("got %q", res.Describe())
	}
	if time.Since(start) > 10*time.Second || len(f.CallsTo("n")) != 1 {
		t.Errorf("waited for a retry the timeout leaves no room for")
	}
}

func TestAPIFailuresInPlainWords(t *testing.T) {
	_, url := serveAPI(t, &clitest.Script{Agents: map[string]clitest.AgentScript{
		"missing": opening(clitest.Step{Mode: clitest.ModeHTTPError, Status: 404, Message: "The model `missing` does not exist"}),
		"long":    opening(clitest.Step{Mode: clitest.ModeHTTPError, Status: 400, Message: "This model's maximum context length is 8192 tokens."}),
		"cut":     {Mode: clitest.ModeCrash, Chunks: 4},
		"instr":   {Mode: clitest.ModeErrorInStream},
		"garbage": {Mode: clitest.ModeGarbage},
	}})
	for model, want := range map[string]string{
		"missing": "the endpoint answered 404 Not Found: The model `missing` does not exist (is base_url " + url + " right, and \"missing\" a model it serves?)",
		"long":    "the endpoint refused the request (400 Bad Request: This model's maximum context length is 8192 tokens.)",
		"cut":     "the stream was cut off before the reply was finished",
		"instr":   "the endpoint reported an error in the stream: The provider returned an error: upstream connection reset",
		"garbage": "the endpoint sent something that is not a Chat Completions stream",
	} {
		res, _ := runAPI(t, apiAgent(url, model), nil)
		if res.OK() || !strings.Contains(res.Describe(), want) {
			t.Errorf("%s: %s %q, want %q", model, res.Reason, res.Describe(), want)
		}
	}
}

func TestAPIServerThatNeverAnswersTimesOut(t *testing.T) {
	_, url := serveAPI(t, &clitest.Script{Agents: map[string]clitest.AgentScript{"m": {Mode: clitest.ModeHangSilent}}})
	a := apiAgent(url, "m")
	a.Timeout = 300 * time.Millisecond
	res, _ := runAPI(t, a, nil)
	if res.Reason != challengers.ReasonTimeout {
		t.Fatalf("result %s %q, want a timeout", res.Reason, res.Describe())
	}
}

func TestAPIUnreachableEndpoint(t *testing.T) {
	res, _ := runAPI(t, apiAgent("http://127.0.0.1:1/v1", "m"), nil)
	if res.Reason != challengers.ReasonEndpoint || !strings.Contains(res.Describe(), "could not reach the endpoint") {
		t.Fatalf("result %s %q", res.Reason, res.Describe())
	}
}

func TestAPIOutputCap(t *testing.T) {
	_, url := serveAPI(t, &clitest.Script{Agents: map[string]clitest.AgentScript{"m": {Mode: clitest.ModeFlood, FloodBytes: 1 << 20}}})
	a := apiAgent(url, "m")
	a.OutputCap = 64 << 10
	res, _ := runAPI(t, a, nil)
	if res.Reason != challengers.ReasonOutputLimit {
		t.Fatalf("result %s %q, want the output cap", res.Reason, res.Describe())
	}
}

func TestModelFamily(t *testing.T) {
	for model, want := range map[string]string{
		"anthropic/claude-sonnet-4.5":   "anthropic",
		"google/gemini-2.5-pro":         "google",
		"openai/gpt-5":                  "openai",
		"meta-llama/llama-3.3-70b":      "meta",
		"qwen/qwen3-coder":              "alibaba",
		"llama3.2":                      "meta",
		"qwen2.5-coder:7b":              "alibaba",
		"gpt-4o":                        "openai",
		"claude-3-5-sonnet":             "anthropic",
		"nousresearch/hermes-3":         "nousresearch",
		"somelab/unknown-model":         "somelab",
		"tinyllm":                       "tinyllm",
		"mistralai/mistral-large":       "mistral",
		"x-ai/grok-4":                   "xai",
		"Anthropic/Claude-Opus-4":       "anthropic",
		"nvidia/llama-3.1-nemotron-70b": "meta",
	} {
		if got := challengers.ModelFamily(model); got != want {
			t.Errorf("ModelFamily(%q) = %q, want %q", model, got, want)
		}
	}
	for _, c := range []struct {
		a    challengers.Agent
		want string
	}{
		{challengers.Agent{Command: []string{"claude"}}, "anthropic"},
		{challengers.Agent{Command: []string{"/usr/bin/agy"}}, "google"},
		{challengers.Agent{Name: "Llama", Command: []string{"ollama", "run", "llama3.2"}}, "llama"},
		{challengers.Agent{API: challengers.APIOpenAI, Model: "llama3.2", Family: "Meta"}, "meta"},
		{challengers.Agent{API: challengers.APIOpenAI, Model: "my-finetune", Family: "anthropic"}, "anthropic"},
	} {
		if got := challengers.Family(c.a); got != c.want {
			t.Errorf("Family(%+v) = %q, want %q", c.a, got, c.want)
		}
	}
}

func TestValidateAPIAgent(t *testing.T) {
	ok := challengers.Agent{Name: "x", API: challengers.APIOpenAI, BaseURL: "http://127.0.0.1:11434/v1", Model: "llama3.2"}
	if err := ok.Validate(); err != nil {
		t.Fatalf("valid agent: %v", err)
	}
	for _, c := range []struct {
		edit func(*challengers.Agent)
		want string
	}{
		{func(a *challengers.Agent) { a.API = "anthropic" }, `api: "anthropic" is not one of openai`},
		{func(a *challengers.Agent) { a.BaseURL = "" }, "base_url: is empty"},
		{func(a *challengers.Agent) { a.BaseURL = "ftp://x" }, "is not an http:// or https:// URL"},
		{func(a *challengers.Agent) { a.BaseURL = "https://user:sk-secret@x/v1" }, "must not hold a user or a password"},
		{func(a *challengers.Agent) { a.Model = "" }, "model: is empty"},
		{func(a *challengers.Agent) { a.KeyEnv = "sk-or-v1-abc def" }, "is not a variable name"},
	} {
		a := ok
		c.edit(&a)
		err := a.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "sk-secret") {
			t.Errorf("%+v: %v, want %q", a, err, c.want)
		}
	}
}

// keyed is an agent whose key is testKey, in OPENROUTER_API_KEY.
func keyed(url, model string) (challengers.Agent, []string) {
	a := apiAgent(url, model)
	a.KeyEnv = "OPENROUTER_API_KEY"
	return a, []string{"OPENROUTER_API_KEY=" + testKey}
}

// holdsKey reports whether s shows the key, or all of it but its last
// byte (what a cut made before the scrub leaves).
func holdsKey(s string) bool { return strings.Contains(s, testKey[:len(testKey)-1]) }

// An error longer than the 300 characters shown, quoting the key across
// the cut: the key is taken out before the cut, not a byte of it left.
func TestAPIKeyInALongErrorIsScrubbedBeforeTheCut(t *testing.T) {
	msg := strings.Repeat("a", 270) + " " + clitest.EchoKey + " was refused"
	_, url := serveAPI(t, &clitest.Script{Agents: map[string]clitest.AgentScript{
		"m": opening(clitest.Step{Mode: clitest.ModeHTTPError, Status: 400, Message: msg}),
		"s": {Mode: clitest.ModeErrorInStream},
	}})
	a, env := keyed(url, "m")
	res, _ := runAPI(t, a, env)
	if res.Reason != challengers.ReasonEndpoint || holdsKey(res.Describe()) || !strings.Contains(res.Describe(), "[the key in OPENR") {
		t.Fatalf("result %s: %q", res.Reason, res.Describe())
	}
	if len(res.Describe()) > 400 {
		t.Errorf("the server's words are not cut short: %d bytes", len(res.Describe()))
	}
}

// A key in the stream's model field is not in the usage's model.
func TestAPIKeyInTheModelFieldIsScrubbed(t *testing.T) {
	_, url := serveAPI(t, &clitest.Script{Agents: map[string]clitest.AgentScript{"m": {Model: "acme/" + clitest.EchoKey}}})
	a, env := keyed(url, "m")
	res, _ := runAPI(t, a, env)
	if !res.OK() || res.Usage == nil || res.Usage.Model != "acme/[the key in OPENROUTER_API_KEY]" {
		t.Fatalf("result %s, usage %+v", res.Describe(), res.Usage)
	}
}

// A reply that quotes the key, streamed a byte a chunk: the key shows in
// no chunk, nor in what the chunks make together (what the pane shows),
// and no byte of the reply is lost.
func TestAPIKeySplitAcrossChunksNeverShows(t *testing.T) {
	reply := "You sent " + clitest.EchoKey + ", and it ends in sk-or"
	_, url := serveAPI(t, &clitest.Script{Agents: map[string]clitest.AgentScript{
		"m": {DelayMS: -1, Chunks: len(reply), Steps: map[string][]clitest.Step{"opening": {{Reply: reply}}}},
	}})
	a, env := keyed(url, "m")
	res, chunks := runAPI(t, a, env)
	want := "You sent [the key in OPENROUTER_API_KEY], and it ends in sk-or"
	if shown := strings.Join(chunks, ""); shown != want || res.Text != want || len(chunks) < 10 {
		t.Fatalf("%d chunks showed %q, the reply is %q; want %q", len(chunks), shown, res.Text, want)
	}
}

// A redirect is refused, whatever its status: neither the key nor the
// prompt reaches where it points (the fake's other port on the same
// host), and the failure says where that was.
func TestAPIRefusesRedirects(t *testing.T) {
	for _, status := range []int{301, 302, 303, 307, 308} {
		f, url := serveAPI(t, &clitest.Script{Agents: map[string]clitest.AgentScript{
			"m": opening(clitest.Step{Mode: clitest.ModeRedirect, Status: status}),
		}})
		a, env := keyed(url, "m")
		res, _ := runAPI(t, a, env)
		d := res.Describe()
		if res.OK() || !res.Final || !strings.Contains(d, "the endpoint redirected the request to http://127.0.0.1:") || !strings.Contains(d, "arena follows no redirect") ||
			strings.Contains(d, strings.TrimSuffix(url, "/v1")+"/") {
			t.Errorf("%d: result %s %q", status, res.Reason, d)
		}
		for _, c := range f.Calls() {
			if c.API != nil && c.API.Elsewhere {
				t.Errorf("%d: the redirect was followed: %+v (the key sent: %v)", status, c, c.API.Bearer)
			}
		}
		if n := len(f.Calls()); n != 1 {
			t.Errorf("%d: %d requests, want the one redirected", status, n)
		}
	}
}

// A redirect's Location holding a secret is shown redacted.
func TestAPIRedirectsLocationIsRedacted(t *testing.T) {
	_, url := serveAPI(t, &clitest.Script{Agents: map[string]clitest.AgentScript{
		"m": opening(clitest.Step{Mode: clitest.ModeRedirect, Location: "http://elsewhere.example/v1?token=tk-location-secret-1"}),
	}})
	a, env := keyed(url, "m")
	res, _ := runAPI(t, a, env)
	if d := res.Describe(); strings.Contains(d, "tk-location-secret-1") || !strings.Contains(d, "http://elsewhere.example/v1?token=REDACTED") {
		t.Fatalf("got %q", d)
	}
}

// Usage an endpoint reports is data: below zero counts as 0, past what a
// call can use as the bound, and the usage says what was reported.
func TestAPIUsageIsClamped(t *testing.T) {
	_, url := serveAPI(t, &clitest.Script{Agents: map[string]clitest.AgentScript{
		"neg":  {Usage: []byte(`{"prompt_tokens":-1000000,"completion_tokens":-5,"total_tokens":-1000005,"cost":-3}`)},
		"huge": {Usage: []byte(`{"prompt_tokens":9000000000000000000,"completion_tokens":12,"total_tokens":12,"cost":1e308}`)},
		"inf":  {Usage: []byte(`{"prompt_tokens":10,"completion_tokens":12,"total_tokens":22,"cost":1e400}`)},
	}})
	for model, want := range map[string]struct {
		in, out int64
		cost    float64
		said    string
	}{
		"neg":  {0, 0, 0, "-1000000 input tokens (counted as 0), -5 output tokens (counted as 0), a cost of $-3 (counted as $0)"},
		"huge": {challengers.MaxCallTokens, 12, challengers.MaxCallCostUSD, "9000000000000000000 input tokens (counted as 10000000, the most one call is believed to use), a cost of $1e+308 (counted as $1000"},
		"inf":  {10, 12, challengers.MaxCallCostUSD, "a cost that is not a number (counted as $1000"},
	} {
		res, _ := runAPI(t, apiAgent(url, model), nil)
		u := res.Usage
		if !res.OK() || u == nil || u.InputTokens != want.in || u.OutputTokens != want.out || u.CostUSD == nil || *u.CostUSD != want.cost || !strings.HasPrefix(u.Clamped, want.said) {
			t.Errorf("%s: %s %+v (clamped %q), want %+v", model, res.Describe(), u, u.Clamped, want)
		}
	}
}

// A CLI's usage is clamped the same way (claude's stream-json, written
// by a script standing in for it).
func TestCLIUsageIsClamped(t *testing.T) {
	dir := t.TempDir()
	script := dir + "/agent"
	result := `{"type":"result","subtype":"success","is_error":false,"result":"hi","usage":{"input_tokens":-70000,"output_tokens":3},"total_cost_usd":-0.5}`
	if err := os.WriteFile(script, []byte("#!/bin/sh\ncat >/dev/null\nprintf '%s\\n' '"+result+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	a := challengers.Agent{Name: "x", Command: []string{script}, Prompt: challengers.PromptStdin, Format: challengers.FormatClaudeStreamJSON, Timeout: 20 * time.Second}
	res := challengers.Run(context.Background(), challengers.Request{Agent: a, Prompt: "hello"})
	u := res.Usage
	if !res.OK() || u == nil || u.InputTokens != 0 || u.OutputTokens != 3 || u.CostUSD == nil || *u.CostUSD != 0 ||
		u.Clamped != "-70000 input tokens (counted as 0), a cost of $-0.5 (counted as $0)" {
		t.Fatalf("%s: %+v", res.Describe(), u)
	}
}

// A log's usage is read as an agent's is counted: a hand-edited log's
// negative tokens lift no budget on resume.
func TestUsageFromJSONIsClamped(t *testing.T) {
	var u challengers.Usage
	if err := json.Unmarshal([]byte(`{"input_tokens":-5000000,"output_tokens":20,"cost_usd":-1}`), &u); err != nil {
		t.Fatal(err)
	}
	if u.InputTokens != 0 || u.OutputTokens != 20 || *u.CostUSD != 0 || u.Clamped == "" {
		t.Fatalf("%+v", u)
	}
	good := challengers.Usage{InputTokens: 5, OutputTokens: 6}
	if c := good.Clamp(); c != &good {
		t.Fatalf("a usage within bounds was copied: %+v", c)
	}
}

// base_url's secrets (a query string's values, a user and password)
// are shown redacted in the endpoint, in the command shown, and in an
// error that names base_url; and scrubbed from what the endpoint sends.
func TestAPIBaseURLSecretsAreRedacted(t *testing.T) {
	const secret = "gw-query-secret-777"
	_, url := serveAPI(t, &clitest.Script{Agents: map[string]clitest.AgentScript{
		"missing": opening(clitest.Step{Mode: clitest.ModeHTTPError, Status: 404, Message: "no route for /v1?api_key=" + secret}),
	}})
	a := apiAgent(url+"?api_key="+secret, "missing")
	if e := a.Endpoint(); strings.Contains(e, secret) || !strings.Contains(e, "?api_key=REDACTED") {
		t.Errorf("endpoint %q", e)
	}
	res, _ := runAPI(t, a, nil)
	if all := res.Describe() + strings.Join(res.Command, " "); strings.Contains(all, secret) || !strings.Contains(res.Describe(), "is base_url "+url+"?api_key=REDACTED right") {
		t.Errorf("result %q, command %q", res.Describe(), res.Command)
	}
	a.KeyEnv = "ARENA_TEST_UNSET_KEY"
	if res, _ := runAPI(t, a, []string{"PATH=/usr/bin"}); strings.Contains(res.Describe(), secret) {
		t.Errorf("%q", res.Describe())
	}
	bad := a
	bad.BaseURL = "ftp://x/v1?api_key=" + secret
	if err := bad.Validate(); err == nil || strings.Contains(err.Error(), secret) {
		t.Errorf("%v", err)
	}
}

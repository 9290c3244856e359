package challengers

import (
	"encoding/json"
	"net/url"
	"strings"

	"github.com/arenadebate/arena/challengers/trust"
)

// Billing is how an agent's calls are paid for, which decides what they
// count against in a run's budget: a metered agent's calls cost money (its
// tokens and the cost its CLI reports count), a subscription seat's cost a
// share of a plan's quota (only its calls count).
type Billing string

const (
	BillingMetered      Billing = "metered"
	BillingSubscription Billing = "subscription"
)

// Billings lists the valid billings, for error messages.
var Billings = []Billing{BillingMetered, BillingSubscription}

// Reports says what a format's stream reports of a call's usage: its
// tokens, and its cost in USD (claude's total_cost_usd is the only cost
// any CLI reports). Plain text reports neither.
func (f Format) Reports() (tokens, cost bool) {
	switch f {
	case FormatClaudeStreamJSON:
		return true, true
	case FormatGeminiStreamJSON, FormatCodexJSON, FormatQwenStreamJSON:
		return true, false
	}
	return false, false
}

// Reports says what an agent's calls report of their usage: a CLI's, what
// its format carries; an API agent's, the tokens (asked for with
// stream_options.include_usage, which OpenAI, OpenRouter, vLLM, Ollama
// and llama.cpp's server all answer) and a cost only where the endpoint
// is one known to report it: OpenRouter's usage carries "cost".
func (a Agent) Reports() (tokens, cost bool) {
	if !a.IsAPI() {
		return a.Format.Reports()
	}
	u, err := url.Parse(a.BaseURL)
	return true, err == nil && (u.Hostname() == "openrouter.ai" || strings.HasSuffix(u.Hostname(), ".openrouter.ai"))
}

// billingClue is one sign of how a CLI is logged in: an environment
// variable that is set, a file that exists, or a key a JSON file holds.
type billingClue struct {
	env     string
	file    string // "~/" is the home directory
	key     string // with file: a key of the JSON object it holds, not null
	billing Billing
	why     string
}

// billingClues are, for each built-in, its signs in the order the CLI
// itself prefers them: an API key in the environment beats a login.
var billingClues = map[string][]billingClue{
	"claude": {
		{env: "ANTHROPIC_API_KEY", billing: BillingMetered, why: "ANTHROPIC_API_KEY is set: API billing"},
		{env: "ANTHROPIC_AUTH_TOKEN", billing: BillingMetered, why: "ANTHROPIC_AUTH_TOKEN is set: API billing"},
		{env: "CLAUDE_CODE_USE_BEDROCK", billing: BillingMetered, why: "CLAUDE_CODE_USE_BEDROCK is set: billed through Amazon Bedrock"},
		{env: "CLAUDE_CODE_USE_VERTEX", billing: BillingMetered, why: "CLAUDE_CODE_USE_VERTEX is set: billed through Google Vertex AI"},
		{env: "CLAUDE_CODE_OAUTH_TOKEN", billing: BillingSubscription, why: "CLAUDE_CODE_OAUTH_TOKEN is set: a Claude account's token"},
		{file: "~/.claude/.credentials.json", key: "claudeAiOauth", billing: BillingSubscription, why: "logged in with a Claude account (~/.claude/.credentials.json)"},
	},
	"codex": {
		{env: "CODEX_API_KEY", billing: BillingMetered, why: "CODEX_API_KEY is set: API billing"},
		{env: "OPENAI_API_KEY", billing: BillingMetered, why: "OPENAI_API_KEY is set: API billing"},
		{file: "~/.codex/auth.json", key: "tokens", billing: BillingSubscription, why: "logged in with a ChatGPT account (~/.codex/auth.json)"},
		{file: "~/.codex/auth.json", key: "OPENAI_API_KEY", billing: BillingMetered, why: "logged in with an API key (~/.codex/auth.json)"},
	},
	"gemini": {
		{env: "GEMINI_API_KEY", billing: BillingMetered, why: "GEMINI_API_KEY is set: API billing"},
		{env: "GOOGLE_API_KEY", billing: BillingMetered, why: "GOOGLE_API_KEY is set: API billing"},
		{env: "GOOGLE_GENAI_USE_VERTEXAI", billing: BillingMetered, why: "GOOGLE_GENAI_USE_VERTEXAI is set: billed through Vertex AI"},
		{file: "~/.gemini/oauth_creds.json", billing: BillingSubscription, why: "logged in with a Google account (~/.gemini/oauth_creds.json)"},
	},
	"qwen": {
		{env: "DASHSCOPE_API_KEY", billing: BillingMetered, why: "DASHSCOPE_API_KEY is set: API billing"},
		{env: "QWEN_API_KEY", billing: BillingMetered, why: "QWEN_API_KEY is set: API billing"},
		{env: "OPENAI_API_KEY", billing: BillingMetered, why: "OPENAI_API_KEY is set: API billing"},
		{file: "~/.qwen/oauth_creds.json", billing: BillingSubscription, why: "logged in with Qwen OAuth (~/.qwen/oauth_creds.json)"},
	},
}

// maxCredentialBytes bounds what is read of a credentials file to find a
// key in it: they are a few KiB.
const maxCredentialBytes = 1 << 20

// GuessBilling guesses how a built-in agent is paid for from how its CLI
// is logged in: the variables of its environment (the agent's own, then
// getenv's) and the credential files under home. The second value says
// what the guess rests on. An agent without a sign (a custom one, a CLI
// not logged in, a login kept in a keychain) is guessed metered: counting
// its dollars is the side of caution. Only names are read into the
// reason, never a value.
func GuessBilling(a Agent, getenv func(string) string, home string) (Billing, string) {
	if a.IsAPI() {
		return BillingMetered, "an API endpoint: its tokens and any cost it reports count"
	}
	for _, c := range billingClues[a.Name] {
		switch {
		case c.env != "":
			if v, ok := a.Env[c.env]; ok && v != "" || !ok && getenv != nil && getenv(c.env) != "" {
				return c.billing, c.why
			}
		case home != "" && hasCredential(expandHome(c.file, home), c.key):
			return c.billing, c.why
		}
	}
	if _, known := billingClues[a.Name]; !known || !a.Builtin {
		return BillingMetered, "arena does not know how " + a.Name + " is logged in, so counted as metered"
	}
	return BillingMetered, "no sign of a subscription login, so counted as metered"
}

// hasCredential reports whether the file exists and, when key is given,
// holds a JSON object with that key set to something other than null.
func hasCredential(path, key string) bool {
	if key == "" {
		f, err := trust.Open(path)
		if err != nil {
			return false
		}
		f.Close()
		return true
	}
	data, err := trust.ReadFile(path, maxCredentialBytes)
	if err != nil {
		return false
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(data, &obj) != nil {
		return false
	}
	v, ok := obj[key]
	return ok && strings.TrimSpace(string(v)) != "null"
}

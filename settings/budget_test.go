package settings

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers"
)

func TestBudgetLayers(t *testing.T) {
	e := newTestEnv(t)
	path := e.write(e.configPath(), lines("max_cost: $1.50", "max_calls: 30", "max_tokens: 200k"))
	s := e.load(Flags{})
	if s.MaxCostUSD != 1.5 || s.MaxCalls != 30 || s.MaxTokens != 200_000 {
		t.Fatalf("from the file: %v %v %v", s.MaxCostUSD, s.MaxCalls, s.MaxTokens)
	}
	if s.Source(keyMaxCalls) != path+":2" {
		t.Fatalf("max_calls from %q", s.Source(keyMaxCalls))
	}
	// Flags win; a flag's 0 lifts the file's limit.
	s = e.load(Flags{MaxCost: ptr("0"), MaxCalls: ptr(12), MaxTokens: ptr("1.5M")})
	if s.MaxCostUSD != 0 || s.MaxCalls != 12 || s.MaxTokens != 1_500_000 {
		t.Fatalf("with flags: %v %v %v", s.MaxCostUSD, s.MaxCalls, s.MaxTokens)
	}
	if s.Source(keyMaxCost) != "flag --max-cost" || s.Source(keyMaxTokens) != "flag --max-tokens" {
		t.Fatalf("sources %q %q", s.Source(keyMaxCost), s.Source(keyMaxTokens))
	}
	// The debate plugin's file has no budget: the key is not read there.
	e2 := newTestEnv(t)
	e2.write(e2.compatPath(), lines("---", "max_calls: 3", "---"))
	if s := e2.load(Flags{}); s.MaxCalls != 0 || !hasWarning(s, "only read from arena's config file") {
		t.Fatalf("max_calls from the plugin's file: %d, warnings %q", s.MaxCalls, s.Warnings)
	}
}

func TestBudgetErrors(t *testing.T) {
	for _, c := range []struct {
		config string
		flags  Flags
		want   string
	}{
		{config: "max_cost: lots\n", want: `<config>:1: max_cost: "lots" is not an amount of US dollars (use 2, 0.50 or $1.50)`},
		{config: "\nmax_cost: -1\n", want: `<config>:2: max_cost: must be 0 (no limit) or more, got "-1"`},
		{config: "max_cost: .nan\n", want: `<config>:1: max_cost: ".nan" is not an amount of US dollars (use 2, 0.50 or $1.50)`},
		{config: "max_calls: -2\n", want: `<config>:1: max_calls: must be 0 (no limit) or more, got -2`},
		{config: "max_calls: [3]\n", want: `<config>:1: max_calls: must be a whole number, got a list`},
		{config: "max_tokens: 10q\n", want: `<config>:1: max_tokens: "10q" is not a number of tokens (use 200000, 200k or 1.5M)`},
		{config: "max_tokens: 1e30\n", want: `<config>:1: max_tokens: "1e30" is too large`},
		{flags: Flags{MaxCost: ptr("$")}, want: `flag --max-cost: "$" is not an amount of US dollars (use 2, 0.50 or $1.50)`},
		{flags: Flags{MaxCalls: ptr(-1)}, want: `flag --max-calls: must be 0 (no limit) or more, got -1`},
		{flags: Flags{MaxTokens: ptr("-5k")}, want: `flag --max-tokens: must be 0 (no limit) or more, got "-5k"`},
		{config: lines("agents:", "  claude:", "    billing: monthly"), want: `<config>:3: agents.claude.billing: "monthly" is not one of metered | subscription`},
	} {
		e := newTestEnv(t)
		if c.config != "" {
			e.write(e.configPath(), c.config)
		}
		err := e.loadErr(c.flags)
		if got := strings.ReplaceAll(err.Error(), e.configPath(), "<config>"); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}

// An agent's billing is the config's, or the guess from how its CLI is
// logged in, which arena config shows as a guess.
func TestBillingGuess(t *testing.T) {
	e := newTestEnv(t)
	e.write(filepath.Join(e.Home, ".claude", ".credentials.json"), `{"claudeAiOauth": {"accessToken": "x"}}`)
	e.write(filepath.Join(e.Home, ".codex", "auth.json"), `{"OPENAI_API_KEY": "sk-x", "tokens": null}`)
	e.write(filepath.Join(e.Home, ".gemini", "oauth_creds.json"), `{}`)
	e.write(e.configPath(), lines("agents:", "  gemini:", "    billing: metered"))
	env := map[string]string{"DASHSCOPE_API_KEY": "k"}
	e.Getenv = func(k string) string { return env[k] }
	s := e.load(Flags{})
	for name, want := range map[string]challengers.Billing{
		"claude": challengers.BillingSubscription, // an OAuth login
		"codex":  challengers.BillingMetered,      // logged in with an API key
		"gemini": challengers.BillingMetered,      // the config says so, whatever the login
		"qwen":   challengers.BillingMetered,      // an API key in the environment
	} {
		if got := s.Agents[name].Billing; got != want {
			t.Errorf("%s: billing %s, want %s", name, got, want)
		}
	}
	rows := map[string]string{}
	for _, r := range s.Rows() {
		rows[r.Key] = r.Value
	}
	for key, want := range map[string]string{
		"agents.claude": "billing subscription (guessed: logged in with a Claude account (~/.claude/.credentials.json))",
		"agents.codex":  "billing metered (guessed: logged in with an API key (~/.codex/auth.json))",
		"agents.qwen":   "billing metered (guessed: DASHSCOPE_API_KEY is set: API billing)",
	} {
		if !strings.HasSuffix(rows[key], want) {
			t.Errorf("%s: %q, want it to end %q", key, rows[key], want)
		}
	}
	if strings.Contains(rows["agents.gemini"], "guessed") || !strings.HasSuffix(rows["agents.gemini"], "billing metered") {
		t.Errorf("agents.gemini: %q", rows["agents.gemini"])
	}
	// An API key in the environment wins over the login, as in the CLI.
	env["ANTHROPIC_API_KEY"] = "k"
	if s := e.load(Flags{}); s.Agents["claude"].Billing != challengers.BillingMetered {
		t.Errorf("claude with ANTHROPIC_API_KEY set: %s", s.Agents["claude"].Billing)
	}
}

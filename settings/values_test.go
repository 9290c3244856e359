package settings

import (
	"strings"
	"testing"
	"time"
)

func TestParseDuration(t *testing.T) {
	tests := []struct {
		in      string
		want    time.Duration
		wantErr string
	}{
		{in: "120", want: 120 * time.Second},
		{in: " 90 ", want: 90 * time.Second},
		{in: "90s", want: 90 * time.Second},
		{in: "2m", want: 2 * time.Minute},
		{in: "1m30s", want: 90 * time.Second},
		{in: "1.5m", want: 90 * time.Second},
		{in: "500ms", want: 500 * time.Millisecond},
		{in: "0", wantErr: `must be more than 0, got "0"`},
		{in: "-3", wantErr: `must be more than 0, got "-3"`},
		{in: "0s", wantErr: `must be more than 0, got "0s"`},
		{in: "1.5", wantErr: `"1.5" is not a duration (use 90s, 2m, or a number of seconds)`},
		{in: "ninety", wantErr: `"ninety" is not a duration (use 90s, 2m, or a number of seconds)`},
		{in: "", wantErr: `"" is not a duration (use 90s, 2m, or a number of seconds)`},
		{in: "99999999999999", wantErr: `"99999999999999" is too long`},
	}
	for _, tt := range tests {
		got, err := parseDuration(tt.in)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("parseDuration(%q) error %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("parseDuration(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		in      string
		want    int64
		wantErr string
	}{
		{in: "4096", want: 4096},
		{in: "100B", want: 100},
		{in: "512KiB", want: 512 << 10},
		{in: "512k", want: 512 << 10},
		{in: "8MiB", want: 8 << 20},
		{in: "8 MB", want: 8 << 20},
		{in: "1GiB", want: 1 << 30},
		{in: "0", wantErr: `must be more than 0, got "0"`},
		{in: "-1MiB", wantErr: `"-1MiB" is not a size (use a number of bytes, or 512KiB, 8MiB)`},
		{in: "8TiB", wantErr: `"8TiB" is not a size (use a number of bytes, or 512KiB, 8MiB)`},
		{in: "1.5MiB", wantErr: `"1.5MiB" is not a size (use a number of bytes, or 512KiB, 8MiB)`},
		{in: "MiB", wantErr: `"MiB" is not a size (use a number of bytes, or 512KiB, 8MiB)`},
		{in: "99999999999GiB", wantErr: `"99999999999GiB" is too large`},
	}
	for _, tt := range tests {
		got, err := parseSize(tt.in)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("parseSize(%q) error %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
}

// TestFileDurationsAndSizes checks that YAML integers and strings both
// reach the parsers.
func TestFileDurationsAndSizes(t *testing.T) {
	tests := []struct {
		config      string
		wantTimeout time.Duration
		wantCap     int64
	}{
		{"timeout_per_cli: 90\noutput_cap: 1048576\n", 90 * time.Second, 1 << 20},
		{"timeout_per_cli: \"90\"\noutput_cap: 4MiB\n", 90 * time.Second, 4 << 20},
		{"timeout_per_cli: 2m\noutput_cap: 64KiB\n", 2 * time.Minute, 64 << 10},
	}
	for _, tt := range tests {
		e := newTestEnv(t, "gemini")
		e.write(e.configPath(), tt.config)
		s := e.load(Flags{})
		if s.TimeoutPerCLI != tt.wantTimeout || s.OutputCap != tt.wantCap {
			t.Errorf("%q: timeout %v, cap %d; want %v, %d", tt.config, s.TimeoutPerCLI, s.OutputCap, tt.wantTimeout, tt.wantCap)
		}
		if a := s.Agents["codex"]; a.Timeout != tt.wantTimeout || a.OutputCap != tt.wantCap {
			t.Errorf("%q: codex timeout %v, cap %d; want the defaults filled in", tt.config, a.Timeout, a.OutputCap)
		}
	}
}

func TestClosest(t *testing.T) {
	keys := []string{"max_rounds", "timeout_per_cli", "defender", "output_cap"}
	tests := map[string]string{
		"max_round":    "max_rounds",
		"max-rounds":   "max_rounds",
		"Max_Rounds":   "max_rounds",
		"timeout":      "",
		"defendr":      "defender",
		"x":            "",
		"completely":   "",
		"output_caps":  "output_cap",
		"timeout-per_": "",
	}
	for in, want := range tests {
		if got := closest(in, keys); got != want {
			t.Errorf("closest(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRows(t *testing.T) {
	e := newTestEnv(t, "gemini", "codex")
	path := e.write(e.configPath(), lines(
		"max_rounds: 3",
		"agents:",
		"  gemini:",
		"    env: {GEMINI_API_KEY: sekrit-value}",
		"  llama:",
		"    command: [ollama, run, \"my model\"]",
		"    args: [--verbose]",
		"    prompt: stdin",
		"    timeout: 90s",
		"    output_cap: 1KiB",
		"    dir: /srv",
		"    billing: subscription",
		"max_cost: 2.5",
	))
	s := e.load(Flags{MaxCalls: ptr(40)})
	rows := s.Rows()
	var keys []string
	for _, r := range rows {
		keys = append(keys, r.Key)
		if strings.Contains(r.Value, "sekrit") || strings.Contains(r.Source, "sekrit") {
			t.Errorf("row %q shows an env value: %q", r.Key, r.Value)
		}
	}
	wantKeys := "defender challengers max_rounds timeout_per_cli output_cap save_debate_logs debate_log_path skeptical_of_early_agreement shadow_escalation_gate " +
		"min_families max_cost max_calls max_tokens agents.claude agents.codex agents.gemini agents.qwen agents.llama"
	if strings.Join(keys, " ") != wantKeys {
		t.Errorf("row keys:\n%s\nwant\n%s", strings.Join(keys, " "), wantKeys)
	}
	byKey := map[string]Row{}
	for _, r := range rows {
		byKey[r.Key] = r
	}
	want := map[string]Row{
		"max_rounds":      {"max_rounds", "3", path + ":1"},
		"challengers":     {"challengers", "gemini, codex", "found on PATH"},
		"timeout_per_cli": {"timeout_per_cli", "2m", "default"},
		"output_cap":      {"output_cap", "8MiB", "default"},
		"max_cost":        {"max_cost", "$2.5", path + ":13"},
		"max_calls":       {"max_calls", "40", "flag --max-calls"},
		"max_tokens":      {"max_tokens", "0 (no limit)", "default"},
		"agents.claude": {"agents.claude",
			"claude -p {prompt} --output-format stream-json --verbose --include-partial-messages --strict-mcp-config; prompt argv; format claude-stream-json; timeout 2m (timeout_per_cli); pty true; family anthropic (from its CLI); billing metered (guessed: no sign of a subscription login, so counted as metered)",
			"built-in"},
		"agents.gemini": {"agents.gemini",
			"gemini -p {prompt} --allowed-mcp-server-names arena-seat-loads-no-mcp-server -o stream-json; prompt argv; format gemini-stream-json; timeout 2m (timeout_per_cli); pty true; family google (from its CLI); env GEMINI_API_KEY,GEMINI_CLI_TRUST_WORKSPACE; billing metered (guessed: GEMINI_API_KEY is set: API billing)",
			"built-in, overridden at " + path + ":3"},
		"agents.llama": {"agents.llama",
			`ollama run "my model" --verbose; prompt stdin; format text; timeout 1m30s; pty false; family llama (its own: arena does not know its CLI's vendor; family: sets one); dir /srv; output_cap 1KiB; billing subscription`,
			path + ":5"},
	}
	for key, w := range want {
		if got := byKey[key]; got != w {
			t.Errorf("row %s:\n got %+v\nwant %+v", key, got, w)
		}
	}
}

package settings

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers"
)

func TestDefaults(t *testing.T) {
	e := newTestEnv(t, "gemini", "qwen", "claude")
	s := e.load(Flags{})
	if s.MaxRounds != 5 || s.TimeoutPerCLI != 120*time.Second || !s.SaveDebateLogs ||
		s.DebateLogPath != "./debate-logs" || !s.SkepticalOfEarlyAgreement ||
		s.OutputCap != challengers.DefaultOutputCap || s.Defender != "claude" {
		t.Errorf("defaults = %+v", s)
	}
	for _, key := range []string{"max_rounds", "timeout_per_cli", "save_debate_logs", "debate_log_path", "skeptical_of_early_agreement", "output_cap", "defender"} {
		if got := s.Source(key); got != "default" {
			t.Errorf("Source(%s) = %q, want default", key, got)
		}
	}
	if len(s.Files) != 0 || len(s.Warnings) != 0 {
		t.Errorf("Files %v, Warnings %v; want none", s.Files, s.Warnings)
	}
	for _, name := range challengers.BuiltinNames() {
		a := s.Agents[name]
		if a.Timeout != 120*time.Second || a.OutputCap != challengers.DefaultOutputCap {
			t.Errorf("%s: timeout %v, output cap %d; want filled from defaults", name, a.Timeout, a.OutputCap)
		}
		if got := s.Source("agents." + name); got != "built-in" {
			t.Errorf("Source(agents.%s) = %q", name, got)
		}
	}
}

// precedenceCases are TestPrecedence's keys, each set in every layer that
// can set it.
var precedenceCases = []struct {
	key            string
	compat, config string // the key's YAML line in each file; "" when the file cannot set it
	flag           func(*Flags)
	flagSource     string
	get            func(*Settings) any
	want           [4]any // default, compat, config, flag
}{
	{
		key: "max_rounds", compat: "max_rounds: 3", config: "max_rounds: 7",
		flag: func(f *Flags) { f.MaxRounds = ptr(9) }, flagSource: "flag --max-rounds",
		get:  func(s *Settings) any { return s.MaxRounds },
		want: [4]any{5, 3, 7, 9},
	},
	{
		key: "timeout_per_cli", compat: "timeout_per_cli: 60", config: "timeout_per_cli: 2m30s",
		flag: func(f *Flags) { f.Timeout = ptr("45") }, flagSource: "flag --timeout",
		get:  func(s *Settings) any { return s.TimeoutPerCLI },
		want: [4]any{120 * time.Second, 60 * time.Second, 150 * time.Second, 45 * time.Second},
	},
	{
		key: "save_debate_logs", compat: "save_debate_logs: false", config: "save_debate_logs: true",
		flag: func(f *Flags) { f.NoLog = ptr(true) }, flagSource: "flag --no-log",
		get:  func(s *Settings) any { return s.SaveDebateLogs },
		want: [4]any{true, false, true, false},
	},
	{
		key: "debate_log_path", compat: "debate_log_path: ./a", config: "debate_log_path: b/logs",
		flag: func(f *Flags) { f.LogDir = ptr("/var/c") }, flagSource: "flag --log-dir",
		get:  func(s *Settings) any { return s.DebateLogPath },
		want: [4]any{"./debate-logs", "./a", "b/logs", "/var/c"},
	},
	{
		key: "skeptical_of_early_agreement", compat: "skeptical_of_early_agreement: false", config: "skeptical_of_early_agreement: yes",
		get:  func(s *Settings) any { return s.SkepticalOfEarlyAgreement },
		want: [4]any{true, false, true, true},
	},
	{
		key: "defender", config: "defender: gemini",
		flag: func(f *Flags) { f.Defender = ptr("codex") }, flagSource: "flag --defender",
		get:  func(s *Settings) any { return s.Defender },
		want: [4]any{"claude", "claude", "gemini", "codex"},
	},
	{
		key: "challengers", config: "challengers: [qwen, codex]",
		flag: func(f *Flags) { f.Challengers = []string{"gemini"} }, flagSource: "flag --challengers",
		get:  func(s *Settings) any { return strings.Join(s.Challengers, ",") },
		want: [4]any{"gemini,codex,qwen", "gemini,codex,qwen", "qwen,codex", "gemini"},
	},
	{
		key: "shadow_escalation_gate", config: "shadow_escalation_gate: true",
		get:  func(s *Settings) any { return s.ShadowEscalationGate },
		want: [4]any{false, false, true, true},
	},
	{
		key: "min_families", config: "min_families: 3",
		flag: func(f *Flags) { f.MinFamilies = ptr(2) }, flagSource: "flag --min-families",
		get:  func(s *Settings) any { return s.MinFamilies },
		want: [4]any{0, 0, 3, 2},
	},
	{
		key: "output_cap", config: "output_cap: 512KiB",
		get:  func(s *Settings) any { return s.OutputCap },
		want: [4]any{challengers.DefaultOutputCap, challengers.DefaultOutputCap, int64(512 << 10), int64(512 << 10)},
	},
}

// TestPrecedence sets every key in each layer in turn and checks that the
// later layer wins and is named as the source.
func TestPrecedence(t *testing.T) {
	for _, tt := range precedenceCases {
		t.Run(tt.key, func(t *testing.T) {
			e := newTestEnv(t, "gemini", "codex", "qwen")
			src := "default"
			if tt.key == "challengers" {
				src = "found on PATH"
			}
			for layer := range 4 { // each layer adds to the previous ones
				var f Flags
				switch {
				case layer == 1 && tt.compat != "":
					e.write(e.compatPath(), lines("---", "# plugin settings", tt.compat, "---", "Body text.", "---"))
					src = e.compatPath() + ":3"
				case layer == 2 && tt.config != "":
					e.write(e.configPath(), lines("# arena", tt.config))
					src = e.configPath() + ":2"
				case layer == 3 && tt.flag != nil:
					tt.flag(&f)
					src = tt.flagSource
				}
				s := e.load(f)
				if got := tt.get(s); got != tt.want[layer] {
					t.Errorf("layer %d: %s = %v, want %v", layer, tt.key, got, tt.want[layer])
				}
				if got := s.Source(tt.key); got != src {
					t.Errorf("layer %d: Source(%s) = %q, want %q", layer, tt.key, got, src)
				}
			}
		})
	}
}

func TestCompatFrontMatter(t *testing.T) {
	tests := []struct {
		name, text  string
		wantRounds  int
		wantWarning string
	}{
		{"body after", "---\nmax_rounds: 2\n---\n# Notes\n\nmax_rounds: 9\n---\n", 2, ""},
		{"CRLF", "---\r\nmax_rounds: 3\r\ntimeout_per_cli: 30\r\n---\r\nbody\r\n", 3, ""},
		{"BOM and trailing spaces", "\ufeff---  \nmax_rounds: 4\n---\t\n", 4, ""},
		{"empty front matter", "---\n---\nbody\n", 5, ""},
		{"no front matter", "# Debate settings\nmax_rounds: 2\n", 5, "no front matter"},
		{"unknown key with suggestion", "---\nmax_round: 2\n---\n", 5, "debate.local.md:2: max_round: unknown key, ignored (did you mean max_rounds?)"},
		{"arena-only key", "---\ndefender: gemini\n---\n", 5, "debate.local.md:2: defender: only read from arena's config file; ignored here"},
		{"null value", "---\nmax_rounds:\n---\n", 5, "debate.local.md:2: max_rounds: no value; ignored"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEnv(t, "gemini")
			e.write(e.compatPath(), tt.text)
			s := e.load(Flags{})
			if s.MaxRounds != tt.wantRounds {
				t.Errorf("max_rounds = %d, want %d", s.MaxRounds, tt.wantRounds)
			}
			if tt.wantWarning == "" && len(s.Warnings) > 0 {
				t.Errorf("unexpected warnings %q", s.Warnings)
			}
			if tt.wantWarning != "" && !hasWarning(s, tt.wantWarning) {
				t.Errorf("warnings %q, want one containing %q", s.Warnings, tt.wantWarning)
			}
		})
	}
}

func TestCompatCRLFLines(t *testing.T) {
	e := newTestEnv(t)
	e.write(e.compatPath(), "---\r\n# c\r\nmax_rounds: 3\r\ntimeout_per_cli: 30\r\n---\r\n")
	s := e.load(Flags{})
	if got, want := s.Source("timeout_per_cli"), e.compatPath()+":4"; got != want {
		t.Errorf("Source = %q, want %q", got, want)
	}
	if s.TimeoutPerCLI != 30*time.Second {
		t.Errorf("timeout_per_cli = %v", s.TimeoutPerCLI)
	}
}

func TestUnknownKeyWarnings(t *testing.T) {
	e := newTestEnv(t, "gemini")
	path := e.write(e.configPath(), lines(
		"max_round: 3", // 1
		"zzz: 1",       // 2
		"agents:",      // 3
		"  gemini:",    // 4
		"    timout: 3",
		"    model: x",
	))
	s := e.load(Flags{})
	want := []string{
		path + ":1: max_round: unknown key, ignored (did you mean max_rounds?)",
		path + ":2: zzz: unknown key, ignored",
		path + ":5: agents.gemini.timout: unknown key, ignored (did you mean timeout?)",
		path + ":4: agents.gemini: model is only read for an endpoint (api: openai), ignored here (a CLI's model goes in args, e.g. [--model, NAME])",
	}
	if !slices.Equal(s.Warnings, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(s.Warnings, "\n"), strings.Join(want, "\n"))
	}
}

func TestAgentOverrideKeepsBuiltinFields(t *testing.T) {
	e := newTestEnv(t)
	path := e.write(e.configPath(), lines(
		"agents:",
		"  gemini:",
		"    args: [--model, gemini-2.5-pro]",
		"    timeout: 3m",
		"    env: {GEMINI_API_KEY: sekrit}",
	))
	s := e.load(Flags{})
	got, orig := s.Agents["gemini"], mustBuiltin(t, "gemini")
	if !slices.Equal(got.Command, orig.Command) || !slices.Equal(got.StdinCommand, orig.StdinCommand) ||
		got.Format != orig.Format || got.Prompt != orig.Prompt || got.PTY != orig.PTY || !got.Builtin ||
		!slices.Equal(got.CredentialEnv, orig.CredentialEnv) {
		t.Errorf("override lost built-in fields: %+v", got)
	}
	if !slices.Equal(got.Args, []string{"--model", "gemini-2.5-pro"}) || got.Timeout != 3*time.Minute {
		t.Errorf("override not applied: args %q timeout %v", got.Args, got.Timeout)
	}
	if got.Env["GEMINI_API_KEY"] != "sekrit" || got.Env["GEMINI_CLI_TRUST_WORKSPACE"] != "true" {
		t.Errorf("env = %v, want the built-in's merged with the file's", got.Env)
	}
	if src, want := s.Source("agents.gemini"), "built-in, overridden at "+path+":2"; src != want {
		t.Errorf("source = %q, want %q", src, want)
	}
	if again := mustBuiltin(t, "gemini"); len(again.Args) != 0 || again.Env["GEMINI_API_KEY"] != "" {
		t.Errorf("override mutated the built-in table: %+v", again)
	}
}

func mustBuiltin(t *testing.T, name string) challengers.Agent {
	t.Helper()
	a, ok := challengers.Builtin(name)
	if !ok {
		t.Fatalf("no built-in %s", name)
	}
	return a
}

func TestCustomAgent(t *testing.T) {
	e := newTestEnv(t)
	path := e.write(e.configPath(), lines(
		"output_cap: 1MiB",
		"agents:",
		"  llama:",
		"    command: [ollama, run, llama3.2]",
		"  local:",
		"    command: [my-llm, --in, \"{prompt_file}\"]",
		"    prompt: file",
		"    format: claude-stream-json",
		"    pty: true",
		"    timeout: 45",
		"    output_cap: 2048",
		"    dir: ~/work",
	))
	s := e.load(Flags{})
	llama := s.Agents["llama"]
	want := challengers.Agent{
		Name: "llama", Command: []string{"ollama", "run", "llama3.2"},
		Prompt: challengers.PromptArgv, Format: challengers.FormatText,
		Timeout: 120 * time.Second, OutputCap: 1 << 20, Billing: challengers.BillingMetered,
	}
	if fmt.Sprintf("%+v", llama) != fmt.Sprintf("%+v", want) {
		t.Errorf("llama = %+v\nwant    %+v", llama, want)
	}
	local := s.Agents["local"]
	if local.Prompt != challengers.PromptFile || local.Format != challengers.FormatClaudeStreamJSON ||
		!local.PTY || local.Timeout != 45*time.Second || local.OutputCap != 2048 ||
		local.Dir != filepath.Join(e.Home, "work") {
		t.Errorf("local = %+v", local)
	}
	if got := s.Source("agents.llama"); got != path+":3" {
		t.Errorf("source = %q", got)
	}
}

func TestTimeoutFlagOverridesAgentTimeouts(t *testing.T) {
	e := newTestEnv(t)
	e.write(e.configPath(), lines(
		"timeout_per_cli: 300",
		"agents:",
		"  codex: {timeout: 10m}",
		"  llama: {command: [ollama, run, x], timeout: 1s}",
	))
	s := e.load(Flags{Timeout: ptr("30s")})
	for name, a := range s.Agents {
		if a.Timeout != 30*time.Second {
			t.Errorf("%s: timeout %v, want 30s from --timeout", name, a.Timeout)
		}
	}
	if s.TimeoutPerCLI != 30*time.Second || s.Source("timeout_per_cli") != "flag --timeout" {
		t.Errorf("timeout_per_cli = %v from %s", s.TimeoutPerCLI, s.Source("timeout_per_cli"))
	}

	s = e.load(Flags{}) // without the flag, own timeouts stand
	if s.Agents["codex"].Timeout != 10*time.Minute || s.Agents["claude"].Timeout != 300*time.Second {
		t.Errorf("codex %v, claude %v", s.Agents["codex"].Timeout, s.Agents["claude"].Timeout)
	}
}

func TestChallengers(t *testing.T) {
	tests := []struct {
		name       string
		onPath     []string
		cache      *string // nil: no cache file
		config     string
		flags      Flags
		want       []string
		wantSource string // "<cache>" and "<config>" stand for the paths
		warning    string
	}{
		{name: "on PATH, in default order", onPath: []string{"qwen", "gemini", "ollama"},
			want: []string{"gemini", "qwen"}, wantSource: "found on PATH"},
		{name: "nothing on PATH", want: []string{}, wantSource: "found on PATH",
			warning: "challengers: none usable (found on PATH); run arena doctor, or name some with --challengers"},
		{name: "PATH uses an overridden command", onPath: []string{"codex-nightly"},
			config: "agents:\n  codex: {command: [codex-nightly, exec, \"{prompt}\"]}\n",
			want:   []string{"codex"}, wantSource: "found on PATH"},
		{name: "defender not taken from PATH", onPath: []string{"gemini", "codex"},
			flags: Flags{Defender: ptr("gemini")}, want: []string{"codex"}, wantSource: "found on PATH"},
		{name: "doctor cache beats PATH", onPath: []string{"gemini", "qwen", "codex"},
			cache: ptr("# doctor\nqwen\n\ncodex\n"), want: []string{"qwen", "codex"}, wantSource: "doctor cache <cache>"},
		{name: "stale name in cache", onPath: []string{"codex"}, cache: ptr("gone\ncodex\n"),
			want: []string{"codex"}, wantSource: "doctor cache <cache>",
			warning: "<cache>:1: challengers: unknown agent \"gone\", skipped (run arena doctor to refresh)"},
		{name: "empty cache", cache: ptr(""),
			want: []string{}, wantSource: "doctor cache <cache>", warning: "none usable (doctor cache <cache>)"},
		{name: "empty cache, a CLI installed since", onPath: []string{"gemini"}, cache: ptr(""),
			want: []string{"gemini"}, wantSource: "doctor cache <cache>",
			warning: "gemini: installed since arena doctor last ran, so taken as a challenger; run `arena doctor` to check it"},
		{name: "defender in cache dropped silently", onPath: []string{"gemini"}, cache: ptr("gemini\nclaude\n"),
			want: []string{"gemini"}, wantSource: "doctor cache <cache>"},
		{name: "explicit, defender dropped", onPath: []string{"gemini"},
			config: "challengers:\n  - codex\n  - claude\n  - codex\n",
			want:   []string{"codex"}, wantSource: "<config>:1",
			warning: "<config>:3: challengers: \"claude\" is the defender; dropped from the challengers"},
		{name: "scalar, comma separated", config: "challengers: qwen, gemini\n",
			want: []string{"qwen", "gemini"}, wantSource: "<config>:1"},
		{name: "custom agent", config: "challengers: [llama]\nagents:\n  llama: {command: [ollama]}\n",
			want: []string{"llama"}, wantSource: "<config>:1"},
		{name: "flag beats file", config: "challengers: [qwen]\n",
			flags: Flags{Challengers: []string{"codex,gemini", " qwen "}},
			want:  []string{"codex", "gemini", "qwen"}, wantSource: "flag --challengers"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEnv(t, tt.onPath...)
			if tt.cache != nil {
				e.write(e.cachePath(), *tt.cache)
			}
			if tt.config != "" {
				e.write(e.configPath(), tt.config)
			}
			s := e.load(tt.flags)
			if !slices.Equal(s.Challengers, tt.want) {
				t.Errorf("challengers = %q, want %q", s.Challengers, tt.want)
			}
			expand := strings.NewReplacer("<cache>", e.cachePath(), "<config>", e.configPath()).Replace
			if got, want := s.Source("challengers"), expand(tt.wantSource); got != want {
				t.Errorf("source = %q, want %q", got, want)
			}
			// "none usable" is said by the debate alone (NoChallengers),
			// not among the warnings every command prints.
			if w := expand(tt.warning); strings.Contains(w, "none usable") {
				if !strings.Contains(s.NoChallengers, w) || len(s.Warnings) > 0 {
					t.Errorf("NoChallengers %q, warnings %q, want %q alone", s.NoChallengers, s.Warnings, w)
				}
			} else if tt.warning != "" && !hasWarning(s, w) {
				t.Errorf("warnings %q, want %q", s.Warnings, expand(tt.warning))
			}
			if tt.warning == "" && len(s.Warnings) > 0 {
				t.Errorf("unexpected warnings %q", s.Warnings)
			}
		})
	}
}

func TestHomeExpansion(t *testing.T) {
	e := newTestEnv(t)
	cfg := e.write(filepath.Join(e.Home, "my", "arena.yaml"), "debate_log_path: ~/logs\n")
	s := e.load(Flags{Config: ptr("~/my/arena.yaml")})
	if want := filepath.Join(e.Home, "logs"); s.DebateLogPath != want {
		t.Errorf("debate_log_path = %q, want %q", s.DebateLogPath, want)
	}
	if !slices.Equal(s.Files, []string{cfg}) {
		t.Errorf("files = %q", s.Files)
	}
	s = e.load(Flags{Config: ptr("~/my/arena.yaml"), LogDir: ptr("~")})
	if s.DebateLogPath != e.Home {
		t.Errorf("--log-dir ~ gave %q", s.DebateLogPath)
	}
}

func TestConfigFlagReplacesDefaultFile(t *testing.T) {
	e := newTestEnv(t)
	e.write(e.configPath(), "max_rounds: 2\n")
	other := e.write(filepath.Join(e.Home, "other.yaml"), "max_rounds: 3\n")
	s := e.load(Flags{Config: ptr(other)})
	if s.MaxRounds != 3 || !slices.Equal(s.Files, []string{other}) {
		t.Errorf("max_rounds %d, files %q", s.MaxRounds, s.Files)
	}
}

func TestXDGConfigHome(t *testing.T) {
	e := newTestEnv(t)
	e.ConfigHome = filepath.Join(e.Home, "xdg")
	path := e.write(filepath.Join(e.ConfigHome, "arena", "config.yaml"), "max_rounds: 4\n")
	if s := e.load(Flags{}); s.MaxRounds != 4 || s.Source("max_rounds") != path+":1" {
		t.Errorf("max_rounds %d from %s", s.MaxRounds, s.Source("max_rounds"))
	}
}

func TestLogDirWithLogsOff(t *testing.T) {
	e := newTestEnv(t)
	s := e.load(Flags{LogDir: ptr("/tmp/x"), NoLog: ptr(true)})
	if !hasWarning(s, "flag --log-dir: debate logs are off (save_debate_logs from flag --no-log)") {
		t.Errorf("warnings %q", s.Warnings)
	}
}

func TestSaveChallengerCache(t *testing.T) {
	e := newTestEnv(t, "qwen", "gemini")
	if err := SaveChallengerCache(e.Env, []CacheEntry{{Name: "qwen", In: true, Why: "answered"}, {Name: "codex", Why: "not found on PATH"}, {Name: "gemini", In: true, Why: "kept: answered before;\nslow"}}); err != nil {
		t.Fatal(err)
	}
	s := e.load(Flags{})
	if !slices.Equal(s.Challengers, []string{"qwen", "gemini"}) {
		t.Errorf("challengers = %q", s.Challengers)
	}
	saved, found, err := ReadChallengerCache(e.Env)
	if err != nil || !found || len(saved) != 3 || saved[2] != (CacheEntry{Name: "codex", Why: "not found on PATH"}) || saved[1].Why != "kept: answered before; slow" {
		t.Errorf("read back %+v (%v, %v)", saved, found, err)
	}
	entries, _ := os.ReadDir(filepath.Dir(e.cachePath()))
	if len(entries) != 1 {
		t.Errorf("cache dir holds %d entries, want only the cache", len(entries))
	}
	if _, err := ChallengerCachePath(Env{}); err == nil {
		t.Error("ChallengerCachePath without a cache dir succeeded")
	}
}

// A doctor cache saved before any CLI was installed must not hide the
// ones installed since (issue 40, point 1): those it left out only for not
// being on PATH are in once they are, and said so; one it left out for
// another reason stays out; one it kept in that is gone is left out.
func TestDoctorCacheSeesWhatWasInstalledSince(t *testing.T) {
	e := newTestEnv(t, "claude", "gemini", "codex")
	if err := SaveChallengerCache(e.Env, []CacheEntry{
		{Name: "gemini", Why: challengers.NotOnPath},
		{Name: "codex", Why: "version check failed: exit status 1"},
		{Name: "qwen", In: true, Why: "answered --version in 0.2s"},
	}); err != nil {
		t.Fatal(err)
	}
	s := e.load(Flags{})
	if !slices.Equal(s.Challengers, []string{"gemini"}) {
		t.Errorf("challengers = %q, want gemini alone (installed since; codex broken; qwen gone)", s.Challengers)
	}
	if !hasWarning(s, "gemini: installed since arena doctor last ran, so taken as a challenger; run `arena doctor` to check it") {
		t.Errorf("warnings %q", s.Warnings)
	}
	if !hasWarning(s, "qwen: in arena doctor's list but no longer on PATH, so left out; run `arena doctor` to refresh the list") {
		t.Errorf("warnings %q", s.Warnings)
	}
	if got := s.Source("challengers"); !strings.Contains(got, "doctor cache") {
		t.Errorf("challengers from %q", got)
	}
}

func TestAPIAgents(t *testing.T) {
	e := newTestEnv(t, "gemini")
	path := e.write(e.configPath(), lines(
		"agents:",
		"  llama:",
		"    api: openai",
		"    base_url: http://127.0.0.1:11434/v1",
		"    model: llama3.2",
		"  sonnet:",
		"    api: openai",
		"    base_url: https://openrouter.ai/api/v1",
		"    model: anthropic/claude-sonnet-4.5",
		"    key_env: OPENROUTER_API_KEY",
		"    timeout: 90s",
		"  codex:",
		"    api: openai",
		"    base_url: https://api.openai.com/v1",
		"    model: gpt-5",
		"    key_env: OPENAI_API_KEY",
		"    family: OpenAI",
	))
	s := e.load(Flags{})
	sonnet, codex := s.Agents["sonnet"], s.Agents["codex"]
	if !sonnet.IsAPI() || sonnet.KeyEnv != "OPENROUTER_API_KEY" || sonnet.Timeout != 90*time.Second || sonnet.Billing != challengers.BillingMetered {
		t.Errorf("sonnet = %+v", sonnet)
	}
	if !codex.IsAPI() || codex.Command != nil || codex.PTY || codex.Family != "openai" || !slices.Equal(codex.CredentialEnv, []string{"OPENAI_API_KEY"}) {
		t.Errorf("a built-in made an endpoint keeps its CLI: %+v", codex)
	}
	rows := map[string]Row{}
	for _, r := range s.Rows() {
		rows[r.Key] = r
	}
	want := "api openai; base_url https://openrouter.ai/api/v1; model anthropic/claude-sonnet-4.5; key_env OPENROUTER_API_KEY; timeout 1m30s; family anthropic (from the model id); billing metered (guessed: an API endpoint: its tokens and any cost it reports count)"
	if r := rows["agents.sonnet"]; r.Value != want || r.Source != path+":6" {
		t.Errorf("row %+v\nwant %s from %s:6", r, want, path)
	}
	if r := rows["agents.llama"]; !strings.Contains(r.Value, "key_env (none)") || !strings.Contains(r.Value, "family meta (from the model id)") {
		t.Errorf("row %+v", r)
	}
}

package settings

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// errorCase is one of TestErrors' cases: the files and flags, the exact
// message and the *Error fields that must name the file, line, key or
// flag. "<config>" and "<compat>" in wantMsg stand for the paths of the
// two files.
type errorCase struct {
	name     string
	compat   string
	config   string
	flags    Flags
	wantMsg  string
	wantLine int
	wantKey  string
	wantFlag string
}

var errorCases = []errorCase{
	{
		name:    "bad agent timeout",
		config:  lines("agents:", "  llama:", "    command: [ollama, run, llama3.2]", "    prompt: stdin", "", "    # slow", "    timeout: ninety"),
		wantMsg: `<config>:7: agents.llama.timeout: "ninety" is not a duration (use 90s, 2m, or a number of seconds)`,
		wantKey: "agents.llama.timeout", wantLine: 7,
	},
	{
		name:    "max_rounds not a number",
		config:  "max_rounds: five\n",
		wantMsg: `<config>:1: max_rounds: "five" is not a whole number`, wantKey: "max_rounds", wantLine: 1,
	},
	{
		name:    "max_rounds zero",
		config:  "\nmax_rounds: 0\n",
		wantMsg: `<config>:2: max_rounds: must be at least 1, got 0`, wantKey: "max_rounds", wantLine: 2,
	},
	{
		name:    "max_rounds too many",
		config:  "max_rounds: 50\n",
		wantMsg: `<config>:1: max_rounds: must be at most 20, got 50`, wantKey: "max_rounds", wantLine: 1,
	},
	{
		name:    "max_rounds a list",
		config:  "max_rounds: [1]\n",
		wantMsg: `<config>:1: max_rounds: must be a whole number, got a list`, wantKey: "max_rounds", wantLine: 1,
	},
	{
		name:    "compat file error, file line",
		compat:  lines("---", "# debate", "max_rounds: five", "---"),
		wantMsg: `<compat>:3: max_rounds: "five" is not a whole number`, wantKey: "max_rounds", wantLine: 3,
	},
	{
		name:    "compat front matter not closed",
		compat:  lines("---", "max_rounds: 2", "body"),
		wantMsg: `<compat>:1: front matter opened here is never closed (add a --- line after the settings)`, wantLine: 1,
	},
	{
		name:    "compat YAML syntax error",
		compat:  lines("---", "max_rounds: 2", "  timeout_per_cli: 3", "---"),
		wantMsg: `<compat>:3: invalid YAML: mapping values are not allowed in this context`, wantLine: 3,
	},
	{
		name:    "YAML syntax error, unclosed list",
		config:  lines("max_rounds: 2", "challengers: [gemini, codex", "defender: claude"),
		wantMsg: `<config>:2: invalid YAML: did not find expected ',' or ']'`, wantLine: 2,
	},
	{
		name:    "YAML syntax error, bad indentation",
		config:  lines("agents:", "  llama:", "    command: [x]", "   prompt: stdin"),
		wantMsg: `<config>:2: invalid YAML: did not find expected key`, wantLine: 2,
	},
	{
		name:    "top level not a mapping",
		config:  "- gemini\n",
		wantMsg: `<config>:1: expected settings as "key: value" lines, found a list`, wantLine: 1,
	},
	{
		name:    "key set twice",
		config:  lines("max_rounds: 2", "defender: claude", "max_rounds: 3"),
		wantMsg: `<config>:3: max_rounds: set twice (first at line 1)`, wantKey: "max_rounds", wantLine: 3,
	},
	{
		name:    "unknown challenger",
		config:  lines("defender: claude", "", "challengers: [gemini, gemnii]", "agents:", "  llama: {command: [ollama]}"),
		wantMsg: `<config>:3: challengers: unknown agent "gemnii" (known: claude, codex, gemini, qwen, llama)`, wantKey: "challengers", wantLine: 3,
	},
	{
		name:    "unknown challenger in a block list",
		config:  lines("challengers:", "  - gemini", "  - gemnii"),
		wantMsg: `<config>:3: challengers: unknown agent "gemnii" (known: claude, codex, gemini, qwen)`, wantKey: "challengers", wantLine: 3,
	},
	{
		name:    "challengers as a mapping",
		config:  "challengers: {a: b}\n",
		wantMsg: `<config>:1: challengers: must be a list of agent names, e.g. [gemini, codex], got a mapping`, wantKey: "challengers", wantLine: 1,
	},
	{
		name:    "challengers empty",
		config:  "challengers: []\n",
		wantMsg: `<config>:1: challengers: names no agent (leave the key out to use the challengers arena doctor found)`, wantKey: "challengers", wantLine: 1,
	},
	{
		name:    "only the defender as challenger",
		config:  lines("defender: gemini", "challengers: [gemini]"),
		wantMsg: `<config>:2: challengers: no challenger left once the defender "gemini" is left out`, wantKey: "challengers", wantLine: 2,
	},
	{
		name:    "unknown defender",
		config:  "defender: claud\n",
		wantMsg: `<config>:1: defender: unknown agent "claud" (known: claude, codex, gemini, qwen)`, wantKey: "defender", wantLine: 1,
	},
	{
		name:    "bad prompt mode",
		config:  lines("agents:", "  gemini:", "    prompt: pipe"),
		wantMsg: `<config>:3: agents.gemini.prompt: "pipe" is not one of argv | stdin | file`, wantKey: "agents.gemini.prompt", wantLine: 3,
	},
	{
		name:    "bad format",
		config:  lines("agents:", "  gemini:", "    format: json"),
		wantMsg: `<config>:3: agents.gemini.format: "json" is not one of text | claude-stream-json | gemini-stream-json | codex-json | qwen-stream-json`, wantKey: "agents.gemini.format", wantLine: 3,
	},
	{
		name:    "empty command",
		config:  lines("agents:", "  codex:", "    command: []"),
		wantMsg: `<config>:3: agents.codex.command: is empty`, wantKey: "agents.codex.command", wantLine: 3,
	},
	{
		name:    "empty program",
		config:  lines("agents:", "  codex:", "    command:", "      - \"\"", "      - exec"),
		wantMsg: `<config>:4: agents.codex.command: the program (first entry) is empty`, wantKey: "agents.codex.command", wantLine: 4,
	},
	{
		name:    "command as a string",
		config:  lines("agents:", "  llama:", "    command: ollama run llama3.2"),
		wantMsg: `<config>:3: agents.llama.command: must be a list, e.g. [ollama, run, llama3.2], got a value "ollama run llama3.2"`, wantKey: "agents.llama.command", wantLine: 3,
	},
	{
		name:    "custom agent without command",
		config:  lines("agents:", "  llama:", "    prompt: stdin"),
		wantMsg: `<config>:2: agents.llama: a new agent needs a command, e.g. command: [ollama, run, llama3.2], or an endpoint, e.g. api: openai, base_url: http://127.0.0.1:11434/v1, model: llama3.2`, wantKey: "agents.llama", wantLine: 2,
	},
	{
		name:    "misspelt built-in",
		config:  lines("agents:", "  gemeni:", "    timeout: 3m"),
		wantMsg: `<config>:2: agents.gemeni: a new agent needs a command, e.g. command: [ollama, run, llama3.2], or an endpoint, e.g. api: openai, base_url: http://127.0.0.1:11434/v1, model: llama3.2 (or did you mean the agent gemini?)`, wantKey: "agents.gemeni", wantLine: 2,
	},
	{
		name:    "file prompt without placeholder",
		config:  lines("agents:", "  llama:", "    command: [ollama, run]", "    prompt: file"),
		wantMsg: `<config>:2: agents.llama.command: prompt is "file" but the command has no {prompt_file} element`, wantKey: "agents.llama.command", wantLine: 2,
	},
	{
		name:    "stdin prompt with a prompt placeholder",
		config:  lines("agents:", "  llama:", "    command: [ollama, run, \"{prompt}\"]", "    prompt: stdin"),
		wantMsg: `<config>:2: agents.llama.command: prompt is "stdin" but the command still has a {prompt} element (remove it, or set stdin_command)`, wantKey: "agents.llama.command", wantLine: 2,
	},
	{
		name:    "agent name with a space",
		config:  lines("agents:", "  my llm: {command: [x]}"),
		wantMsg: `<config>:2: agents.my llm: an agent name cannot contain spaces or commas`, wantKey: "agents.my llm", wantLine: 2,
	},
	{
		name:    "agents as a list",
		config:  lines("agents:", "  - llama"),
		wantMsg: `<config>:2: agents: must be a mapping of agent names to their settings, got a list`, wantKey: "agents", wantLine: 2,
	},
	{
		name:    "env value not a string, value never shown",
		config:  lines("agents:", "  gemini:", "    env:", "      GEMINI_API_KEY: [sekrit]"),
		wantMsg: `<config>:4: agents.gemini.env: the value of GEMINI_API_KEY must be a string, got a list`, wantKey: "agents.gemini.env", wantLine: 4,
	},
	{
		name:    "zero timeout",
		config:  "timeout_per_cli: 0\n",
		wantMsg: `<config>:1: timeout_per_cli: must be more than 0, got "0"`, wantKey: "timeout_per_cli", wantLine: 1,
	},
	{
		name:    "negative timeout",
		config:  "timeout_per_cli: -5s\n",
		wantMsg: `<config>:1: timeout_per_cli: must be more than 0, got "-5s"`, wantKey: "timeout_per_cli", wantLine: 1,
	},
	{
		name:    "bad output cap",
		config:  "output_cap: lots\n",
		wantMsg: `<config>:1: output_cap: "lots" is not a size (use a number of bytes, or 512KiB, 8MiB)`, wantKey: "output_cap", wantLine: 1,
	},
	{
		name:    "bad bool",
		config:  "save_debate_logs: sometimes\n",
		wantMsg: `<config>:1: save_debate_logs: "sometimes" is not true or false`, wantKey: "save_debate_logs", wantLine: 1,
	},
	{
		name:    "empty log path",
		config:  "debate_log_path: \"\"\n",
		wantMsg: `<config>:1: debate_log_path: is empty`, wantKey: "debate_log_path", wantLine: 1,
	},
	{
		name:    "flag max rounds",
		flags:   Flags{MaxRounds: ptr(-2)},
		wantMsg: `flag --max-rounds: must be at least 1, got -2`, wantKey: "max_rounds", wantFlag: "max-rounds",
	},
	{
		name:    "flag timeout",
		flags:   Flags{Timeout: ptr("ninety")},
		wantMsg: `flag --timeout: "ninety" is not a duration (use 90s, 2m, or a number of seconds)`, wantKey: "timeout_per_cli", wantFlag: "timeout",
	},
	{
		name:    "flag unknown defender",
		flags:   Flags{Defender: ptr("gpt")},
		wantMsg: `flag --defender: unknown agent "gpt" (known: claude, codex, gemini, qwen)`, wantKey: "defender", wantFlag: "defender",
	},
	{
		name:    "flag unknown challenger",
		config:  "challengers: [codex]\n",
		flags:   Flags{Challengers: []string{"gemini,gemnii"}},
		wantMsg: `flag --challengers: unknown agent "gemnii" (known: claude, codex, gemini, qwen)`, wantKey: "challengers", wantFlag: "challengers",
	},
	{
		name:    "flag challengers empty",
		flags:   Flags{Challengers: []string{""}},
		wantMsg: `flag --challengers: no agent name given`, wantKey: "challengers", wantFlag: "challengers",
	},
	{
		name:    "API agent with a command",
		config:  "agents:\n  llama:\n    api: openai\n    command: [ollama]\n    base_url: http://127.0.0.1:11434/v1\n    model: llama3.2\n",
		wantMsg: `<config>:2: agents.llama: sets both a command and api: an agent is a command or an endpoint, not both`, wantLine: 2, wantKey: "agents.llama",
	},
	{
		name:    "API agent without a model",
		config:  "agents:\n  llama:\n    api: openai\n    base_url: http://127.0.0.1:11434/v1\n",
		wantMsg: `<config>:2: agents.llama.model: is empty: name the model the endpoint serves (e.g. llama3.2, anthropic/claude-sonnet-4.5)`, wantLine: 2, wantKey: "agents.llama.model",
	},
	{
		name:    "API agent with a password in its URL",
		config:  "agents:\n  sonnet:\n    api: openai\n    base_url: https://me:sekrit@openrouter.ai/api/v1\n    model: anthropic/claude-sonnet-4.5\n",
		wantMsg: `<config>:2: agents.sonnet.base_url: must not hold a user or a password: put the key in a variable and name it in key_env`, wantLine: 2, wantKey: "agents.sonnet.base_url",
	},
	{
		name:    "unknown API",
		config:  "agents:\n  sonnet:\n    api: anthropic\n",
		wantMsg: `<config>:3: agents.sonnet.api: "anthropic" is not one of openai`, wantLine: 3, wantKey: "agents.sonnet.api",
	},
	{
		name:    "flag empty defender",
		flags:   Flags{Defender: ptr(" ")},
		wantMsg: `flag --defender: no agent name given`, wantKey: "defender", wantFlag: "defender",
	},
}

// TestErrors checks the exact text of each error, and that the *Error
// fields name the file, line, key or flag.
func TestErrors(t *testing.T) {
	for _, tt := range errorCases {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEnv(t, "gemini", "codex", "qwen")
			if tt.compat != "" {
				e.write(e.compatPath(), tt.compat)
			}
			if tt.config != "" {
				e.write(e.configPath(), tt.config)
			}
			err := e.loadErr(tt.flags)
			file := ""
			switch {
			case strings.HasPrefix(tt.wantMsg, "<compat>"):
				file = e.compatPath()
			case strings.HasPrefix(tt.wantMsg, "<config>"):
				file = e.configPath()
			}
			want := strings.NewReplacer("<compat>", e.compatPath(), "<config>", e.configPath()).Replace(tt.wantMsg)
			if err.Error() != want {
				t.Errorf("error:\n got %s\nwant %s", err, want)
			}
			if err.File != file || err.Line != tt.wantLine || err.Key != tt.wantKey || err.Flag != tt.wantFlag {
				t.Errorf("fields File=%q Line=%d Key=%q Flag=%q; want %q %d %q %q",
					err.File, err.Line, err.Key, err.Flag, file, tt.wantLine, tt.wantKey, tt.wantFlag)
			}
			if strings.Contains(err.Error(), "sekrit") {
				t.Errorf("error shows an env value: %s", err)
			}
		})
	}
}

func TestConfigFlagFileMissing(t *testing.T) {
	e := newTestEnv(t)
	missing := filepath.Join(e.Home, "nope.yaml")
	err := e.loadErr(Flags{Config: ptr(missing)})
	if want := "flag --config: " + missing + ": no such file"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Error("error does not match fs.ErrNotExist")
	}
	// Without --config, a missing default file is fine.
	e.load(Flags{})
}

func TestUnreadableConfig(t *testing.T) {
	e := newTestEnv(t)
	if err := os.MkdirAll(e.configPath(), 0o755); err != nil { // a directory cannot be read as a file
		t.Fatal(err)
	}
	err := e.loadErr(Flags{})
	if err.Error() != e.configPath()+": is a directory, not a regular file" || err.File != e.configPath() {
		t.Errorf("error %q", err)
	}
	// A FIFO where the config goes is refused at once, not waited on.
	if err := os.Remove(e.configPath()); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(e.configPath(), 0o600); err != nil {
		t.Fatal(err)
	}
	err = e.loadErr(Flags{})
	if err.Error() != e.configPath()+": is a FIFO (named pipe), not a regular file" {
		t.Errorf("error %q", err)
	}
}

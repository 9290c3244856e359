// Package challengers knows how to run the model CLIs that take part in a
// debate: what each built-in agent's command line looks like, how a prompt
// reaches it, how its output stream is decoded, and how to tell (for
// `arena doctor`) whether it is installed and working.
package challengers

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// PromptMode says how a prompt reaches an agent.
type PromptMode string

const (
	// PromptArgv puts the prompt in the argument list: in place of a
	// "{prompt}" element of the command, or appended as the last argument.
	PromptArgv PromptMode = "argv"
	// PromptStdin writes the prompt to the agent's standard input, then
	// closes it.
	PromptStdin PromptMode = "stdin"
	// PromptFile writes the prompt to a private temporary file whose path
	// replaces "{prompt_file}" in the command.
	PromptFile PromptMode = "file"
)

// PromptModes lists the valid prompt modes, for error messages.
var PromptModes = []PromptMode{PromptArgv, PromptStdin, PromptFile}

// Format names the shape of an agent's standard output.
type Format string

const (
	FormatText             Format = "text"
	FormatClaudeStreamJSON Format = "claude-stream-json"
	FormatGeminiStreamJSON Format = "gemini-stream-json"
	FormatCodexJSON        Format = "codex-json"
	FormatQwenStreamJSON   Format = "qwen-stream-json"
)

// Formats lists the valid output formats, for error messages.
var Formats = []Format{FormatText, FormatClaudeStreamJSON, FormatGeminiStreamJSON, FormatCodexJSON, FormatQwenStreamJSON}

// Placeholders that may appear as whole elements of a command.
const (
	PromptPlaceholder     = "{prompt}"
	PromptFilePlaceholder = "{prompt_file}"
)

// DefaultOutputCap bounds how much one call may print before it is stopped.
// Model replies in a debate are a few KiB; 8 MiB leaves room for verbose
// streams (claude's init event alone is ~6 KiB) while keeping a runaway
// agent from exhausting memory.
const DefaultOutputCap int64 = 8 << 20

// Agent is everything arena knows about one model CLI. Built-ins are plain
// data (see Builtins) and every field can be overridden from the config
// file, so a user can follow a CLI's next flag change without a new release.
type Agent struct {
	Name string `json:"name"`
	// Command is the argv. It may hold "{prompt}" (argv mode) or
	// "{prompt_file}" (file mode) as whole elements.
	Command []string `json:"command"`
	// StdinCommand is used instead of Command when an argv prompt is too
	// large for one argument (Linux caps one at 128 KiB): the prompt then
	// goes on stdin. Empty means Command without its "{prompt}" element.
	// It belongs to Command: a config that sets command without it clears
	// it (settings), so an overridden built-in never runs its old stdin
	// command.
	StdinCommand []string `json:"stdin_command,omitempty"`
	// Args are appended to the command (before an appended prompt): the
	// easy way to add a flag such as a model choice to a built-in.
	Args    []string          `json:"args,omitempty"`
	Prompt  PromptMode        `json:"prompt"`
	Format  Format            `json:"format"`
	Timeout time.Duration     `json:"timeout,omitempty"` // 0: the debate's timeout_per_cli
	Env     map[string]string `json:"env,omitempty"`
	PTY     bool              `json:"pty"`
	// Dir is the working directory. Empty means a fresh private scratch
	// directory per call, so an agent that decides to write files cannot
	// touch the user's project.
	Dir string `json:"dir,omitempty"`
	// OutputCap bounds the bytes one call may print (0: DefaultOutputCap).
	OutputCap int64 `json:"output_cap,omitempty"`
	// Billing is how its calls are paid for, which decides what they
	// count against in a budget ("": not known; billing.go).
	Billing Billing `json:"billing,omitempty"`

	// An agent with API set is an HTTP endpoint, not a CLI (api.go): it
	// has no command, and is asked at BaseURL for Model, with the key
	// held by the environment variable KeyEnv ("": none).
	API     API    `json:"api,omitempty"`
	BaseURL string `json:"base_url,omitempty"`
	Model   string `json:"model,omitempty"`
	KeyEnv  string `json:"key_env,omitempty"`
	// Family is the vendor whose model it is, when the config says so
	// ("": read from the CLI or the model id; family.go).
	Family string `json:"family,omitempty"`
	// ServersOff is how the user's own MCP servers are kept from a call
	// where no flag in the command can do it ("": the command's flags do).
	ServersOff ServersOff `json:"servers_off,omitempty"`

	// Detection, for doctor.
	VersionArgs     []string `json:"version_args,omitempty"`
	CredentialEnv   []string `json:"credential_env,omitempty"`
	CredentialFiles []string `json:"credential_files,omitempty"` // "~/" is the home directory
	Install         string   `json:"install,omitempty"`
	// Alternatives are other executables that can stand in for this agent
	// when its own is missing (Google moved personal accounts from gemini
	// to the Antigravity CLI, agy).
	Alternatives []Alternative `json:"alternatives,omitempty"`

	Builtin bool `json:"builtin"`
}

// Alternative is a different CLI that can play the same agent.
type Alternative struct {
	Command []string `json:"command"`
	Format  Format   `json:"format"`
	Note    string   `json:"note"`
}

// Executable is the program the agent runs.
func (a Agent) Executable() string {
	if len(a.Command) == 0 {
		return ""
	}
	return a.Command[0]
}

// FieldError says which field of an agent definition is wrong.
type FieldError struct {
	Agent, Field, Msg string
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("agent %q: %s: %s", e.Agent, e.Field, e.Msg)
}

// Validate reports the first thing wrong with an agent definition, as a
// *FieldError.
func (a Agent) Validate() error {
	bad := func(field, format string, args ...any) error {
		return &FieldError{Agent: a.Name, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	var err error
	if a.API != "" {
		err = a.validateAPI()
	} else {
		err = a.validateCommand()
	}
	switch {
	case err != nil:
		return err
	case a.Timeout < 0:
		return bad("timeout", "%s is negative", a.Timeout)
	case a.OutputCap < 0:
		return bad("output_cap", "%d is negative", a.OutputCap)
	case a.Billing != "" && !slices.Contains(Billings, a.Billing):
		return bad("billing", "%q is not one of %s", a.Billing, joinModes(Billings))
	}
	return nil
}

// validateCommand checks what a CLI agent runs and how it is given the
// prompt.
func (a Agent) validateCommand() error {
	bad := func(field, format string, args ...any) error {
		return &FieldError{Agent: a.Name, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	switch {
	case len(a.Command) == 0 || strings.TrimSpace(a.Command[0]) == "":
		return bad("command", "is empty")
	case !slices.Contains(PromptModes, a.Prompt):
		return bad("prompt", "%q is not one of %s", a.Prompt, joinModes(PromptModes))
	case !slices.Contains(Formats, a.Format):
		return bad("format", "%q is not one of %s", a.Format, joinModes(Formats))
	case a.Prompt == PromptFile && !slices.Contains(a.Command, PromptFilePlaceholder):
		return bad("command", "prompt is \"file\" but the command has no %s element", PromptFilePlaceholder)
	case a.Prompt == PromptStdin && slices.Contains(a.stdinArgv(), PromptPlaceholder):
		return bad("command", "prompt is \"stdin\" but the command still has a %s element (remove it, or set stdin_command)", PromptPlaceholder)
	case len(a.StdinCommand) > 0 && slices.Contains(a.StdinCommand, PromptPlaceholder):
		return bad("stdin_command", "must not hold %s: the prompt goes on stdin", PromptPlaceholder)
	}
	return nil
}

// stdinArgv is the command used when the prompt goes on stdin.
func (a Agent) stdinArgv() []string {
	if len(a.StdinCommand) > 0 {
		return a.StdinCommand
	}
	return a.Command
}

func joinModes[T ~string](xs []T) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = string(x)
	}
	return strings.Join(s, " | ")
}

// Clone returns a deep copy, so overriding a built-in never mutates the
// shared table.
func (a Agent) Clone() Agent {
	b := a
	b.Command = slices.Clone(a.Command)
	b.StdinCommand = slices.Clone(a.StdinCommand)
	b.Args = slices.Clone(a.Args)
	b.VersionArgs = slices.Clone(a.VersionArgs)
	b.CredentialEnv = slices.Clone(a.CredentialEnv)
	b.CredentialFiles = slices.Clone(a.CredentialFiles)
	b.Alternatives = slices.Clone(a.Alternatives)
	if a.Env != nil {
		b.Env = make(map[string]string, len(a.Env))
		for k, v := range a.Env {
			b.Env[k] = v
		}
	}
	return b
}

// BuiltinNames lists the built-in agents in a stable order.
func BuiltinNames() []string {
	names := make([]string, 0, len(builtins))
	for n := range builtins {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Builtin returns a copy of the named built-in agent.
func Builtin(name string) (Agent, bool) {
	a, ok := builtins[name]
	if !ok {
		return Agent{}, false
	}
	return a.Clone(), true
}

// Builtins returns copies of every built-in agent, keyed by name.
func Builtins() map[string]Agent {
	m := make(map[string]Agent, len(builtins))
	for n, a := range builtins {
		m[n] = a.Clone()
	}
	return m
}

// CredentialVars are the variables the agents log in with, sorted, each
// once.
func CredentialVars(agents map[string]Agent) []string {
	var names []string
	for _, ag := range agents {
		names = append(names, ag.CredentialEnv...)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// ServersOff names a way of turning the user's MCP servers off for one
// call that takes more than fixed flags.
type ServersOff string

// ServersOffCodex reads the configuration files codex will read and
// turns off, by name, each MCP server they define (codexconfig.go).
const ServersOffCodex ServersOff = "codex-config"

// NoMCPServers is the MCP server name gemini and qwen seats are allowed,
// which no server has: they load none.
const NoMCPServers = "arena-seat-loads-no-mcp-server"

// DefaultChallengerOrder is the order built-in challengers are listed in
// when none are configured.
var DefaultChallengerOrder = []string{"gemini", "codex", "qwen"}

// builtins holds the headless invocations of the real CLIs as observed on
// 2026-11-29 (claude 2.1.332, gemini 0.61.0, codex 0.171.0, qwen 0.24.4).
//
// Least privilege: none of these passes an auto-approve, "yolo" or
// sandbox-bypass flag. A debate needs text in and text out; a user who wants
// a model to run tools adds such flags through `args` in the config.
//
// Nor does a seat load the user's MCP servers: each CLI is told in its own
// way to load none but what the agent's `args` name. After arena install,
// every seat would otherwise start its own arena mcp and offer arena's
// tools to its model (a debate inside a debate, spending money), with every
// file writer or shell the user configured. Everything else the user set
// up stays: each CLI reads its own settings, so a seat asks the endpoint
// and the model its user chose, logged in as they log in.
var builtins = map[string]Agent{
	"claude": {
		Name: "claude",
		// -p is claude's boolean --print; the prompt is positional.
		// stream-json requires --verbose; partial messages add token deltas.
		// --strict-mcp-config: "Only use MCP servers from --mcp-config,
		// ignoring all other MCP configurations" (claude --help, 2.1.332),
		// plugins' servers too, and none is given unless args give one.
		Command:      []string{"claude", "-p", PromptPlaceholder, "--output-format", "stream-json", "--verbose", "--include-partial-messages", "--strict-mcp-config"},
		StdinCommand: []string{"claude", "-p", "--output-format", "stream-json", "--verbose", "--include-partial-messages", "--strict-mcp-config"},
		Prompt:       PromptArgv,
		Format:       FormatClaudeStreamJSON,
		PTY:          true,
		VersionArgs:  []string{"--version"},
		CredentialEnv: []string{
			"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN",
			"CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX",
		},
		CredentialFiles: []string{"~/.claude/.credentials.json"},
		Install:         "npm install -g @anthropic-ai/claude-code",
		Builtin:         true,
	},
	"gemini": {
		Name: "gemini",
		// -p takes the prompt as its value and switches to headless mode; a
		// prompt on stdin is read when -p is absent and stdin is not a tty.
		// --allowed-mcp-server-names: a server not in the list is blocked
		// (isBlockedBySettings in gemini-cli 0.61.0's bundle; an empty list
		// would allow all), an extension's too, and no server has this
		// name. It is an array, so a flag must follow it, and args may name
		// more servers.
		Command:      []string{"gemini", "-p", PromptPlaceholder, "--allowed-mcp-server-names", NoMCPServers, "-o", "stream-json"},
		StdinCommand: []string{"gemini", "--allowed-mcp-server-names", NoMCPServers, "-o", "stream-json"},
		Prompt:       PromptArgv,
		Format:       FormatGeminiStreamJSON,
		// In a folder it has not been told to trust, gemini refuses to run
		// headless; the scratch directory is never trusted, so say so.
		Env:           map[string]string{"GEMINI_CLI_TRUST_WORKSPACE": "true"},
		PTY:           true,
		VersionArgs:   []string{"--version"},
		CredentialEnv: []string{"GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_GENAI_USE_VERTEXAI"},
		CredentialFiles: []string{
			"~/.gemini/oauth_creds.json", "~/.gemini/settings.json",
		},
		Install: "npm install -g @google/gemini-cli   (personal Google accounts: the Antigravity CLI, agy)",
		Alternatives: []Alternative{{
			// agy prints nothing unless stdout is a terminal, so it relies
			// on the pty; its stream-json shape is not documented yet, so
			// it is read as text.
			Command: []string{"agy", "-p", PromptPlaceholder},
			Format:  FormatText,
			Note:    "Antigravity CLI (agy) stands in for gemini",
		}},
		Builtin: true,
	},
	"codex": {
		Name: "codex",
		// codex reads more input from stdin unless it is closed (the
		// runner always closes it) and retries forever without network
		// (the runner's timeout ends it). --full-auto no longer exists.
		// It reads the user's config.toml, so its provider, model and
		// profile hold; no flag of codex loads none of its MCP servers
		// (--ignore-user-config leaves out the provider and model with
		// them), so ServersOff turns each off by name.
		Command:       []string{"codex", "exec", "--json", "--skip-git-repo-check", "--sandbox", "read-only", PromptPlaceholder},
		StdinCommand:  []string{"codex", "exec", "--json", "--skip-git-repo-check", "--sandbox", "read-only", "-"},
		Prompt:        PromptArgv,
		Format:        FormatCodexJSON,
		ServersOff:    ServersOffCodex,
		PTY:           true,
		VersionArgs:   []string{"--version"},
		CredentialEnv: []string{"OPENAI_API_KEY", "CODEX_API_KEY"},
		CredentialFiles: []string{
			"~/.codex/auth.json", "~/.codex/config.toml",
		},
		Install: "npm install -g @openai/codex",
		Builtin: true,
	},
	"qwen": {
		Name: "qwen",
		// The prompt is positional; -p is deprecated. The MCP servers as
		// gemini's: qwen-code 0.24.4 blocks every server not in
		// --allowed-mcp-server-names once the flag is given.
		Command:       []string{"qwen", PromptPlaceholder, "--allowed-mcp-server-names", NoMCPServers, "-o", "stream-json", "--include-partial-messages"},
		StdinCommand:  []string{"qwen", "--allowed-mcp-server-names", NoMCPServers, "-o", "stream-json", "--include-partial-messages"},
		Prompt:        PromptArgv,
		Format:        FormatQwenStreamJSON,
		PTY:           true,
		VersionArgs:   []string{"--version"},
		CredentialEnv: []string{"OPENAI_API_KEY", "DASHSCOPE_API_KEY", "QWEN_API_KEY"},
		CredentialFiles: []string{
			"~/.qwen/oauth_creds.json", "~/.qwen/settings.json",
		},
		Install: "npm install -g @qwen-code/qwen-code",
		Builtin: true,
	},
}

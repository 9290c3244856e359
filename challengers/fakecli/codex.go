package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// codex impersonates Codex CLI 0.169.0's `codex exec`.
var codexCLI = &cli{
	name:    "codex",
	version: "codex-cli 0.169.0",
	prepare: codexPrepare,
	emitter: newCodexEmitter,
	// Its warning comes before the stdin message, so prepare prints it.
	noise:    func() string { return "" },
	authCode: 1,
}

var sandboxModes = []string{"read-only", "workspace-write", "danger-full-access"}

// codexTopFlags are the options before the subcommand.
var codexTopFlags = flagParser{stopAtPositional: true, opts: []opt{
	{name: "config", short: 'c', arg: "<key=value>"},
	{name: "model", short: 'm', arg: "<MODEL>"},
	{name: "sandbox", short: 's', arg: "<SANDBOX_MODE>", choices: sandboxModes},
	{name: "cd", short: 'C', arg: "<DIR>"},
	{name: "version", short: 'V'},
	{name: "help", short: 'h'},
}}

// codexExecFlags are `codex exec`'s options. --full-auto is gone from the
// real CLI, so the fake rejects it too.
var codexExecFlags = flagParser{opts: []opt{
	{name: "json", aliases: []string{"experimental-json"}},
	{name: "skip-git-repo-check"},
	{name: "config", short: 'c', arg: "<key=value>"},
	{name: "model", short: 'm', arg: "<MODEL>"},
	{name: "sandbox", short: 's', arg: "<SANDBOX_MODE>", choices: sandboxModes},
	{name: "cd", short: 'C', arg: "<DIR>"},
	{name: "output-last-message", short: 'o', arg: "<FILE>"},
	{name: "ephemeral"},
	{name: "ignore-user-config"},
	{name: "color", arg: "<COLOR>", choices: []string{"always", "never", "auto"}},
	{name: "version", short: 'V'},
	{name: "help", short: 'h'},
}}

const (
	codexTopUsage  = "Usage: codex [OPTIONS] [PROMPT]\n       codex [OPTIONS] <COMMAND> [ARGS]\n"
	codexExecUsage = "Usage: codex exec [OPTIONS] [PROMPT]\n       codex exec [OPTIONS] <COMMAND> [ARGS]\n"
	codexWarning   = `WARNING: proceeding, even though we could not create PATH aliases: Refusing to create helper binaries under temporary dir "/tmp" (codex_home: AbsolutePathBuf("/home/user/.codex"))` + "\n"
)

func codexPrepare(args []string) (*invocation, *failure) {
	top, ferr := codexTopFlags.parse(args)
	switch {
	case ferr != nil:
		return nil, clapError(ferr, codexTopUsage)
	case top.has("help"):
		return nil, &failure{msg: codexTopUsage, stdout: true}
	case top.has("version"):
		return &invocation{version: true}, nil
	case len(top.pos) == 0 || (top.pos[0] != "exec" && top.pos[0] != "e"):
		if !stdinIsTTY() {
			return nil, failf(1, "Error: stdin is not a terminal\n")
		}
		return nil, interactive("codex")
	}
	p, ferr := codexExecFlags.parse(top.pos[1:])
	switch {
	case ferr != nil:
		return nil, clapError(ferr, codexExecUsage)
	case p.has("help"):
		return nil, &failure{msg: codexExecUsage, stdout: true}
	case p.has("version"):
		return &invocation{version: true, versionText: "codex-cli-exec 0.169.0"}, nil
	case len(p.pos) > 1:
		return nil, failf(2, "error: unexpected argument '%s' found\n\n%s\nFor more information, try '--help'.\n", p.pos[1], codexExecUsage)
	}
	return codexExec(top, p)
}

// codexExec applies exec's checks in the real order: overrides and
// directory, stdin, prompt, then the git-repository check.
func codexExec(top, p parsed) (*invocation, *failure) {
	inv := &invocation{format: "text", model: firstSet(p.get("model"), top.get("model")),
		lastMessageFile: p.get("output-last-message")}
	if p.has("json") {
		inv.format = "json"
	}
	for _, c := range append(top.vals["config"], p.vals["config"]...) {
		if !strings.Contains(c, "=") {
			return nil, failf(1, "Error parsing -c overrides: Invalid override (missing '='): %s\n", c)
		}
	}
	dir := firstSet(p.get("cd"), top.get("cd"), ".")
	if _, err := os.Stat(dir); err != nil {
		return nil, failf(1, "Error: No such file or directory (os error 2)\n")
	}
	trusted := p.has("skip-git-repo-check") || inGitRepo(dir)
	if trusted {
		os.Stderr.WriteString(codexWarning)
	}
	if len(p.pos) > 0 {
		inv.prompt = p.pos[0]
	}
	if f := codexStdin(inv); f != nil {
		return nil, f
	}
	if !trusted {
		return nil, failf(1, "Not inside a trusted directory and --skip-git-repo-check was not specified.\n")
	}
	return inv, nil
}

// codexStdin reads stdin to EOF, with no timeout: an unclosed stdin makes
// codex wait forever. With a PROMPT argument, stdin is appended as a
// <stdin> block; with "-" or no PROMPT it is the prompt.
func codexStdin(inv *invocation) *failure {
	switch {
	case inv.prompt == "" && stdinIsTTY():
		return failf(1, "No prompt provided. Either specify one as an argument or pipe the prompt into stdin.\n")
	case inv.prompt == "":
		fmt.Fprintln(os.Stderr, "Reading prompt from stdin...")
	case inv.prompt == "-":
	case stdinIsTTY():
		return nil
	default:
		fmt.Fprintln(os.Stderr, "Reading additional input from stdin...")
		data, _ := readStdin(0)
		inv.prompt = withStdinBlock(inv.prompt, data)
		return nil
	}
	inv.prompt, _ = readStdin(0)
	if strings.TrimSpace(inv.prompt) == "" {
		return failf(1, "No prompt provided via stdin.\n")
	}
	return nil
}

// withStdinBlock is codex's way of adding piped input to a prompt.
func withStdinBlock(prompt, stdin string) string {
	if strings.TrimSpace(stdin) == "" {
		return prompt
	}
	if !strings.HasSuffix(stdin, "\n") {
		stdin += "\n"
	}
	return prompt + "\n\n<stdin>\n" + stdin + "</stdin>"
}

// inGitRepo reports whether dir is inside a git work tree.
func inGitRepo(dir string) bool {
	d, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	for {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return false
		}
		d = parent
	}
}

// clapError words a flag error the way codex's parser, clap, does; clap
// exits with status 2.
func clapError(e *flagErr, usage string) *failure {
	const more = "\nFor more information, try '--help'.\n"
	switch e.kind {
	case errMissing:
		return failf(2, "error: a value is required for '--%s %s' but none was supplied\n%s", e.opt.name, e.opt.arg, more)
	case errChoice:
		return failf(2, "error: invalid value '%s' for '--%s %s'\n  [possible values: %s]\n%s",
			e.arg, e.opt.name, e.opt.arg, strings.Join(e.opt.choices, ", "), more)
	}
	return failf(2, "error: unexpected argument '%s' found\n\n  tip: to pass '%s' as a value, use '-- %s'\n\n%s%s",
		e.arg, e.arg, e.arg, usage, more)
}

const codexAPIError = "unexpected status 401 Unauthorized: fake failure 401, url: http://127.0.0.1:18766/v1/responses"

// codexEmitter writes codex exec's JSONL (--json) and its plain output,
// which is the final message alone. Codex does not stream deltas.
type codexEmitter struct {
	*stream
	inv   *invocation
	model string
	items int // agent messages sent by message
}

func newCodexEmitter(inv *invocation, s *stream) emitter {
	return &codexEmitter{stream: s, inv: inv, model: firstSet(inv.model, "gpt-5-codex")}
}

func (e *codexEmitter) json() bool { return e.inv.format == "json" }

func (e *codexEmitter) start() {
	if !e.json() {
		return
	}
	e.line(obj{{"type", "thread.started"}, {"thread_id", uuid()}})
	// A non-fatal warning reported as an item, as the real CLI does for a
	// model it has no metadata for; a parser must skip it.
	e.line(obj{{"type", "item.completed"}, {"item", obj{{"id", "item_0"}, {"type", "error"},
		{"message", "Model metadata for `" + e.model + "` not found. Defaulting to fallback metadata; this can degrade performance and cause issues."}}}})
	e.line(obj{{"type", "turn.started"}})
}

func (e *codexEmitter) chunk(string) {}

// complete writes -o's file once the whole answer is out.
func (e *codexEmitter) complete(reply string) {
	if e.inv.lastMessageFile != "" {
		_ = os.WriteFile(e.inv.lastMessageFile, []byte(reply), 0o644)
	}
}

// message sends one agent message of a reply that comes in several.
func (e *codexEmitter) message(text string) {
	if !e.json() {
		e.text(text)
		e.items++
		return
	}
	e.items++
	e.line(obj{{"type", "item.completed"}, {"item", obj{{"id", fmt.Sprintf("item_%d", e.items)}, {"type", "agent_message"}, {"text", text}}}})
}

func (e *codexEmitter) finish(reply string) {
	if !e.json() {
		if e.items == 0 {
			e.text(reply)
		}
		e.text("\n")
		return
	}
	if e.items == 0 {
		e.line(obj{{"type", "item.completed"}, {"item", obj{{"id", "item_1"}, {"type", "agent_message"}, {"text", reply}}}})
	}
	e.line(obj{{"type", "turn.completed"}, {"usage", obj{
		{"input_tokens", tokens(e.inv.prompt)}, {"cached_input_tokens", 0}, {"cache_write_input_tokens", 0},
		{"output_tokens", tokens(reply)}, {"reasoning_output_tokens", 0}}}})
}

// fail is codex's 401: five reconnection attempts, the error, turn.failed.
func (e *codexEmitter) fail() {
	if !e.json() {
		fmt.Fprintf(os.Stderr, "ERROR: %s\n", codexAPIError)
		return
	}
	for i := 1; i <= 5; i++ {
		e.line(obj{{"type", "error"}, {"message", fmt.Sprintf("Reconnecting... %d/5 (%s)", i, codexAPIError)}})
	}
	e.line(obj{{"type", "error"}, {"message", codexAPIError}})
	e.line(obj{{"type", "turn.failed"}, {"error", obj{{"message", codexAPIError}}}})
}

package main

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// gemini impersonates Gemini CLI 0.61.0 in headless mode.
var geminiCLI = &cli{
	name:       "gemini",
	version:    "0.61.0",
	prepare:    geminiPrepare,
	emitter:    newGeminiEmitter,
	noise:      geminiNoise,
	authStderr: geminiAuthStderr,
	authCode:   145,
}

var geminiFlags = flagParser{valueMayNotLookLikeFlag: true, opts: []opt{
	{name: "prompt", short: 'p', arg: "<prompt>"},
	{name: "output-format", short: 'o', arg: "<format>", choices: []string{"text", "json", "stream-json"}},
	{name: "model", short: 'm', arg: "<model>"},
	{name: "yolo", short: 'y'},
	{name: "approval-mode", arg: "<mode>", choices: []string{"default", "auto_edit", "yolo", "plan"}},
	{name: "skip-trust"},
	{name: "allowed-mcp-server-names", arg: "<names>"},
	{name: "version", short: 'v'},
	{name: "help", short: 'h'},
}}

const geminiUsage = `Usage: gemini [options] [command]

Gemini CLI - Defaults to interactive mode. Use -p/--prompt for non-interactive (headless) mode.

Options:
  -m, --model                     Model  [string]
  -p, --prompt                    Run in non-interactive (headless) mode with the given prompt. Appended to input on stdin (if any).  [string]
      --skip-trust                Trust the current workspace for this session.  [boolean] [default: false]
  -y, --yolo                      Automatically accept all actions  [boolean] [default: false]
      --approval-mode             Set the approval mode  [string] [choices: "default", "auto_edit", "yolo", "plan"]
      --allowed-mcp-server-names  Allowed MCP server names  [array]
  -o, --output-format             The format of the CLI output.  [string] [choices: "text", "json", "stream-json"]
  -v, --version                   Show version number  [boolean]
  -h, --help                      Show help  [boolean]
`

const geminiUntrusted = "Gemini CLI is not running in a trusted directory. To proceed, either use `--skip-trust`, set the `GEMINI_CLI_TRUST_WORKSPACE=true` environment variable, or trust this directory in interactive mode. For more details, see https://geminicli.com/docs/cli/trusted-folders/#headless-and-automated-environments"

// geminiMaxStdin is where gemini truncates piped input.
const geminiMaxStdin = 8 << 20

func geminiPrepare(args []string) (*invocation, *failure) {
	p, f := yargsParse(geminiFlags, args, geminiUsage)
	if f != nil {
		return nil, f
	}
	if p.has("version") {
		return &invocation{version: true}, nil
	}
	inv := &invocation{format: firstSet(p.get("output-format"), "text"), model: p.get("model")}
	inv.prompt = p.get("prompt")
	if len(p.pos) > 0 {
		inv.prompt = strings.Join(p.pos, " ")
	}
	if !p.has("prompt") && len(p.pos) == 0 && stdinIsTTY() && stdoutIsTTY() && os.Getenv("CI") != "true" {
		return nil, interactive("gemini")
	}
	if !geminiTrusted(p) {
		msg := geminiUntrusted
		if os.Getenv("NO_COLOR") == "" {
			msg = "\x1b[31m" + msg + "\x1b[0m"
		}
		return nil, failf(55, "%s\n", msg) // FatalUntrustedWorkspaceError
	}
	inv.prompt = withNodeStdin(inv.prompt, geminiMaxStdin)
	if inv.prompt == "" {
		return nil, failf(42, "No input provided via stdin. Input can be provided by piping data into gemini or using the --prompt option.\n")
	}
	return inv, nil
}

// geminiTrusted is gemini's folder-trust check for headless runs. The fake
// trusts no folder on its own: only the two documented overrides count.
func geminiTrusted(p parsed) bool {
	return p.has("skip-trust") || os.Getenv("GEMINI_CLI_TRUST_WORKSPACE") == "true"
}

// yargsParse parses gemini's or qwen's arguments and applies the checks
// the two share (they are forks). On error or help the returned failure
// is set; a version request comes back as the "version" option.
func yargsParse(fp flagParser, args []string, usage string) (parsed, *failure) {
	p, ferr := fp.parse(args)
	switch {
	case ferr != nil:
		return p, failf(1, "%s%s", yargsError(ferr), usage)
	case p.has("help"):
		return p, &failure{msg: usage, stdout: true}
	case p.has("prompt") && len(p.pos) > 0:
		return p, failf(1, "Cannot use both a positional prompt and the --prompt (-p) flag together\n%s", usage)
	case p.has("yolo") && p.has("approval-mode"):
		return p, failf(1, "Cannot use both --yolo (-y) and --approval-mode together. Use --approval-mode=yolo instead.\n%s", usage)
	}
	return p, nil
}

// withNodeStdin puts piped input before the prompt, separated by a blank
// line, as gemini and qwen do; they wait 500 ms for the first byte and
// then read to EOF.
func withNodeStdin(prompt string, limit int) string {
	if stdinIsTTY() {
		return prompt
	}
	data, _ := readStdin(nodeStdinWait)
	if len(data) > limit {
		data = data[:limit]
	}
	switch {
	case data == "":
		return prompt
	case prompt == "":
		return data
	}
	return data + "\n\n" + prompt
}

// yargsError words a flag error the way gemini's and qwen's parser, yargs,
// does.
func yargsError(e *flagErr) string {
	switch e.kind {
	case errMissing:
		name := e.opt.name
		if e.short {
			name = string(e.opt.short)
		}
		return fmt.Sprintf("Not enough arguments following: %s\n", name)
	case errChoice:
		return fmt.Sprintf("Invalid values:\n  Argument: %s, Given: %q, Choices: %s\n",
			e.opt.name, e.arg, quoteAll(e.opt.choices))
	}
	name, _, _ := strings.Cut(strings.TrimLeft(e.arg, "-"), "=")
	return fmt.Sprintf("Unknown argument: %s\n", name)
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// geminiNoise is gemini's stderr on every run in a pipe: the colour
// warning (unless the terminal type promises 256 colours) and ripgrep's.
func geminiNoise() string {
	s := "Ripgrep is not available. Falling back to GrepTool.\n"
	term, colorterm := os.Getenv("TERM"), os.Getenv("COLORTERM")
	if !strings.Contains(term, "256") && colorterm != "truecolor" && colorterm != "24bit" {
		s = "Warning: 256-color support not detected. Using a terminal with at least 256-color support is recommended for a better visual experience.\n" + s
	}
	return s
}

const geminiAPIError = `[API Error: {"type":"error","error":{"type":"fake_error","code":401,"message":"fake failure 401"}}]`

// geminiAuthStderr is the 401 sample's stderr after the usual noise.
const geminiAuthStderr = `Error when talking to Gemini API Full report available at: /tmp/gemini-client-error-Turn.run-sendMessageStream-2026-11-21T23-42-42-908Z.json _ApiError: {"type":"error","error":{"type":"fake_error","code":401,"message":"fake failure 401"}}
    at throwErrorIfNotOK (file:///usr/lib/node_modules/@google/gemini-cli/bundle/chunk-JDPZ4CE3.js:267833:24)
    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)
    at async file:///usr/lib/node_modules/@google/gemini-cli/bundle/chunk-JDPZ4CE3.js:267596:7
    at async Models.generateContentStream (file:///usr/lib/node_modules/@google/gemini-cli/bundle/chunk-JDPZ4CE3.js:268692:16)
    at async file:///usr/lib/node_modules/@google/gemini-cli/bundle/chunk-JDPZ4CE3.js:311457:19
    at async file:///usr/lib/node_modules/@google/gemini-cli/bundle/chunk-JDPZ4CE3.js:288018:23
    at async retryWithBackoff (file:///usr/lib/node_modules/@google/gemini-cli/bundle/chunk-JDPZ4CE3.js:308039:23)
    at async GeminiChat.makeApiCallAndProcessStream (file:///usr/lib/node_modules/@google/gemini-cli/bundle/chunk-JDPZ4CE3.js:332326:28)
    at async GeminiChat.streamWithRetries (file:///usr/lib/node_modules/@google/gemini-cli/bundle/chunk-JDPZ4CE3.js:332079:29)
    at async Turn.run (file:///usr/lib/node_modules/@google/gemini-cli/bundle/chunk-JDPZ4CE3.js:333001:24) {
  status: 401
}
`

// geminiEmitter writes gemini's json and stream-json formats.
type geminiEmitter struct {
	*stream
	inv     *invocation
	session string
	model   string
	started time.Time
}

func newGeminiEmitter(inv *invocation, s *stream) emitter {
	if inv.format == "text" {
		return &textEmitter{stream: s, streams: true} // the error goes to stderr with the stack
	}
	return &geminiEmitter{stream: s, inv: inv, session: uuid(),
		model: firstSet(inv.model, "gemini-2.5-pro"), started: time.Now()}
}

func (e *geminiEmitter) streaming() bool { return e.inv.format == "stream-json" }

func (e *geminiEmitter) start() {
	if !e.streaming() {
		return
	}
	e.line(obj{{"type", "init"}, {"timestamp", timestamp()}, {"session_id", e.session}, {"model", e.model}})
	e.line(obj{{"type", "message"}, {"timestamp", timestamp()}, {"role", "user"}, {"content", e.inv.prompt}})
}

func (e *geminiEmitter) chunk(text string) {
	if e.streaming() {
		e.line(obj{{"type", "message"}, {"timestamp", timestamp()}, {"role", "assistant"}, {"content", text}, {"delta", true}})
	}
}

func (e *geminiEmitter) finish(reply string) {
	stats := e.stats(tokens(e.inv.prompt), tokens(reply), time.Since(e.started).Milliseconds())
	if !e.streaming() {
		e.text(indent(encode(obj{{"session_id", e.session}, {"response", reply}, {"stats", stats}})) + "\n")
		return
	}
	e.line(obj{{"type", "result"}, {"timestamp", timestamp()}, {"status", "success"}, {"stats", stats}})
}

func (e *geminiEmitter) fail() {
	if !e.streaming() {
		errObj := obj{{"type", "unknown"}, {"message", geminiAPIError}, {"code", 401}}
		e.text(indent(encode(obj{{"session_id", e.session}, {"error", errObj}})) + "\n")
		return
	}
	e.line(obj{{"type", "result"}, {"timestamp", timestamp()}, {"status", "error"},
		{"error", obj{{"type", "unknown"}, {"message", geminiAPIError}}}, {"stats", e.stats(0, 0, 0)}})
}

func (e *geminiEmitter) stats(in, out int, ms int64) obj {
	return obj{
		{"total_tokens", in + out}, {"input_tokens", in}, {"output_tokens", out}, {"cached", 0},
		{"input", in}, {"duration_ms", ms}, {"tool_calls", 0},
		{"models", obj{{e.model, obj{{"total_tokens", in + out}, {"input_tokens", in},
			{"output_tokens", out}, {"cached", 0}, {"input", in}}}}},
	}
}

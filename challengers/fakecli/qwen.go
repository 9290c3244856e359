package main

import (
	"os"
	"strings"
	"time"
)

// qwen impersonates Qwen Code 0.24.4 in one-shot mode.
var qwenCLI = &cli{
	name:     "qwen",
	version:  "0.24.4",
	prepare:  qwenPrepare,
	emitter:  newQwenEmitter,
	noise:    func() string { return qwenRipgrep },
	authCode: 1,
}

const qwenRipgrep = "Ripgrep not available: spawn /usr/lib/node_modules/@qwen-code/qwen-code/vendor/ripgrep/x64-linux/rg EACCES. Falling back to built-in grep.\n"

var qwenFlags = flagParser{valueMayNotLookLikeFlag: true, opts: []opt{
	// -p is deprecated in favour of the positional prompt, but yargs only
	// says so in --help: using it prints no warning.
	{name: "prompt", short: 'p', arg: "<prompt>"},
	{name: "output-format", short: 'o', arg: "<format>", choices: []string{"text", "json", "stream-json"}},
	{name: "include-partial-messages"},
	{name: "model", short: 'm', arg: "<model>"},
	{name: "yolo", short: 'y'},
	{name: "approval-mode", arg: "<mode>", choices: []string{"plan", "default", "auto-edit", "yolo"}},
	{name: "allowed-mcp-server-names", arg: "<names>"},
	{name: "version", short: 'v'},
	{name: "help", short: 'h'},
}}

const qwenUsage = `Usage: qwen [options] [command]

Qwen Code - Launch an interactive CLI, use -p/--prompt for non-interactive mode

Positionals:
  query  Positional prompt. Defaults to one-shot; use -i/--prompt-interactive for interactive.

Options:
  -m, --model                           Model  [string]
  -p, --prompt                          Prompt. Appended to input on stdin (if any).  [deprecated: Use the positional prompt instead. This flag will be removed in a future version.] [string]
  -y, --yolo                            Automatically accept all actions  [boolean] [default: false]
      --approval-mode                   Set the approval mode  [string] [choices: "plan", "default", "auto-edit", "yolo"]
      --allowed-mcp-server-names        Allowed MCP server names  [array]
  -o, --output-format                   The format of the CLI output.  [string] [choices: "text", "json", "stream-json"]
      --include-partial-messages        Include partial assistant messages when using stream-json output.  [boolean] [default: false]
  -v, --version                         Show version number  [boolean]
  -h, --help                            Show help  [boolean]
`

const qwenMaxStdin = 8 << 20

func qwenPrepare(args []string) (*invocation, *failure) {
	p, f := yargsParse(qwenFlags, args, qwenUsage)
	if f != nil {
		return nil, f
	}
	if p.has("version") {
		return &invocation{version: true}, nil
	}
	inv := &invocation{format: firstSet(p.get("output-format"), "text"), model: p.get("model"),
		partial: p.has("include-partial-messages"), permission: firstSet(p.get("approval-mode"), "auto")}
	if inv.partial && inv.format != "stream-json" {
		return nil, failf(1, "--include-partial-messages requires --output-format stream-json\n%s", qwenUsage)
	}
	if p.has("yolo") {
		inv.permission = "yolo"
	}
	inv.prompt = p.get("prompt")
	if len(p.pos) > 0 {
		inv.prompt = strings.Join(p.pos, " ")
	}
	if !p.has("prompt") && len(p.pos) == 0 && stdinIsTTY() {
		return nil, interactive("qwen")
	}
	inv.prompt = withNodeStdin(inv.prompt, qwenMaxStdin)
	if strings.TrimSpace(inv.prompt) == "" {
		return nil, failf(1, "No input provided via stdin. Input can be provided by piping data into qwen or passing a prompt.\n")
	}
	return inv, nil
}

const qwenAPIError = "[API Error: 401 fake failure 401]"

// qwenEmitter writes qwen's json and stream-json formats.
type qwenEmitter struct {
	*stream
	inv     *invocation
	session string
	msgID   string
	model   string
	begun   bool // message_start has been sent (partial messages only)
	started time.Time
}

func newQwenEmitter(inv *invocation, s *stream) emitter {
	if inv.format == "text" {
		return &textEmitter{stream: s, failText: qwenAPIError, failToStderr: true}
	}
	return &qwenEmitter{stream: s, inv: inv, session: uuid(), msgID: uuid(),
		model: firstSet(inv.model, "qwen3-coder-plus"), started: time.Now()}
}

func (e *qwenEmitter) streaming() bool { return e.inv.format == "stream-json" }
func (e *qwenEmitter) partial() bool   { return e.streaming() && e.inv.partial }

func (e *qwenEmitter) start() {
	if !e.streaming() {
		return
	}
	e.line(e.initEvent())
	e.line(e.streamEvent(obj{{"type", "goal_state"},
		{"goal_state", obj{{"v", 2}, {"goal", nil}, {"activity", "idle"}}}}))
}

func (e *qwenEmitter) chunk(text string) {
	if !e.partial() {
		return
	}
	e.begin()
	e.line(e.streamEvent(obj{{"type", "content_block_delta"}, {"index", 0},
		{"delta", obj{{"type", "text_delta"}, {"text", text}}}}))
}

// begin sends the events that open a streamed message, once.
func (e *qwenEmitter) begin() {
	if e.begun {
		return
	}
	e.begun = true
	e.line(e.streamEvent(obj{{"type", "message_start"}, {"message", obj{
		{"id", e.msgID}, {"role", "assistant"}, {"model", e.model}, {"content", []any{}}}}}))
	e.line(e.streamEvent(obj{{"type", "content_block_start"}, {"index", 0},
		{"content_block", obj{{"type", "text"}, {"text", ""}}}}))
}

func (e *qwenEmitter) finish(reply string) {
	if !e.streaming() { // json: every message at once, as one array
		e.line([]obj{e.initEvent(), e.assistant(reply), e.result(reply)})
		return
	}
	if e.partial() {
		e.begin()
		e.line(e.streamEvent(obj{{"type", "content_block_stop"}, {"index", 0}}))
	}
	e.line(e.assistant(reply))
	if e.partial() {
		e.line(e.streamEvent(obj{{"type", "message_stop"}}))
	}
	e.line(e.result(reply))
}

func (e *qwenEmitter) fail() {
	if !e.streaming() {
		e.line([]obj{e.initEvent(), e.errorAssistant(), e.errorResult()})
		return
	}
	e.line(e.errorAssistant())
	e.line(e.errorResult())
}

func (e *qwenEmitter) initEvent() obj {
	cwd, _ := os.Getwd()
	return obj{
		{"type", "system"}, {"subtype", "init"}, {"uuid", e.session}, {"session_id", e.session},
		{"cwd", cwd}, {"tools", []string{"read_file", "grep_search", "glob", "web_fetch", "agent"}},
		{"mcp_servers", []any{}}, {"model", e.model}, {"permission_mode", e.inv.permission},
		{"slash_commands", []string{"clear", "compress", "init", "review", "summary"}},
		{"qwen_code_version", "0.24.4"}, {"agents", []string{"general-purpose", "Explore"}},
	}
}

func (e *qwenEmitter) streamEvent(ev obj) obj {
	return obj{{"type", "stream_event"}, {"uuid", uuid()}, {"session_id", e.session},
		{"parent_tool_use_id", nil}, {"event", ev}}
}

func (e *qwenEmitter) message(text string, usage obj) obj {
	return obj{
		{"type", "assistant"}, {"uuid", e.msgID}, {"session_id", e.session}, {"parent_tool_use_id", nil},
		{"message", obj{
			{"id", e.msgID}, {"type", "message"}, {"role", "assistant"}, {"model", e.model},
			{"content", []obj{{{"type", "text"}, {"text", text}}}}, {"stop_reason", nil}, {"usage", usage},
		}},
	}
}

func (e *qwenEmitter) usage(in, out int) obj {
	return obj{{"input_tokens", in}, {"output_tokens", out}, {"cache_read_input_tokens", 0}, {"total_tokens", in + out}}
}

func (e *qwenEmitter) assistant(reply string) obj {
	return e.message(reply, e.usage(tokens(e.inv.prompt), tokens(reply)))
}

func (e *qwenEmitter) result(reply string) obj {
	ms := time.Since(e.started).Milliseconds()
	return obj{
		{"type", "result"}, {"subtype", "success"}, {"uuid", uuid()}, {"session_id", e.session},
		{"is_error", false}, {"duration_ms", ms}, {"duration_api_ms", ms}, {"num_turns", 1},
		{"result", reply}, {"usage", e.usage(tokens(e.inv.prompt), tokens(reply))},
		{"permission_denials", []any{}},
	}
}

func (e *qwenEmitter) errorAssistant() obj {
	return e.message(qwenAPIError, obj{{"input_tokens", 0}, {"output_tokens", 0}})
}

func (e *qwenEmitter) errorResult() obj {
	return obj{
		{"type", "result"}, {"subtype", "error_during_execution"}, {"uuid", uuid()}, {"session_id", e.session},
		{"is_error", true}, {"duration_ms", time.Since(e.started).Milliseconds()}, {"duration_api_ms", 0},
		{"num_turns", 1}, {"usage", obj{{"input_tokens", 0}, {"output_tokens", 0}, {"cache_read_input_tokens", 0}}},
		{"permission_denials", []any{}}, {"error", obj{{"message", qwenAPIError}}},
	}
}

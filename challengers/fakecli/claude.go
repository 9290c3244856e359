package main

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// claude impersonates Claude Code 2.1.330 in print mode.
var claudeCLI = &cli{
	name:     "claude",
	version:  "2.1.330 (Claude Code)",
	prepare:  claudePrepare,
	emitter:  newClaudeEmitter,
	noise:    func() string { return "" }, // claude prints nothing on stderr when all is well
	authCode: 1,
}

// claudeFlags is the subset of claude's options the fake knows; commander
// rejects any other.
var claudeFlags = flagParser{opts: []opt{
	{name: "print", short: 'p'},
	{name: "output-format", arg: "<format>", choices: []string{"text", "json", "stream-json"}},
	{name: "verbose"},
	{name: "include-partial-messages"},
	{name: "model", arg: "<model>"},
	{name: "permission-mode", arg: "<mode>", choices: []string{"acceptEdits", "auto", "bypassPermissions", "default", "dontAsk", "plan"}},
	{name: "dangerously-skip-permissions"},
	{name: "strict-mcp-config"},
	{name: "mcp-config", arg: "<configs...>"},
	{name: "version", short: 'v'},
	{name: "help", short: 'h'},
}}

const claudeUsage = `Usage: claude [options] [command] [prompt]

Claude Code - starts an interactive session by default, use -p/--print for
non-interactive output

(fake claude: only -p, --output-format, --verbose, --include-partial-messages,
--model, --permission-mode, --dangerously-skip-permissions, --strict-mcp-config,
--mcp-config and --version)
`

// claudePrepare follows claude's order: options, print-mode checks, stdin,
// then the checks that need the prompt.
func claudePrepare(args []string) (*invocation, *failure) {
	p, ferr := claudeFlags.parse(args)
	switch {
	case ferr != nil:
		return nil, failf(1, "%s", commanderError(ferr))
	case p.has("help"):
		return nil, &failure{msg: claudeUsage, stdout: true}
	case p.has("version"):
		return &invocation{version: true}, nil
	}
	inv := &invocation{format: firstSet(p.get("output-format"), "text"), model: p.get("model"),
		partial: p.has("include-partial-messages"), permission: firstSet(p.get("permission-mode"), "default")}
	if p.has("dangerously-skip-permissions") {
		inv.permission = "bypassPermissions"
	}
	printMode := p.has("print") || !stdoutIsTTY() // claude also goes headless when stdout is not a terminal
	if !printMode {
		return nil, interactive("claude")
	}
	if inv.partial && inv.format != "stream-json" {
		return nil, failf(1, "Error: --include-partial-messages requires --print and --output-format=stream-json.\n")
	}
	if len(p.pos) > 0 {
		inv.prompt = p.pos[0]
	}
	if f := claudeStdin(inv); f != nil {
		return nil, f
	}
	if inv.prompt == "" {
		return nil, failf(1, "Error: Input must be provided either through stdin or as a prompt argument when using --print\n")
	}
	if inv.format == "stream-json" && !p.has("verbose") {
		return nil, failf(1, "Error: When using --print, --output-format=stream-json requires --verbose\n")
	}
	return inv, nil
}

// claudeMaxStdin is claude's limit on piped input.
const claudeMaxStdin = 10 << 20

// claudeStdin appends piped input to the prompt on a new line, as claude
// does, giving up on a pipe that stays silent for 3 s.
func claudeStdin(inv *invocation) *failure {
	if stdinIsTTY() {
		return nil
	}
	data, timedOut := readStdin(claudeStdinWait)
	if timedOut {
		fmt.Fprintln(os.Stderr, "Warning: no stdin data received in 3s, proceeding without it. If piping from a slow command, redirect stdin explicitly: < /dev/null to skip, or wait longer.")
	}
	if len(data) > claudeMaxStdin {
		return failf(1, "Error: piped stdin input exceeds 10MB. Pass large content as a file path in your prompt instead.\n")
	}
	if data != "" {
		inv.prompt = strings.Join(nonEmpty(inv.prompt, data), "\n")
	}
	return nil
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// commanderError words a flag error the way claude's parser, commander,
// does.
func commanderError(e *flagErr) string {
	switch e.kind {
	case errMissing:
		return fmt.Sprintf("error: option '%s' argument missing\n", commanderFlags(e.opt))
	case errChoice:
		return fmt.Sprintf("error: option '%s' argument '%s' is invalid. Allowed choices are %s.\n",
			commanderFlags(e.opt), e.arg, strings.Join(e.opt.choices, ", "))
	}
	return fmt.Sprintf("error: unknown option '%s'\n", e.arg)
}

func commanderFlags(o *opt) string {
	s := "--" + o.name + " " + o.arg
	if o.short != 0 {
		s = "-" + string(o.short) + ", " + s
	}
	return s
}

// claudeAuthMessage is claude's report of the samples' HTTP 401.
const claudeAuthMessage = "Failed to authenticate. API Error: 401 fake failure 401"

// claudeEmitter writes claude's json and stream-json formats.
type claudeEmitter struct {
	*stream
	inv     *invocation
	session string
	msgID   string
	model   string
	begun   bool // message_start has been sent (partial messages only)
	started time.Time
}

func newClaudeEmitter(inv *invocation, s *stream) emitter {
	if inv.format == "text" {
		// Print mode reports even an API error on stdout.
		return &textEmitter{stream: s, failText: claudeAuthMessage}
	}
	return &claudeEmitter{stream: s, inv: inv, session: uuid(), msgID: msgID(),
		model: firstSet(inv.model, "claude-opus-5-5"), started: time.Now()}
}

func (e *claudeEmitter) streaming() bool { return e.inv.format == "stream-json" }
func (e *claudeEmitter) partial() bool   { return e.streaming() && e.inv.partial }

func (e *claudeEmitter) start() {
	if !e.streaming() {
		return
	}
	e.line(e.initEvent())
	if e.partial() {
		e.line(obj{{"type", "system"}, {"subtype", "status"}, {"status", "requesting"}, {"session_id", e.session}, {"uuid", uuid()}})
	}
}

func (e *claudeEmitter) chunk(text string) {
	if !e.partial() {
		return
	}
	e.begin()
	e.line(e.streamEvent(obj{{"type", "content_block_delta"}, {"index", 0},
		{"delta", obj{{"type", "text_delta"}, {"text", text}}}}))
}

// begin sends the events that open a streamed message, once.
func (e *claudeEmitter) begin() {
	if e.begun {
		return
	}
	e.begun = true
	e.line(e.streamEvent(obj{{"type", "message_start"}, {"message", obj{
		{"id", e.msgID}, {"type", "message"}, {"role", "assistant"}, {"model", e.model},
		{"content", []any{}}, {"stop_reason", nil}, {"stop_sequence", nil}, {"usage", e.usage(1)},
	}}}, kv{"ttft_ms", 23}, kv{"thinking_display", "updates"}))
	e.line(e.streamEvent(obj{{"type", "content_block_start"}, {"index", 0},
		{"content_block", obj{{"type", "text"}, {"text", ""}}}}))
}

func (e *claudeEmitter) finish(reply string) {
	if !e.streaming() {
		e.line(e.result(reply))
		return
	}
	if e.partial() {
		e.begin()
	}
	e.line(e.assistant(reply))
	if e.partial() {
		e.line(e.streamEvent(obj{{"type", "content_block_stop"}, {"index", 0}}))
		e.line(e.streamEvent(obj{{"type", "message_delta"},
			{"delta", obj{{"stop_reason", "end_turn"}, {"stop_sequence", nil}}},
			{"usage", obj{{"output_tokens", tokens(reply)}}}}))
		e.line(e.streamEvent(obj{{"type", "message_stop"}}))
	}
	e.line(e.result(reply))
}

func (e *claudeEmitter) fail() {
	if e.streaming() {
		e.line(e.errorAssistant())
	}
	e.line(e.errorResult())
}

func (e *claudeEmitter) initEvent() obj {
	cwd, _ := os.Getwd()
	return obj{
		{"type", "system"}, {"subtype", "init"}, {"cwd", cwd}, {"session_id", e.session},
		{"tools", []string{"Task", "Bash", "Edit", "Read", "WebFetch", "WebSearch", "Write"}},
		{"mcp_servers", []any{}}, {"model", e.model}, {"permissionMode", e.inv.permission},
		{"slash_commands", []string{"code-review", "compact", "context", "init", "review"}},
		{"apiKeySource", "ANTHROPIC_API_KEY"}, {"claude_code_version", "2.1.330"},
		{"output_style", "default"}, {"agents", []string{"claude", "Explore", "general-purpose", "Plan"}},
		{"uuid", uuid()},
	}
}

// streamEvent wraps an Anthropic API event; extra fields (message_start's
// timings) go before api_message_id, as in the real stream.
func (e *claudeEmitter) streamEvent(ev obj, extra ...kv) obj {
	o := obj{{"type", "stream_event"}, {"event", ev}, {"session_id", e.session},
		{"parent_tool_use_id", nil}, {"uuid", uuid()}}
	return append(append(o, extra...), kv{"api_message_id", e.msgID})
}

func (e *claudeEmitter) usage(out int) obj {
	return obj{{"input_tokens", tokens(e.inv.prompt)}, {"output_tokens", out},
		{"cache_creation_input_tokens", 0}, {"cache_read_input_tokens", 0}}
}

func (e *claudeEmitter) assistant(reply string) obj {
	return obj{
		{"type", "assistant"},
		{"message", obj{
			{"id", e.msgID}, {"type", "message"}, {"role", "assistant"}, {"model", e.model},
			{"content", []obj{{{"type", "text"}, {"text", reply}}}},
			{"stop_reason", nil}, {"stop_sequence", nil}, {"usage", e.usage(1)}, {"context_management", nil},
		}},
		{"parent_tool_use_id", nil}, {"session_id", e.session}, {"uuid", uuid()}, {"timestamp", timestamp()},
	}
}

// result is claude's final event, keys in the real (odd) order.
func (e *claudeEmitter) result(reply string) obj {
	in, out := tokens(e.inv.prompt), tokens(reply)
	cost := float64(in)*0.000005 + float64(out)*0.000025
	ms := time.Since(e.started).Milliseconds()
	return obj{
		{"duration_api_ms", ms}, {"stop_reason", "end_turn"}, {"session_id", e.session},
		{"total_cost_usd", cost},
		{"usage", obj{{"input_tokens", in}, {"cache_creation_input_tokens", 0}, {"cache_read_input_tokens", 0},
			{"output_tokens", out}, {"service_tier", "standard"}}},
		{"modelUsage", obj{{e.model, obj{{"inputTokens", in}, {"outputTokens", out}, {"costUSD", cost}}}}},
		{"permission_denials", []any{}}, {"terminal_reason", "completed"},
		{"is_error", false}, {"num_turns", 1}, {"subtype", "success"}, {"api_error_status", nil},
		{"result", reply}, {"type", "result"}, {"duration_ms", ms}, {"uuid", uuid()},
	}
}

func (e *claudeEmitter) zeroUsage() obj {
	return obj{{"input_tokens", 0}, {"output_tokens", 0}, {"cache_creation_input_tokens", 0}, {"cache_read_input_tokens", 0}}
}

func (e *claudeEmitter) errorAssistant() obj {
	return obj{
		{"type", "assistant"},
		{"message", obj{
			{"id", uuid()}, {"model", "<synthetic>"}, {"role", "assistant"}, {"stop_reason", "stop_sequence"},
			{"stop_sequence", ""}, {"type", "message"}, {"usage", e.zeroUsage()},
			{"content", []obj{{{"type", "text"}, {"text", claudeAuthMessage}}}}, {"context_management", nil},
		}},
		{"parent_tool_use_id", nil}, {"session_id", e.session}, {"uuid", uuid()}, {"timestamp", timestamp()},
		{"error", "authentication_failed"}, {"is_api_error_message", true},
		{"api_error_status", 401}, {"api_error_type", "fake_error"},
	}
}

func (e *claudeEmitter) errorResult() obj {
	return obj{
		{"duration_api_ms", 0}, {"stop_reason", "stop_sequence"}, {"session_id", e.session},
		{"total_cost_usd", 0}, {"usage", e.zeroUsage()}, {"modelUsage", obj{}},
		{"permission_denials", []any{}}, {"terminal_reason", "api_error"},
		{"is_error", true}, {"num_turns", 1}, {"subtype", "success"},
		{"api_error_status", 401}, {"api_error_type", "fake_error"},
		{"result", claudeAuthMessage}, {"type", "result"},
		{"duration_ms", time.Since(e.started).Milliseconds()}, {"uuid", uuid()},
	}
}

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The real agent CLIs from npm (scripts/agent-clis), pointed at a stand-in
// model API on loopback, never at a model. The stand-in speaks the four
// APIs the CLIs call (Anthropic's Messages for claude, OpenAI's Responses
// for codex, Gemini's generateContent for gemini, OpenAI's Chat
// Completions for qwen), asks the host's model to call one tool, then,
// while the run it started is running, run_status on the run id its
// result names, as a model follows a run; then it says "done". It records
// the model each request asked for, the tools it offered and every tool
// result the CLI handed back, which is what the host's model would have
// seen.

// realCLI is the path of a real agent CLI scripts/agent-clis installed;
// the test is skipped when they are not installed.
func realCLI(t *testing.T, name string) string {
	t.Helper()
	dir := os.Getenv("ARENA_AGENT_CLIS")
	if dir == "" {
		t.Skip("the real agent CLIs are not installed: scripts/agent-clis installs them from npm, and ARENA_AGENT_CLIS names the directory (scripts/test does both)")
	}
	p := filepath.Join(dir, "node_modules", ".bin", name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s is not among the real agent CLIs in %s (run scripts/agent-clis again): %v", name, dir, err)
	}
	return p
}

// standIn is the stand-in model API.
type standIn struct {
	URL  string
	tool string         // the tool to call, as claude names it: mcp__arena__debate
	args map[string]any // its arguments

	mu       sync.Mutex
	dialects []string   // the API of each request: anthropic, openai, gemini or chat
	models   []string   // the model each request asked for
	offered  [][]string // the tools each request offered, as claude names them
	results  []string   // the tool results handed back, as sent
	calls    int        // the tool calls asked for
	// firstWait is the wait_seconds of the first run_status call (0:
	// followWait), longer than a host's tool timeout to test one.
	firstWait int
	runID     string // the run the latest running result named
	retries   int    // the calls followed again after a result that was no status
}

// maxFollows bounds the run_status calls the stand-in asks for.
const maxFollows = 200

// followWait is the wait_seconds of its run_status calls: less than the
// hosts' tool timeouts hostRun sets, as the tool's description asks of a
// model whose host times calls out sooner than 50 s.
const followWait = 4

func newStandIn(t *testing.T, tool string, args map[string]any) *standIn {
	s := &standIn{tool: tool, args: args}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

func (s *standIn) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	switch {
	case r.Method != http.MethodPost:
		http.NotFound(w, r)
	case strings.HasSuffix(r.URL.Path, "/messages"):
		s.anthropic(w, body)
	case strings.HasSuffix(r.URL.Path, "/responses"):
		s.openAI(w, body)
	case strings.Contains(r.URL.Path, ":streamGenerateContent"), strings.Contains(r.URL.Path, ":generateContent"):
		s.gemini(w, r, body)
	case strings.HasSuffix(r.URL.Path, "/chat/completions"):
		s.chat(w, body)
	default:
		http.NotFound(w, r)
	}
}

// seen records a request's model, tools and tool results (every one of
// the conversation so far), and says which tool to call next with which
// arguments: the tool when no result came yet; run_status while the
// latest result says its run is running; none ("") once it is over.
func (s *standIn) seen(dialect, model string, tools, results []string) (string, map[string]any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dialects = append(s.dialects, dialect)
	s.models = append(s.models, model)
	s.offered = append(s.offered, tools)
	if len(results) > len(s.results) {
		s.results = slices.Clone(results)
	}
	if s.tool == "" || !slices.Contains(tools, s.tool) {
		return "", nil
	}
	if len(results) == 0 {
		s.calls++
		return s.tool, s.args
	}
	status := s.tool[:strings.LastIndex(s.tool, "__")+2] + "run_status"
	if len(results) > maxFollows || !slices.Contains(tools, status) {
		return "", nil
	}
	last := results[len(results)-1]
	wait := followWait
	switch id := runningID(last); {
	case id != "" && s.runID == "" && s.firstWait > 0:
		s.runID, wait = id, s.firstWait
	case id != "":
		s.runID = id
	case s.runID == "" || s.retries >= 3 || strings.Contains(strings.ReplaceAll(last, `\`, ""), `"state":"finished"`) || strings.Contains(last, "exit code"):
		return "", nil
	default:
		s.retries++
	}
	// Running, or the host gave up on the call (its timeout): follow the
	// run again.
	s.calls++
	return status, map[string]any{"run_id": s.runID, "wait_seconds": wait}
}

// runningID is the run id a tool result names when it says its run is
// running, however the host wrapped it (JSON in JSON, text); "" when it
// does not.
func runningID(result string) string {
	flat := strings.ReplaceAll(result, `\`, "")
	if !strings.Contains(flat, `"state":"running"`) && !strings.Contains(flat, " is running (") {
		return ""
	}
	if m := runIDPattern.FindStringSubmatch(flat); m != nil {
		return m[1]
	}
	return ""
}

var runIDPattern = regexp.MustCompile(`run_id"?\s*:?\s*"([^"]+)"`)

// callID is a tool call's id, one per call.
func (s *standIn) callID(prefix string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fmt.Sprintf("%s%d", prefix, s.calls)
}

// Offered are the tools every request offered, one list a request.
func (s *standIn) Offered() [][]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.offered)
}

// Dialects are the APIs the requests came in, one a request.
func (s *standIn) Dialects() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.dialects)
}

// Models are the models the requests asked for, by their API.
func (s *standIn) Models() map[string][]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string][]string{}
	for i, d := range s.dialects {
		out[d] = append(out[d], s.models[i])
	}
	return out
}

// Results are the tool results handed back.
func (s *standIn) Results() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.results)
}

func sse(w http.ResponseWriter, events ...any) {
	w.Header().Set("Content-Type", "text/event-stream")
	for _, e := range events {
		b, _ := json.Marshal(e)
		var typ struct{ Type string }
		_ = json.Unmarshal(b, &typ)
		if typ.Type != "" {
			fmt.Fprintf(w, "event: %s\n", typ.Type)
		}
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
}

type obj = map[string]any

// anthropic answers a Messages request, streamed as claude asks.
func (s *standIn) anthropic(w http.ResponseWriter, body []byte) {
	var req struct {
		Model    string
		Tools    []struct{ Name string }
		Messages []struct {
			Content json.RawMessage
		}
	}
	_ = json.Unmarshal(body, &req)
	var tools, results []string
	for _, t := range req.Tools {
		tools = append(tools, t.Name)
	}
	for _, m := range req.Messages {
		var blocks []struct {
			Type    string
			Content json.RawMessage
		}
		_ = json.Unmarshal(m.Content, &blocks)
		for _, b := range blocks {
			if b.Type == "tool_result" {
				results = append(results, string(b.Content))
			}
		}
	}
	block, stop := obj{"type": "text", "text": ""}, "end_turn"
	delta := obj{"type": "text_delta", "text": "done"}
	if tool, in := s.seen("anthropic", req.Model, tools, results); tool != "" {
		args, _ := json.Marshal(in)
		block, stop = obj{"type": "tool_use", "id": s.callID("toolu_standin_"), "name": tool, "input": obj{}}, "tool_use"
		delta = obj{"type": "input_json_delta", "partial_json": string(args)}
	}
	usage := obj{"input_tokens": 10, "output_tokens": 5}
	sse(w,
		obj{"type": "message_start", "message": obj{"id": "msg_standin", "type": "message", "role": "assistant", "model": req.Model, "content": []any{}, "usage": usage}},
		obj{"type": "content_block_start", "index": 0, "content_block": block},
		obj{"type": "content_block_delta", "index": 0, "delta": delta},
		obj{"type": "content_block_stop", "index": 0},
		obj{"type": "message_delta", "delta": obj{"stop_reason": stop}, "usage": usage},
		obj{"type": "message_stop"},
	)
}

// openAI answers a Responses request as codex streams it. Codex offers an
// MCP server's tools in a namespace (mcp__arena) and calls them by the
// namespace and the tool's own name.
func (s *standIn) openAI(w http.ResponseWriter, body []byte) {
	type tool struct {
		Type, Name string
		Tools      []struct{ Name string }
	}
	var req struct {
		Model string
		Tools []tool
		Input []struct {
			Type   string
			Output json.RawMessage
		}
	}
	_ = json.Unmarshal(body, &req)
	var tools, results []string
	for _, t := range req.Tools {
		tools = append(tools, t.Name)
		for _, sub := range t.Tools {
			tools = append(tools, t.Name+"__"+sub.Name)
		}
	}
	for _, in := range req.Input {
		if in.Type == "function_call_output" {
			results = append(results, string(in.Output))
		}
	}
	item := obj{"type": "message", "id": "msg_standin", "role": "assistant", "content": []any{obj{"type": "output_text", "text": "done"}}}
	if tool, in := s.seen("openai", req.Model, tools, results); tool != "" {
		args, _ := json.Marshal(in)
		ns, name := tool[:strings.LastIndex(tool, "__")], tool[strings.LastIndex(tool, "__")+2:]
		item = obj{"type": "function_call", "id": s.callID("fc_standin_"), "call_id": s.callID("call_standin_"), "namespace": ns, "name": name, "arguments": string(args)}
	}
	sse(w,
		obj{"type": "response.created", "response": obj{"id": "resp_standin"}},
		obj{"type": "response.output_item.done", "output_index": 0, "item": item},
		obj{"type": "response.completed", "response": obj{"id": "resp_standin", "usage": obj{"input_tokens": 10, "output_tokens": 5, "total_tokens": 15}}},
	)
}

// gemini answers a generateContent request (streamed with alt=sse, or
// whole). Gemini CLI names an MCP server's tools mcp_SERVER_TOOL.
func (s *standIn) gemini(w http.ResponseWriter, r *http.Request, body []byte) {
	var req struct {
		Tools []struct {
			FunctionDeclarations []struct{ Name string }
		}
		Contents []struct {
			Parts []struct {
				FunctionResponse json.RawMessage
			}
		}
	}
	_ = json.Unmarshal(body, &req)
	var tools, results []string
	for _, t := range req.Tools {
		for _, f := range t.FunctionDeclarations {
			tools = append(tools, geminiToClaude(f.Name))
		}
	}
	for _, c := range req.Contents {
		for _, p := range c.Parts {
			if len(p.FunctionResponse) > 0 {
				results = append(results, string(p.FunctionResponse))
			}
		}
	}
	parts := []any{obj{"text": "done"}}
	model, _, _ := strings.Cut(r.URL.Path[strings.LastIndex(r.URL.Path, "/models/")+len("/models/"):], ":")
	if tool, in := s.seen("gemini", model, tools, results); tool != "" {
		parts = []any{obj{"functionCall": obj{"name": claudeToGemini(tool), "args": in}}}
	}
	resp := obj{
		"candidates":    []any{obj{"content": obj{"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": obj{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
	}
	if r.URL.Query().Get("alt") == "sse" {
		sse(w, resp)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(resp)
}

// chat answers a Chat Completions request, streamed or whole, as qwen
// asks. Qwen Code names an MCP server's tools as claude does
// (mcp__arena__debate); a tool's result comes back in a message of role
// tool.
func (s *standIn) chat(w http.ResponseWriter, body []byte) {
	var req struct {
		Model  string
		Stream bool
		Tools  []struct {
			Function struct{ Name string }
		}
		Messages []struct {
			Role    string
			Content json.RawMessage
		}
	}
	_ = json.Unmarshal(body, &req)
	var tools, results []string
	for _, t := range req.Tools {
		tools = append(tools, t.Function.Name)
	}
	for _, m := range req.Messages {
		if m.Role == "tool" {
			results = append(results, string(m.Content))
		}
	}
	message, delta, finish := obj{"role": "assistant", "content": "done"}, obj{"role": "assistant", "content": "done"}, "stop"
	if tool, in := s.seen("chat", req.Model, tools, results); tool != "" {
		args, _ := json.Marshal(in)
		call := obj{"index": 0, "id": s.callID("call_standin_"), "type": "function", "function": obj{"name": tool, "arguments": string(args)}}
		message = obj{"role": "assistant", "content": nil, "tool_calls": []any{call}}
		delta, finish = message, "tool_calls"
	}
	usage := obj{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(obj{"id": "chatcmpl-standin", "object": "chat.completion", "model": req.Model,
			"choices": []any{obj{"index": 0, "message": message, "finish_reason": finish}}, "usage": usage})
		return
	}
	chunk := func(delta obj, finish any) obj {
		return obj{"id": "chatcmpl-standin", "object": "chat.completion.chunk", "model": req.Model,
			"choices": []any{obj{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	last := chunk(obj{}, finish)
	last["usage"] = usage
	sse(w, chunk(delta, nil), last)
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// geminiToClaude and claudeToGemini turn an MCP tool's name as Gemini CLI
// gives it (mcp_arena_debate) into claude's (mcp__arena__debate) and back,
// for the server arena.
func geminiToClaude(name string) string {
	if rest, ok := strings.CutPrefix(name, "mcp_arena_"); ok {
		return "mcp__arena__" + rest
	}
	return name
}

func claudeToGemini(name string) string {
	if rest, ok := strings.CutPrefix(name, "mcp__arena__"); ok {
		return "mcp_arena_" + rest
	}
	return name
}

// textOfResult is the text a tool result carries, however the host
// wrapped it: every string in it, when it is (or holds) JSON.
func textOfResult(result string) string {
	var v any
	if json.Unmarshal([]byte(result), &v) != nil {
		return result
	}
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			if i := strings.IndexAny(x, "{["); i >= 0 {
				var inner any
				if json.Unmarshal([]byte(x[i:]), &inner) == nil {
					b.WriteString(x[:i])
					walk(inner)
					return
				}
			}
			b.WriteString(x + "\n")
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return b.String()
}

// ArenaTools are the arena tools the requests offered, by the dialect of
// the request (one CLI's).
func (s *standIn) ArenaTools() map[string][]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string][]string{}
	for i, tools := range s.offered {
		for _, t := range tools {
			if strings.HasPrefix(t, "mcp__arena") && !slices.Contains(out[s.dialects[i]], t) {
				out[s.dialects[i]] = append(out[s.dialects[i]], t)
			}
		}
	}
	return out
}

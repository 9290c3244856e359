package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The real agent CLIs from npm (scripts/agent-clis), pointed at a stand-in
// model API on loopback, never at a model. The stand-in speaks the four
// APIs the CLIs call (Anthropic's Messages for claude, OpenAI's Responses
// for codex, Gemini's generateContent for gemini, OpenAI's Chat
// Completions for qwen), asks the host's model to call one tool once,
// then says "done"; it records the model each request asked for, the
// tools it offered and every tool result the CLI handed back, which is
// what the host's model would have seen.

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
}

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

// seen records a request's model, tools and tool results, and says
// whether to call the tool: it is offered and no result of it came yet.
func (s *standIn) seen(dialect, model string, tools, results []string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dialects = append(s.dialects, dialect)
	s.models = append(s.models, model)
	s.offered = append(s.offered, tools)
	s.results = append(s.results, results...)
	return s.tool != "" && slices.Contains(tools, s.tool) && len(results) == 0
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
	if n := len(req.Messages); n > 0 {
		var blocks []struct {
			Type    string
			Content json.RawMessage
		}
		_ = json.Unmarshal(req.Messages[n-1].Content, &blocks)
		for _, b := range blocks {
			if b.Type == "tool_result" {
				results = append(results, string(b.Content))
			}
		}
	}
	block, stop := obj{"type": "text", "text": ""}, "end_turn"
	delta := obj{"type": "text_delta", "text": "done"}
	if s.seen("anthropic", req.Model, tools, results) {
		args, _ := json.Marshal(s.args)
		block, stop = obj{"type": "tool_use", "id": "toolu_standin", "name": s.tool, "input": obj{}}, "tool_use"
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
	if s.seen("openai", req.Model, tools, results) {
		args, _ := json.Marshal(s.args)
		ns, name := s.tool[:strings.LastIndex(s.tool, "__")], s.tool[strings.LastIndex(s.tool, "__")+2:]
		item = obj{"type": "function_call", "id": "fc_standin", "call_id": "call_standin", "namespace": ns, "name": name, "arguments": string(args)}
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
	if s.seen("gemini", model, tools, results) {
		parts = []any{obj{"functionCall": obj{"name": claudeToGemini(s.tool), "args": s.args}}}
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

// chat answers a Chat Completions request, streamed or whole; it offers
// no tool call (qwen is no host of arena's).
func (s *standIn) chat(w http.ResponseWriter, body []byte) {
	var req struct {
		Model  string
		Stream bool
		Tools  []struct {
			Function struct{ Name string }
		}
	}
	_ = json.Unmarshal(body, &req)
	var tools []string
	for _, t := range req.Tools {
		tools = append(tools, t.Function.Name)
	}
	s.seen("chat", req.Model, tools, nil)
	usage := obj{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(obj{"id": "chatcmpl-standin", "object": "chat.completion", "model": req.Model,
			"choices": []any{obj{"index": 0, "message": obj{"role": "assistant", "content": "done"}, "finish_reason": "stop"}}, "usage": usage})
		return
	}
	chunk := func(delta obj, finish any) obj {
		return obj{"id": "chatcmpl-standin", "object": "chat.completion.chunk", "model": req.Model,
			"choices": []any{obj{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	last := chunk(obj{}, "stop")
	last["usage"] = usage
	sse(w, chunk(obj{"role": "assistant", "content": "done"}, nil), last)
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

package challengers

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Usage is the token count a stream reports, when it reports one.
type Usage struct {
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
	// CostUSD is the cost the CLI itself reported (claude's
	// total_cost_usd); nil when it reported none.
	CostUSD *float64 `json:"cost_usd,omitempty"`
	// Model is the model the stream said it ran ("claude-opus-5-5"), from
	// its init event; "" when it did not say.
	Model string `json:"model,omitempty"`
	// Clamped, when set, says what the agent reported that no call can
	// have used (Clamp): the counts above are what arena counted instead.
	Clamped string `json:"clamped,omitempty"`
}

// decoder extracts the model's text from one CLI's output format. What it
// streams is the reply as far as it goes: the decoder keeps no copy of its
// own, its caller hands everything streamed back to Finish.
type decoder interface {
	// Feed takes the next piece of cleaned output and appends the model
	// text it carries, ready to stream, to out.
	Feed(out, p []byte) []byte
	// Drain is called at the end of the stream, before Finish: it appends
	// the text of anything held back (a last line without its newline).
	Drain(out []byte) []byte
	// Finish is called at the end of the stream with all that Feed and
	// Drain appended. It returns the final reply, the usage if reported,
	// and an error message when the stream itself reported a failure (an
	// API error with exit status 0).
	Finish(streamed string) (text string, usage *Usage, streamErr string)
}

func newDecoder(f Format) decoder {
	switch f {
	case FormatClaudeStreamJSON, FormatQwenStreamJSON:
		return &lineDecoder{events: &messagesStream{}}
	case FormatGeminiStreamJSON:
		return &lineDecoder{events: &geminiStream{}}
	case FormatCodexJSON:
		return &lineDecoder{events: &codexStream{}}
	default:
		return textDecoder{}
	}
}

// textDecoder is plain text: the text is the stream.
type textDecoder struct{}

func (textDecoder) Feed(out, p []byte) []byte { return append(out, p...) }

func (textDecoder) Drain(out []byte) []byte { return out }

func (textDecoder) Finish(streamed string) (string, *Usage, string) {
	return strings.TrimSpace(streamed), nil, ""
}

// eventStream handles one JSON event (one line) of a JSON Lines format.
type eventStream interface {
	// event appends the text the event carries to out.
	event(out, line []byte) []byte
	// finish is given all that the events appended.
	finish(reply string) (string, *Usage, string)
}

// lineDecoder frames a JSON Lines stream; each line is decoded by
// encoding/json into its format's event struct. Lines that are not JSON
// objects are ignored: a pty merges nothing into stdout, but CLIs print
// the odd banner or warning there, and a garbage line must not end the
// stream.
//
// A line that arrives whole in one piece of output is decoded where it
// is; only a line cut by the end of a piece is copied, into partial,
// which keeps its room from line to line and is at most the longest
// line, which the output cap bounds.
type lineDecoder struct {
	events  eventStream
	partial []byte
}

func (d *lineDecoder) Feed(out, p []byte) []byte {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			d.partial = append(d.partial, p...)
			break
		}
		line := p[:i]
		if len(d.partial) > 0 {
			d.partial = append(d.partial, line...)
			line = d.partial
		}
		out = d.line(out, line)
		d.partial = d.partial[:0]
		p = p[i+1:]
	}
	return out
}

func (d *lineDecoder) line(out, line []byte) []byte {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		return out
	}
	return d.events.event(out, line)
}

// Drain decodes a last event that came without its newline: it still
// counts.
func (d *lineDecoder) Drain(out []byte) []byte {
	if len(d.partial) == 0 {
		return out
	}
	out = d.line(out, d.partial)
	d.partial = d.partial[:0]
	return out
}

func (d *lineDecoder) Finish(streamed string) (string, *Usage, string) {
	if rest := d.Drain(nil); len(rest) > 0 {
		streamed += string(rest)
	}
	return d.events.finish(streamed)
}

// joinReply appends a message to out, a blank line after what came before
// (n bytes of reply so far).
func joinReply(out []byte, n *int, text string) []byte {
	if text == "" {
		return out // nothing to say: no separator either
	}
	start := len(out)
	if *n > 0 {
		out = append(out, "\n\n"...)
	}
	out = append(out, text...)
	*n += len(out) - start
	return out
}

// wireUsage is a usage object as the CLIs write it: the token counts.
type wireUsage struct {
	InputTokens  tokenCount `json:"input_tokens"`
	OutputTokens tokenCount `json:"output_tokens"`
}

func (u *wireUsage) usage() *Usage {
	if u == nil {
		return nil
	}
	return &Usage{InputTokens: int64(u.InputTokens), OutputTokens: int64(u.OutputTokens)}
}

// tokenCount is a count of tokens that a value of another type leaves at
// 0 instead of failing the event it is in: a result event whose usage is
// odd still carries the reply and the error.
type tokenCount int64

func (c *tokenCount) UnmarshalJSON(b []byte) error {
	var n int64
	if json.Unmarshal(b, &n) == nil {
		*c = tokenCount(n)
	}
	return nil
}

// costOf reads a cost in USD ("total_cost_usd": 0.0123); nil when absent
// or not a number.
func costOf(raw json.RawMessage) *float64 {
	var f float64
	if len(raw) == 0 || string(raw) == "null" || json.Unmarshal(raw, &f) != nil {
		return nil
	}
	return &f
}

// messagesStream reads claude's and qwen's stream-json, which share the
// Anthropic Messages shape: optional `stream_event` token deltas (with
// --include-partial-messages), then an `assistant` event holding the whole
// message, then a `result` event. An API error can come with exit status 0
// and "is_error": true, so the result decides, not the exit status.
type messagesStream struct {
	model   string // from the system init event
	n       int    // bytes of reply streamed
	deltas  bool   // deltas were streamed since the last assistant event
	result  *string
	isError bool
	errMsg  string
	usage   *Usage
}

type messagesEvent struct {
	Type  string `json:"type"`
	Event *struct {
		Type  string `json:"type"`
		Delta *struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"delta"`
	} `json:"event"`
	Message *struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	} `json:"message"`
	Subtype string          `json:"subtype"`
	IsError bool            `json:"is_error"`
	Result  *string         `json:"result"`
	Error   json.RawMessage `json:"error"`
	Usage   *wireUsage      `json:"usage"`
	Cost    json.RawMessage `json:"total_cost_usd"`
	Model   string          `json:"model"`
}

func (s *messagesStream) event(out, line []byte) []byte {
	var ev messagesEvent
	if json.Unmarshal(line, &ev) != nil {
		return out
	}
	switch ev.Type {
	case "stream_event":
		return s.delta(out, &ev)
	case "assistant":
		return s.assistant(out, &ev)
	case "result":
		s.resultEvent(&ev)
	case "system":
		if ev.Model != "" {
			s.model = ev.Model
		}
	}
	return out
}

func (s *messagesStream) delta(out []byte, ev *messagesEvent) []byte {
	e := ev.Event
	if e == nil || e.Type != "content_block_delta" || e.Delta == nil || e.Delta.Type != "text_delta" || e.Delta.Text == "" {
		return out
	}
	start := len(out)
	if !s.deltas && s.n > 0 {
		out = append(out, "\n\n"...) // first delta of a later message
	}
	s.deltas = true
	out = append(out, e.Delta.Text...)
	s.n += len(out) - start
	return out
}

func (s *messagesStream) assistant(out []byte, ev *messagesEvent) []byte {
	if s.deltas {
		// Already streamed token by token: the full message repeats it.
		s.deltas = false
		return out
	}
	if ev.Message == nil {
		return out
	}
	var text strings.Builder
	for _, c := range ev.Message.Content {
		if c.Type == "text" {
			text.WriteString(c.Text)
		}
	}
	return joinReply(out, &s.n, text.String())
}

func (s *messagesStream) resultEvent(ev *messagesEvent) {
	s.result = ev.Result
	s.isError = ev.IsError
	s.usage = ev.Usage.usage()
	if cost := costOf(ev.Cost); s.usage != nil && cost != nil {
		s.usage.CostUSD = cost
	}
	s.errMsg = errorMessage(ev.Error)
	if s.errMsg == "" && ev.IsError && ev.Result != nil {
		s.errMsg = *ev.Result
	}
	if s.errMsg == "" && ev.IsError {
		s.errMsg = "the CLI reported an error (" + ev.Subtype + ")"
	}
}

func (s *messagesStream) finish(reply string) (string, *Usage, string) {
	s.usage = withModel(s.usage, s.model)
	if s.isError {
		return reply, s.usage, s.errMsg
	}
	text := strings.TrimSpace(reply)
	if s.result != nil && strings.TrimSpace(*s.result) != "" {
		text = strings.TrimSpace(*s.result)
	}
	// qwen has been seen to exit 0 on a network error with the error as
	// the reply itself.
	if strings.HasPrefix(text, "[API Error") {
		return text, s.usage, text
	}
	return text, s.usage, ""
}

// errorMessage reads an "error" field that is either a string or an object
// with a "message".
func errorMessage(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var obj struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &obj) == nil {
		return obj.Message
	}
	return ""
}

// geminiStream reads gemini's stream-json: `init`, `message` events (the
// assistant's with "delta": true), and a `result` whose "status" is
// "success" or "error".
type geminiStream struct {
	usage  *Usage
	model  string // from the init event
	errMsg string
}

type geminiEvent struct {
	Type    string          `json:"type"`
	Role    string          `json:"role"`
	Content string          `json:"content"`
	Status  string          `json:"status"`
	Error   json.RawMessage `json:"error"`
	Stats   *wireUsage      `json:"stats"`
	Model   string          `json:"model"`
}

func (s *geminiStream) event(out, line []byte) []byte {
	var ev geminiEvent
	if json.Unmarshal(line, &ev) != nil {
		return out
	}
	switch ev.Type {
	case "message":
		if ev.Role == "assistant" {
			return append(out, ev.Content...)
		}
	case "result":
		s.usage = ev.Stats.usage()
		if ev.Status != "" && ev.Status != "success" {
			s.errMsg = errorMessage(ev.Error)
			if s.errMsg == "" {
				s.errMsg = "gemini reported status " + ev.Status
			}
		}
	case "error":
		s.errMsg = errorMessage(ev.Error)
	case "init":
		s.model = ev.Model
	}
	return out
}

func (s *geminiStream) finish(reply string) (string, *Usage, string) {
	return strings.TrimSpace(reply), withModel(s.usage, s.model), s.errMsg
}

// withModel names the model in a usage the stream reported.
func withModel(u *Usage, model string) *Usage {
	if u != nil && model != "" {
		u.Model = model
	}
	return u
}

// codexStream reads `codex exec --json`: the reply comes whole in
// `item.completed` events whose item is an `agent_message`. An item of type
// "error" is a non-fatal warning and `error` events are retries; only
// `turn.failed` fails the call.
type codexStream struct {
	n      int // bytes of reply streamed
	usage  *Usage
	errMsg string
}

type codexEvent struct {
	Type string `json:"type"`
	Item *struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"item"`
	Error   json.RawMessage `json:"error"`
	Message string          `json:"message"`
	Usage   *wireUsage      `json:"usage"`
}

func (s *codexStream) event(out, line []byte) []byte {
	var ev codexEvent
	if json.Unmarshal(line, &ev) != nil {
		return out
	}
	switch ev.Type {
	case "item.completed":
		if ev.Item != nil && ev.Item.Type == "agent_message" {
			return joinReply(out, &s.n, ev.Item.Text)
		}
	case "turn.completed":
		s.usage = ev.Usage.usage()
	case "turn.failed":
		s.errMsg = errorMessage(ev.Error)
		if s.errMsg == "" {
			s.errMsg = "codex reported a failed turn"
		}
	}
	return out
}

func (s *codexStream) finish(reply string) (string, *Usage, string) {
	return strings.TrimSpace(reply), s.usage, s.errMsg
}

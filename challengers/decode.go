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
}

// decoder extracts the model's text from one CLI's output format.
type decoder interface {
	// Feed takes the next piece of cleaned output and returns the model
	// text it carries, ready to stream (possibly empty).
	Feed(p []byte) string
	// Drain is called at the end of the stream, before Finish: it returns
	// the text of anything held back (a last line without its newline).
	Drain() string
	// Finish is called at the end of the stream. It returns the final
	// reply, the usage if reported, and an error message when the stream
	// itself reported a failure (an API error with exit status 0).
	Finish() (text string, usage *Usage, streamErr string)
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
		return &textDecoder{}
	}
}

type textDecoder struct{ all strings.Builder }

func (d *textDecoder) Feed(p []byte) string {
	d.all.Write(p)
	return string(p)
}

func (d *textDecoder) Drain() string { return "" }

func (d *textDecoder) Finish() (string, *Usage, string) {
	return strings.TrimSpace(d.all.String()), nil, ""
}

// eventStream handles one JSON event (one line) of a JSON Lines format.
type eventStream interface {
	event(line []byte) string
	finish() (string, *Usage, string)
}

// lineDecoder frames a JSON Lines stream. Lines that are not JSON objects
// are ignored: a pty merges nothing into stdout, but CLIs print the odd
// banner or warning there, and a garbage line must not end the stream.
type lineDecoder struct {
	events  eventStream
	partial []byte
}

func (d *lineDecoder) Feed(p []byte) string {
	var out strings.Builder
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			d.partial = append(d.partial, p...)
			break
		}
		line := p[:i]
		if len(d.partial) > 0 {
			line = append(d.partial, line...)
			d.partial = d.partial[:0]
		}
		out.WriteString(d.line(line))
		p = p[i+1:]
	}
	return out.String()
}

func (d *lineDecoder) line(line []byte) string {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		return ""
	}
	return d.events.event(line)
}

// Drain decodes a last event that came without its newline: it still
// counts.
func (d *lineDecoder) Drain() string {
	if len(d.partial) == 0 {
		return ""
	}
	text := d.line(d.partial)
	d.partial = nil
	return text
}

func (d *lineDecoder) Finish() (string, *Usage, string) {
	d.Drain()
	return d.events.finish()
}

// joinReply appends a message to what came before, a blank line apart.
func joinReply(b *strings.Builder, text string) string {
	if text == "" {
		return ""
	}
	if b.Len() > 0 {
		text = "\n\n" + text
	}
	b.WriteString(text)
	return text
}

// messagesStream reads claude's and qwen's stream-json, which share the
// Anthropic Messages shape: optional `stream_event` token deltas (with
// --include-partial-messages), then an `assistant` event holding the whole
// message, then a `result` event. An API error can come with exit status 0
// and "is_error": true, so the result decides, not the exit status.
type messagesStream struct {
	reply   strings.Builder // what has been streamed
	deltas  bool            // deltas were streamed since the last assistant event
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
	Usage   *Usage          `json:"usage"`
}

func (s *messagesStream) event(line []byte) string {
	var ev messagesEvent
	if json.Unmarshal(line, &ev) != nil {
		return ""
	}
	switch ev.Type {
	case "stream_event":
		return s.delta(ev)
	case "assistant":
		return s.assistant(ev)
	case "result":
		s.resultEvent(ev)
	}
	return ""
}

func (s *messagesStream) delta(ev messagesEvent) string {
	if ev.Event == nil {
		return ""
	}
	if ev.Event.Type != "content_block_delta" || ev.Event.Delta == nil || ev.Event.Delta.Type != "text_delta" {
		return ""
	}
	text := ev.Event.Delta.Text
	if !s.deltas && s.reply.Len() > 0 && text != "" {
		text = "\n\n" + text // first delta of a later message
	}
	s.deltas = true
	s.reply.WriteString(text)
	return text
}

func (s *messagesStream) assistant(ev messagesEvent) string {
	if s.deltas {
		// Already streamed token by token: the full message repeats it.
		s.deltas = false
		return ""
	}
	if ev.Message == nil {
		return ""
	}
	var text strings.Builder
	for _, c := range ev.Message.Content {
		if c.Type == "text" {
			text.WriteString(c.Text)
		}
	}
	return joinReply(&s.reply, text.String())
}

func (s *messagesStream) resultEvent(ev messagesEvent) {
	s.result = ev.Result
	s.isError = ev.IsError
	s.usage = ev.Usage
	s.errMsg = errorMessage(ev.Error)
	if s.errMsg == "" && ev.IsError && ev.Result != nil {
		s.errMsg = *ev.Result
	}
	if s.errMsg == "" && ev.IsError {
		s.errMsg = "the CLI reported an error (" + ev.Subtype + ")"
	}
}

func (s *messagesStream) finish() (string, *Usage, string) {
	if s.isError {
		return s.reply.String(), s.usage, s.errMsg
	}
	text := strings.TrimSpace(s.reply.String())
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
	reply  strings.Builder
	usage  *Usage
	errMsg string
}

type geminiEvent struct {
	Type    string          `json:"type"`
	Role    string          `json:"role"`
	Content string          `json:"content"`
	Status  string          `json:"status"`
	Error   json.RawMessage `json:"error"`
	Stats   *Usage          `json:"stats"`
}

func (s *geminiStream) event(line []byte) string {
	var ev geminiEvent
	if json.Unmarshal(line, &ev) != nil {
		return ""
	}
	switch ev.Type {
	case "message":
		if ev.Role == "assistant" {
			s.reply.WriteString(ev.Content)
			return ev.Content
		}
	case "result":
		s.usage = ev.Stats
		if ev.Status != "" && ev.Status != "success" {
			s.errMsg = errorMessage(ev.Error)
			if s.errMsg == "" {
				s.errMsg = "gemini reported status " + ev.Status
			}
		}
	case "error":
		s.errMsg = errorMessage(ev.Error)
	}
	return ""
}

func (s *geminiStream) finish() (string, *Usage, string) {
	return strings.TrimSpace(s.reply.String()), s.usage, s.errMsg
}

// codexStream reads `codex exec --json`: the reply comes whole in
// `item.completed` events whose item is an `agent_message`. An item of type
// "error" is a non-fatal warning and `error` events are retries; only
// `turn.failed` fails the call.
type codexStream struct {
	reply  strings.Builder
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
	Usage   *Usage          `json:"usage"`
}

func (s *codexStream) event(line []byte) string {
	var ev codexEvent
	if json.Unmarshal(line, &ev) != nil {
		return ""
	}
	switch ev.Type {
	case "item.completed":
		if ev.Item != nil && ev.Item.Type == "agent_message" {
			return joinReply(&s.reply, ev.Item.Text)
		}
	case "turn.completed":
		s.usage = ev.Usage
	case "turn.failed":
		s.errMsg = errorMessage(ev.Error)
		if s.errMsg == "" {
			s.errMsg = "codex reported a failed turn"
		}
	}
	return ""
}

func (s *codexStream) finish() (string, *Usage, string) {
	return strings.TrimSpace(s.reply.String()), s.usage, s.errMsg
}

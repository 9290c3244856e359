package challengers

import (
	"bytes"
	"encoding/json"
	"strconv"
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
}

// decoder extracts the model's text from one CLI's output format. What it
// streams is the reply as far as it goes: the decoder keeps no copy of its
// own, its caller hands everything streamed back to Finish. (A copy in the
// decoder as well was a third copy of every byte into fresh memory, and on
// the 2-core machine the first touch of a page costs 13-54 µs in page
// faults, about what cat takes to move the same 4 KiB through a pty.)
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

// lineDecoder frames a JSON Lines stream. Lines that are not JSON objects
// are ignored: a pty merges nothing into stdout, but CLIs print the odd
// banner or warning there, and a garbage line must not end the stream.
//
// A line that arrives whole in one piece of output is decoded where it
// is; only a line cut by the end of a piece is copied, into partial, and
// each piece is scanned once for newlines, so a 1 MiB event costs the same
// per byte as a line of 80. partial keeps its room from line to line (a
// stream of 1 MiB events would otherwise grow it afresh for each: 18% of
// the time in a profile of decoding them); it is at most the longest
// line, which the output cap bounds.
type lineDecoder struct {
	events  eventStream
	partial []byte
}

func (d *lineDecoder) Feed(out, p []byte) []byte {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			d.partial = append(room(d.partial, len(p)), p...)
			break
		}
		line := p[:i]
		if len(d.partial) > 0 {
			d.partial = append(room(d.partial, len(line)), line...)
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

// room returns b with room for n more bytes. When it must grow, it grows
// fourfold at once, where append adds about a quarter at a time: each
// growth copies into fresh memory (13-54 µs a page the first time, on the
// 2-core machine), and from 4 KiB to a 1 MiB line that is some 25
// growths copying 5 MiB by quarters, four copying 1.3 MiB fourfold.
func room(b []byte, n int) []byte {
	if cap(b)-len(b) >= n {
		return b
	}
	nb := make([]byte, len(b), max(len(b)+n, 4*cap(b), 4<<10))
	copy(nb, b)
	return nb
}

// joinReply appends a message to out, a blank line after what came before
// (n bytes of reply so far).
func joinReply(out []byte, n *int, text jval) []byte {
	start := len(out)
	if *n > 0 {
		out = append(out, "\n\n"...)
	}
	body := len(out)
	if out = appendString(out, text); len(out) == body {
		return out[:start] // nothing to say: no separator either
	}
	*n += len(out) - start
	return out
}

// usageOf reads a usage object decoded by decodeFast.
func usageOf(obj jval, in, out jval) *Usage {
	if obj.kind != jObject {
		return nil
	}
	i, _ := parseInt64(&in)
	o, _ := parseInt64(&out)
	return &Usage{InputTokens: i, OutputTokens: o}
}

// costOf reads a cost in USD ("total_cost_usd": 0.0123); nil when absent
// or not a number.
func costOf(raw json.RawMessage) *float64 {
	if len(raw) == 0 {
		return nil
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return nil
	}
	return &f
}

// rawOf is a json.RawMessage field decoded by decodeFast.
func rawOf(v jval) json.RawMessage {
	if v.kind == jAbsent {
		return nil
	}
	return v.raw
}

// strVal is a string for a jval, as a field decoded by encoding/json:
// fallbacks build their views from such strings.
func strVal(s string) jval {
	return jval{raw: []byte(s), kind: jString}
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

	vals   [msgSlots]jval
	blocks []contentBlock
	text   []byte // an assistant message's text
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
	Cost    json.RawMessage `json:"total_cost_usd"`
	Model   string          `json:"model"`
}

// messagesFields is messagesEvent for decodeFast.
var messagesFields = []jfield{
	{name: "type", want: wantString, slot: msgType},
	{name: "event", want: wantObject, slot: msgEvent, child: []jfield{
		{name: "type", want: wantString, slot: msgEventType},
		{name: "delta", want: wantObject, slot: msgDelta, child: []jfield{
			{name: "type", want: wantString, slot: msgDeltaType},
			{name: "text", want: wantString, slot: msgDeltaText},
		}},
	}},
	{name: "message", want: wantObject, slot: msgMessage, child: []jfield{
		{name: "content", want: wantArray, slot: msgContent, child: contentFields},
	}},
	{name: "subtype", want: wantString, slot: msgSubtype},
	{name: "is_error", want: wantBool, slot: msgIsError},
	{name: "result", want: wantString, slot: msgResult},
	{name: "error", want: wantRaw, slot: msgError},
	{name: "usage", want: wantObject, slot: msgUsage, child: usageFields(msgUsageIn, msgUsageOut)},
	{name: "total_cost_usd", want: wantRaw, slot: msgCost},
	{name: "model", want: wantString, slot: msgModel},
}

var contentFields = []jfield{
	{name: "type", want: wantString, slot: msgBlockType},
	{name: "text", want: wantString, slot: msgBlockText},
}

func usageFields(in, out int) []jfield {
	return []jfield{
		{name: "input_tokens", want: wantInt, slot: in},
		{name: "output_tokens", want: wantInt, slot: out},
	}
}

const (
	msgType = iota
	msgEvent
	msgEventType
	msgDelta
	msgDeltaType
	msgDeltaText
	msgMessage
	msgContent
	msgBlockType
	msgBlockText
	msgSubtype
	msgIsError
	msgResult
	msgError
	msgUsage
	msgUsageIn
	msgUsageOut
	msgCost
	msgModel
	msgSlots
)

// messagesView is what messagesStream reads of an event, from decodeFast
// or from encoding/json.
type messagesView struct {
	typ, eventType, deltaType, deltaText jval
	event, delta, message                bool // present and not null
	blocks                               []contentBlock
	subtype                              string
	isError                              bool
	result                               *string
	err                                  json.RawMessage
	usage                                *Usage
	cost                                 *float64 // the result's total_cost_usd
	model                                string   // the system init event's
}

type contentBlock struct{ typ, text jval }

func (s *messagesStream) event(out, line []byte) []byte {
	v, ok := s.view(line)
	if !ok {
		return out
	}
	switch {
	case isStr(v.typ, "stream_event"):
		return s.delta(out, v)
	case isStr(v.typ, "assistant"):
		return s.assistant(out, v)
	case isStr(v.typ, "result"):
		s.resultEvent(v)
	case isStr(v.typ, "system") && v.model != "":
		s.model = v.model
	}
	return out
}

// view decodes an event; false when encoding/json would not decode it.
func (s *messagesStream) view(line []byte) (messagesView, bool) {
	vals := &s.vals
	*vals = [msgSlots]jval{}
	switch decodeFast(line, messagesFields, vals[:]) {
	case jInvalid:
		return messagesView{}, false
	case jFallback:
		return s.slowView(line)
	}
	v := messagesView{
		typ: vals[msgType], eventType: vals[msgEventType], deltaType: vals[msgDeltaType], deltaText: vals[msgDeltaText],
		event: vals[msgEvent].kind == jObject, delta: vals[msgDelta].kind == jObject, message: vals[msgMessage].kind == jObject,
		subtype: strOf(vals[msgSubtype]), isError: vals[msgIsError].kind == jTrue,
		err: rawOf(vals[msgError]), usage: usageOf(vals[msgUsage], vals[msgUsageIn], vals[msgUsageOut]),
		cost: costOf(rawOf(vals[msgCost])), model: strOf(vals[msgModel]),
	}
	if vals[msgResult].kind == jString {
		r := strOf(vals[msgResult])
		v.result = &r
	}
	if v.message && !s.deltas { // only then is the message's text read
		s.blocks = s.blocks[:0]
		eachElement(vals[msgContent], contentFields, vals[:], func() {
			s.blocks = append(s.blocks, contentBlock{typ: vals[msgBlockType], text: vals[msgBlockText]})
		})
		v.blocks = s.blocks
	}
	return v, true
}

func (s *messagesStream) slowView(line []byte) (messagesView, bool) {
	var ev messagesEvent
	if json.Unmarshal(line, &ev) != nil {
		return messagesView{}, false
	}
	v := messagesView{typ: strVal(ev.Type), subtype: ev.Subtype, isError: ev.IsError, result: ev.Result, err: ev.Error, usage: ev.Usage, cost: costOf(ev.Cost), model: ev.Model}
	if ev.Event != nil {
		v.event, v.eventType = true, strVal(ev.Event.Type)
		if d := ev.Event.Delta; d != nil {
			v.delta, v.deltaType, v.deltaText = true, strVal(d.Type), strVal(d.Text)
		}
	}
	if ev.Message != nil {
		v.message = true
		for _, c := range ev.Message.Content {
			v.blocks = append(v.blocks, contentBlock{typ: strVal(c.Type), text: strVal(c.Text)})
		}
	}
	return v, true
}

func (s *messagesStream) delta(out []byte, v messagesView) []byte {
	if !v.event || !isStr(v.eventType, "content_block_delta") || !v.delta || !isStr(v.deltaType, "text_delta") {
		return out
	}
	start := len(out)
	if !s.deltas && s.n > 0 {
		out = append(out, "\n\n"...) // first delta of a later message
	}
	body := len(out)
	s.deltas = true
	if out = appendString(out, v.deltaText); len(out) == body {
		return out[:start] // an empty delta: no separator either
	}
	s.n += len(out) - start
	return out
}

func (s *messagesStream) assistant(out []byte, v messagesView) []byte {
	if s.deltas {
		// Already streamed token by token: the full message repeats it.
		s.deltas = false
		return out
	}
	if !v.message {
		return out
	}
	s.text = s.text[:0]
	for _, c := range v.blocks {
		if isStr(c.typ, "text") {
			s.text = appendString(s.text, c.text)
		}
	}
	return joinReply(out, &s.n, jval{raw: s.text, kind: jString})
}

func (s *messagesStream) resultEvent(v messagesView) {
	s.result = v.result
	s.isError = v.isError
	s.usage = v.usage
	if s.usage != nil && v.cost != nil {
		s.usage.CostUSD = v.cost
	}
	s.errMsg = errorMessage(v.err)
	if s.errMsg == "" && v.isError && v.result != nil {
		s.errMsg = *v.result
	}
	if s.errMsg == "" && v.isError {
		s.errMsg = "the CLI reported an error (" + v.subtype + ")"
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
	vals   [gemSlots]jval
}

type geminiEvent struct {
	Type    string          `json:"type"`
	Role    string          `json:"role"`
	Content string          `json:"content"`
	Status  string          `json:"status"`
	Error   json.RawMessage `json:"error"`
	Stats   *Usage          `json:"stats"`
	Model   string          `json:"model"`
}

var geminiFields = []jfield{
	{name: "type", want: wantString, slot: gemType},
	{name: "role", want: wantString, slot: gemRole},
	{name: "content", want: wantString, slot: gemContent},
	{name: "status", want: wantString, slot: gemStatus},
	{name: "error", want: wantRaw, slot: gemError},
	{name: "stats", want: wantObject, slot: gemStats, child: usageFields(gemStatsIn, gemStatsOut)},
	{name: "model", want: wantString, slot: gemModel},
}

const (
	gemType = iota
	gemRole
	gemContent
	gemStatus
	gemError
	gemStats
	gemStatsIn
	gemStatsOut
	gemModel
	gemSlots
)

func (s *geminiStream) event(out, line []byte) []byte {
	vals := &s.vals
	*vals = [gemSlots]jval{}
	switch decodeFast(line, geminiFields, vals[:]) {
	case jInvalid:
		return out
	case jFallback:
		var ev geminiEvent
		if json.Unmarshal(line, &ev) != nil {
			return out
		}
		*vals = [gemSlots]jval{gemType: strVal(ev.Type), gemRole: strVal(ev.Role), gemContent: strVal(ev.Content), gemStatus: strVal(ev.Status), gemModel: strVal(ev.Model)}
		return s.handle(out, ev.Error, ev.Stats)
	}
	return s.handle(out, rawOf(vals[gemError]), usageOf(vals[gemStats], vals[gemStatsIn], vals[gemStatsOut]))
}

// handle acts on an event read into s.vals (but for its error and stats).
func (s *geminiStream) handle(out []byte, errRaw json.RawMessage, stats *Usage) []byte {
	vals := &s.vals
	switch {
	case isStr(vals[gemType], "message"):
		if isStr(vals[gemRole], "assistant") {
			return appendString(out, vals[gemContent])
		}
	case isStr(vals[gemType], "result"):
		s.usage = stats
		if status := strOf(vals[gemStatus]); status != "" && status != "success" {
			s.errMsg = errorMessage(errRaw)
			if s.errMsg == "" {
				s.errMsg = "gemini reported status " + status
			}
		}
	case isStr(vals[gemType], "error"):
		s.errMsg = errorMessage(errRaw)
	case isStr(vals[gemType], "init"):
		s.model = strOf(vals[gemModel])
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
	vals   [codexSlots]jval
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

var codexFields = []jfield{
	{name: "type", want: wantString, slot: codexType},
	{name: "item", want: wantObject, slot: codexItem, child: []jfield{
		{name: "type", want: wantString, slot: codexItemType},
		{name: "text", want: wantString, slot: codexItemText},
	}},
	{name: "error", want: wantRaw, slot: codexError},
	{name: "message", want: wantString, slot: codexMessage},
	{name: "usage", want: wantObject, slot: codexUsage, child: usageFields(codexUsageIn, codexUsageOut)},
}

const (
	codexType = iota
	codexItem
	codexItemType
	codexItemText
	codexError
	codexMessage
	codexUsage
	codexUsageIn
	codexUsageOut
	codexSlots
)

func (s *codexStream) event(out, line []byte) []byte {
	vals := &s.vals
	*vals = [codexSlots]jval{}
	switch decodeFast(line, codexFields, vals[:]) {
	case jInvalid:
		return out
	case jFallback:
		var ev codexEvent
		if json.Unmarshal(line, &ev) != nil {
			return out
		}
		*vals = [codexSlots]jval{codexType: strVal(ev.Type), codexMessage: strVal(ev.Message)}
		if ev.Item != nil {
			vals[codexItem] = jval{kind: jObject}
			vals[codexItemType], vals[codexItemText] = strVal(ev.Item.Type), strVal(ev.Item.Text)
		}
		return s.handle(out, ev.Error, ev.Usage)
	}
	return s.handle(out, rawOf(vals[codexError]), usageOf(vals[codexUsage], vals[codexUsageIn], vals[codexUsageOut]))
}

// handle acts on an event read into s.vals (but for its error and usage).
func (s *codexStream) handle(out []byte, errRaw json.RawMessage, usage *Usage) []byte {
	vals := &s.vals
	switch {
	case isStr(vals[codexType], "item.completed"):
		if vals[codexItem].kind == jObject && isStr(vals[codexItemType], "agent_message") {
			return joinReply(out, &s.n, vals[codexItemText])
		}
	case isStr(vals[codexType], "turn.completed"):
		s.usage = usage
	case isStr(vals[codexType], "turn.failed"):
		s.errMsg = errorMessage(errRaw)
		if s.errMsg == "" {
			s.errMsg = "codex reported a failed turn"
		}
	}
	return out
}

func (s *codexStream) finish(reply string) (string, *Usage, string) {
	return strings.TrimSpace(reply), s.usage, s.errMsg
}

package challengers

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The fast path must read every event exactly as encoding/json does, or
// leave it to encoding/json. These tests decode the same line both ways
// into the decoders' event structs and compare.

// fastMessages decodes line with decodeFast into a messagesEvent.
func fastMessages(line []byte) (messagesEvent, jstatus) {
	var v [msgSlots]jval
	st := decodeFast(line, messagesFields, v[:])
	var ev messagesEvent
	if st != jOK {
		return ev, st
	}
	ev.Type, ev.Subtype, ev.IsError = strOf(v[msgType]), strOf(v[msgSubtype]), v[msgIsError].kind == jTrue
	if v[msgEvent].kind == jObject {
		ev.Event = &struct {
			Type  string `json:"type"`
			Delta *struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"delta"`
		}{Type: strOf(v[msgEventType])}
		if v[msgDelta].kind == jObject {
			ev.Event.Delta = &struct {
				Type string `json:"type"`
				Text string `json:"text"`
			}{Type: strOf(v[msgDeltaType]), Text: strOf(v[msgDeltaText])}
		}
	}
	if v[msgMessage].kind == jObject {
		ev.Message = &struct {
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		}{}
		if v[msgContent].kind == jArray {
			ev.Message.Content = []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			}{}
			eachElement(v[msgContent], contentFields, v[:], func() {
				ev.Message.Content = append(ev.Message.Content, struct {
					Type string `json:"type"`
					Text string `json:"text"`
				}{strOf(v[msgBlockType]), strOf(v[msgBlockText])})
			})
		}
	}
	if v[msgResult].kind == jString {
		r := strOf(v[msgResult])
		ev.Result = &r
	}
	ev.Error = rawOf(v[msgError])
	ev.Usage = usageOf(v[msgUsage], v[msgUsageIn], v[msgUsageOut])
	ev.Cost = rawOf(v[msgCost])
	ev.Model = strOf(v[msgModel])
	return ev, jOK
}

func fastGemini(line []byte) (geminiEvent, jstatus) {
	var v [gemSlots]jval
	st := decodeFast(line, geminiFields, v[:])
	if st != jOK {
		return geminiEvent{}, st
	}
	return geminiEvent{
		Type: strOf(v[gemType]), Role: strOf(v[gemRole]), Content: strOf(v[gemContent]), Status: strOf(v[gemStatus]),
		Error: rawOf(v[gemError]), Stats: usageOf(v[gemStats], v[gemStatsIn], v[gemStatsOut]), Model: strOf(v[gemModel]),
	}, jOK
}

func fastCodex(line []byte) (codexEvent, jstatus) {
	var v [codexSlots]jval
	st := decodeFast(line, codexFields, v[:])
	if st != jOK {
		return codexEvent{}, st
	}
	ev := codexEvent{Type: strOf(v[codexType]), Message: strOf(v[codexMessage]), Error: rawOf(v[codexError]),
		Usage: usageOf(v[codexUsage], v[codexUsageIn], v[codexUsageOut])}
	if v[codexItem].kind == jObject {
		ev.Item = &struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}{strOf(v[codexItemType]), strOf(v[codexItemText])}
	}
	return ev, jOK
}

// checkFastPath decodes line both ways for each event struct and fails on
// any difference. It returns how many of the three the fast path decided.
func checkFastPath(t *testing.T, line []byte) (decided int) {
	t.Helper()
	check := func(name string, fast any, st jstatus, slow any) {
		t.Helper()
		err := json.Unmarshal(line, slow)
		switch st {
		case jInvalid:
			if json.Valid(line) {
				t.Fatalf("%s: the fast path rejects valid JSON %q", name, line)
			}
			decided++
		case jOK:
			if err != nil {
				t.Fatalf("%s: the fast path accepts %q, encoding/json says %v", name, line, err)
			}
			if got, want := fast, reflect.ValueOf(slow).Elem().Interface(); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: %q\nfast: %s\njson: %s", name, line, dump(got), dump(want))
			}
			decided++
		}
	}
	m, st := fastMessages(line)
	check("messages", m, st, new(messagesEvent))
	g, st := fastGemini(line)
	check("gemini", g, st, new(geminiEvent))
	c, st := fastCodex(line)
	check("codex", c, st, new(codexEvent))
	return decided
}

func dump(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// sampleLine is a JSON line of a captured real stream.
type sampleLine struct {
	cli  string // claude, gemini, codex or qwen
	line []byte
}

// sampleLines are the JSON lines of the captured real streams.
func sampleLines(t testing.TB) []sampleLine {
	paths, _ := filepath.Glob(filepath.Join("testdata", "cli-samples", "*.stdout"))
	var lines []sampleLine
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		cli, _, _ := strings.Cut(filepath.Base(p), "-")
		for l := range bytes.Lines(b) {
			if l = bytes.TrimSpace(l); len(l) > 0 && l[0] == '{' {
				lines = append(lines, sampleLine{cli, l})
			}
		}
	}
	if len(lines) < 20 {
		t.Fatalf("only %d sample lines", len(lines))
	}
	return lines
}

// Every event of the real CLIs' streams is decided by the fast path of
// its own format: encoding/json is only for the odd line.
func TestJSONFastPathReadsRealSamples(t *testing.T) {
	for _, l := range sampleLines(t) {
		checkFastPath(t, l.line)
		var st jstatus
		switch l.cli {
		case "claude", "qwen":
			_, st = fastMessages(l.line)
		case "gemini":
			_, st = fastGemini(l.line)
		case "codex":
			_, st = fastCodex(l.line)
		default:
			t.Fatalf("a sample of %q", l.cli)
		}
		if st != jOK {
			t.Errorf("%s's event left to encoding/json: %s", l.cli, l.line)
		}
	}
}

func TestJSONFastPathEdgeCases(t *testing.T) {
	decided := []string{
		`{}`,
		` {"type" : "message" , "role":"assistant","content":"hi","delta":true} `,
		`{"type":"message","content":"a\"b\\c\/d\b\f\n\r\t\u0041\u00e9\u20ac\ud83c\udf89 e"}`,
		`{"type":"message","content":"lone \ud800 high, lone \udc00 low, \ud800\u0041 bad pair, \ud800\ud800\udc00"}`,
		`{"type":"message","content":"invalid utf-8 \xff\xfe \xc3\x28 and fine é"}`,
		`{"type":"message","content":"\u001b[31mred\u001b[0m \u0000 nul"}`,
		`{"type":null,"role":null,"content":null,"error":null,"stats":null}`,
		`{"type":"result","status":"error","error":{"message":"m","code":[1,2.5e-3,-0,true,false,null,{}]}}`,
		`{"type":"result","stats":{"input_tokens":-12,"output_tokens":0,"models":{"x":{"input_tokens":1}}}}`,
		`{"type":"stream_event","event":{"type":"content_block_delta","delta":{"type":"text_delta","text":"x"}}}`,
		`{"type":"stream_event","event":{"delta":null}}`,
		`{"type":"result","is_error":true,"result":null,"modelUsage":{"m":{"inputTokens":1}}}`,
		`{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"t"}}`,
		`{"type":"x","unknown":[[[{"a":[1,"b",{"c":null}]}]]],"n":1.5E+10}`,
		`{"a":1}x`,
		`{"a":01}`,
		`{"a":-}`,
		`{"a":1.}`,
		`{"a":1e}`,
		`{"a":"\x01"}`,
		`{"a":"\q"}`,
		`{"a":"\u12"}`,
		`{"a":tru}`,
		`{"a":1,}`,
		`{,}`,
		`{"a" 1}`,
		`{"a":[1,]}`,
		`{"type":"x"`,
		`{"content":"unterminated`,
	}
	for _, l := range decided {
		if n := checkFastPath(t, []byte(l)); n != 3 {
			t.Errorf("left to encoding/json: %s", l)
		}
	}
	// A message object is a type error for codex, whose "message" is a
	// string: only claude's and qwen's events decide these.
	for _, l := range []string{
		`{"type":"assistant","message":{"content":[{"type":"text","text":"a"},null,{"type":"tool_use"},{}]}}`,
		`{"type":"assistant","message":{"content":[]}}`,
		`{"type":"assistant","message":{"content":null}}`,
	} {
		if _, st := fastMessages([]byte(l)); st != jOK {
			t.Errorf("left to encoding/json: %s", l)
		}
		checkFastPath(t, []byte(l))
	}
	// What the fast path must leave to encoding/json, which still gives
	// the same answer through the decoders' fallback.
	fallback := []string{
		`{"TYPE":"message"}`,
		`{"Type":"message","type":"result"}`,
		`{"type":"message","type":"result"}`,
		`{"typ\u0065":"message"}`,
		`{"ſtatus":"error"}`,
		`{"type":5}`,
		`{"content":["a"]}`,
		`{"stats":{"input_tokens":1.5}}`,
		`{"stats":{"input_tokens":"1"}}`,
		`{"stats":{"input_tokens":123456789012345678901}}`,
		`{"is_error":"yes"}`,
		`{"message":{"content":[1]}}`,
		`{"event":[]}`,
	}
	for _, l := range fallback {
		_, a := fastMessages([]byte(l))
		_, b := fastGemini([]byte(l))
		_, c := fastCodex([]byte(l))
		if a != jFallback && b != jFallback && c != jFallback {
			t.Errorf("decided by the fast path: %s", l)
		}
		checkFastPath(t, []byte(l))
	}
	deep := strings.Repeat("[", maxJSONDepth+1) + strings.Repeat("]", maxJSONDepth+1)
	if _, st := fastGemini([]byte(`{"a":` + deep + `}`)); st != jFallback {
		t.Errorf("nesting deeper than encoding/json's limit: %v", st)
	}
}

func FuzzJSONFastPath(f *testing.F) {
	for _, l := range sampleLines(f) {
		f.Add(l.line)
	}
	for _, s := range []string{
		`{"type":"message","role":"assistant","content":"a\u001b\ud83c\udf89\"","delta":true}`,
		`{"type":"assistant","message":{"content":[{"type":"text","text":"a"},null]}}`,
		`{"Type":"x","type":"y"}`, `{"a":[1,{"b":-0.5e+3}]}`, "{\"content\":\"\xff\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		checkFastPath(t, line)
	})
}

// TestJSONFastPathRandomEvents checks the fast path against encoding/json
// on events built from the decoders' own keys with values of every type
// (the fuzzer rarely builds valid JSON that deep on its own).
func TestJSONFastPathRandomEvents(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	keys := []string{"type", "event", "delta", "text", "message", "content", "subtype", "is_error", "result",
		"error", "usage", "input_tokens", "output_tokens", "role", "status", "stats", "item", "id", "Type", "TEXT", "x"}
	strs := []string{`""`, `"text_delta"`, `"content_block_delta"`, `"assistant"`, `"a\nb"`, `"\u001b[2J"`, `"\ud83c\udf89"`,
		`"\ud800"`, "\"\xff\"", `"é"`, `"\\\"/"`, `"stream_event"`, `"message"`, `"result"`, `"item.completed"`, `"agent_message"`}
	var value func(depth int) string
	value = func(depth int) string {
		switch n := r.IntN(10); {
		case n < 3 || depth > 3:
			return strs[r.IntN(len(strs))]
		case n == 3:
			return []string{"null", "true", "false", "0", "-7", "12", "1.5", "1e3", "99999999999999999999"}[r.IntN(9)]
		case n < 8:
			var b strings.Builder
			b.WriteString("{")
			for i := range r.IntN(4) {
				if i > 0 {
					b.WriteString(",")
				}
				b.WriteString(`"` + keys[r.IntN(len(keys))] + `":` + value(depth+1))
			}
			b.WriteString("}")
			return b.String()
		default:
			var b strings.Builder
			b.WriteString("[")
			for i := range r.IntN(3) {
				if i > 0 {
					b.WriteString(",")
				}
				b.WriteString(value(depth + 1))
			}
			b.WriteString("]")
			return b.String()
		}
	}
	decided := 0
	for range 20000 {
		line := value(0)
		if r.IntN(20) == 0 && len(line) > 2 { // now and then, broken
			i := r.IntN(len(line))
			line = line[:i] + line[i+1:]
		}
		if len(line) > 0 && line[0] == '{' {
			decided += checkFastPath(t, []byte(line))
		}
	}
	t.Logf("the fast path decided %d of the events' decodings", decided)
}

// The word-at-a-time scans find what a byte-at-a-time loop finds, at any
// alignment, with every byte value in every position of a word.
func TestStringSpansMatchBytewiseLoops(t *testing.T) {
	naiveStr := func(p []byte, i int) (int, bool) {
		high := false
		for ; i < len(p); i++ {
			if c := p[i]; c == '"' || c == '\\' || c < 0x20 {
				return i, high
			}
			high = high || p[i] >= 0x80
		}
		return i, high
	}
	naiveEsc := func(p []byte, i int) int {
		for ; i < len(p); i++ {
			if p[i] == '\\' || p[i] >= 0x80 {
				return i
			}
		}
		return i
	}
	eachSpanInput(func(p []byte) {
		for start := 0; start <= 3 && start <= len(p); start++ {
			if gi, gh := strSpan(p, start); true {
				wi, wh := naiveStr(p, start)
				if gi != wi || gh != wh {
					t.Fatalf("strSpan(%q, %d) = %d, %v; want %d, %v", p, start, gi, gh, wi, wh)
				}
			}
			if g, w := escSpan(p, start), naiveEsc(p, start); g != w {
				t.Fatalf("escSpan(%q, %d) = %d; want %d", p, start, g, w)
			}
		}
	})
}

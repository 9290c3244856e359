package challengers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sampleReply = "The answer streams in several chunks from the model. It ends here."

func readSample(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "cli-samples", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// decodeAll feeds a captured stream in small uneven pieces, as a pty
// delivers it, and returns the streamed text and the final result.
func decodeAll(f Format, raw []byte) (streamed, final string, usage *Usage, streamErr string) {
	d := newDecoder(f)
	var b strings.Builder
	for i := 0; i < len(raw); {
		n := 1 + (i*7)%97
		if i+n > len(raw) {
			n = len(raw) - i
		}
		b.Write(d.Feed(nil, raw[i:i+n]))
		i += n
	}
	final, usage, streamErr = d.Finish(b.String())
	return b.String(), final, usage, streamErr
}

// claudeSampleCost is the total_cost_usd of the claude samples.
var claudeSampleCost = 0.00007999999999999999

// sameUsage compares usages by value, the cost included ("not reported"
// differs from 0).
func sameUsage(a, b Usage) bool {
	if (a.CostUSD == nil) != (b.CostUSD == nil) || a.CostUSD != nil && *a.CostUSD != *b.CostUSD {
		return false
	}
	return a.InputTokens == b.InputTokens && a.OutputTokens == b.OutputTokens && a.Model == b.Model
}

func TestDecodeRealSamples(t *testing.T) {
	cases := []struct {
		file      string
		format    Format
		wantErr   string // substring of the in-stream error, "" for success
		wantUsage *Usage
	}{
		{"claude-stream-json.stdout", FormatClaudeStreamJSON, "", &Usage{InputTokens: 10, OutputTokens: 2, CostUSD: &claudeSampleCost, Model: "claude-opus-5-5"}},
		{"claude-stream-json-partial.stdout", FormatClaudeStreamJSON, "", &Usage{InputTokens: 10, OutputTokens: 2, CostUSD: &claudeSampleCost, Model: "claude-opus-5-5"}},
		{"claude-stream-json-401.stdout", FormatClaudeStreamJSON, "401", nil},
		{"claude-text.stdout", FormatText, "", nil},
		{"gemini-stream-json.stdout", FormatGeminiStreamJSON, "", &Usage{InputTokens: 10, OutputTokens: 2, Model: "fake-model"}},
		{"gemini-stream-json-401.stdout", FormatGeminiStreamJSON, "fake failure 401", nil},
		{"codex-exec-json.stdout", FormatCodexJSON, "", &Usage{InputTokens: 10, OutputTokens: 2}},
		{"codex-exec-json-401.stdout", FormatCodexJSON, "401 Unauthorized", nil},
		{"qwen-stream-json.stdout", FormatQwenStreamJSON, "", &Usage{InputTokens: 20, OutputTokens: 4, Model: "fake-model"}},
		{"qwen-stream-json-partial.stdout", FormatQwenStreamJSON, "", &Usage{InputTokens: 20, OutputTokens: 4, Model: "fake-model"}},
		{"qwen-stream-json-401.stdout", FormatQwenStreamJSON, "API Error: 401", nil},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			streamed, final, usage, streamErr := decodeAll(tc.format, readSample(t, tc.file))
			if tc.wantErr != "" {
				if !strings.Contains(streamErr, tc.wantErr) {
					t.Fatalf("stream error = %q, want it to mention %q", streamErr, tc.wantErr)
				}
				return
			}
			if streamErr != "" {
				t.Fatalf("unexpected stream error %q", streamErr)
			}
			if strings.TrimSpace(streamed) != sampleReply {
				t.Errorf("streamed %q, want the reply exactly once", streamed)
			}
			if final != sampleReply {
				t.Errorf("final %q, want %q", final, sampleReply)
			}
			if tc.wantUsage != nil && (usage == nil || !sameUsage(*usage, *tc.wantUsage)) {
				t.Errorf("usage = %+v, want %+v", usage, tc.wantUsage)
			}
		})
	}
}

func TestDecodeGeminiStreamsDeltasSeparately(t *testing.T) {
	d := newDecoder(FormatGeminiStreamJSON)
	var pieces []string
	for _, line := range strings.SplitAfter(string(readSample(t, "gemini-stream-json.stdout")), "\n") {
		if s := d.Feed(nil, []byte(line)); len(s) > 0 {
			pieces = append(pieces, string(s))
		}
	}
	if len(pieces) != 2 || pieces[1] != "e." {
		t.Fatalf("deltas = %q, want two pieces as the CLI sent them", pieces)
	}
}

func TestDecodeIgnoresNoiseAndGarbage(t *testing.T) {
	in := "Warning: something\n{not json\n\x00\x01\n" +
		`{"type":"message","role":"assistant","content":"hi","delta":true}` + "\n" +
		`{"type":"result","status":"success"}`
	_, final, _, streamErr := decodeAll(FormatGeminiStreamJSON, []byte(in))
	if final != "hi" || streamErr != "" {
		t.Fatalf("final=%q err=%q", final, streamErr)
	}
}

func TestDecodeQwenNetworkErrorWithExitZero(t *testing.T) {
	in := `{"type":"result","subtype":"success","is_error":false,"result":"[API Error: Connection error.]"}` + "\n"
	_, _, _, streamErr := decodeAll(FormatQwenStreamJSON, []byte(in))
	if !strings.Contains(streamErr, "Connection error") {
		t.Fatalf("stream error = %q, want the network error", streamErr)
	}
}

func TestDecodeCodexWarningItemIsNotAFailure(t *testing.T) {
	_, final, _, streamErr := decodeAll(FormatCodexJSON, readSample(t, "codex-exec-json.stdout"))
	if streamErr != "" || final != sampleReply {
		t.Fatalf("final=%q err=%q", final, streamErr)
	}
}

func TestFailureDetailSkipsStartupNoise(t *testing.T) {
	stderr := string(readSample(t, "codex-exec-json-401.stderr")) + "fatal: the model refused\n" + string(readSample(t, "gemini-stream-json.stderr"))
	if got := lastLine(stderr); got != "fatal: the model refused" {
		t.Fatalf("detail %q", got)
	}
	if got := lastLine(string(readSample(t, "codex-exec-json.stderr"))); got != "" {
		t.Fatalf("noise alone gave a detail: %q", got)
	}
}

// An event with an odd usage or cost still gives its reply and error: only
// the odd number is lost, not the event.
func TestDecodeOddNumbersKeepTheEvent(t *testing.T) {
	in := `{"type":"assistant","message":{"content":[{"type":"text","text":"hi"}]}}` + "\n" +
		`{"type":"result","subtype":"success","is_error":false,"result":"hi","usage":{"input_tokens":1.5,"output_tokens":"x"},"total_cost_usd":"free"}` + "\n"
	_, final, usage, streamErr := decodeAll(FormatClaudeStreamJSON, []byte(in))
	if final != "hi" || streamErr != "" || usage == nil || usage.OutputTokens != 0 || usage.CostUSD != nil {
		t.Fatalf("final=%q err=%q usage=%+v", final, streamErr, usage)
	}
	in = `{"type":"result","is_error":true,"error":{"message":"overloaded"},"total_cost_usd":null}`
	if _, _, usage, streamErr := decodeAll(FormatClaudeStreamJSON, []byte(in)); streamErr != "overloaded" || usage != nil {
		t.Fatalf("err=%q usage=%+v", streamErr, usage)
	}
}

// JSON escapes are decoded: an escape sequence a model wrote as "\u001b"
// comes out as the ESC byte here, for the runner's second cleaning.
func TestDecodeUnescapesStrings(t *testing.T) {
	in := `{"type":"message","role":"assistant","content":"a\u001b[2Jb \ud83c\udf89 \"q\"\n"}` + "\n"
	streamed, _, _, _ := decodeAll(FormatGeminiStreamJSON, []byte(in))
	if streamed != "a\x1b[2Jb 🎉 \"q\"\n" {
		t.Fatalf("streamed %q", streamed)
	}
}

// decodeCut decodes raw cut into pieces of the given sizes (cycled).
func decodeCut(f Format, raw []byte, sizes []byte) (streamed, final string, usage *Usage, streamErr string) {
	d := newDecoder(f)
	var b strings.Builder
	for i, k := 0, 0; i < len(raw); k++ {
		n := len(raw)
		if len(sizes) > 0 {
			n = 1 + int(sizes[k%len(sizes)])
		}
		n = min(n, len(raw)-i)
		b.Write(d.Feed(nil, raw[i:i+n]))
		i += n
	}
	final, usage, streamErr = d.Finish(b.String())
	return b.String(), final, usage, streamErr
}

// FuzzDecodeCuts: however a stream is cut into reads, every decoder
// streams the same text and ends with the same reply, usage and error as
// when it gets the stream in one piece, and nothing panics.
func FuzzDecodeCuts(f *testing.F) {
	for _, name := range []string{"claude-stream-json-partial.stdout", "gemini-stream-json.stdout", "codex-exec-json-401.stdout", "qwen-stream-json.stdout"} {
		b, err := os.ReadFile(filepath.Join("testdata", "cli-samples", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, []byte{0, 6, 96})
	}
	f.Add([]byte("{\"type\":\"result\",\"status\":\"error\",\"error\":\"x\"}\r\n{"), []byte{1})
	formats := []Format{FormatText, FormatClaudeStreamJSON, FormatGeminiStreamJSON, FormatCodexJSON, FormatQwenStreamJSON}
	f.Fuzz(func(t *testing.T, raw, sizes []byte) {
		for _, format := range formats {
			s1, f1, u1, e1 := decodeCut(format, raw, nil)
			s2, f2, u2, e2 := decodeCut(format, raw, sizes)
			if s1 != s2 || f1 != f2 || e1 != e2 || (u1 == nil) != (u2 == nil) || u1 != nil && !sameUsage(*u1, *u2) {
				t.Fatalf("%s: whole: %q %q %v %q; cut %v: %q %q %v %q", format, s1, f1, u1, e1, sizes, s2, f2, u2, e2)
			}
		}
	})
}

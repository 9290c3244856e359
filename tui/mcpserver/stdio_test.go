package mcpserver

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// Each line is one JSON-RPC message for the SDK, or answered with an
// error carrying its id when it has a valid one; blank lines are skipped.
func TestFilterLines(t *testing.T) {
	t.Parallel()
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		``,
		`[]`,
		`{"jsonrpc":"2.0","id":"x","method":42}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":3,"result":{}}`,
		`{"jsonrpc":"2.0","id":4,"method":"ping"}` + "\r",
		strings.Repeat("y", maxLine+2),
		`{"jsonrpc":"2.0","id":5,"method":"ping"}`, // no newline at the end
	}, "\n")
	var sdk, out bytes.Buffer
	if err := filterLines(strings.NewReader(in), &sdk, &out, &idSet{}); err != nil {
		t.Fatal(err)
	}
	want := "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\n{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}\n"
	if sdk.String() != want {
		t.Fatalf("the SDK got\n%s", sdk.String())
	}
	var ids []any
	var codes []float64
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var r struct {
			ID    any
			Error struct{ Code float64 }
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		ids, codes = append(ids, r.ID), append(codes, r.Error.Code)
	}
	if len(ids) != 3 || ids[0] != nil || ids[1] != "x" || ids[2] != nil || codes[0] != -32600 || codes[2] != -32600 {
		t.Fatalf("replies %v %v\n%s", ids, codes, out.String())
	}
}

// A credential that came empty or unexpanded (Gemini CLI's ${NAME} of a
// variable it does not have) is left out of the runs' environment; the
// rest stays as it came.
func TestWithoutEmptyCredentials(t *testing.T) {
	t.Parallel()
	m := NewManager(Config{
		Env:         []string{"OPENAI_API_KEY=", "GEMINI_API_KEY=${GEMINI_API_KEY}", "QWEN_API_KEY=$QWEN_API_KEY", "ANTHROPIC_API_KEY=sk-a", "EMPTY_OTHER=", "HOME=/h"},
		Credentials: []string{"OPENAI_API_KEY", "GEMINI_API_KEY", "QWEN_API_KEY", "ANTHROPIC_API_KEY"},
	})
	if got := strings.Join(m.cfg.Env, " "); got != "ANTHROPIC_API_KEY=sk-a EMPTY_OTHER= HOME=/h" {
		t.Fatalf("%s", got)
	}
}

// A host's tool timeout cancels the call with a reason that says so: the
// cancellation never reaches the SDK, so the run the call follows goes
// on. Any other cancellation (a person's Esc) does.
func TestTimedOutCancellationsAreDropped(t *testing.T) {
	t.Parallel()
	timeout := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"McpError: MCP error -32001: Request timed out"}}`
	esc := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":8,"reason":"AbortError: This operation was aborted"}}`
	bare := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}`
	var sdk, out bytes.Buffer
	if err := filterLines(strings.NewReader(strings.Join([]string{timeout, esc, bare}, "\n")), &sdk, &out, &idSet{}); err != nil {
		t.Fatal(err)
	}
	if want := esc + "\n" + bare + "\n"; sdk.String() != want || out.Len() != 0 {
		t.Fatalf("the SDK got\n%s\nreplies:\n%s", sdk.String(), out.String())
	}
}

// A request the client cancelled, by Esc or by its timeout, gets no
// response (the SDK's "context canceled" is dropped); the others do.
func TestCancelledRequestsGetNoResponse(t *testing.T) {
	t.Parallel()
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"AbortError: Tool call aborted"}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"t","reason":"McpError: MCP error -32001: Request timed out"}}`,
	}, "\n")
	var got bytes.Buffer
	cancelled := &idSet{}
	if err := filterLines(strings.NewReader(in), io.Discard, io.Discard, cancelled); err != nil {
		t.Fatal(err)
	}
	w := &lineWriter{w: &got, drop: cancelled}
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"context canceled"}],"isError":true}}` + "\n",
		`{"jsonrpc":"2.0","id":"t","result":{}}` + "\n",
		`{"jsonrpc":"2.0","id":6,"result":{}}` + "\n",
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":5,"progress":1}}` + "\n",
	} {
		w.Write([]byte(line))
	}
	if want := `{"jsonrpc":"2.0","id":6,"result":{}}` + "\n" + `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":5,"progress":1}}` + "\n"; got.String() != want {
		t.Fatalf("written:\n%s", got.String())
	}
}

package mcpserver

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// Over HTTP as on stdio, the cancellation a host sends when a call
// outlasted its tool timeout goes no further than arena, so the run the
// call followed goes on; a person's cancellation (Esc), and every other
// message, reach the SDK with their bodies whole.
func TestHTTPDropsTimedOutCancellations(t *testing.T) {
	t.Parallel()
	var reached []string
	h := readWhole(time.Minute, dropTimedOut(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		reached = append(reached, string(b))
	})))
	timeout := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"McpError: MCP error -32001: Request timed out"}}`
	esc := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":8,"reason":"AbortError: This operation was aborted"}}`
	call := `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"run_status","arguments":{"reason":"timed out"}}}`
	for _, body := range []string{timeout, esc, call} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(body)))
		if body == timeout && w.Code != http.StatusAccepted {
			t.Fatalf("a timed-out call's cancellation: %d, want 202", w.Code)
		}
	}
	if len(reached) != 2 || reached[0] != esc || reached[1] != call {
		t.Fatalf("what reached the SDK: %q", reached)
	}
}

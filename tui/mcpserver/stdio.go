package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK's stdio transport ends the session at the first line it cannot
// decode: "[]", "null", "42", a wrong "jsonrpc", an object as id, a batch
// (which the protocol dropped in 2025-06-18) or a line over 16 MiB each
// ended arena mcp, every run interrupted. JSON-RPC answers such a line
// with an error and carries on, so arena reads stdin itself: each line
// the SDK would refuse is answered here, and only the others reach it.
// Only the end of stdin ends the session.
//
// A host that gives up on a tool call (its tool timeout) cancels it, as
// a person's Esc in Claude Code does, and a cancelled call stops the run
// it follows. A timeout is not a person's wish to stop: the cancellation
// that says it timed out is dropped here, so the run goes on, the call
// answers when its wait ends (the host has stopped listening), and the
// model follows the run again with run_status.
//
// A request the client cancelled gets no response: the protocol says so,
// and the TypeScript SDK (Claude Code, Gemini CLI, Qwen Code) takes one
// for an unknown request as an error of the server's, which Qwen Code
// shows as "1 MCP offline" for good. The SDK answers every request, a
// cancelled one with "context canceled": the writer drops that answer.

// maxLine is the longest line read, the SDK's own bound.
const maxLine = mcp.DefaultMaxLineLength

// Stdio is the transport of arena mcp on in and out: the SDK's stdio
// transport, behind a reader that answers malformed lines itself.
func Stdio(in io.Reader, out io.Writer) mcp.Transport {
	cancelled := &idSet{}
	w := &lineWriter{w: out, drop: cancelled}
	pr, pw := io.Pipe()
	go func() {
		pw.CloseWithError(filterLines(in, pw, w, cancelled))
	}()
	return &mcp.IOTransport{Reader: pr, Writer: w, MaxLineLength: maxLine + 1}
}

// filterLines copies to sdk the lines of in that are one JSON-RPC
// message, and answers every other line on out; it keeps the ids of the
// requests the client cancelled in cancelled. It returns at the end of in
// (nil: the SDK sees EOF), or when the SDK has gone.
func filterLines(in io.Reader, sdk io.Writer, out io.Writer, cancelled *idSet) error {
	br := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readLine(br)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			reply := refusal(line, tooLong)
			id, timeout := cancellation(line)
			if id != "" {
				cancelled.add(id)
			}
			var werr error
			switch {
			case reply != nil:
				_, werr = out.Write(reply)
			case !timeout: // a timed-out call's cancellation is dropped: the run goes on
				_, werr = sdk.Write(append(line, '\n'))
			}
			if werr != nil {
				return werr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readLine reads one line without its newline, at most maxLine bytes of
// it: a longer one is read to its end and dropped (tooLong).
func readLine(br *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			line = append(line, chunk...)
			if len(line) > maxLine+1 {
				line, tooLong = nil, true
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, err
	}
}

// refusal is the error reply to a line the SDK would not take, or nil for
// one JSON-RPC message (a request, a notification or a response).
func refusal(line []byte, tooLong bool) []byte {
	switch {
	case tooLong:
		return errorReply(nil, jsonrpc.CodeInvalidRequest, "the line is longer than 16 MiB")
	case !json.Valid(line):
		return errorReply(nil, jsonrpc.CodeParseError, "the line is not one JSON value")
	case bytes.TrimSpace(line)[0] != '{':
		return errorReply(nil, jsonrpc.CodeInvalidRequest, "a JSON-RPC message is an object (batches are not supported since protocol version 2025-06-18)")
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return errorReply(idOf(line), jsonrpc.CodeInvalidRequest, "not a JSON-RPC 2.0 message: "+err.Error())
	}
	return nil
}

// cancellation is the id of the request a message cancels ("" when it is
// no cancellation), and whether it is the one a host sends when a call
// outlasted its tool timeout: the MCP TypeScript SDK's (Claude Code,
// Gemini CLI, Qwen Code) gives the reason "McpError: MCP error -32001:
// Request timed out".
func cancellation(line []byte) (id string, timeout bool) {
	var m struct {
		Method string
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
			Reason    string
		}
	}
	if json.Unmarshal(line, &m) != nil || m.Method != "notifications/cancelled" || len(m.Params.RequestID) == 0 {
		return "", false
	}
	r := strings.ToLower(m.Params.Reason)
	return string(m.Params.RequestID), strings.Contains(r, "timed out") || strings.Contains(r, "timeout") || strings.Contains(r, "-32001")
}

// idSet is the ids of the requests the client cancelled, as JSON.
type idSet struct {
	mu  sync.Mutex
	ids map[string]bool
}

func (s *idSet) add(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ids == nil {
		s.ids = map[string]bool{}
	}
	s.ids[id] = true
}

// take says whether id is in the set, and takes it out.
func (s *idSet) take(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	ok := s.ids[id]
	delete(s.ids, id)
	return ok
}

// idOf is the id of a malformed message when it has a valid one, for the
// reply; nil otherwise (the reply's id is then null).
func idOf(line []byte) any {
	var m struct{ ID any }
	if json.Unmarshal(line, &m) != nil {
		return nil
	}
	switch id := m.ID.(type) {
	case string, float64:
		return id
	}
	return nil
}

func errorReply(id any, code int64, message string) []byte {
	b, _ := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      any    `json:"id"`
		Error   any    `json:"error"`
	}{"2.0", id, &jsonrpc.Error{Code: code, Message: message}})
	return append(b, '\n')
}

// lineWriter writes whole lines, one writer at a time: the SDK's messages
// and the refusals share stdout. It drops the response to a request the
// client cancelled (drop).
type lineWriter struct {
	mu   sync.Mutex
	w    io.Writer
	drop *idSet
}

func (l *lineWriter) Write(p []byte) (int, error) {
	if l.drop != nil {
		var m struct {
			ID     json.RawMessage
			Method string
		}
		if json.Unmarshal(p, &m) == nil && m.Method == "" && len(m.ID) > 0 && l.drop.take(string(m.ID)) {
			return len(p), nil
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Close leaves stdout open: the server may still print on it.
func (l *lineWriter) Close() error { return nil }

package mcpserver

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ListenLoopback listens on addr, which must be a loopback address: the
// tools spend the user's model calls and read their files, and the server
// has no authentication.
func ListenLoopback(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (give host:port, e.g. 127.0.0.1:8765)", addr, err)
	}
	ip := net.ParseIP(host)
	if host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("%s: arena serves MCP on a loopback address only (127.0.0.1, ::1 or localhost): it has no authentication, and its tools spend your model calls", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", addr, err)
	}
	return ln, nil
}

// ServeHTTP serves Streamable HTTP at /mcp until ctx ends. The SDK
// refuses requests whose Host is not loopback (DNS rebinding); browsers'
// cross-origin requests are refused too.
func ServeHTTP(ctx context.Context, ln net.Listener, server *mcp.Server, stderr io.Writer) error {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	mux := http.NewServeMux()
	mux.Handle("/mcp", http.NewCrossOriginProtection().Handler(h))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stderr, "arena mcp: serving on http://%s/mcp\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		return nil
	}
}

package mcpserver

import (
	"bytes"
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/arenadebate/arena/tui/loopback"
)

// arena mcp --http. Loopback is no boundary between the users of one
// machine: without a secret, any of them could call the tools as the
// server's user (read that user's files as judged evidence, run a ranked
// repository's tests as that user). Every request carries the token as
// Authorization: Bearer, checked before a byte of its body is read; a
// request's body must arrive in time, sessions are capped and close when
// idle, and a session that is gone stops the runs it started, as on stdio.

// HTTPOptions are what the server holds its clients to.
type HTTPOptions struct {
	// Token is the secret every request carries as Authorization: Bearer.
	Token string
	// MaxSessions bounds the sessions open at once (default 32).
	MaxSessions int
	// SessionIdle closes a session no request came for in this long
	// (default 30 minutes), which stops its runs.
	SessionIdle time.Duration
	// BodyTimeout bounds the time a request's body takes to arrive
	// (default 30 seconds).
	BodyTimeout time.Duration
}

func (o *HTTPOptions) defaults() {
	if o.MaxSessions <= 0 {
		o.MaxSessions = 32
	}
	if o.SessionIdle <= 0 {
		o.SessionIdle = 30 * time.Minute
	}
	if o.BodyTimeout <= 0 {
		o.BodyTimeout = 30 * time.Second
	}
}

// ListenLoopback listens on addr, which must be a loopback address: the
// tools spend the user's model calls and read their files.
func ListenLoopback(addr string) (net.Listener, error) {
	return loopback.Listen(addr, "MCP", "its tools spend your model calls and read your files")
}

// ServeHTTP serves Streamable HTTP at /mcp until ctx ends. The SDK
// refuses requests whose Host is not loopback (DNS rebinding); browsers'
// cross-origin requests are refused too.
func ServeHTTP(ctx context.Context, ln net.Listener, m *Manager, opts HTTPOptions) error {
	if opts.Token == "" {
		return errors.New("arena mcp --http needs a token")
	}
	opts.defaults()
	return loopback.Serve(ctx, ln, httpHandler(m, opts))
}

// httpHandler is /mcp: the token first, then the body within its time,
// then the session's handler. A client of protocol version 2026-07-28
// has no session (each request stands alone: SEP-2575), which the SDK
// serves statelessly only; the others get a session.
func httpHandler(m *Manager, opts HTTPOptions) http.Handler {
	sessions := &sessionCap{
		server: NewServer(m),
		max:    opts.MaxSessions,
	}
	sessions.h = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return sessions.server }, &mcp.StreamableHTTPOptions{SessionTimeout: opts.SessionIdle})
	stateless := NewServer(m)
	sessionless := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return stateless }, &mcp.StreamableHTTPOptions{Stateless: true, PropagateRequestCancellation: true})
	var route http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Mcp-Protocol-Version") >= "2026-07-28" {
			sessionless.ServeHTTP(w, r)
			return
		}
		sessions.ServeHTTP(w, r)
	})
	route = readWhole(opts.BodyTimeout, dropTimedOut(route))
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if subtle.ConstantTimeCompare([]byte(token), []byte(opts.Token)) != 1 {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: "arena"}, nil
	}
	bearer := auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})
	mux := http.NewServeMux()
	mux.Handle("/mcp", http.NewCrossOriginProtection().Handler(bearer(route)))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mux.ServeHTTP(&closeRefused{ResponseWriter: w}, r)
	})
}

// closeRefused closes the connection of a refused request: net/http
// would otherwise read the rest of its body before answering, to keep
// the connection, and a client without the token that stalls its body
// would hold the connection and get no answer.
type closeRefused struct{ http.ResponseWriter }

func (c *closeRefused) WriteHeader(code int) {
	if code >= http.StatusBadRequest {
		c.Header().Set("Connection", "close")
	}
	c.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController and the SDK reach the connection.
func (c *closeRefused) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// Flush is for the SDK's event streams.
func (c *closeRefused) Flush() {
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// maxBody is the SDK's bound on a request's body.
const maxBody = mcp.DefaultMaxRequestBodyBytes

// readBody reads a request's body whole within timeout, and puts it back
// for the handler: a client that sends its headers and stalls holds a
// connection no longer than that (1,500 stalled bodies were held forever,
// until the server ran out of file descriptors). The deadline is lifted
// once the body is in, as the answer to a call may take a minute. It says
// whether to go on; when not, it has answered.
func readBody(w http.ResponseWriter, r *http.Request, timeout time.Duration) bool {
	if r.Body == nil || r.Body == http.NoBody {
		return true
	}
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(timeout))
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	_ = rc.SetReadDeadline(time.Time{})
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		http.Error(w, fmt.Sprintf("the request's body is over %d bytes", maxBody), http.StatusRequestEntityTooLarge)
		return false
	case err != nil:
		w.Header().Set("Connection", "close")
		http.Error(w, "the request's body did not arrive in time", http.StatusRequestTimeout)
		return false
	}
	r.Body = &readBack{Reader: bytes.NewReader(body), body: body}
	return true
}

// readWhole reads a request's body whole (readBody) before next.
func readWhole(timeout time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if readBody(w, r, timeout) {
			next.ServeHTTP(w, r)
		}
	})
}

// dropTimedOut takes the cancellation a host sends when a call outlasted
// its tool timeout, and passes the rest to next. As on stdio, a tool
// timeout is no wish to stop the run the call followed.
func dropTimedOut(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if timedOut(r) {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// timedOut says whether a request (its body read by readBody) is the
// cancellation a host sends when a call outlasted its tool timeout.
func timedOut(r *http.Request) bool {
	b, ok := r.Body.(interface{ Bytes() []byte })
	if !ok {
		return false
	}
	_, timeout := cancellation(b.Bytes())
	return timeout
}

// readBack is a body read whole, put back for the handler.
type readBack struct {
	*bytes.Reader
	body []byte
}

func (b *readBack) Close() error  { return nil }
func (b *readBack) Bytes() []byte { return b.body }

// sessionCap refuses a new session while max are open (5,000 sessions took
// the server from 30 to 116 MB). Requests opening one are taken one at a
// time, so that two cannot both find the last place free.
type sessionCap struct {
	server *mcp.Server
	h      http.Handler
	max    int
	mu     sync.Mutex
}

func (c *sessionCap) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.Header.Get("Mcp-Session-Id") != "" {
		c.h.ServeHTTP(w, r)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for range c.server.Sessions() {
		n++
	}
	if n >= c.max {
		w.Header().Set("Retry-After", "60")
		http.Error(w, fmt.Sprintf("%d sessions are open, the most this server keeps (arena mcp --max-sessions); an idle one closes by itself", n), http.StatusServiceUnavailable)
		return
	}
	c.h.ServeHTTP(w, r)
}

// URL is where a listener serves arena's MCP endpoint.
func URL(ln net.Listener) string {
	return "http://" + ln.Addr().String() + "/mcp"
}

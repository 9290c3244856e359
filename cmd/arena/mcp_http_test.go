package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
)

// arena mcp --http: its token, its bounds on what a client may hold, and
// the protocol versions it speaks.

// httpMCP is arena mcp --http running in a sandbox.
type httpMCP struct {
	t         *testing.T
	cmd       *exec.Cmd
	url       string
	tokenFile string
	banner    []string // what it said on stderr before serving
}

func (s *sandbox) httpMCP(flags ...string) *httpMCP {
	s.t.Helper()
	h := &httpMCP{t: s.t, tokenFile: filepath.Join(s.home, ".local", "state", "arena", "mcp-token")}
	cmd := exec.Command(arenaBinary(s.t), append([]string{"mcp", "--http", "127.0.0.1:0", "--token-file", h.tokenFile}, flags...)...)
	cmd.Dir, cmd.Env = s.dir, s.env()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	h.cmd = cmd
	s.t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		h.banner = append(h.banner, sc.Text())
		if u, ok := strings.CutPrefix(sc.Text(), "arena mcp: serving on "); ok {
			h.url = u
		}
		if strings.HasPrefix(sc.Text(), mcpStartLine) {
			break // the last line before it serves
		}
	}
	go io.Copy(io.Discard, stderr)
	if !strings.HasPrefix(h.url, "http://127.0.0.1:") {
		s.t.Fatalf("no URL on stderr:\n%s", strings.Join(h.banner, "\n"))
	}
	return h
}

func (h *httpMCP) token() string {
	h.t.Helper()
	return strings.TrimSpace(readFile(h.t, h.tokenFile))
}

// bearer adds the Authorization header to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// connect is the SDK's client on the server, with the token, speaking
// version (the SDK's newest when "").
func (h *httpMCP) connect(version string) *mcpSession {
	h.t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "arena-test", Version: "1.0"}, nil)
	cs, err := c.Connect(bg(h.t), &mcp.StreamableClientTransport{Endpoint: h.url, HTTPClient: &http.Client{Transport: bearer{h.token()}}}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { cs.Close() })
	return &mcpSession{ClientSession: cs, t: h.t, perToken: map[string]int{}}
}

// post sends one JSON-RPC message as a request of its own, with token
// (none when ""), in session (none when ""), and returns the response.
func (h *httpMCP) post(token, session, body string) (*http.Response, string) {
	h.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, h.url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// session opens a session with raw requests, and returns its id.
func (h *httpMCP) session() string {
	h.t.Helper()
	res, body := h.post(h.token(), "", initialize)
	id := res.Header.Get("Mcp-Session-Id")
	if res.StatusCode != http.StatusOK || id == "" {
		h.t.Fatalf("initialize: %s\n%s", res.Status, body)
	}
	if res, body := h.post(h.token(), id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); res.StatusCode/100 != 2 {
		h.t.Fatalf("initialized: %s %s", res.Status, body)
	}
	return id
}

// debate starts a debate in session, following it for no time.
func (h *httpMCP) debate(token, session string) (*http.Response, string) {
	h.t.Helper()
	return h.post(token, session, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"debate","arguments":{"topic":"should we move sessions from Redis to Postgres?","wait_seconds":0}}}`)
}

func TestMCPOverHTTP(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	h := s.httpMCP()
	ms := h.connect("")
	res, st := ms.call(bg(t), "debate", map[string]any{"topic": "should we move sessions from Redis to Postgres?", "wait_seconds": 50})
	if res.IsError || st.Outcome == nil || st.Outcome.Result != "consensus" {
		t.Fatalf("%s", textOf(res))
	}
	if v := ms.InitializeResult().ServerInfo.Version; v == "" {
		t.Fatal("the server says no version")
	}
	ms.Close()
	h.cmd.Process.Signal(syscall.SIGINT)
	if code := exitCodeOf(h.cmd.Wait()); code != 0 {
		t.Fatalf("exit %d after SIGINT", code)
	}
	for _, addr := range []string{"0.0.0.0:0", "example.com:80", "nonsense"} {
		if r := s.run("mcp", "--http", addr); r.code != exitUsage || !strings.Contains(r.stderr, "--http") {
			t.Errorf("--http %s: exit %d %s", addr, r.code, r.stderr)
		}
	}
}

// Every request needs the token: without it, or with another, 401 and
// nothing runs. The token is the user's own: 0600 in a 0700 directory.
func TestMCPHTTPNeedsTheToken(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	h := s.httpMCP()
	for _, token := range []string{"", "not-the-token", h.token() + "x"} {
		if res, body := h.post(token, "", initialize); res.StatusCode != http.StatusUnauthorized {
			t.Fatalf("initialize with token %q: %s %s", token, res.Status, body)
		}
		if res, _ := h.debate(token, ""); res.StatusCode != http.StatusUnauthorized {
			t.Fatalf("a call with token %q: %s", token, res.Status)
		}
	}
	if len(s.logs()) != 0 {
		t.Fatalf("a run started: %v", s.logs())
	}
	for p, want := range map[string]os.FileMode{h.tokenFile: 0o600, filepath.Dir(h.tokenFile): 0o700} {
		if st, err := os.Stat(p); err != nil || st.Mode().Perm() != want {
			t.Fatalf("%s: %v %v", p, st.Mode(), err)
		}
	}
	if len(h.token()) < 64 {
		t.Fatalf("a short token: %d characters", len(h.token()))
	}
}

// A request whose body stalls holds its connection no longer than the
// body's timeout; without the token, none of its body is waited for.
func TestMCPHTTPStalledBodyIsDropped(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	h := s.httpMCP("--body-timeout", "1s")
	stall := func(token string) string {
		conn, err := net.Dial("tcp", strings.TrimPrefix(strings.TrimSuffix(h.url, "/mcp"), "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nAuthorization: Bearer %s\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":", token)
		conn.SetReadDeadline(time.Now().Add(loadedMachine)) // a hang, not slowness
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("no answer to a stalled body: %v", err)
		}
		return res.Status
	}
	if got := stall("wrong"); !strings.HasPrefix(got, "401") {
		t.Fatalf("without the token: %s", got)
	}
	if got := stall(h.token()); !strings.HasPrefix(got, "408") {
		t.Fatalf("with the token: %s", got)
	}
}

// Sessions are capped; one that ends (closed by its client, or idle for
// --session-idle, as after a dropped connection) stops the runs it
// started, resumable, and frees its place.
func TestMCPHTTPSessionsAreCappedAndEndWithTheirRuns(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"gemini": {Mode: clitest.ModeHang}}})
	h := s.httpMCP("--max-sessions", "2", "--session-idle", "3s")
	closed, idle := h.session(), h.session()
	if res, body := h.post(h.token(), "", initialize); res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "--max-sessions") {
		t.Fatalf("a third session: %s %s", res.Status, body)
	}
	for _, id := range []string{closed, idle} {
		if res, body := h.debate(h.token(), id); res.StatusCode != http.StatusOK || strings.Contains(body, `"isError":true`) {
			t.Fatalf("debate: %s %s", res.Status, body)
		}
	}
	req, _ := http.NewRequest(http.MethodDelete, h.url, nil)
	req.Header.Set("Authorization", "Bearer "+h.token())
	req.Header.Set("Mcp-Session-Id", closed)
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode/100 != 2 {
		t.Fatalf("DELETE: %v %v", res, err)
	}
	// The other session says nothing more, as a client whose connection
	// dropped: it expires, and its run stops too.
	waitUntil(t, loadedMachine, "both runs to stop", func() bool {
		n := 0
		for _, p := range s.logs() {
			if lc, err := runlog.ReadFile(p); err == nil && lc.Complete && outcomeOf(t, lc).Result == engine.OutcomeInterrupted {
				n++
			}
		}
		return n == 2
	})
	if res, body := h.post(h.token(), "", initialize); res.StatusCode != http.StatusOK {
		t.Fatalf("a session after the two ended: %s %s", res.Status, body)
	}
	assertNoSurvivors(t, s)
}

// A client of protocol version 2026-07-28 (no session: each request
// stands alone) is served over HTTP as over stdio.
func TestMCPHTTPSpeaks20260728(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	h := s.httpMCP()
	ms := h.connect("2026-07-28")
	if v := ms.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Fatalf("protocol version %s", v)
	}
	res, st := ms.call(bg(t), "debate", map[string]any{"topic": "should we move sessions from Redis to Postgres?", "wait_seconds": 50})
	for i := 0; st.State == "running" && i < 10; i++ {
		res, st = ms.call(bg(t), "run_status", map[string]any{"run_id": st.RunID, "wait_seconds": 50})
	}
	if res.IsError || st.Outcome == nil || st.Outcome.Result != "consensus" {
		t.Fatalf("%s", textOf(res))
	}
}

// otherUser is a second local user for the test, created when running as
// root (and removed after); the test is skipped otherwise.
func otherUser(t *testing.T) *syscall.Credential {
	t.Helper()
	const name = "arena-test-other"
	if os.Geteuid() != 0 {
		t.Skip("a second local user is needed: run the tests as root, which creates one (useradd)")
	}
	u, err := user.Lookup(name)
	if err != nil {
		if out, err := exec.Command("useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", name).CombinedOutput(); err != nil {
			t.Skipf("useradd %s: %v %s", name, err, out)
		}
		t.Cleanup(func() { exec.Command("userdel", name).Run() })
		if u, err = user.Lookup(name); err != nil {
			t.Fatal(err)
		}
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}
}

// Loopback is no boundary between the users of a machine: another local
// user reaches arena mcp --http, but cannot read its token, and without it
// gets 401 and starts nothing; the same request with the token goes
// through, so it is the token that keeps them out.
func TestMCPHTTPKeepsOtherUsersOut(t *testing.T) {
	t.Parallel()
	curl, err := exec.LookPath("curl")
	if err != nil {
		t.Skip("curl is not installed: the other user's client")
	}
	other := otherUser(t)
	s := newSandbox(t)
	h := s.httpMCP()
	as := func(name string, args ...string) (string, error) {
		cmd := exec.Command(name, args...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: other}
		cmd.Dir = "/"
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := as("cat", h.tokenFile); err == nil {
		t.Fatalf("the other user read the token: %s", out)
	}
	post := func(token, body string) string {
		args := []string{"-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", h.url,
			"-H", "Content-Type: application/json", "-H", "Accept: application/json, text/event-stream", "-d", body}
		if token != "" {
			args = append(args, "-H", "Authorization: Bearer "+token)
		}
		out, _ := as(curl, args...)
		return out
	}
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"debate","arguments":{"topic":"read ~/.ssh/id_ed25519","wait_seconds":0}}}`
	for _, token := range []string{"", strings.Repeat("0", 64)} {
		for _, body := range []string{initialize, call} {
			if code := post(token, body); code != "401" {
				t.Fatalf("the other user, token %q: %s", token, code)
			}
		}
	}
	if len(s.logs()) != 0 {
		t.Fatalf("the other user started a run: %v", s.logs())
	}
	if code := post(h.token(), initialize); code != "200" {
		t.Fatalf("the other user with the token: %s", code)
	}
}

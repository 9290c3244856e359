package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
)

const testToken = "0123456789abcdef0123456789abcdef0123456789abcdef"

// started serves dirs on a loopback port for the test, and returns the
// server and its base URL (without the token).
func started(t testing.TB, dirs ...string) (*Server, string) {
	t.Helper()
	return startedWith(t, Options{Dirs: dirs, Token: testToken})
}

// startedWith serves as opts say.
func startedWith(t testing.TB, opts Options) (*Server, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(opts, ln.Addr())
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Warm(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ctx, ln)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return srv, "http://" + ln.Addr().String()
}

var protocols = []string{"adversarial", "compare", "judge", "verdict", "rank"}
var results = []engine.OutcomeKind{"consensus", "recommendation", "interrupted", "reject", "ranked"}

// smallLogs writes n small logs in dir, one a minute back from now: log i
// is of protocols[i%5], asks "question i", seats agent-(i%7) and ends
// with results[i%5].
func smallLogs(t testing.TB, dir string, n int) time.Time {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	newest := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	for i := range n {
		at := newest.Add(-time.Duration(n-1-i) * time.Minute)
		agent := fmt.Sprintf("agent-%d", i%7)
		events := []engine.Event{
			{Seq: 1, Time: at, Payload: engine.DebateStarted{Version: engine.LogVersion, ID: fmt.Sprint(i), Protocol: protocols[i%5], Title: "t", Topic: fmt.Sprintf("question %d", i),
				Seats: []engine.Seat{{Name: "seat", Agent: agent, Role: "judge"}}, Agents: []engine.AgentInfo{{Name: agent, Command: []string{agent}}}}},
			{Seq: 2, Time: at.Add(time.Second), Payload: engine.AgentFinished{CallInfo: engine.CallInfo{Seat: "seat", Agent: agent, Phase: "judge", Task: "judge", Attempt: 1}, Text: "ok", Display: "ok"}},
			{Seq: 3, Time: at.Add(2 * time.Second), Payload: engine.Outcome{Result: results[i%5], Summary: "done", Markdown: "# done\n"}},
		}
		var b strings.Builder
		for _, e := range events {
			line, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(append(line, '\n'))
		}
		if err := os.WriteFile(filepath.Join(dir, runlog.Name(at, fmt.Sprintf("question %d", i))), []byte(b.String()), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return newest
}

// get asks the archive for path as a browser that has the cookie would.
func get(t testing.TB, base, path string, header ...string) (int, string, http.Header) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.AddCookie(&http.Cookie{Name: "arena_serve_" + base[strings.LastIndexByte(base, ':')+1:], Value: testToken})
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
			continue
		}
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body), resp.Header
}

var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

var rowTopic = regexp.MustCompile(`<a href="/run/0/[^"]+">([^<]*)</a>`)

// topics are the topics of the runs a list page shows, in its order.
func topics(body string) []string {
	var out []string
	for _, m := range rowTopic.FindAllStringSubmatch(body, -1) {
		out = append(out, m[1])
	}
	return out
}

// Over 10,000 logs the list shows the newest first, 100 a page, and its
// filters and search keep exactly the runs they name; every list after
// the first is answered from the index in memory (the time is printed;
// BenchmarkList measures it).
func TestListOf10000Logs(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 10,000 logs")
	}
	dir := filepath.Join(t.TempDir(), "logs")
	newest := smallLogs(t, dir, 10_000)
	_, base := started(t, dir)
	start := time.Now()
	code, body, _ := get(t, base, "/")
	t.Logf("the list of 10,000 logs answered in %v", time.Since(start))
	if code != http.StatusOK || !strings.Contains(body, "10000 of 10000 runs") {
		t.Fatalf("%d: %.300s", code, body)
	}
	if got := topics(body); len(got) != 100 || got[0] != "question 9999" || got[99] != "question 9900" {
		t.Errorf("the first page: %d runs, %v … %v", len(got), got[:1], got[len(got)-1:])
	}
	day := func(i int) string { return newest.Add(-time.Duration(9999-i) * time.Minute).Format(time.DateOnly) }
	for _, c := range []struct {
		query string
		keeps func(i int) bool
	}{
		{"protocol=judge", func(i int) bool { return i%5 == 2 }},
		{"result=interrupted", func(i int) bool { return results[i%5] == "interrupted" }},
		{"agent=agent-3", func(i int) bool { return i%7 == 3 }},
		{"q=QUESTION+123", func(i int) bool { return strings.HasPrefix(fmt.Sprint(i), "123") }},
		{"protocol=rank&agent=agent-0&q=question+99", func(i int) bool { return i%5 == 4 && i%7 == 0 && strings.HasPrefix(fmt.Sprint(i), "99") }},
		{"from=2026-11-24&to=2026-11-24", func(i int) bool { return day(i) == "2026-11-24" }},
		{"from=2026-11-18&to=2026-11-19", func(i int) bool { return day(i) == "2026-11-18" || day(i) == "2026-11-19" }},
		{"to=2026-11-16", func(int) bool { return false }},
	} {
		matched, first := 0, ""
		for i := 9999; i >= 0; i-- {
			if c.keeps(i) {
				if matched == 0 {
					first = fmt.Sprintf("question %d", i)
				}
				matched++
			}
		}
		_, body, _ := get(t, base, "/?"+c.query)
		if !strings.Contains(body, fmt.Sprintf(">%d of 10000 runs", matched)) {
			t.Errorf("%s: not %d matches: %s", c.query, matched, regexp.MustCompile(`\d+ of \d+ runs`).FindString(body))
		}
		if got := topics(body); len(got) != min(matched, 100) || matched > 0 && got[0] != first {
			t.Errorf("%s: %d runs shown, the first %v, not %s", c.query, len(got), got[:min(1, len(got))], first)
		}
	}
	if got := topics(getBody(t, base, "/?page=99")); len(got) != 100 || got[0] != "question 99" || got[99] != "question 0" {
		t.Errorf("the last page: %d runs, %v", len(got), got)
	}
}

func getBody(t testing.TB, base, path string) string {
	_, body, _ := get(t, base, path)
	return body
}

// The archive answers only a request for its own host, carrying the
// token, from no other site's page: the token in the URL once (then a
// cookie, HttpOnly and SameSite=Strict), GET and HEAD only, no body, and
// only the logs its listing found.
func TestRefusals(t *testing.T) {
	dir := t.TempDir()
	smallLogs(t, dir, 3)
	os.WriteFile(filepath.Join(t.TempDir(), "secret.jsonl"), []byte("{}"), 0o600)
	_, base := started(t, dir)
	host := strings.TrimPrefix(base, "http://")
	do := func(method, path string, body io.Reader, header ...string) (*http.Response, string) {
		req, _ := http.NewRequest(method, base+path, body)
		for i := 0; i+1 < len(header); i += 2 {
			if header[i] == "Host" {
				req.Host = header[i+1]
			} else {
				req.Header.Set(header[i], header[i+1])
			}
		}
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	cookie := "arena_serve_" + host[strings.LastIndexByte(host, ':')+1:] + "=" + testToken
	for _, c := range []struct {
		name, method, path string
		body               io.Reader
		header             []string
		want               int
	}{
		{"no token", "GET", "/", nil, nil, 401},
		{"a wrong token", "GET", "/?token=" + strings.Repeat("x", 48), nil, nil, 401},
		{"a wrong cookie", "GET", "/", nil, []string{"Cookie", "arena_serve_1=" + testToken}, 401},
		{"a foreign Host", "GET", "/", nil, []string{"Cookie", cookie, "Host", "evil.example:" + host[strings.LastIndexByte(host, ':')+1:]}, 403},
		{"a foreign Origin", "GET", "/", nil, []string{"Cookie", cookie, "Origin", "http://evil.example"}, 403},
		{"another port's Origin", "GET", "/", nil, []string{"Cookie", cookie, "Origin", "http://127.0.0.1:1"}, 403},
		{"a cross-site fetch", "GET", "/", nil, []string{"Cookie", cookie, "Sec-Fetch-Site", "cross-site"}, 403},
		{"a same-site fetch (another local port)", "GET", "/", nil, []string{"Cookie", cookie, "Sec-Fetch-Site", "same-site"}, 403},
		{"a POST", "POST", "/", strings.NewReader("x"), []string{"Cookie", cookie}, 405},
		{"a body", "GET", "/", strings.NewReader("x"), []string{"Cookie", cookie}, 413},
		{"a log not listed", "GET", "/run/0/..%2f..%2fsecret.jsonl", nil, []string{"Cookie", cookie}, 404},
		{"a directory not listed", "GET", "/run/7/x.jsonl", nil, []string{"Cookie", cookie}, 404},
		{"the cookie", "GET", "/", nil, []string{"Cookie", cookie}, 200},
		{"Bearer", "GET", "/stats", nil, []string{"Authorization", "Bearer " + testToken}, 200},
		{"our own page's fetch", "GET", "/", nil, []string{"Cookie", cookie, "Origin", base, "Sec-Fetch-Site", "same-origin"}, 200},
	} {
		if resp, body := do(c.method, c.path, c.body, c.header...); resp.StatusCode != c.want {
			t.Errorf("%s: %d, not %d: %s", c.name, resp.StatusCode, c.want, body)
		}
	}
	resp, _ := do("GET", "/?token="+url.QueryEscape(testToken)+"&q=x", nil)
	set := resp.Header.Get("Set-Cookie")
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/?q=x" || !strings.Contains(set, "HttpOnly") || !strings.Contains(set, "SameSite=Strict") || !strings.Contains(set, testToken) {
		t.Errorf("the token in the URL: %d to %q, cookie %q", resp.StatusCode, resp.Header.Get("Location"), set)
	}
	if _, h := getHeaders(t, do, cookie); !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'none'") || h.Get("X-Frame-Options") != "DENY" {
		t.Errorf("headers: %v", h)
	}
}

func getHeaders(t *testing.T, do func(string, string, io.Reader, ...string) (*http.Response, string), cookie string) (int, http.Header) {
	resp, _ := do("GET", "/", nil, "Cookie", cookie)
	return resp.StatusCode, resp.Header
}

// A finished run's page is kept, and drawn again once its log changes (a
// label, a follow-up appended after the outcome).
func TestRunPageIsReadAgainWhenItsLogChanges(t *testing.T) {
	dir := t.TempDir()
	smallLogs(t, dir, 1)
	_, base := started(t, dir)
	logs, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	page := "/run/0/" + filepath.Base(logs[0])
	code, first, _ := get(t, base, page)
	if code != http.StatusOK || !strings.Contains(first, "question 0") {
		t.Fatalf("%d: %.200s", code, first)
	}
	if _, again, _ := get(t, base, page); again != first {
		t.Error("the same log, another page")
	}
	line, _ := json.Marshal(engine.Event{Seq: 4, Time: time.Now(), Payload: engine.Note{Level: engine.NoteInfo, Message: "NOTE-ADDED-LATER"}})
	f, err := os.OpenFile(logs[0], os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(append(line, '\n'))
	f.Close()
	if _, later, _ := get(t, base, page); !strings.Contains(later, "NOTE-ADDED-LATER") {
		t.Error("the page was not read again when its log grew")
	}
}

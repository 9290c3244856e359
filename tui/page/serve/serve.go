// Package serve is arena serve: a local, read-only archive of the log
// directories in a browser. The runs, newest first, filtered by protocol,
// result, agent and date, with a search; each run's page (arena export's,
// package page), following a run still going as its log grows (server-sent
// events); and arena stats as a page of plots.
//
// Loopback is no boundary between the users of one machine, and a browser
// visits other sites: the guards of arena mcp --http hold here too. It
// listens on loopback only; every request carries the token (from the URL
// it prints, once: it is then an HttpOnly, SameSite=Strict cookie, or
// Authorization: Bearer); a Host that is not the listener's own (DNS
// rebinding) and an Origin or fetch from another site are refused; only
// GET and HEAD are answered, with no body; and nothing but the logs the
// listing found is ever read.
package serve

import (
	"bytes"
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	_ "embed"

	"github.com/arenadebate/arena/tui/loopback"
	"github.com/arenadebate/arena/tui/page"
)

// Options are what the archive shows and how it is guarded.
type Options struct {
	// Dirs are the log directories.
	Dirs []string
	// Token is the secret every request carries.
	Token string
	// ShadowGate reports the learned escalation gate on the stats page
	// (the setting shadow_escalation_gate).
	ShadowGate bool
	// PerPage is how many runs a page of the list shows (default 100).
	PerPage int
	// OnRefuse, when set, is told of each request refused, and why.
	OnRefuse func(r *http.Request, code int, why string)
}

//go:embed serve.html
var serveTemplates string

var templates = template.Must(template.Must(page.Templates().Clone()).Funcs(template.FuncMap{
	"topic": topic, "date": func(t time.Time) string {
		if t.IsZero() {
			return "?"
		}
		return t.UTC().Format("2006-01-02 15:04")
	},
}).Parse(serveTemplates))

// Server is the archive's handler.
type Server struct {
	opts   Options
	index  *index
	stats  *statsCache
	pages  pageCache
	cookie string
	// finishedCSP is the policy of a finished run's page (no script).
	finishedCSP string
}

// New makes the archive of opts.Dirs, for a listener at addr (its
// host:port: the Host every request must name).
func New(opts Options, addr net.Addr) (*Server, error) {
	if len(opts.Token) < 32 {
		return nil, errors.New("arena serve needs a token of 32 bytes or more")
	}
	if opts.PerPage <= 0 {
		opts.PerPage = 100
	}
	_, port, _ := net.SplitHostPort(addr.String())
	return &Server{opts: opts, index: newIndex(opts.Dirs), stats: &statsCache{}, cookie: "arena_serve_" + port, finishedCSP: page.NewFrame("", true, "").CSP}, nil
}

// URL is where the archive answers, with the token: the one URL that
// carries it.
func URL(ln net.Listener, token string) string {
	return "http://" + ln.Addr().String() + "/?token=" + url.QueryEscape(token)
}

// Warm reads the index once, so that the first list is as fast as the
// next.
func (s *Server) Warm() error {
	_, err := s.index.refresh()
	return err
}

// Serve answers on ln until ctx ends.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	return loopback.Serve(ctx, ln, s.Handler(ln.Addr()))
}

// Handler is the archive behind its guards, for a listener at addr.
func (s *Server) Handler(addr net.Addr) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.list)
	mux.HandleFunc("GET /run/{dir}/{name}", s.run)
	mux.HandleFunc("GET /run/{dir}/{name}/events", s.events)
	mux.HandleFunc("GET /stats", s.statsPage)
	hosts := hostsOf(addr)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cache-Control", "no-store")
		if code, why := s.refuse(r, hosts); code != 0 {
			if s.opts.OnRefuse != nil {
				s.opts.OnRefuse(r, code, why)
			}
			h.Set("Connection", "close")
			http.Error(w, why, code)
			return
		}
		if tok := r.URL.Query().Get("token"); tok != "" {
			// The token came in the URL arena printed: it becomes a
			// cookie, and leaves the address bar and the history.
			http.SetCookie(w, &http.Cookie{Name: s.cookie, Value: s.opts.Token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
			q := r.URL.Query()
			q.Del("token")
			http.Redirect(w, r, (&url.URL{Path: r.URL.Path, RawQuery: q.Encode()}).String(), http.StatusSeeOther)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// hostsOf are the Host headers a request to addr may carry.
func hostsOf(addr net.Addr) []string {
	_, port, _ := net.SplitHostPort(addr.String())
	return []string{addr.String(), "localhost:" + port, "127.0.0.1:" + port, "[::1]:" + port}
}

// refuse says why a request is refused (0 when it is not): the method,
// a body, a foreign Host or Origin, a cross-site fetch, no token.
func (s *Server) refuse(r *http.Request, hosts []string) (int, string) {
	switch {
	case r.Method != http.MethodGet && r.Method != http.MethodHead:
		return http.StatusMethodNotAllowed, "arena serve is read-only: GET and HEAD only"
	case r.ContentLength != 0:
		return http.StatusRequestEntityTooLarge, "arena serve takes no request body"
	case !contains(hosts, r.Host):
		return http.StatusForbidden, fmt.Sprintf("Host %q is not this server's: arena serve answers only requests for %s (a page of another site that renamed itself to reach it)", r.Host, hosts[0])
	case r.Header.Get("Origin") != "" && !contains(hosts, strings.TrimPrefix(r.Header.Get("Origin"), "http://")):
		return http.StatusForbidden, "a request from another site's page is refused"
	case !contains([]string{"", "none", "same-origin"}, r.Header.Get("Sec-Fetch-Site")):
		// same-site too: another port of this machine is another
		// program, maybe another user's.
		return http.StatusForbidden, "a request from another site's page is refused"
	case !s.hasToken(r):
		return http.StatusUnauthorized, "no token: open the URL arena serve printed (it carries the token once, then a cookie does)"
	}
	return 0, ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// hasToken says whether the request carries the token: in the URL, the
// cookie, or Authorization: Bearer.
func (s *Server) hasToken(r *http.Request) bool {
	got := r.URL.Query().Get("token")
	if c, err := r.Cookie(s.cookie); got == "" && err == nil {
		got = c.Value
	}
	if b, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); got == "" && ok {
		got = b
	}
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(s.opts.Token)) == 1
}

// write renders template name with data, as a whole page or an error.
func write(w http.ResponseWriter, name string, data any, csp string) {
	var b bytes.Buffer
	if err := templates.ExecuteTemplate(&b, name, data); err != nil {
		http.Error(w, "the page could not be drawn: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", csp+"; frame-ancestors 'none'")
	_, _ = w.Write(b.Bytes())
}

// listPage is the list's page data.
type listPage struct {
	Frame   page.Frame
	Filter  filter
	Choices choices
	Dirs    []string
	Total   int
	Matched int
	Rows    []row
	Next    string
	Prev    string
}

func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	rows, err := s.index.refresh()
	if err != nil {
		http.Error(w, "the log directories could not be listed: "+err.Error(), http.StatusInternalServerError)
		return
	}
	f := filterOf(r.URL.Query())
	kept, ch := f.apply(rows)
	p := listPage{Frame: page.NewFrame("Runs · arena", true, ""), Filter: f, Choices: ch, Dirs: s.opts.Dirs, Total: len(rows), Matched: len(kept)}
	from := min(f.Page*s.opts.PerPage, len(kept))
	to := min(from+s.opts.PerPage, len(kept))
	p.Rows = kept[from:to]
	q := r.URL.Query()
	if to < len(kept) {
		q.Set("page", fmt.Sprint(f.Page+1))
		p.Next = "/?" + q.Encode()
	}
	if f.Page > 0 {
		q.Set("page", fmt.Sprint(f.Page-1))
		p.Prev = "/?" + q.Encode()
	}
	write(w, "list", p, p.Frame.CSP)
}

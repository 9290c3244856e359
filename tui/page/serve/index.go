package serve

import (
	"net/url"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
)

// The archive's index: every log of the directories, newest first, each
// as its first line and its end tell it (runlog's glance: what `arena
// logs` reads), kept in memory and read again only for a log whose file
// changed (runlog caches each glance by the file's size, time and inode).

// row is one run of the list.
type row struct {
	ID       string // "DIR/NAME": the directory's place in the list, the log's name
	Path     string
	Started  time.Time
	Protocol string
	Topic    string
	Result   string // the outcome's kind, "running" or "unfinished"
	Agents   []string
	Problem  string
	haystack string // what the search looks in, lower-cased
}

// URL is the run's page.
func (r row) URL() string {
	dir, name, _ := strings.Cut(r.ID, "/")
	return "/run/" + dir + "/" + url.PathEscape(name)
}

// index is the runs of the log directories.
type index struct {
	dirs []string
	mu   sync.Mutex
	rows []row
	byID map[string]string // ID → path: only a log listed is ever read
}

func newIndex(dirs []string) *index {
	clean := make([]string, len(dirs))
	for i, d := range dirs {
		clean[i] = filepath.Clean(d)
	}
	return &index{dirs: clean, byID: map[string]string{}}
}

// refresh lists the directories again.
func (ix *index) refresh() ([]row, error) {
	l, err := runlog.ListDirs(ix.dirs...)
	if err != nil {
		return nil, err
	}
	rows := make([]row, l.Len())
	byID := make(map[string]string, l.Len())
	for i := range rows {
		rows[i] = ix.row(l.Glance(i))
		byID[rows[i].ID] = rows[i].Path
	}
	ix.mu.Lock()
	ix.rows, ix.byID = rows, byID
	ix.mu.Unlock()
	return rows, nil
}

// path is the log of the run id, if the last listing had it (listing
// again when it did not: a run that started since).
func (ix *index) path(id string) (string, bool) {
	ix.mu.Lock()
	p, ok := ix.byID[id]
	ix.mu.Unlock()
	if ok {
		return p, true
	}
	if _, err := ix.refresh(); err != nil {
		return "", false
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	p, ok = ix.byID[id]
	return p, ok
}

func (ix *index) row(s runlog.Summary) row {
	d := slices.Index(ix.dirs, filepath.Dir(s.Path))
	r := row{
		ID: strconv.Itoa(d) + "/" + filepath.Base(s.Path), Path: s.Path, Started: s.Started,
		Protocol: trust.Text(s.Protocol), Topic: trust.Text(s.Topic), Result: resultOf(s), Agents: s.Agents(), Problem: s.Problem,
	}
	for i, a := range r.Agents {
		r.Agents[i] = trust.Text(a)
	}
	r.haystack = strings.ToLower(strings.Join(append([]string{r.Topic, r.Protocol, r.Result, filepath.Base(s.Path)}, r.Agents...), "\n"))
	return r
}

func resultOf(s runlog.Summary) string {
	switch {
	case s.Result != "":
		return strings.ReplaceAll(string(s.Result), "_", " ")
	case s.Writing:
		return "running"
	case s.Started.IsZero():
		return "unreadable"
	}
	return "unfinished"
}

// filter is what the list's form asks for.
type filter struct {
	Q, Protocol, Result, Agent string
	From, To                   string // dates, 2006-01-02
	Page                       int
}

func filterOf(q url.Values) filter {
	f := filter{Q: q.Get("q"), Protocol: q.Get("protocol"), Result: q.Get("result"), Agent: q.Get("agent"), From: q.Get("from"), To: q.Get("to")}
	f.Page, _ = strconv.Atoi(q.Get("page"))
	f.Page = max(f.Page, 0)
	return f
}

// keep says whether the filter keeps r.
func (f filter) keep(r row, from, to time.Time) bool {
	switch {
	case f.Protocol != "" && r.Protocol != f.Protocol,
		f.Result != "" && r.Result != f.Result,
		f.Agent != "" && !slices.Contains(r.Agents, f.Agent),
		!from.IsZero() && r.Started.Before(from),
		!to.IsZero() && !r.Started.Before(to):
		return false
	}
	return f.Q == "" || strings.Contains(r.haystack, strings.ToLower(f.Q))
}

// choices are the values a filter's menu offers: those the runs have.
type choices struct{ Protocols, Results, Agents []string }

// apply is the rows the filter keeps, and the menus' choices.
func (f filter) apply(rows []row) ([]row, choices) {
	from, _ := time.Parse(time.DateOnly, f.From)
	to, _ := time.Parse(time.DateOnly, f.To)
	if !to.IsZero() {
		to = to.AddDate(0, 0, 1) // the whole of that day
	}
	var kept []row
	seen := map[string]map[string]bool{"p": {}, "r": {}, "a": {}}
	for _, r := range rows {
		seen["p"][r.Protocol], seen["r"][r.Result] = true, true
		for _, a := range r.Agents {
			seen["a"][a] = true
		}
		if f.keep(r, from, to) {
			kept = append(kept, r)
		}
	}
	return kept, choices{sorted(seen["p"]), sorted(seen["r"]), sorted(seen["a"])}
}

func sorted(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		if k != "" {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// topic is a run's topic in one line, for the list.
func topic(s string) string {
	if t := engine.OneLine(s, 120); t != "" {
		return t
	}
	return "(no topic)"
}

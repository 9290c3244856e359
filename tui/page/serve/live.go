package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
	"github.com/arenadebate/arena/tui/page"
)

// A run's page is the export's. A run still going is read up to its last
// whole line, and its page follows it: a small script (its hash in the
// page's CSP, nothing else may run) opens a server-sent event stream from
// that offset, each event the HTML of a part of the page, put in place or
// added at its end. Each part has an id, so an event the stream sends
// again (a reconnection) replaces rather than repeats it.

// liveScript follows the run: the server renders every part, as it
// renders the page; the script only puts each where it goes.
const liveScript = `(() => {
const live = document.getElementById("live");
if (!live) return;
const es = new EventSource(live.dataset.src);
es.onmessage = (m) => {
  const c = JSON.parse(m.data);
  const old = document.getElementById(c.id);
  if (old) { old.outerHTML = c.html; return; }
  const at = document.getElementById(c.target);
  if (at) at.insertAdjacentHTML("beforeend", c.html);
};
es.addEventListener("note", (m) => { live.textContent = m.data; });
es.addEventListener("end", () => { es.close(); live.textContent = "The run ended; this page holds all of it."; });
})();`

// runPath is the log of the request's run, or why not.
func (s *Server) runPath(r *http.Request) (string, bool) {
	return s.index.path(r.PathValue("dir") + "/" + r.PathValue("name"))
}

func (s *Server) run(w http.ResponseWriter, r *http.Request) {
	path, ok := s.runPath(r)
	if !ok {
		http.NotFound(w, r)
		return
	}
	if b, ok := s.pages.get(path); ok {
		writePage(w, b, s.finishedCSP)
		return
	}
	run, at, err := readRun(path)
	if err != nil {
		http.Error(w, "the log could not be read: "+err.Error(), http.StatusUnprocessableEntity)
		return
	}
	title := engine.OneLine(run.Topic, 80) + " · arena"
	frame, live := page.NewFrame(title, true, ""), ""
	if run.Live {
		frame = page.NewFrame(title, true, liveScript)
		live = r.URL.EscapedPath() + "/events?at=" + strconv.FormatInt(at, 10)
	}
	var b bytes.Buffer
	if err := page.WriteFramed(&b, run, frame, live); err != nil {
		http.Error(w, "the page could not be drawn: "+err.Error(), http.StatusInternalServerError)
		return
	}
	if !run.Live {
		s.pages.put(path, b.Bytes())
	}
	writePage(w, b.Bytes(), frame.CSP)
}

func writePage(w http.ResponseWriter, b []byte, csp string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", csp+"; frame-ancestors 'none'")
	_, _ = w.Write(b)
}

// pageCache keeps the pages of finished runs, by log, for as long as the
// log's file is as it was: a page of a 500 MB log takes 25 s to read.
type pageCache struct {
	mu    sync.Mutex
	pages map[string]cachedPage
}

type cachedPage struct {
	size  int64
	mtime time.Time
	html  []byte
}

// maxPages and maxPageBytes bound the cache: so many pages, each at most
// so big.
const (
	maxPages     = 16
	maxPageBytes = 16 << 20
)

func (c *pageCache) get(path string) ([]byte, bool) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.pages[path]
	if !ok || p.size != st.Size() || !p.mtime.Equal(st.ModTime()) || runlog.WriterPID(path) != 0 {
		return nil, false
	}
	return p.html, true
}

func (c *pageCache) put(path string, html []byte) {
	st, err := os.Stat(path)
	if err != nil || len(html) > maxPageBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pages == nil || len(c.pages) >= maxPages {
		c.pages = map[string]cachedPage{}
	}
	c.pages[path] = cachedPage{size: st.Size(), mtime: st.ModTime(), html: html}
}

// readRun reads a log for its page: whole, or, while an arena writes it,
// up to its last whole line, whose end it returns.
func readRun(path string) (*page.Run, int64, error) {
	if runlog.WriterPID(path) == 0 {
		run, _, err := page.Read(path)
		return run, 0, err
	}
	b := page.NewBuilder(path)
	lc, at, err := runlog.ScanSoFar(path, func(e engine.Event) { b.Add(e) })
	if err != nil {
		return nil, 0, err
	}
	run := b.Run()
	run.Live = true
	if c := lc.Contradiction(); c != "" {
		run.Problem = c
	}
	return run, at, nil
}

// events follows the run from the offset its page was read to, sending
// each part of the page its events change.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	path, ok := s.runPath(r)
	if !ok {
		http.NotFound(w, r)
		return
	}
	at, err := strconv.ParseInt(r.URL.Query().Get("at"), 10, 64)
	if err != nil || at < 0 {
		http.Error(w, "events?at=OFFSET: the offset the page was read to", http.StatusBadRequest)
		return
	}
	b, err := builderTo(path, at)
	if err != nil {
		http.Error(w, "the log could not be read: "+err.Error(), http.StatusUnprocessableEntity)
		return
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "no streaming here", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Content-Security-Policy", "default-src 'none'")
	w.WriteHeader(http.StatusOK)
	flusher.Flush()
	st := &stream{w: w, flush: flusher, b: b}
	_, err = runlog.Follow(r.Context(), path, at, st, func(note string) { st.send("note", trust.Text(note)) })
	if err != nil {
		st.send("note", "the log could not be followed: "+trust.Text(err.Error()))
	}
	if r.Context().Err() == nil {
		st.send("end", "")
	}
}

// builderTo is a builder that has read the log up to at.
func builderTo(path string, at int64) (*page.Builder, error) {
	f, err := trust.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := page.NewBuilder(path)
	if _, err := runlog.Scan(io.LimitReader(f, at), func(e engine.Event) { b.Add(e) }); err != nil {
		return nil, err
	}
	b.Run().Live = true
	return b, nil
}

// stream sends a run's changes as server-sent events.
type stream struct {
	w     io.Writer
	flush http.Flusher
	b     *page.Builder
}

// Handle sends the parts of the page an event changed.
func (st *stream) Handle(e engine.Event) {
	run := st.b.Run()
	for _, c := range st.b.Add(e) {
		if e.Kind() == engine.KindOutcome {
			run.Live = false
		}
		var h bytes.Buffer
		if err := page.Fragment(&h, run, c); err != nil {
			continue
		}
		id := c.Target
		switch {
		case c.Part == page.PartPhase:
			id = c.Phase.ID + "-phase"
		case !c.Replace && c.Item != nil:
			id = c.Item.ID
		}
		msg, _ := json.Marshal(struct {
			ID     string `json:"id"`
			Target string `json:"target"`
			HTML   string `json:"html"`
		}{id, c.Target, h.String()})
		st.send("", string(msg))
	}
}

// send writes one event (of the default type when kind is "") and
// flushes it.
func (st *stream) send(kind, data string) {
	if kind != "" {
		fmt.Fprintf(st.w, "event: %s\n", kind)
	}
	for _, line := range bytes.Split([]byte(data), []byte("\n")) {
		fmt.Fprintf(st.w, "data: %s\n", line)
	}
	fmt.Fprint(st.w, "\n")
	st.flush.Flush()
}

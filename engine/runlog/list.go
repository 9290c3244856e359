package runlog

import (
	"bufio"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/arenadebate/arena/challengers/trust"
)

// Listing the logs of a directory (arena logs, arena mcp's list_runs, the
// latest run for replay and resume) costs what is shown, not what the logs
// hold: issue 29 measured 0.8-1.0 GB of memory and 24.5 s to list a
// directory holding one 524 MB log, and 2.7-3.6 s for 10,000 small ones. A
// listing reads the start time of each log from the first bytes of its
// first line, sorts, and reads more only of the logs asked for, one at a
// time: a glance (the first line, and the end of the log read backward to
// its outcome: glance.go) or a summary (the whole log as a stream: the
// tokens of every call, every damaged line). What it reads is cached by
// path, size, modification time and inode, for a process that lists again
// (arena mcp).

// Listing is the logs of a directory, newest first.
type Listing struct {
	entries []entry
}

type entry struct {
	path    string
	key     fileKey
	started time.Time
}

// fileKey tells one state of a file from another.
type fileKey struct {
	size, mtime int64
	ino         uint64
}

// ListDir lists the logs (*.jsonl) of dir, newest first by the time their
// run started (a log whose start cannot be read last). A missing
// directory is an empty listing.
func ListDir(dir string) (*Listing, error) { return ListDirs(dir) }

// ListDirs lists the logs of several directories together, newest first
// (the log directory and arena verdict's); a directory that does not
// exist holds none.
func ListDirs(dirs ...string) (*Listing, error) {
	l := &Listing{}
	for _, dir := range dirs {
		des, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, de := range des {
			if de.IsDir() || !strings.HasSuffix(de.Name(), ".jsonl") {
				continue
			}
			e := entry{path: filepath.Join(dir, de.Name())}
			if info, err := de.Info(); err == nil {
				e.key = keyOf(info)
			}
			e.started = cache.started(e.path, e.key)
			l.entries = append(l.entries, e)
		}
	}
	sort.SliceStable(l.entries, func(i, j int) bool {
		a, b := l.entries[i], l.entries[j]
		if !a.started.Equal(b.started) {
			return a.started.After(b.started)
		}
		return a.path > b.path
	})
	return l, nil
}

func keyOf(info fs.FileInfo) fileKey {
	k := fileKey{size: info.Size(), mtime: info.ModTime().UnixNano()}
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		k.ino = st.Ino
	}
	return k
}

// Len is how many logs the listing holds.
func (l *Listing) Len() int { return len(l.entries) }

// Path is the path of log i.
func (l *Listing) Path(i int) string { return l.entries[i].path }

// Glance is log i as its first line and its end tell it: Summary without
// Usage, and with only the damage and breaks it saw there.
func (l *Listing) Glance(i int) Summary {
	e := l.entries[i]
	return cache.summary(e.path, e.key, false)
}

// Summary is log i read whole, as a stream.
func (l *Listing) Summary(i int) Summary {
	e := l.entries[i]
	return cache.summary(e.path, e.key, true)
}

// List summarises every log in dir, newest first (ListDir, then Summary
// of each). A missing directory is an empty list.
func List(dir string) ([]Summary, error) {
	l, err := ListDir(dir)
	if err != nil {
		return nil, err
	}
	out := make([]Summary, l.Len())
	for i := range out {
		out[i] = l.Summary(i)
	}
	return out, nil
}

// summaryCache keeps what was read of each log, for as long as the log's
// file stays as it was.
type summaryCache struct {
	mu sync.Mutex
	m  map[string]*cached
}

type cached struct {
	key         fileKey
	started     time.Time
	haveStarted bool
	glance      *Summary
	full        *Summary
}

// maxCached bounds the cache: past it, it starts again empty.
const maxCached = 100_000

var cache = summaryCache{m: map[string]*cached{}}

// entry returns the cache's entry for path as the file is now (key),
// emptied if the file changed. Call with mu held.
func (c *summaryCache) entry(path string, key fileKey) *cached {
	e := c.m[path]
	if e == nil || e.key != key || key == (fileKey{}) {
		if len(c.m) >= maxCached {
			c.m = map[string]*cached{}
		}
		e = &cached{key: key}
		c.m[path] = e
	}
	return e
}

func (c *summaryCache) started(path string, key fileKey) time.Time {
	c.mu.Lock()
	e := c.entry(path, key)
	if e.haveStarted {
		defer c.mu.Unlock()
		return e.started
	}
	c.mu.Unlock()
	t := readStarted(path)
	c.mu.Lock()
	defer c.mu.Unlock()
	e = c.entry(path, key)
	e.started, e.haveStarted = t, true
	return t
}

// summary returns the glance or (full) the summary of path, read once for
// each state of the file. Whether an arena is writing the log is asked
// every time: a writer can finish without the file changing.
func (c *summaryCache) summary(path string, key fileKey, full bool) Summary {
	c.mu.Lock()
	e := c.entry(path, key)
	s := e.glance
	if full || (s == nil && e.full != nil) {
		s = e.full
	}
	c.mu.Unlock()
	if s != nil {
		out := *s
		out.Writing, out.WriterPID = writerOf(path)
		return out
	}
	var got Summary
	if full {
		got = Summarize(path)
	} else {
		got = Glance(path)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e = c.entry(path, key)
	if full {
		e.full = &got
	} else {
		e.glance = &got
	}
	return got
}

// writerOf says whether an arena holds the writer's lock of the log at
// path, and which process.
func writerOf(path string) (bool, int) {
	f, err := trust.Open(path)
	if err != nil {
		return false, 0
	}
	defer f.Close()
	held, pid, _ := lockHolder(f)
	return held, pid
}

// readStarted reads the time of a log's first event from the start of its
// first line, {"seq":1,"t":"…","type":…: the time, not the start event
// (whose recorded command and stdin can be large). Zero when it cannot be
// read there.
func readStarted(path string) time.Time {
	f, err := trust.Open(path)
	if err != nil {
		return time.Time{}
	}
	defer f.Close()
	dec := json.NewDecoder(bufio.NewReaderSize(f, 4096))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return time.Time{}
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil || key == "data" {
			return time.Time{}
		}
		if key == "t" {
			var t time.Time
			if dec.Decode(&t) != nil {
				return time.Time{}
			}
			return t
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return time.Time{}
		}
	}
	return time.Time{}
}

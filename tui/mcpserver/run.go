package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/arenadebate/arena/engine"
)

// EnvEventsFD names the file descriptor on which a run started by the
// server writes its events: a Header line, then the events as JSON Lines
// (child.go is the writing side).
const EnvEventsFD = "ARENA_EVENTS_FD"

// EnvLifelineFD names the file descriptor of a pipe whose other end only
// the server holds: it reads end of file once the server is gone, however
// it went (SIGKILL too), and the run then stops as Ctrl+C would stop it.
const EnvLifelineFD = "ARENA_LIFELINE_FD"

// Header is the first line a run writes on its events pipe.
type Header struct {
	Events  int    `json:"arena_events"` // 1: this format
	LogPath string `json:"log_path"`     // "" when the run saves no log
}

// Bounds on what the server keeps of one run.
const (
	maxHappened = 400      // progress lines kept (the oldest go first)
	maxStderr   = 64 << 10 // bytes of the run's stderr kept (the last)
	maxStdout   = 1 << 20  // bytes of its stdout kept (verdict's final record)
)

// A run is one child arena process and what its event stream said so far.
type run struct {
	id       string // the log's name without .jsonl, or run-N without a log
	tool     string // the tool that started it (debate, compare, ...)
	cmd      *exec.Cmd
	lifeline *os.File           // the server's end of the run's lifeline, closed once it exited
	session  *mcp.ServerSession // the session it belongs to, whose end stops it (nil: none); under the manager's lock
	started  time.Time
	announce chan struct{} // closed once the header came, or the process exited
	done     chan struct{} // closed once the process exited and its stream was read

	mu       sync.Mutex
	changed  chan struct{} // closed and replaced at every change
	logPath  string
	hasLog   bool
	start    *engine.DebateStarted
	seats    []*seatState
	phase    string
	happened []string
	dropped  int // progress lines dropped from the front of happened
	calls    int
	failed   int
	failures []string
	notes    []string // the server's own (the self-preference guard)
	runNotes []string // the run's warnings
	budget   string   // where its budget stands, when it has one
	tables   []engine.Table
	outcome  *engine.Outcome
	saved    []engine.Saved
	exited   bool
	code     int
	waitErr  error
	stopped  bool // the server asked it to stop (SIGINT)
	stderr   tailBuffer
	stdout   tailBuffer
}

type seatState struct {
	seat   engine.Seat
	state  string // waiting, asking, replied, failed
	calls  int
	fails  int
	latest string // the latest badge, or failure
}

// startRun starts the run l (arena __run, reading l on its stdin) and
// returns once the run announced its log or exited, whichever is first.
func (m *Manager) startRun(tool string, l Launch, notes []string) (*run, error) {
	launch, err := json.Marshal(l)
	if err != nil {
		return nil, err
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	lr, lw, err := os.Pipe()
	if err != nil {
		pr.Close()
		pw.Close()
		return nil, err
	}
	cmd := exec.Command(m.cfg.Arena, RunCommand)
	cmd.Dir = m.cfg.Dir
	env := m.cfg.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(withoutKey(withoutKey(env, EnvEventsFD), EnvLifelineFD), EnvEventsFD+"=3", EnvLifelineFD+"=4")
	cmd.ExtraFiles = []*os.File{pw, lr}
	cmd.Stdin = bytes.NewReader(launch)
	r := &run{
		tool: tool, cmd: cmd, lifeline: lw, started: time.Now(), notes: notes,
		announce: make(chan struct{}), done: make(chan struct{}), changed: make(chan struct{}),
	}
	r.stderr.max, r.stdout.max = maxStderr, maxStdout
	cmd.Stderr = &lockedWriter{mu: &r.mu, w: &r.stderr}
	cmd.Stdout = &lockedWriter{mu: &r.mu, w: &r.stdout}
	cmd.SysProcAttr = childAttr()
	err = cmd.Start()
	lr.Close() // the child holds its own copy
	if err != nil {
		pr.Close()
		pw.Close()
		lw.Close()
		return nil, fmt.Errorf("cannot start %s: %w", m.cfg.Arena, err)
	}
	pw.Close() // the child holds its own copy: EOF comes when it exits
	var announced sync.Once
	signal := func() { announced.Do(func() { close(r.announce) }) }
	streamRead := make(chan struct{})
	go func() {
		defer close(streamRead)
		defer pr.Close()
		r.read(pr, signal, m.cfg.Dir)
	}()
	go func() {
		r.wait(streamRead)
		signal()
	}()
	<-r.announce
	return r, nil
}

// wait waits for the run's process to exit and its stream to be read,
// then keeps how it ended and cuts its lifeline.
func (r *run) wait(streamRead <-chan struct{}) {
	err := r.cmd.Wait()
	<-streamRead
	r.lifeline.Close()
	r.mu.Lock()
	r.exited, r.waitErr = true, err
	r.code = r.cmd.ProcessState.ExitCode()
	if ws, ok := r.cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		r.code = 128 + int(ws.Signal())
	}
	r.changedLocked()
	r.mu.Unlock()
	close(r.done)
}

// read decodes the events pipe until it closes.
func (r *run) read(pipe io.Reader, announced func(), dir string) {
	dec := json.NewDecoder(pipe)
	first := true
	for {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return
		}
		if first {
			first = false
			var h Header
			if json.Unmarshal(raw, &h) == nil && h.Events == 1 {
				r.mu.Lock()
				if h.LogPath != "" {
					r.hasLog = true
					r.logPath = inDir(dir, h.LogPath)
				}
				r.mu.Unlock()
				announced()
				continue
			}
		}
		var e engine.Event
		if err := json.Unmarshal(raw, &e); err != nil {
			continue // an event of a kind this arena does not know
		}
		if o, ok := e.Payload.(engine.Outcome); ok && o.LogPath != "" {
			// The log the run wrote: another, if its own was deleted and
			// its name taken meanwhile (runlog's place.go).
			r.mu.Lock()
			if r.hasLog {
				r.logPath = inDir(dir, o.LogPath)
			}
			r.mu.Unlock()
		}
		r.handle(e)
	}
}

// inDir is path, relative to dir when it is relative (and dir is known).
func inDir(dir, path string) string {
	if filepath.IsAbs(path) || dir == "" {
		return path
	}
	return filepath.Join(dir, path)
}

// handle keeps what a caller wants to know of one event.
func (r *run) handle(e engine.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch p := e.Payload.(type) {
	case engine.Chunk:
		return // the text is in the log; a chunk changes nothing here
	case engine.DebateStarted:
		r.start = &p
		r.seats = nil
		for _, s := range p.Seats {
			r.seats = append(r.seats, &seatState{seat: s, state: "waiting"})
		}
		r.say(fmt.Sprintf("started: %s, %d seats (%s)", p.Title, len(p.Seats), seatList(p.Seats)))
	case engine.Resumed:
		r.say("resumed from " + p.From)
	case engine.PhaseStarted:
		r.phase = p.Title
		r.say("phase: " + p.Title)
	case engine.AgentStarted:
		if s := r.seat(p.Seat); s != nil {
			s.state = "asking"
		}
	case engine.AgentFinished:
		r.replied(p)
	case engine.AgentFailed:
		r.failedCall(p)
	case engine.Table:
		r.tables = upsertTable(r.tables, p)
		if p.Decision != "" {
			r.say(p.Title + ": " + p.Decision)
		}
	case engine.Note:
		if p.Level != engine.NoteInfo {
			r.runNotes = appendBounded(r.runNotes, p.Message, 50)
		}
		r.say(p.Level + ": " + p.Message)
	case engine.ModeratorNote:
		r.say("moderator: " + p.Text)
	case engine.Outcome:
		r.outcome = &p
		r.say("outcome: " + p.Summary)
	case engine.Saved:
		r.saved = append(r.saved, p)
	case engine.BudgetUsed:
		r.budget = p.Words()
		for _, w := range p.Warnings {
			r.runNotes = appendBounded(r.runNotes, w, 50)
		}
		if p.Over == "" {
			return
		}
		r.say("over budget: " + p.Over)
	default:
		return
	}
	r.changedLocked()
}

// replied keeps a seat's reply: its badge, and a line of what happened.
func (r *run) replied(p engine.AgentFinished) {
	r.calls++
	line := fmt.Sprintf("%s (%s) replied", p.Seat, p.Agent)
	if p.Badge != "" {
		line += ": " + p.Badge
	}
	if p.Unparseable {
		line += " (its reply could not be parsed)"
	}
	if p.Reused {
		line += " (reused from the log)"
	}
	if s := r.seat(p.Seat); s != nil {
		s.state, s.latest = "replied", p.Badge
		s.calls++
	}
	r.say(line)
}

// failedCall keeps a seat's failed call, and the failure when no retry
// follows.
func (r *run) failedCall(p engine.AgentFailed) {
	r.failed++
	line := fmt.Sprintf("%s (%s) failed: %s", p.Seat, p.Agent, p.Message)
	if p.WillRetry {
		line += " (retrying)"
	} else {
		r.failures = appendBounded(r.failures, line, 50)
	}
	if s := r.seat(p.Seat); s != nil {
		s.state, s.latest = "failed", p.Message
		s.fails++
	}
	r.say(line)
}

func (r *run) say(line string) {
	r.happened = append(r.happened, engine.OneLine(line, 300))
	if len(r.happened) > maxHappened {
		n := len(r.happened) - maxHappened
		r.happened = append([]string(nil), r.happened[n:]...)
		r.dropped += n
	}
}

// changedLocked wakes whoever waits for a change.
func (r *run) changedLocked() {
	close(r.changed)
	r.changed = make(chan struct{})
}

func (r *run) seat(name string) *seatState {
	for _, s := range r.seats {
		if s.seat.Name == name {
			return s
		}
	}
	return nil
}

// stop asks the run to stop as Ctrl+C would: the agents are killed, the
// protocol reaches its interrupted outcome and the log is closed whole,
// so arena resume can carry the run on. It asks once: a second SIGINT is
// a person's second Ctrl+C, which quits at once, outcome unwritten, and a
// session that ends as the server does was stopped twice (sessionEnds and
// StopAll), its log left without an outcome.
func (r *run) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.exited || r.stopped {
		return
	}
	r.stopped = true
	_ = r.cmd.Process.Signal(syscall.SIGINT)
}

// kill ends a run that did not stop when asked.
func (r *run) kill() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.exited {
		_ = r.cmd.Process.Kill()
	}
}

func (r *run) finished() bool {
	select {
	case <-r.done:
		return true
	default:
		return false
	}
}

func seatList(seats []engine.Seat) string {
	var parts []string
	for _, s := range seats {
		parts = append(parts, fmt.Sprintf("%s: %s", s.Name, s.Agent))
	}
	return strings.Join(parts, ", ")
}

func upsertTable(tables []engine.Table, t engine.Table) []engine.Table {
	for i := range tables {
		if tables[i].Title == t.Title {
			tables[i] = t
			return tables
		}
	}
	return append(tables, t)
}

func appendBounded(list []string, s string, n int) []string {
	if len(list) >= n {
		return list
	}
	return append(list, s)
}

func withoutKey(env []string, key string) []string {
	var out []string
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k != key {
			out = append(out, kv)
		}
	}
	return out
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	buf bytes.Buffer
	max int
	cut bool
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.buf.Write(p)
	if over := t.buf.Len() - t.max; over > 0 {
		t.buf.Next(over)
		t.cut = true
	}
	return len(p), nil
}

func (t *tailBuffer) String() string { return t.buf.String() }

// lockedWriter writes under the run's lock.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

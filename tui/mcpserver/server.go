// Package mcpserver serves arena's protocols as Model Context Protocol
// tools (arena mcp), so that the agents people already run (Claude Code,
// Codex, Gemini CLI) can put a question to a debate, a judging or a
// verdict and act on the outcome. It is a front end, as the screen is: it
// starts runs from the requests agents send, follows their events and
// answers with their outcomes.
//
// Each run is a child arena process started from its protocol's typed
// request (a call's inputs, tool.go; arena __run reads it, launch.go): it
// checks its input with the command line's code and words refusals the
// same way, it writes its log as from the command line (arena replay,
// resume and logs work on it, and a person can watch it with arena replay
// --follow), and a run that crashes cannot take the server down. Its events come back on
// a pipe (EnvEventsFD), which is how the server knows what happened so far.
//
// Runs take minutes; hosts give a tool call about one. A run tool starts
// the run and follows it for a bounded time (wait_seconds), returning its
// outcome if it ended by then and its run id and progress if not;
// run_status follows it further, cancel_run stops it (as Ctrl+C would: the
// log stays resumable), list_runs and read_outcome read what the log
// directory holds. While a call follows a run, every step is sent as a
// progress notification when the client asked for them; a client that
// cancels such a call stops the run.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine/runlog"
)

// Config is what the server needs from arena's command line.
type Config struct {
	Arena string   // the arena binary each run is started with
	Own   Own      // the server's own settings, which every run gets (--config, --log-dir)
	Dir   string   // the runs' working directory ("": this process's)
	Env   []string // the runs' environment (nil: this process's)
	// Credentials are the variables an entry passes by name (the agents'
	// logins, proxies, CAs, base URLs): one that came empty or
	// unexpanded is left out of the runs' environment.
	Credentials []string
	// LogDir is where the runs' logs are saved, for list_runs and
	// read_outcome; OtherLogDirs are where some runs' logs go instead
	// (arena verdict's, out of the work tree), listed and read with them.
	LogDir       string
	OtherLogDirs []string
	// Agents are the configured agents' names: the calling agent is kept
	// out of judging seats only when it is one of them.
	Agents []string
	// Host is the agent the installing CLI runs (ARENA_MCP_HOST, written
	// by arena install); "" to tell it by the client's name.
	Host string
	// Tools are the protocols' run tools, one per protocol.
	Tools   []Tool
	Version string
	// MaxRuns bounds the runs going on at once (default 4).
	MaxRuns int
	// Stopping bounds how long a stopped run may take to close its log
	// before it is killed (default 30s).
	Stopping time.Duration
	// Budget is the server's own budget (arena mcp --max-..., or its
	// config): every run gets it, and a caller can only lower it.
	Budget Budget
}

// Manager holds the runs a server started.
type Manager struct {
	cfg  Config
	mu   sync.Mutex
	runs []*run
	n    int
	// starting counts the runs being started: each holds its place among
	// MaxRuns from the check to its registration, so calls that arrive
	// together cannot all pass the check (30 at once started 30 runs
	// under --max-runs 2).
	starting int
	// sessions are the sessions open that runs belong to.
	sessions map[*mcp.ServerSession]bool
}

// NewManager returns a manager of runs started as cfg says.
func NewManager(cfg Config) *Manager {
	if cfg.MaxRuns <= 0 {
		cfg.MaxRuns = 4
	}
	if cfg.Stopping <= 0 {
		cfg.Stopping = 30 * time.Second
	}
	if cfg.Env == nil {
		cfg.Env = os.Environ()
	}
	cfg.Env = withoutEmpty(cfg.Env, cfg.Credentials)
	return &Manager{cfg: cfg}
}

// withoutEmpty is env without the variables of names that came empty or
// unexpanded: Gemini CLI hands a server an entry's ${NAME} as "" when its
// own environment has no NAME (arena install writes one for every
// credential), and a seat may take an empty key for a key.
func withoutEmpty(env, names []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if slices.Contains(names, k) && (strings.TrimSpace(v) == "" || v == "${"+k+"}" || v == "$"+k) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// The waits. A host gives a tool call a time, then gives up on it: Codex
// 60 s by default (tool_timeout_sec), Gemini CLI and Qwen Code 10
// minutes (timeout), Claude Code longer (MCP_TOOL_TIMEOUT), and a user
// can set any of them lower. Progress notifications extend none of them.
// So a run tool answers at once with the run's id, and run_status follows
// the run for 20 s by default, 50 at most: a call the host gave up on
// leaves the run going (stdio.go), and the model follows it again.
const (
	startWait   = 0
	defaultWait = 20 * time.Second
	maxWait     = 50 * time.Second
)

const (
	startWaitAbout  = "0 (the default): answer at once with the run's id, then follow it with run_status. Up to 50: follow the run this many seconds first (its outcome if it ends sooner), for a client whose tool calls may take that long"
	followWaitAbout = "follow the run for up to this many seconds (0 to 50, default 20) before answering; a run that ends sooner answers with its outcome at once. Pass less when your tool calls time out sooner"
)

// startsAtOnce is what every run tool's description adds: the waits.
const startsAtOnce = " It answers at once with the run's id (wait_seconds 0, the default): call run_status with that run_id until state is finished, each call answering within its wait_seconds (default 20 s, at most 50)."

// NewServer returns the MCP server of m's tools.
func NewServer(m *Manager) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "arena", Title: "arena: AI models debate and judge", Version: m.cfg.Version}, &mcp.ServerOptions{
		Instructions: m.instructions(),
	})
	for _, t := range m.cfg.Tools {
		runTool(s, m, t)
	}
	mcp.AddTool(s, &mcp.Tool{Name: toolStatus, Description: "Follow a run started by a run tool: what happened since the cursor you pass (phases, replies, failures), then its outcome once it is over. It answers within wait_seconds (default 20 s, at most 50), at once when the run ends; call it again with the cursor as since until state is finished.", InputSchema: schemaOf[StatusIn](), OutputSchema: schemaOf[RunStatus]()}, m.statusTool)
	mcp.AddTool(s, &mcp.Tool{Name: toolCancel, Description: "Stop a run as Ctrl+C would: its agents are stopped and its log stays resumable (arena resume LOG). It answers once the run has closed its log, or within wait_seconds (default 20 s, at most 50).", InputSchema: schemaOf[CancelIn](), OutputSchema: schemaOf[RunStatus]()}, m.cancelTool)
	mcp.AddTool(s, &mcp.Tool{Name: toolList, Description: "List runs, newest first: those this server is running and those saved in the log directory.", InputSchema: schemaOf[ListIn](), OutputSchema: schemaOf[RunList](), Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, m.listTool)
	addResume(s, m)
	s.AddReceivingMiddleware(cleanResults, m.oneDocument)
	mcp.AddTool(s, &mcp.Tool{Name: toolRead, Description: "Read a run's outcome: the structured result and the outcome document, by run id or log path.", InputSchema: schemaOf[ReadIn](), OutputSchema: schemaOf[RunStatus](), Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, m.readTool)
	return s
}

// cleanResults passes every tool result through the one cleaner
// (trust.Text, trust.CleanJSON), its text and its structured content
// alike: they quote logs, file names and the runs' output, which come
// from outside, on their way to a model and to the screen of the person
// who runs it. A log directory's name can hold a right-to-left override.
func cleanResults(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if r, ok := res.(*mcp.CallToolResult); ok && r != nil {
			for _, c := range r.Content {
				if tc, ok := c.(*mcp.TextContent); ok {
					tc.Text = trust.Text(tc.Text)
				}
			}
			if raw, ok := r.StructuredContent.(json.RawMessage); ok {
				r.StructuredContent = json.RawMessage(trust.CleanJSON(raw))
			}
		}
		return res, err
	}
}

// FollowTools are the tools that follow and read runs, beside the run
// tools (one per protocol).
var FollowTools = []string{toolStatus, toolCancel, toolList, toolRead, toolResume}

const (
	toolStatus = "run_status"
	toolCancel = "cancel_run"
	toolList   = "list_runs"
	toolRead   = "read_outcome"
)

// instructions tell the client how to use the tools, naming the run tools.
func (m *Manager) instructions() string {
	names := make([]string, 0, len(m.cfg.Tools))
	for _, t := range m.cfg.Tools {
		names = append(names, t.Name)
	}
	return fmt.Sprintf(instructions, strings.Join(names, ", "))
}

// records says whether the tool's run writes its final record on its
// standard output (arena verdict --json), for the result to carry.
func (m *Manager) records(tool string) bool {
	for _, t := range m.cfg.Tools {
		if t.Name == tool {
			return t.Record
		}
	}
	return false
}

const instructions = `arena runs debates and judgings between different AI models (claude, gemini, codex, qwen CLIs).
A run takes minutes. A run tool (%s) starts one and answers at once with its run_id; call run_status with that
run_id (and the cursor as since) until state is finished: each call answers within its wait_seconds (default 20, at most 50). The outcome's markdown is the outcome document (the final position, the objections, the judges'
reasoning, the improvements): read it before you act; the result, exit code and tables are beside it. cancel_run stops
a run; resume_run carries an interrupted one on. Paths are relative to the directory the server runs in.`

// runTool adds a tool that starts a run of t's command.
func runTool(s *mcp.Server, m *Manager, t Tool) {
	mcp.AddTool(s, &mcp.Tool{Name: t.Name, Description: t.Description + startsAtOnce, InputSchema: t.Schema(), OutputSchema: schemaOf[RunStatus](), Annotations: &mcp.ToolAnnotations{OpenWorldHint: ptr(true), DestructiveHint: ptr(false)}},
		func(ctx context.Context, req *mcp.CallToolRequest, in Input) (*mcp.CallToolResult, RunStatus, error) {
			if in == nil {
				in = Input{}
			}
			notes := guard(t.Guard, m.caller(req), in)
			in.within(m.cfg.Budget)
			l, err := t.Launch(in)
			if err != nil {
				return nil, RunStatus{}, err
			}
			l.Config, l.LogDir, l.NoLog = m.cfg.Own.Config, m.cfg.Own.LogDir, m.cfg.Own.NoLog
			r, err := m.launch(t.Name, l, notes)
			if err != nil {
				return nil, RunStatus{}, err
			}
			m.own(r, req.Session)
			return m.follow(ctx, req, r, 0, Follow{WaitSeconds: int(number(in["wait_seconds"]))}.wait()) // absent: 0, at once
		})
}

// launch starts a run and registers it; a run that refused its input
// (it exited before it began) is an error worded as the command words it.
func (m *Manager) launch(tool string, l Launch, notes []string) (*run, error) {
	if err := m.reserve(); err != nil {
		return nil, err
	}
	r, err := m.startRun(tool, l, notes)
	if err != nil {
		m.register(nil)
		return nil, err
	}
	r.mu.Lock()
	began := r.hasLog || r.start != nil || !r.exited
	logPath, stderr, code := r.logPath, strings.TrimSpace(r.stderr.String()), r.code
	r.mu.Unlock()
	if !began { // it refused its input: nothing ran, nothing to follow
		m.register(nil)
		if stderr == "" {
			stderr = fmt.Sprintf("arena exited with code %d before the run began", code)
		}
		return nil, errors.New(stderr)
	}
	r.id = fmt.Sprintf("run-%d", m.next())
	if logPath != "" {
		r.id = strings.TrimSuffix(baseName(logPath), ".jsonl")
	}
	m.register(r)
	return r, nil
}

// reserve takes a place among the runs going on, under the same lock as
// the count, or says why there is none.
func (m *Manager) reserve() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	var going []string
	for _, r := range m.runs {
		if !r.finished() {
			going = append(going, r.id)
		}
	}
	if n := len(going) + m.starting; n >= m.cfg.MaxRuns {
		return fmt.Errorf("%d runs are going on already (%s), the most this server runs at once: follow one with run_status, stop one with cancel_run, or wait for one to finish (list_runs lists them)", n, orStarting(going))
	}
	m.starting++
	return nil
}

func orStarting(ids []string) string {
	if len(ids) == 0 {
		return "all starting"
	}
	return strings.Join(ids, ", ")
}

// register gives back the place reserve took, and registers r in it (nil:
// the run never began).
func (m *Manager) register(r *run) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.starting--
	if r != nil {
		m.runs = append(m.runs, r)
	}
}

func (m *Manager) next() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.n++
	return m.n
}

// follow waits up to wait for r to end, sending what happens as progress
// notifications, and returns its status. A client that cancels the call
// stops the run.
func (m *Manager) follow(ctx context.Context, req *mcp.CallToolRequest, r *run, since int, wait time.Duration) (*mcp.CallToolResult, RunStatus, error) {
	token := req.Params.GetProgressToken()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	sent := since
	for {
		r.mu.Lock()
		changed := r.changed
		r.mu.Unlock()
		if token != nil {
			sent = m.notify(ctx, req, r, token, sent)
		}
		if r.finished() {
			break
		}
		select {
		case <-changed:
			continue
		case <-r.done:
			continue
		case <-timer.C:
		case <-ctx.Done():
			// The client cancelled the call (or went away): stop the run
			// and leave its log resumable. No answer goes back.
			r.stop()
			go m.reap(r)
			return nil, RunStatus{}, ctx.Err()
		}
		break
	}
	st, doc := m.status(r, since)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: statusText(st, doc)}}}, st, nil
}

// notify sends the lines that happened after sent as progress
// notifications, and returns the new count.
func (m *Manager) notify(ctx context.Context, req *mcp.CallToolRequest, r *run, token any, sent int) int {
	r.mu.Lock()
	total := r.dropped + len(r.happened)
	var lines []string
	if sent < r.dropped {
		sent = r.dropped
	}
	if sent < total {
		lines = append(lines, r.happened[sent-r.dropped:]...)
	}
	r.mu.Unlock()
	for i, line := range lines {
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: float64(sent + i + 1), Message: trust.Text(line)})
	}
	return total
}

// own gives r to the session that started it, and follows the session:
// once it ends (its client closed it; over HTTP, its connection dropped
// and it went idle; on stdio, stdin closed), its runs are stopped, as
// nobody is left to see them end, and their logs stay resumable. A
// request of protocol version 2026-07-28 over HTTP stands alone and
// initialized no session: its runs belong to none (a dropped call stops
// the run it follows).
func (m *Manager) own(r *run, ss *mcp.ServerSession) {
	if ss == nil || ss.InitializeParams() == nil {
		return
	}
	m.mu.Lock()
	r.session = ss
	followed := m.sessions[ss]
	if m.sessions == nil {
		m.sessions = map[*mcp.ServerSession]bool{}
	}
	m.sessions[ss] = true
	m.mu.Unlock()
	if !followed {
		go m.sessionEnds(ss)
	}
}

// sessionEnds waits for a session to end, then stops its runs (at once
// when it is over already).
func (m *Manager) sessionEnds(ss *mcp.ServerSession) {
	_ = ss.Wait()
	m.mu.Lock()
	delete(m.sessions, ss)
	var runs []*run
	for _, r := range m.runs {
		if r.session == ss {
			runs = append(runs, r)
		}
	}
	m.mu.Unlock()
	for _, r := range runs {
		r.stop()
		go m.reap(r)
	}
}

// reap kills a stopped run that has not closed its log in time.
func (m *Manager) reap(r *run) {
	select {
	case <-r.done:
	case <-time.After(m.cfg.Stopping):
		r.kill()
	}
}

// StopAll stops every run going on and waits for them to close their
// logs: the server is going away, and nobody would see them end.
func (m *Manager) StopAll() {
	m.mu.Lock()
	runs := slices.Clone(m.runs)
	m.mu.Unlock()
	for _, r := range runs {
		r.stop()
	}
	for _, r := range runs {
		m.reap(r)
		<-r.done
	}
}

// find is the run of that id this server started last (a resumed run
// keeps its log, and so its id).
func (m *Manager) find(id string) *run {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range slices.Backward(m.runs) {
		if r.id == id {
			return r
		}
	}
	return nil
}

func (m *Manager) statusTool(ctx context.Context, req *mcp.CallToolRequest, in StatusIn) (*mcp.CallToolResult, RunStatus, error) {
	r := m.find(in.RunID)
	if r == nil {
		return m.readLogged(in.RunID, "")
	}
	return m.follow(ctx, req, r, in.Since, in.wait())
}

func (m *Manager) cancelTool(ctx context.Context, req *mcp.CallToolRequest, in CancelIn) (*mcp.CallToolResult, RunStatus, error) {
	r := m.find(in.RunID)
	if r == nil {
		return nil, RunStatus{}, fmt.Errorf("run %q is not one this server is running (list_runs lists them)", in.RunID)
	}
	r.stop()
	go m.reap(r)
	return m.follow(ctx, req, r, 0, in.wait())
}

func (m *Manager) readTool(_ context.Context, _ *mcp.CallToolRequest, in ReadIn) (*mcp.CallToolResult, RunStatus, error) {
	if in.RunID == "" && in.Log == "" {
		return nil, RunStatus{}, errors.New("give run_id or log")
	}
	if r := m.find(in.RunID); r != nil && in.Log == "" {
		st, doc := m.status(r, 0)
		st.Happened = nil
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: statusText(st, doc)}}}, st, nil
	}
	if in.Log != "" {
		if err := logLike(m.abs(in.Log)); err != nil {
			return nil, RunStatus{}, err
		}
	}
	return m.readLogged(in.RunID, in.Log)
}

// logLike refuses a path that cannot be a log arena wrote before a byte
// of it is read: a log is a regular .jsonl file with a single link (a
// link could make any file of the user's look like one).
func logLike(path string) error {
	st, err := os.Lstat(path)
	switch {
	case err != nil:
		return fmt.Errorf("%s: %w", trust.Text(path), errors.Unwrap(err))
	case filepath.Ext(path) != ".jsonl" || !st.Mode().IsRegular() || links(st) != 1:
		return fmt.Errorf("%s: %w (arena's tools read only the .jsonl logs arena writes)", trust.Text(path), runlog.ErrNotALog)
	}
	return nil
}

func ptr[T any](v T) *T { return &v }

// schemaOf is T's schema, with what struct tags cannot say, and in the
// portable subset of JSON Schema that every host maps onto its model's
// function declarations (Gemini's take one type per value, no null):
// every optional field is simply absent when unset.
func schemaOf[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(err)
	}
	portable(s)
	if p := s.Properties["wait_seconds"]; p != nil {
		*p = *waitSchema(defaultWait, followWaitAbout)
	}
	return s
}

// portable rewrites ["null", T] types as T, and gives a value of any
// type (a record kept as it was read) the type object.
func portable(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && slices.Contains(s.Types, "null") {
		for _, t := range s.Types {
			if t != "null" {
				s.Type, s.Types = t, nil
			}
		}
	}
	if s.Type == "" && len(s.Types) == 0 && s.Ref == "" && len(s.AnyOf) == 0 {
		s.Type = "object"
	}
	for _, p := range s.Properties {
		portable(p)
	}
	portable(s.Items)
}

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	odoc "github.com/arenadebate/arena/engine/doc"
	"github.com/arenadebate/arena/tui/mcpserver"
)

// arena mcp end to end: the SDK's client over stdio (or Streamable HTTP)
// to the built binary, the fake CLIs on PATH.

// mcpSession is a client connected to arena mcp in a sandbox, with the
// progress notifications it received (and how many came for each
// progress token).
type mcpSession struct {
	*mcp.ClientSession
	t        *testing.T
	mu       sync.Mutex
	progress []string
	perToken map[string]int
}

func (s *sandbox) mcp(client string, extraEnv ...string) *mcpSession {
	s.t.Helper()
	return s.mcpWith(client, nil, extraEnv...)
}

// mcpWith is mcp with arena mcp's flags.
func (s *sandbox) mcpWith(client string, flags []string, extraEnv ...string) *mcpSession {
	s.t.Helper()
	ms := &mcpSession{t: s.t, perToken: map[string]int{}}
	c := mcp.NewClient(&mcp.Implementation{Name: client, Version: "1.0"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			ms.mu.Lock()
			ms.progress = append(ms.progress, req.Params.Message)
			ms.perToken[fmt.Sprint(req.Params.ProgressToken)]++
			ms.mu.Unlock()
		},
	})
	cmd := exec.Command(arenaBinary(s.t), append([]string{"mcp"}, flags...)...)
	cmd.Dir, cmd.Env = s.dir, s.env(extraEnv...)
	cmd.Stderr = os.Stderr
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 60 * time.Second}, nil)
	if err != nil {
		s.t.Fatalf("connect to arena mcp: %v", err)
	}
	s.t.Cleanup(func() { cs.Close() })
	ms.ClientSession = cs
	return ms
}

// call calls a tool and decodes its structured result; it fails the test
// on a protocol error, not on a tool error (IsError).
func (ms *mcpSession) call(ctx context.Context, tool string, args map[string]any) (*mcp.CallToolResult, mcpserver.RunStatus) {
	ms.t.Helper()
	params := &mcp.CallToolParams{Name: tool, Arguments: args}
	params.SetProgressToken(tool)
	res, err := ms.CallTool(ctx, params)
	if err != nil {
		ms.t.Fatalf("%s: %v", tool, err)
	}
	var st mcpserver.RunStatus
	if res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &st); err != nil {
			ms.t.Fatalf("%s: structured result: %v\n%s", tool, err, b)
		}
	}
	return res, st
}

func (ms *mcpSession) notifications() []string {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	return slices.Clone(ms.progress)
}

// notificationsFor is how many progress notifications came for token.
func (ms *mcpSession) notificationsFor(token string) int {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	return ms.perToken[token]
}

func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

func bg(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// mcpProtocols are a call of each protocol's tool on the fakes, with the
// outcome it reaches and that outcome's exit code.
var mcpProtocols = []struct {
	tool   string
	setup  func(s *sandbox) map[string]any
	result string
	code   int
}{
	{"debate", func(*sandbox) map[string]any {
		return map[string]any{"topic": "should we move sessions from Redis to Postgres?"}
	}, "consensus", 0},
	{"compare", func(*sandbox) map[string]any {
		return map[string]any{"decision": "which queue for order events?", "options": []string{"Kafka", "Postgres LISTEN/NOTIFY"}, "criteria": "throughput:high,ops cost:medium,team skills:low"}
	}, "recommendation", 0},
	{"judge", func(s *sandbox) map[string]any {
		return map[string]any{"paths": []string{s.writeSolution(s.t)}, "task": "REST API for user management", "criteria": judgeCriteria}
	}, "consensus", 0},
	{"verdict", func(s *sandbox) map[string]any {
		s.writeConfig(verdictSeats)
		return map[string]any{"work": "diff --git a/api.go b/api.go\n+func Users() {}\n", "task_id": "issue-18", "task": "list the users"}
	}, "accept", 0},
	{"rank", func(s *sandbox) map[string]any {
		spec, repos := rankSetup(s.t, s, "alpha", "beta")
		return map[string]any{"spec": spec, "repos": repos, "seed": 7}
	}, "ranked", 0},
}

func TestMCPEveryProtocolRunsToItsOutcome(t *testing.T) {
	t.Parallel()
	for _, p := range mcpProtocols {
		t.Run(p.tool, func(t *testing.T) {
			t.Parallel()
			s := newSandbox(t)
			args := p.setup(s)
			args["wait_seconds"] = 50
			ms := s.mcp("arena-test")
			res, st := ms.call(bg(t), p.tool, args)
			if res.IsError {
				t.Fatalf("%s: tool error: %s", p.tool, textOf(res))
			}
			// On a loaded machine a run may outlast the call: follow it.
			for i := 0; st.State == "running" && i < 10; i++ {
				res, st = ms.call(bg(t), "run_status", map[string]any{"run_id": st.RunID, "wait_seconds": 50})
			}
			o := st.Outcome
			if st.State != "finished" || o == nil {
				t.Fatalf("%s did not finish: %+v", p.tool, st)
			}
			if o.Result != p.result || o.ExitCode != p.code || o.ExitMeaning == "" {
				t.Fatalf("%s: outcome %q exit %d (%q), want %q exit %d", p.tool, o.Result, o.ExitCode, o.ExitMeaning, p.result, p.code)
			}
			checkMCPRunRecorded(t, s, p.tool, res, st)
			if p.tool == "rank" { // read back from its log, the report checked against its hash
				_, logged := ms.call(bg(t), "read_outcome", map[string]any{"log": st.LogPath})
				if r, _ := logged.Outcome.Report.(map[string]any); r["places"] == nil {
					t.Fatalf("the report read back from the log: %v", logged.Outcome.Report)
				}
			}
			if len(ms.notifications()) == 0 {
				t.Fatalf("no progress notification during the call")
			}
		})
	}
}

// checkMCPRunRecorded checks that a run a tool finished wrote its log as
// the command line does (complete, recording how to run it again), and
// that the result carries its outcome document, tables, seats and calls,
// and the verdict's record or the ranking's report.
func checkMCPRunRecorded(t *testing.T, s *sandbox, tool string, res *mcp.CallToolResult, st mcpserver.RunStatus) {
	t.Helper()
	o := st.Outcome
	lc := s.onlyLog()
	if !lc.Complete || st.LogPath != s.logs()[0] || st.RunID != strings.TrimSuffix(filepath.Base(st.LogPath), ".jsonl") {
		t.Fatalf("log %s complete=%v, status names %s (%s)", s.logs()[0], lc.Complete, st.LogPath, st.RunID)
	}
	if inv := lc.Events[0].Payload.(engine.DebateStarted).Invocation; inv == nil || inv.Dir != s.dir {
		t.Fatalf("the log does not record how to run it again: %+v", inv)
	}
	doc, err := os.ReadFile(o.Document)
	if err != nil || !strings.Contains(textOf(res), string(doc)) {
		t.Fatalf("the result's text is not the outcome document %s (%v):\n%s", o.Document, err, textOf(res))
	}
	if o.Content == nil || odoc.Markdown(*o.Content) != string(doc) || o.ContentCut {
		t.Fatalf("the structured result does not carry the outcome document (cut %v):\n%+v", o.ContentCut, o.Content)
	}
	if len(o.Tables) == 0 || len(st.Seats) == 0 || st.Calls == 0 {
		t.Fatalf("no tables, seats or calls in the result: %+v", st)
	}
	switch tool {
	case "verdict":
		if v, _ := o.Verdict.(map[string]any); v["verdict"] != "accept" {
			t.Fatalf("verdict record %v", o.Verdict)
		}
	case "rank":
		if r, _ := o.Report.(map[string]any); r["places"] == nil {
			t.Fatalf("rank report %v", o.Report)
		}
	}
}

func TestMCPListsEveryToolWithPortableSchemas(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	ms := s.mcp("arena-test")
	res, err := ms.ListTools(bg(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		b, _ := json.Marshal(tool.InputSchema)
		// Gemini's function declarations take one type per value.
		if strings.Contains(string(b), `"type":[`) {
			t.Errorf("%s: a type list in its input schema: %s", tool.Name, b)
		}
		if tool.OutputSchema == nil {
			t.Errorf("%s has no output schema", tool.Name)
		}
	}
	want := []string{"cancel_run", "compare", "debate", "judge", "list_runs", "rank", "read_outcome", "resume_run", "run_status", "verdict"}
	slices.Sort(names)
	if !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}
}

// A run longer than a call: the start returns its id, run_status follows
// it across calls, each saying only what happened since the last.
func TestMCPFollowsALongRunAcrossCalls(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	slow := clitest.AgentScript{Mode: clitest.ModeSlow, DelayMS: 400, Chunks: 3}
	// The defender holds its opening until the first status call has
	// returned: the run outlasts the start and that call on any machine.
	held := slow
	held.Steps = map[string][]clitest.Step{"opening": {{Hold: "followed"}}}
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"claude": held, "gemini": slow, "codex": slow, "qwen": slow}})
	ms := s.mcp("arena-test")
	ctx := bg(t)
	res, st := ms.call(ctx, "debate", map[string]any{"topic": "should we move sessions from Redis to Postgres?", "wait_seconds": 0})
	if res.IsError || st.State != "running" || st.RunID == "" || !strings.Contains(st.Watch, "arena replay --follow") {
		t.Fatalf("the start did not return a running run: %s\n%+v", textOf(res), st)
	}
	if !strings.Contains(textOf(res), "run_status") {
		t.Fatalf("the text does not say how to follow the run:\n%s", textOf(res))
	}
	var happened []string
	happened = append(happened, st.Happened...)
	cursor, calls := st.Cursor, 0
	for st.State != "finished" {
		if calls++; calls > 200 {
			t.Fatal("the run did not finish in 200 calls")
		}
		res, st = ms.call(ctx, "run_status", map[string]any{"run_id": st.RunID, "since": cursor, "wait_seconds": 1})
		if res.IsError {
			t.Fatalf("run_status: %s", textOf(res))
		}
		happened = append(happened, st.Happened...)
		cursor = st.Cursor
		if calls == 1 {
			s.fakes.Release("followed")
		}
	}
	if calls < 2 {
		t.Fatalf("the run ended within %d status call(s): it is not long enough to test following", calls)
	}
	if st.Outcome == nil || st.Outcome.Result != "consensus" {
		t.Fatalf("outcome %+v", st.Outcome)
	}
	// Every line once, in order, from the start to the outcome.
	if len(happened) != cursor || !strings.HasPrefix(happened[0], "started:") || !strings.HasPrefix(happened[len(happened)-1], "outcome:") {
		t.Fatalf("%d lines for cursor %d:\n%s", len(happened), cursor, strings.Join(happened, "\n"))
	}
	if n := ms.notifications(); len(n) < 3 {
		t.Fatalf("%d progress notifications: %v", len(n), n)
	}
}

// A client that cancels the call following a run stops the run, and the
// log is left resumable: arena resume carries it on to its outcome.
func TestMCPCancelledCallStopsTheRunResumably(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"qwen": {Mode: clitest.ModeHang}}})
	ms := s.mcp("arena-test")
	res, st := ms.call(bg(t), "debate", map[string]any{"topic": "should we move sessions from Redis to Postgres?", "wait_seconds": 0})
	if res.IsError || st.State != "running" {
		t.Fatalf("start: %s", textOf(res))
	}
	waitForCall(t, s, "qwen", "critique")
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		// From the cursor 0, so that the server, once it follows the run
		// for this call, sends at once what happened so far: the sign
		// that the call is open.
		params := &mcp.CallToolParams{Name: "run_status", Arguments: map[string]any{"run_id": st.RunID, "wait_seconds": 50}}
		params.SetProgressToken("following")
		_, err := ms.CallTool(ctx, params)
		errc <- err
	}()
	waitUntil(t, 60*time.Second, "the server to follow the run for the call", func() bool { return ms.notificationsFor("following") > 0 })
	cancel()
	if err := <-errc; err == nil {
		t.Fatal("the cancelled call returned a result")
	}
	var o *mcpserver.Outcome
	waitUntil(t, 60*time.Second, "the run to stop", func() bool {
		_, st := ms.call(bg(t), "read_outcome", map[string]any{"run_id": st.RunID})
		o = st.Outcome
		return st.State == "finished"
	})
	if o.Result != string(engine.OutcomeInterrupted) || o.ExitCode != exitInterrupted || !strings.HasPrefix(o.Resume, "arena resume ") {
		t.Fatalf("outcome %+v", o)
	}
	assertNoSurvivors(t, s)
	s.fakes.SetScript(nil)
	r := s.run("resume", "--no-tui", s.logs()[0])
	if r.code != exitConsensus || !strings.Contains(r.stdout, "↻ resumed from") {
		t.Fatalf("resume: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

func TestMCPCancelRun(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"codex": {Mode: clitest.ModeHang}}})
	ms := s.mcp("arena-test")
	_, st := ms.call(bg(t), "judge", map[string]any{"paths": []string{s.writeSolution(t)}, "task": "REST API", "wait_seconds": 0})
	waitForCall(t, s, "codex", "judge.analysis")
	res, st := ms.call(bg(t), "cancel_run", map[string]any{"run_id": st.RunID, "wait_seconds": 50})
	if res.IsError || st.State != "finished" || st.Outcome.Result != string(engine.OutcomeInterrupted) || st.Outcome.ExitCode != exitInterrupted {
		t.Fatalf("cancel_run: %s\n%+v", textOf(res), st.Outcome)
	}
	if lc := s.onlyLog(); outcomeOf(t, lc).Result != engine.OutcomeInterrupted {
		t.Fatalf("the log's outcome is %s", outcomeOf(t, lc).Result)
	}
	res, _ = ms.call(bg(t), "cancel_run", map[string]any{"run_id": "no-such-run"})
	if !res.IsError {
		t.Fatalf("cancel_run of no run: %s", textOf(res))
	}
}

// A run tool refuses what the command refuses, in its words.
func TestMCPRefusesAsTheCommandLineDoes(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	ms := s.mcp("arena-test")
	for _, c := range []struct {
		tool string
		args map[string]any
		cli  []string
	}{
		{"compare", map[string]any{"decision": "which queue?", "options": []string{"Kafka"}}, []string{"compare", "--no-tui", "which queue?", "--option", "Kafka"}},
		{"judge", map[string]any{"task": "t", "preset": "code", "min_score": 9, "solution": "x"}, []string{"judge", "--task", "t", "--min-score", "9", "-"}},
		{"verdict", map[string]any{"task_id": "  "}, []string{"verdict", "--task-id", "  ", "x"}},
		{"rank", map[string]any{"spec": "missing.md", "repos": []string{"a", "b"}}, []string{"rank", "missing.md", "a", "b"}},
		{"debate", map[string]any{"topic": "x?", "context": []string{"no-such-file.md"}}, []string{"--no-tui", "x?", "--context", "no-such-file.md"}},
	} {
		res, _ := ms.call(bg(t), c.tool, c.args)
		r := s.runIn([]byte("x"), c.cli...)
		if !res.IsError || r.code != exitUsage || textOf(res) != strings.TrimSpace(r.stderr) {
			t.Errorf("%s: tool says %q (error %v); the command line says %q (exit %d)", c.tool, textOf(res), res.IsError, r.stderr, r.code)
		}
	}
	if len(s.logs()) != 0 {
		t.Fatalf("a refused run left logs: %v", s.logs())
	}
	// The schema's own checks come first: a missing required field.
	res, _ := ms.call(bg(t), "judge", map[string]any{"solution": "x"})
	if !res.IsError || !strings.Contains(textOf(res), "task") {
		t.Fatalf("judge without task: %s", textOf(res))
	}
}

// The calling agent is kept out of the judging seats, and told so.
func TestMCPKeepsTheCallerOutOfJudgingSeats(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, client, env, tool, agent string
		args                           func(s *sandbox) map[string]any
	}{
		{"claude-code judges", "claude-code", "", "judge", "claude", func(s *sandbox) map[string]any {
			return map[string]any{"solution": judgeSolution, "task": "REST API"}
		}},
		{"installed for codex", "some-client", "ARENA_MCP_HOST=codex", "verdict", "codex", func(s *sandbox) map[string]any {
			return map[string]any{"work": "diff --git a/x b/x\n+x\n", "task_id": "t", "thorough": true}
		}},
		{"gemini compares", "gemini-cli-mcp-client", "", "compare", "gemini", func(s *sandbox) map[string]any {
			return map[string]any{"decision": "which queue?", "options": []string{"Kafka", "NATS"}, "criteria": "speed:high"}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := newSandbox(t)
			var env []string
			if c.env != "" {
				env = append(env, c.env)
			}
			ms := s.mcp(c.client, env...)
			args := c.args(s)
			args["wait_seconds"] = 50
			res, st := ms.call(bg(t), c.tool, args)
			if res.IsError || st.Outcome == nil {
				t.Fatalf("%s", textOf(res))
			}
			for _, seat := range st.Seats {
				if seat.Agent == c.agent {
					t.Fatalf("%s holds the %s seat: %+v", c.agent, seat.Seat, st.Seats)
				}
			}
			if len(st.Notes) == 0 || !strings.Contains(st.Notes[0], "you are "+c.agent) || !strings.Contains(textOf(res), "note: you are "+c.agent) {
				t.Fatalf("the result does not say why: %v\n%s", st.Notes, textOf(res))
			}
		})
	}
}

// A client that goes away stops the runs it started: nobody would see
// them end, and their logs stay resumable.
func TestMCPServerGoneStopsItsRuns(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"gemini": {Mode: clitest.ModeHang}}})
	ms := s.mcp("arena-test")
	res, _ := ms.call(bg(t), "debate", map[string]any{"topic": "should we move sessions from Redis to Postgres?", "wait_seconds": 0})
	if res.IsError {
		t.Fatal(textOf(res))
	}
	waitForCall(t, s, "gemini", "critique")
	if err := ms.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	lc := s.onlyLog()
	if o := outcomeOf(t, lc); o.Result != engine.OutcomeInterrupted {
		t.Fatalf("the log's outcome is %s", o.Result)
	}
	assertNoSurvivors(t, s)
}

func TestMCPListAndReadOutcome(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	ms := s.mcp("arena-test")
	_, run := ms.call(bg(t), "debate", map[string]any{"topic": "should we move sessions from Redis to Postgres?", "wait_seconds": 50})
	if run.State != "finished" {
		t.Fatalf("%+v", run)
	}
	// A run of the command line's, in the same directory.
	if r := s.run("compare", "--no-tui", "which queue?", "--option", "A", "--option", "B"); r.code != 0 {
		t.Fatalf("compare: %d %s", r.code, r.stderr)
	}
	res, err := ms.CallTool(bg(t), &mcp.CallToolParams{Name: "list_runs", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("list_runs: %v %s", err, textOf(res))
	}
	var list mcpserver.RunList
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &list)
	if len(list.Runs) != 2 || list.Runs[0].RunID != run.RunID || list.Runs[0].Result != "consensus" || list.Runs[1].Protocol != "compare" || list.Runs[1].State != "finished" {
		t.Fatalf("list_runs: %+v", list.Runs)
	}
	for _, args := range []map[string]any{{"run_id": list.Runs[1].RunID}, {"log": list.Runs[1].LogPath}} {
		res, st := ms.call(bg(t), "read_outcome", args)
		if res.IsError || st.Outcome == nil || st.Outcome.Result != "recommendation" || st.Outcome.ExitCode != 0 || !strings.Contains(textOf(res), "# Comparison") {
			t.Fatalf("read_outcome %v: %s\n%+v", args, textOf(res), st.Outcome)
		}
	}
	os.WriteFile(filepath.Join(s.dir, "notes.txt"), []byte("hello\n"), 0o600)
	for _, args := range []map[string]any{{"run_id": "nope"}, {"run_id": "../etc"}, {"log": "notes.txt"}, {}} {
		if res, _ := ms.call(bg(t), "read_outcome", args); !res.IsError {
			t.Fatalf("read_outcome %v: %s", args, textOf(res))
		}
	}
}

// resume_run carries an interrupted run on as arena resume does: the same
// log, every reply it holds reused, to its outcome; and it refuses what
// the command refuses, in its words: a finished run, a log not written on
// this machine, and a path that is not a log.
func TestMCPResumesARun(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"qwen": {Mode: clitest.ModeHang}}})
	ms := s.mcp("arena-test")
	_, st := ms.call(bg(t), "debate", map[string]any{"topic": "should we move sessions from Redis to Postgres?"})
	waitForCall(t, s, "qwen", "critique")
	if _, st = ms.call(bg(t), "cancel_run", map[string]any{"run_id": st.RunID, "wait_seconds": 50}); st.Outcome == nil || st.Outcome.Result != string(engine.OutcomeInterrupted) {
		t.Fatalf("cancel_run: %+v", st)
	}
	id, log := st.RunID, s.logs()[0]
	// A copy whose signature is not this user's: a log from elsewhere.
	foreign := filepath.Join(s.dir, "foreign.jsonl")
	if b := readFile(t, log); strings.Contains(b, `"mac":"`) {
		os.WriteFile(foreign, []byte(strings.Replace(b, `"mac":"`, `"mac":"00`, 1)), 0o600)
	} else {
		t.Fatalf("the log carries no signature:\n%.2000s", b)
	}
	s.fakes.SetScript(nil)
	res, st := ms.call(bg(t), "resume_run", map[string]any{"run_id": id})
	if res.IsError || st.RunID != id {
		t.Fatalf("resume_run: %s\n%+v", textOf(res), st)
	}
	for i := 0; st.State == "running" && i < 20; i++ {
		res, st = ms.call(bg(t), "run_status", map[string]any{"run_id": id, "wait_seconds": 50})
	}
	if st.State != "finished" || st.Outcome == nil || st.Outcome.Result != "consensus" || st.Tool != "debate" || st.Outcome.ExitMeaning == "" {
		t.Fatalf("the resumed run: %s\n%+v", textOf(res), st)
	}
	if logs := s.logs(); len(logs) != 1 || !slices.ContainsFunc(st.Happened, func(l string) bool { return strings.HasPrefix(l, "resumed from") }) {
		t.Fatalf("not resumed in its own log: %v\n%v", logs, st.Happened)
	}
	// A finished run: the command's refusal, word for word.
	res, _ = ms.call(bg(t), "resume_run", map[string]any{"log": log})
	r := s.run("resume", "--no-tui", log)
	if !res.IsError || r.code != exitUsage || textOf(res) != strings.TrimSpace(r.stderr) {
		t.Fatalf("a finished run: the tool says %q; the command %q (exit %d)", textOf(res), r.stderr, r.code)
	}
	// The log from elsewhere: refused, with no way around it from the
	// tool (a person resumes it with arena resume --yes).
	if res, _ := ms.call(bg(t), "resume_run", map[string]any{"log": foreign}); !res.IsError || !strings.Contains(textOf(res), "not written by arena on this machine") {
		t.Fatalf("a log from elsewhere: %s", textOf(res))
	}
	os.WriteFile(filepath.Join(s.dir, "notes.txt"), []byte("hello\n"), 0o600)
	for _, args := range []map[string]any{{"log": "notes.txt"}, {"run_id": "../etc"}, {"run_id": "no-such-run"}} {
		if res, _ := ms.call(bg(t), "resume_run", args); !res.IsError {
			t.Fatalf("resume_run %v: %s", args, textOf(res))
		}
	}
}

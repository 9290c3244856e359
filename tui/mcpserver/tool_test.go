package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
)

// compareish is a request shaped like a comparison's.
type compareish struct {
	Decision  string   `json:"decision,omitempty" arg:"all" mcp:"required" about:"the decision"`
	Options   []string `json:"options,omitempty" flag:"option,repeat" mcp:"required" about:"the options"`
	Advocates []string `json:"advocates,omitempty" flag:"advocates"`
	Quick     bool     `json:"quick,omitempty" flag:"quick"`
	Orders    uint64   `json:"orders,omitempty" flag:"orders"`
	Judge     string   `json:"judge,omitempty" flag:"judge"`
	Author    string   `json:"author,omitempty" flag:"author"`
	Preset    string   `json:"preset,omitempty" flag:"preset" enum:"code,docs"`
	File      string   `json:"file,omitempty" flag:"file" mcp:"-"`
}

func (*compareish) Prepare(engine.Setup) (*engine.Prepared, error) { return nil, nil }

// A tool as the server builds one from a protocol's spec.
var testTool = ToolOf(engine.Spec{
	Name: "compare", Command: "compare", Tool: engine.Tool{About: "compare options", Guard: engine.Guard{Author: "author", Judges: []string{"judge"}}},
	Exits: engine.Exits{{Code: 0, Means: "a recommendation"}, {Code: 3, Means: "order dependent", Outcomes: []engine.OutcomeKind{"order_dependent"}}},
	Uses:  engine.Uses{Timeout: true},
	New:   func() engine.Request { return &compareish{} },
}, "")

// A call is the protocol's request, as JSON, and the settings it asks
// the run with: no command line.
func TestLaunchIsTheRequest(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in, request string
		settings    engine.RunSettings
	}{
		{`{"decision":"which queue?","options":["Kafka","-rm -rf"]}`, `{"decision":"which queue?","options":["Kafka","-rm -rf"]}`, engine.RunSettings{}},
		{`{"decision":"d","options":["a","b"],"advocates":["gemini","codex"],"quick":true,"orders":3,"max_cost":0.5,"judge":"qwen","timeout":"90s"}`,
			`{"advocates":["gemini","codex"],"decision":"d","judge":"qwen","options":["a","b"],"orders":3,"quick":true}`, engine.RunSettings{MaxCost: "0.5", Timeout: "90s"}},
		// What says nothing is left out, as a person would.
		{`{"decision":"d","options":[],"advocates":[],"quick":false,"orders":0,"judge":"","max_calls":0}`, `{"decision":"d"}`, engine.RunSettings{}},
		// A 64-bit number stays the number it was.
		{`{"decision":"d","orders":18446744073709551615}`, `{"decision":"d","orders":18446744073709551615}`, engine.RunSettings{}},
	}
	for _, c := range cases {
		var in Input
		if err := json.Unmarshal([]byte(c.in), &in); err != nil {
			t.Fatal(err)
		}
		l, err := testTool.Launch(in)
		if err != nil || string(l.Request) != c.request || fmt.Sprint(l.Settings) != fmt.Sprint(c.settings) || l.Protocol != "compare" {
			t.Errorf("%s:\n got %s %+v (%v)\nwant %s %+v", c.in, l.Request, l.Settings, err, c.request, c.settings)
		}
	}
}

func TestSchemaIsTheToolsInputs(t *testing.T) {
	t.Parallel()
	s := testTool.Schema()
	want := []string{"decision", "options", "advocates", "quick", "orders", "judge", "author", "preset", "timeout", "max_cost", "max_calls", "max_tokens", "wait_seconds"}
	if !slices.Equal(s.PropertyOrder, want) {
		t.Fatalf("properties %q, want %q", s.PropertyOrder, want)
	}
	if !slices.Equal(s.Required, []string{"decision", "options"}) {
		t.Errorf("required %q", s.Required)
	}
	types := map[string]string{"decision": "string", "options": "array", "advocates": "array", "quick": "boolean", "orders": "integer", "max_cost": "number", "wait_seconds": "integer"}
	for name, typ := range types {
		if got := s.Properties[name].Type; got != typ {
			t.Errorf("%s: type %q, want %q", name, got, typ)
		}
	}
	if p := s.Properties["preset"]; !slices.Equal(p.Enum, []any{"code", "docs"}) {
		t.Errorf("preset enum %v", p.Enum)
	}
	b, _ := json.Marshal(s)
	if !strings.Contains(string(b), `"additionalProperties":false`) || !strings.Contains(string(b), `"default":0`) {
		t.Errorf("schema %s", b)
	}
}

func TestCallsStayWithinTheServersBudget(t *testing.T) {
	t.Parallel()
	server := Budget{MaxCost: 1, MaxCalls: 5}
	in := Input{"max_cost": json.Number("2"), "max_tokens": json.Number("100")}
	in.within(server)
	if num(in["max_cost"]) != "1" || num(in["max_calls"]) != "5" || num(in["max_tokens"]) != "100" {
		t.Fatalf("within the server's budget: %v", in)
	}
	lower := Input{"max_cost": json.Number("0.25")}
	lower.within(server)
	if num(lower["max_cost"]) != "0.25" {
		t.Fatalf("a lower limit is the caller's: %v", lower)
	}
}

func TestTheCallerIsKeptFromJudgingItsOwnWork(t *testing.T) {
	t.Parallel()
	me := callerInfo{agent: "claude", how: "the client calls itself \"claude-code\""}
	in := Input{}
	notes := guard(testTool.Guard, me, in)
	if in["author"] != "claude" || len(notes) != 1 || !strings.Contains(notes[0], "kept out of the judging seats") {
		t.Fatalf("no author named: %v, %q", in, notes)
	}
	in = Input{"judge": "claude"}
	if notes := guard(testTool.Guard, me, in); in["author"] != "claude" || !strings.Contains(notes[0], "judges as named") {
		t.Fatalf("named as judge: %v, %q", in, notes)
	}
	in = Input{"author": "codex"}
	if notes := guard(testTool.Guard, me, in); in["author"] != "codex" || !strings.Contains(notes[0], "may hold a judging seat") {
		t.Fatalf("another author: %v, %q", in, notes)
	}
	if notes := guard(testTool.Guard, callerInfo{}, Input{}); notes != nil {
		t.Fatalf("no agent of arena's calls: %q", notes)
	}
	debate := engine.Guard{Against: "challengers"}
	if notes := guard(debate, me, Input{"challengers": []any{"claude", "qwen"}}); len(notes) != 1 {
		t.Fatalf("a challenger against itself: %q", notes)
	}
	rank := engine.Guard{Authors: "authors"}
	if notes := guard(rank, me, Input{"authors": []any{"claude", "codex"}}); notes != nil {
		t.Fatalf("an author named: %q", notes)
	}
}

// Through the SDK, as a client calls it: an input the schema refuses
// starts nothing, and one it takes starts arena __run with the launch on
// its stdin (here a script standing in for arena, which writes down how
// it was run).
func TestToolCallsAreCheckedThenRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	record := filepath.Join(dir, "argv")
	fake := filepath.Join(dir, "arena")
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" > " + record + "\ncat >> " + record + "\nexit 2\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	m := NewManager(Config{Arena: fake, Own: Own{LogDir: "/tmp/x"}, Tools: []Tool{testTool}, Agents: []string{"claude"}})
	cs := connect(t, m, "claude-code")
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "compare", Arguments: map[string]any{"decision": "d", "options": []string{"a"}, "colour": "blue"}})
	if err != nil || !res.IsError || !strings.Contains(text(res), "colour") {
		t.Fatalf("an input the schema does not have: %v %s", err, text(res))
	}
	if _, err := os.Stat(record); err == nil {
		t.Fatal("a refused call ran the command")
	}
	res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "compare", Arguments: map[string]any{"decision": "which?", "options": []string{"a", "b"}}})
	if err != nil || !res.IsError {
		t.Fatalf("the stand-in exits 2 before the run begins: %v %s", err, text(res))
	}
	got, _ := os.ReadFile(record)
	want := RunCommand + "\n" + `{"protocol":"compare","request":{"author":"claude","decision":"which?","options":["a","b"]},"settings":{},"log_dir":"/tmp/x"}`
	if string(got) != want {
		t.Fatalf("ran:\n%s\nwant:\n%s", got, want)
	}
	l, err := ReadLaunch(strings.NewReader(strings.TrimPrefix(want, RunCommand+"\n")))
	if err != nil || l.LogDir != "/tmp/x" || string(l.Request) != `{"author":"claude","decision":"which?","options":["a","b"]}` {
		t.Fatalf("read back %+v %v", l, err)
	}
	if _, err := ReadLaunch(strings.NewReader(`{"protocol":"compare","config_file":"x"}`)); err == nil {
		t.Fatal("a launch with a field it does not have was read")
	}
}

func connect(t *testing.T, m *Manager, client string) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := NewServer(m).Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: client, Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// What a tool returns is outside text (file names, logs, runs' output)
// on its way to a model and a person's screen: it goes through the one
// cleaner, its text and its structured content alike. Here the log
// directory's name holds a right-to-left override and a left-to-right
// isolate.
func TestToolResultsAreCleaned(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "logs\u202e\u2066")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, NewManager(Config{Arena: "/bin/false", LogDir: dir, Tools: []Tool{testTool}}), "claude-code")
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_runs", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("list_runs: %v %s", err, text(res))
	}
	structured, _ := json.Marshal(res.StructuredContent)
	var list RunList
	if err := json.Unmarshal(structured, &list); err != nil {
		t.Fatal(err)
	}
	for what, s := range map[string]string{"text": text(res), "structured": list.LogDir} {
		if strings.ContainsAny(s, "\u202e\u2066") || !strings.Contains(s, "logs<U+202E><U+2066>") {
			t.Errorf("%s: %q", what, s)
		}
	}
}

// list_runs lists the runs of every log directory (arena verdict's is out
// of the work tree), and read_outcome finds a run by its id in any.
func TestListRunsReadsEveryLogDirectory(t *testing.T) {
	t.Parallel()
	logs, verdicts := filepath.Join(t.TempDir(), "logs"), filepath.Join(t.TempDir(), "verdict-logs")
	for i, dir := range []string{logs, verdicts} {
		w, err := runlog.Create(dir, runlog.Name(time.Date(2026, 11, 26, 10, i, 0, 0, time.UTC), fmt.Sprintf("run %d", i)))
		if err != nil {
			t.Fatal(err)
		}
		w.Handle(engine.Event{Seq: 1, Time: time.Date(2026, 11, 26, 10, i, 0, 0, time.UTC),
			Payload: engine.DebateStarted{Version: engine.LogVersion, Protocol: "verdict", Title: "Verdict", Topic: fmt.Sprintf("run %d", i)}})
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	cs := connect(t, NewManager(Config{Arena: "/bin/false", LogDir: logs, OtherLogDirs: []string{verdicts}, Tools: []Tool{testTool}}), "claude-code")
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_runs", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("list_runs: %v %s", err, text(res))
	}
	b, _ := json.Marshal(res.StructuredContent)
	var list RunList
	if err := json.Unmarshal(b, &list); err != nil || len(list.Runs) != 2 {
		t.Fatalf("%d runs listed (%v): %s", len(list.Runs), err, b)
	}
	id := list.Runs[0].RunID
	res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read_outcome", Arguments: map[string]any{"run_id": id}})
	if err != nil || !strings.Contains(text(res), filepath.Join(verdicts, id+".jsonl")) {
		t.Fatalf("read_outcome %s: %v %s", id, err, text(res))
	}
}

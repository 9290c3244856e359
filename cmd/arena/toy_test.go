package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/shape"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/doc"
	"github.com/arenadebate/arena/engine/enginetest"
	"github.com/arenadebate/arena/engine/inputs"
	"github.com/arenadebate/arena/engine/protocols"
	"github.com/arenadebate/arena/settings"
	"github.com/arenadebate/arena/tui/mcpserver"
)

// A protocol is one spec in one list (issue 37): the toy below is
// declared here, in test code, and handed to arena with the real list.
// Nothing else is edited, and it is a command with its help and exit
// codes, an MCP tool, a run whose log arena logs lists, replay plays and
// stats reads, and a banner in its own words. docs/architecture.md's
// "adding a protocol" is what this test touches.

// toyAnswered is how a toy run ends when the oracle answers.
const toyAnswered engine.OutcomeKind = "answered"

// toySpec is the toy protocol: one oracle answers a question.
var toySpec = engine.Spec{
	Name: "toy", Command: "toy", Title: "Toy: one oracle answers a question", Noun: "toy run",
	Words:  engine.Words{Topic: "Question", Context: "Scroll"},
	Phases: []engine.PhaseInfo{{Phase: "answer", Title: "The oracle answers"}, {Phase: engine.PhaseOutcome, Title: "Outcome"}},
	Help: engine.Help{
		Use:     `toy "question" [flags]`,
		Short:   "A toy protocol, declared in a test: one oracle answers a question",
		Long:    "toy asks one oracle (the defender's agent) a question, and its answer is the outcome.",
		Example: `  arena toy "what is the answer?"`,
	},
	Exits: engine.Exits{
		{Code: engine.ExitOK, Means: "the oracle answered", Outcomes: []engine.OutcomeKind{toyAnswered}},
		{Code: engine.ExitUsage, Means: "usage error (no question)"},
		engine.Aborted("the oracle failed"),
	},
	Tool: engine.Tool{About: "Ask the toy oracle a question."},
	New:  func() engine.Request { return &toyRequest{} },
	Uses: engine.Uses{Timeout: true},
}

// toyRequest is what a toy run is asked for.
type toyRequest struct {
	Question string `json:"question,omitempty" arg:"all" mcp:"required" about:"the question to answer"`
	Loud     bool   `json:"loud,omitempty" flag:"loud" help:"ask the oracle to answer loudly"`
}

func (r *toyRequest) Prepare(s engine.Setup) (*engine.Prepared, error) {
	if strings.TrimSpace(r.Question) == "" {
		return nil, inputs.Errorf("no question given")
	}
	oracle := s.Roster.Agents[s.Defender]
	return &engine.Prepared{Protocol: &toyRun{req: *r, oracle: oracle, timeout: s.Timeout}, Name: "toy " + r.Question}, nil
}

// toyRun is a toy run, ready to run.
type toyRun struct {
	req     toyRequest
	oracle  challengers.Agent
	timeout time.Duration
}

func (p *toyRun) Start() engine.DebateStarted {
	return engine.DebateStarted{
		ID: engine.Slug(p.req.Question, 40), Protocol: toySpec.Name, Title: toySpec.Title, Noun: toySpec.Noun, Words: toySpec.Words,
		Topic: p.req.Question, Seats: []engine.Seat{{Name: "oracle", Agent: p.oracle.Name, Role: "oracle"}},
		FollowUpSeat: "oracle", Agents: []engine.AgentInfo{engine.InfoOf(p.oracle)}, Timeout: engine.Duration(p.timeout), Phases: toySpec.Phases,
	}
}

func (p *toyRun) Run(ctx context.Context, rt *engine.Runtime) engine.Outcome {
	rt.Bus.Emit(engine.PhaseStarted{Phase: "answer", Title: "The oracle answers"})
	prompt := "Answer in one line: " + p.req.Question + "\n\n" + shape.Tag("toy.answer") + "\n"
	ans := rt.Ask(ctx, engine.Question{Seat: "oracle", Agent: p.oracle, Role: "oracle", Phase: "answer", Task: "answer", Shape: "toy.answer",
		Prompt: prompt, Parse: func(text string) (engine.Reply, error) { return toyAnswer(strings.TrimSpace(text)), nil }})
	switch {
	case ctx.Err() != nil:
		return engine.Outcome{Result: engine.OutcomeInterrupted, Summary: "interrupted"}
	case !ans.OK():
		return engine.Outcome{Result: engine.OutcomeAborted, Summary: "the oracle failed"}
	}
	d := &doc.Document{Title: "Toy outcome", Result: "answered", Summary: "The oracle answered."}
	d.Add("The answer", doc.Para(ans.Text))
	return engine.Outcome{Result: toyAnswered, Stance: engine.StanceAgree, Summary: "The oracle answered.", Document: d}
}

// toyAnswer is the oracle's reply: any text.
type toyAnswer string

func (a toyAnswer) Display() string                { return string(a) }
func (a toyAnswer) Badge() (string, engine.Stance) { return "answered", engine.StanceNeutral }

func TestAToyProtocolNeedsOnlyItsSpecAndItsLine(t *testing.T) {
	s := enginetest.NewSandbox(t, "claude")
	s.Fakes.Setenv(t) // the runner starts the fake claude from PATH
	t.Setenv("XDG_STATE_HOME", filepath.Join(s.Home, ".local", "state"))
	specs := append(protocols.All(), toySpec) // the one edit: a line of the list
	logs := filepath.Join(s.Dir, "logs")
	run := func(args ...string) (int, string, string) {
		t.Helper()
		var out, errb bytes.Buffer
		a := newApp(strings.NewReader(""), &out, &errb)
		a.specs = specs
		a.env = settings.Env{Home: s.Home, ConfigHome: filepath.Join(s.Home, ".config"), CacheDir: filepath.Join(s.Home, ".cache"), LookPath: exec.LookPath, Getenv: os.Getenv}
		code := a.execute(args)
		return code, out.String(), errb.String()
	}
	want := func(what, got string, parts ...string) {
		t.Helper()
		for _, p := range parts {
			if !strings.Contains(got, p) {
				t.Errorf("%s lacks %q:\n%s", what, p, got)
			}
		}
	}

	// --help lists it; its own help has its flag and exit codes.
	_, help, _ := run("--help")
	want("arena --help", help, "toy", toySpec.Help.Short)
	_, help, _ = run("toy", "--help")
	want("arena toy --help", help, "--loud", "--timeout", "Exit codes:", "the oracle answered")

	// A run: the headless banner in its own words.
	code, out, stderr := run("toy", "--no-tui", "--log-dir", logs, "what is the answer?")
	if code != 0 {
		t.Fatalf("arena toy: exit %d\n%s\n%s", code, out, stderr)
	}
	want("the headless run", out, "(TOY RUN)", "Question: what is the answer?", "Protocol: "+toySpec.Title, "oracle")
	paths, _ := filepath.Glob(filepath.Join(logs, "*.jsonl"))
	if len(paths) != 1 {
		t.Fatalf("%d logs in %s", len(paths), logs)
	}

	// arena logs lists it by its command, replay plays it in its words,
	// stats reads it.
	_, out, _ = run("logs", "--log-dir", logs)
	want("arena logs", out, "toy", "what is the answer?", "answered")
	code, out, stderr = run("replay", "--no-tui", paths[0])
	if code != 0 {
		t.Fatalf("arena replay: exit %d\n%s", code, stderr)
	}
	want("arena replay", out, "(TOY RUN)", "Question: what is the answer?", "# Toy outcome: answered")
	code, out, stderr = run("stats", "--protocol", "toy", "--json", logs)
	if code != 0 || !strings.Contains(out, `"logs": 1`) && !strings.Contains(out, `"logs":1`) {
		t.Fatalf("arena stats --protocol toy: exit %d\n%s\n%s", code, out, stderr)
	}

	// The MCP server lists its tool, with its request's inputs.
	checkToyTool(t, specs, want)
}

// checkToyTool wants the MCP server of specs to list the toy's tool, with
// its request's inputs.
func checkToyTool(t *testing.T, specs []engine.Spec, want func(what, got string, parts ...string)) {
	t.Helper()
	a := newApp(strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{})
	a.specs = specs
	m := mcpserver.NewManager(mcpserver.Config{Tools: a.mcpTools()})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := mcpserver.NewServer(m).Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, tl := range tools.Tools {
		if tl.Name == "toy" {
			b, _ := json.Marshal(tl.InputSchema)
			want("the toy tool's schema", string(b), `"question"`, `"loud"`, `"timeout"`, `"required":["question"]`)
			found = strings.HasPrefix(tl.Description, toySpec.Tool.About) // then the waits, said to every run tool
		}
	}
	if !found {
		t.Fatalf("the MCP server lists no toy tool: %+v", tools.Tools)
	}
}

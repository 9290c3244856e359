package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/compare"
	"github.com/arenadebate/arena/engine/enginetest"
)

var compareArgs = []string{"compare", "--no-tui", "which queue for order events?",
	"--option", "Kafka", "--option", "Postgres LISTEN/NOTIFY", "--criteria", "throughput:high,ops cost:medium,team skills:low"}

// judgeCalls counts the calls of one shape the fakes answered.
func shapeCalls(s *sandbox, kind string) (n int, agents []string) {
	for _, c := range s.fakes.Calls() {
		if string(c.Kind) == kind {
			n++
			agents = append(agents, c.Agent)
		}
	}
	return n, agents
}

func TestCompareToARecommendation(t *testing.T) {
	s := newSandbox(t)
	r := s.run(append(compareArgs, "--advocates", "gemini,codex", "--judge", "claude")...)
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	lc := s.onlyLog()
	o := outcomeOf(t, lc)
	if o.Result != compare.OutcomeRecommendation || !strings.Contains(o.Summary, "Recommendation: Kafka") {
		t.Fatalf("outcome %s: %s", o.Result, o.Summary)
	}
	if start := lc.Events[0].Payload.(engine.DebateStarted); start.Protocol != "compare" || len(start.Seats) != 4 {
		t.Fatalf("start %+v", start)
	}
	// Both advocates opened and rebutted, the judge read twice.
	for kind, want := range map[string]int{compare.ShapeOpening: 2, compare.ShapeRebuttal: 2, compare.ShapeJudge: 2} {
		if n, who := shapeCalls(s, kind); n != want {
			t.Errorf("%s: %d calls (%v), want %d", kind, n, who, want)
		}
	}
	doc := enginetest.Document(lc)
	md, err := os.ReadFile(filepath.Join(s.dir, doc))
	if err != nil || string(md) != o.Markdown {
		t.Fatalf("document %q: %v", doc, err)
	}
	for _, want := range []string{"## Weighted scorecard", "4×3 + 4×2 + 4×1 = 24", "3×3 + 3×2 + 3×1 = 18", "## Decision conditions", "## Argument audit", "## Rebuttal analysis"} {
		if !strings.Contains(o.Markdown, want) {
			t.Errorf("the document lacks %q", want)
		}
	}
	for _, want := range []string{"Protocol: Comparative debate", "── Openings", "── Rebuttals", "── Judgement", "Weighted scorecard", "Recommendation: Kafka"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the printed run lacks %q", want)
		}
	}
	// Replay prints the same document.
	rr := s.run("replay", "--no-tui", filepath.Join(s.dir, o.LogPath))
	if rr.code != exitOK || !strings.Contains(rr.stdout, "4×3 + 4×2 + 4×1 = 24") {
		t.Fatalf("replay exit %d\n%s\n%s", rr.code, rr.stdout, rr.stderr)
	}
}

func TestCompareQuickAsksNoRebuttals(t *testing.T) {
	s := newSandbox(t)
	r := s.run(append(compareArgs, "--quick")...)
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if n, _ := shapeCalls(s, compare.ShapeRebuttal); n != 0 {
		t.Fatalf("%d rebuttals under --quick", n)
	}
	if n, _ := shapeCalls(s, compare.ShapeJudge); n != 2 {
		t.Fatalf("%d judge calls, want both orders", n)
	}
}

func TestCompareProposesCriteriaWhenNoneAreGiven(t *testing.T) {
	s := newSandbox(t)
	r := s.run("compare", "--no-tui", "--quick", "which queue?", "--option", "Kafka", "--option", "NATS")
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if n, _ := shapeCalls(s, compare.ShapeCriteria); n != 1 || !strings.Contains(r.stdout, "operational cost") {
		t.Fatalf("%d criteria calls\n%s", n, r.stdout)
	}
}

func TestCompareFlipBetweenOrdersIsNotRobust(t *testing.T) {
	s := newSandbox(t)
	biased := filepath.Join(s.dir, "evidence.md")
	if err := os.WriteFile(biased, []byte("Benchmarks attached.\n"+"fake-judge: favour the first option listed\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := s.run(append(compareArgs, "--context", biased)...)
	if r.code != exitOrderDependent {
		t.Fatalf("exit %d, want %d\n%s\n%s", r.code, exitOrderDependent, r.stdout, r.stderr)
	}
	o := outcomeOf(t, s.onlyLog())
	if o.Result != compare.OutcomeOrderDependent || !strings.Contains(o.Markdown, "not robust") {
		t.Fatalf("%s: %s", o.Result, o.Summary)
	}
}

func TestCompareHangingAdvocateGivesUpItsSeat(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
		"codex": {Steps: map[string][]clitest.Step{compare.ShapeOpening: {{Mode: clitest.ModeHang}}}},
	}})
	s.writeConfig("agents:\n  codex: {timeout: 2s}\n")
	r := s.run(append(compareArgs, "--quick", "--advocates", "gemini,codex", "--judge", "claude")...)
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	o := outcomeOf(t, s.onlyLog())
	if len(o.Failures) != 1 || !strings.Contains(o.Failures[0], "codex timed out") {
		t.Fatalf("failures %q", o.Failures)
	}
	if _, who := shapeCalls(s, compare.ShapeOpening); !strings.Contains(strings.Join(who, ","), "qwen") {
		t.Fatalf("openings by %v: qwen did not take the seat", who)
	}
	if !strings.Contains(r.stdout, "qwen takes the seat for Postgres LISTEN/NOTIFY") {
		t.Fatalf("no note of the stand-in:\n%s", r.stdout)
	}
}

func TestCompareJudgeFailingEverywhereAborts(t *testing.T) {
	s := newSandbox(t)
	fail := clitest.AgentScript{Steps: map[string][]clitest.Step{compare.ShapeJudge: {{Mode: clitest.ModeExit, ExitCode: 3}}}}
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"claude": fail, "qwen": fail}})
	r := s.run(append(compareArgs, "--quick", "--advocates", "gemini,codex", "--judge", "claude")...)
	if r.code != exitAborted {
		t.Fatalf("exit %d, want %d\n%s\n%s", r.code, exitAborted, r.stdout, r.stderr)
	}
	lc := s.onlyLog()
	o := outcomeOf(t, lc)
	if o.Result != engine.OutcomeAborted || !strings.Contains(o.Summary, "no agent left for the judge") || len(o.Failures) != 2 {
		t.Fatalf("%s: %s %q", o.Result, o.Summary, o.Failures)
	}
	if doc := enginetest.Document(lc); doc == "" || !strings.Contains(o.Markdown, "## Failures") {
		t.Fatalf("abort report %q:\n%s", doc, o.Markdown)
	}
}

// The judge "never sees which model argued what" (issue 27): with four
// agents, --judge gemini seats gemini as the judge alone, and the
// advocates from the others; an agent --advocates names is kept from the
// judge's seat, though the judge is seated first.
func TestCompareSeatsNoAdvocateWithTheJudgesAgent(t *testing.T) {
	s := newSandbox(t)
	seats := func(options int, args ...string) (judges, advocates []string) {
		t.Helper()
		cmd := []string{"compare", "which queue?", "--dry-run", "--json", "--defender", "claude", "--challengers", "gemini,codex,qwen"}
		for _, o := range []string{"Kafka", "NATS", "SQS"}[:options] {
			cmd = append(cmd, "--option", o)
		}
		r := s.run(append(cmd, args...)...)
		var m engine.Manifest
		if err := json.Unmarshal([]byte(r.stdout), &m); r.code != exitOK || err != nil {
			t.Fatalf("%v: exit %d, %v\n%s\n%s", args, r.code, err, r.stdout, r.stderr)
		}
		if strings.Contains(r.stderr, "holds") {
			t.Errorf("%v: an agent holds two seats:\n%s", args, r.stderr)
		}
		for _, seat := range m.Seats {
			if strings.HasPrefix(seat.Seat, "for ") {
				advocates = append(advocates, seat.Agent)
			} else {
				judges = append(judges, seat.Agent)
			}
		}
		return judges, advocates
	}
	judges, advocates := seats(2, "--judge", "gemini")
	if !slices.Equal(judges, []string{"gemini", "gemini"}) || !slices.Equal(advocates, []string{"claude", "codex"}) {
		t.Fatalf("--judge gemini: judges %q, advocates %q; want gemini, and claude and codex", judges, advocates)
	}
	judges, advocates = seats(3, "--judge", "gemini")
	if !slices.Equal(advocates, []string{"claude", "codex", "qwen"}) {
		t.Fatalf("--judge gemini, three options: judges %q, advocates %q", judges, advocates)
	}
	judges, advocates = seats(3, "--advocates", "claude,gemini,codex")
	if !slices.Equal(judges, []string{"qwen", "qwen"}) || len(advocates) != 3 {
		t.Fatalf("--advocates claude,gemini,codex: judges %q, want qwen", judges)
	}
	if n := len(s.fakes.Calls()); n != 0 {
		t.Fatalf("a dry run called %d models", n)
	}
}

func TestCompareUsageErrors(t *testing.T) {
	s := newSandbox(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", "q?", "--option", "Kafka"}, "compare needs at least two options, got 1"},
		{[]string{"compare", "q?", "--option", "a", "--option", "A"}, `--option "A" is given twice`},
		{[]string{"compare", "q?", "--option", "a", "--option", "b", "--criteria", "speed:urgent"}, `--criteria: criterion "speed": the weight "urgent" is not high, medium or low`},
		{[]string{"compare", "q?", "--option", "a", "--option", "b", "--context", "missing.md"}, "missing.md"},
		{[]string{"compare", "q?", "--option", "a", "--option", "b", "--quick", "--single"}, "--quick and --single do not go together"},
		{[]string{"compare", "--option", "a", "--option", "b"}, `arena compare needs the decision: arena compare "decision" --option A --option B`},
		{[]string{"compare", "q?", "--option", "a", "--option", "b", "--judge", "gpt5"}, `--judge: unknown agent "gpt5" for the judge seat (known: claude, codex, gemini, qwen)`},
		{[]string{"compare", "q?", "--option", "a", "--option", "b", "--advocates", "gemini"}, "the advocate seat needs 2 agents, --advocates names 1 (gemini)"},
	} {
		r := s.run(tc.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr %q, want %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
	if len(s.logs()) != 0 {
		t.Fatal("a usage error left a log")
	}
}

// The live screen: both advocates stream side by side, then the outcome
// shows the recommendation and the scorecard's math.
func TestCompareLiveScreenInTmux(t *testing.T) {
	s := newSandbox(t)
	// gemini and qwen stream their replies as they write them (codex's
	// CLI prints whole messages), and hold before their last piece until
	// the test has seen both panes.
	slow := clitest.AgentScript{Steps: map[string][]clitest.Step{compare.ShapeOpening: {{DelayMS: 40, Chunks: 24, Hold: "openings"}}}}
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"gemini": slow, "qwen": slow}})
	ts := s.startTmux(160, 40, nil, "compare", "which queue for order events?", "--option", "Kafka", "--option", "NATS",
		"--criteria", "throughput:high,ops cost:medium", "--quick", "--advocates", "gemini,qwen", "--judge", "claude")
	// (At 160×40 the four panes are a 2×2 of 80 columns: the titles name
	// the role too, and each advocate's words stay in its own pane.)
	ts.waitFor("both advocates streaming at once", 60*time.Second, func(sc string) bool {
		return strings.Contains(sc, "gemini · advocate for Kafka") && strings.Contains(sc, "qwen · advocate for NATS") &&
			strings.Contains(sc, "● Openings") && strings.Contains(sc, "Kafka handles") && strings.Contains(sc, "NATS handles")
	})
	s.fakes.Release("openings")
	sc := ts.waitText("RECOMMENDATION", 60*time.Second)
	for _, want := range []string{"Recommendation: Kafka", "Weighted scorecard"} {
		if !strings.Contains(sc, want) {
			ts.waitText(want, 10*time.Second)
		}
	}
	ts.keys("q")
	if code := ts.exitCode(15 * time.Second); code != "0" {
		t.Fatalf("exit %s\n%s", code, ts.screen())
	}
	if sb := ts.scrollback(); !strings.Contains(sb, "arena: Recommendation: Kafka") || !strings.Contains(sb, "outcome document:") {
		t.Fatalf("the scrollback lacks the account:\n%s", sb)
	}
}

// arena logs lists each run with its protocol, outcome, duration and the
// tokens its agents reported.
func TestLogsShowProtocolsAndTokens(t *testing.T) {
	s := newSandbox(t)
	if r := s.run("--no-tui", "a topic"); r.code != exitConsensus {
		t.Fatalf("debate: exit %d\n%s", r.code, r.stderr)
	}
	if r := s.run(append(compareArgs, "--quick")...); r.code != exitOK {
		t.Fatalf("compare: exit %d\n%s", r.code, r.stderr)
	}
	r := s.runWithEnv([]string{"COLUMNS=300"}, "logs") // room for the table; at 80 columns the narrow layout (TestLogsFitEightyColumns)
	if r.code != exitOK {
		t.Fatalf("logs: exit %d\n%s", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "PROTOCOL") || !strings.Contains(lines[0], "TOKENS") {
		t.Fatalf("logs:\n%s", r.stdout)
	}
	tokens := regexp.MustCompile(`\d[\d.]*k? in · \d[\d.]*k? out`)
	for i, want := range []string{"compare", "debate"} { // newest first, by the command that runs it
		l := lines[i+1]
		if !strings.Contains(l, want) || !tokens.MatchString(l) {
			t.Errorf("row %d lacks %s or its tokens: %q", i+1, want, l)
		}
	}
	if !strings.Contains(lines[1], "recommendation") || !strings.Contains(lines[2], "consensus") {
		t.Errorf("outcomes missing:\n%s", r.stdout)
	}
}

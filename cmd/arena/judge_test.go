package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/enginetest"
	"github.com/arenadebate/arena/engine/judge"
	"github.com/arenadebate/arena/engine/runlog"
)

// End-to-end tests of arena judge: the built binary, fake CLIs on PATH.

const judgeSolution = "package api\n\n// CreateUser stores a user after validating the email.\nfunc CreateUser(u User) error {\n\tif !validEmail(u.Email) {\n\t\treturn ErrBadEmail\n\t}\n\treturn store.Put(u)\n}\n"

const judgeCriteria = "correctness:30,security:20"

// writeSolution puts the solution in the sandbox's working directory.
func (s *sandbox) writeSolution(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(s.dir, "src", "api")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "users.go"), []byte(judgeSolution), 0o644); err != nil {
		t.Fatal(err)
	}
	return "src/api/users.go"
}

// judgeAnalysis is an analysis reply with the given correctness and
// security scores, quoting the solution.
func judgeAnalysis(correctness, security int) clitest.Step {
	return clitest.Step{Fence: true, Reply: json.RawMessage(fmt.Sprintf(`{
 "scores": [
  {"criterion": "correctness", "score": %d, "evidence": ["return store.Put(u)"], "justification": "It stores the user."},
  {"criterion": "security", "score": %d, "evidence": ["if !validEmail(u.Email) {"], "justification": "The email is validated, nothing else is."}],
 "overall": %d,
 "strengths": ["validates the email"], "weaknesses": ["no rate limiting"],
 "verification": [{"question": "Am I rewarding brevity?", "answer": "No.", "changed": false}]}`, correctness, security, correctness))}
}

func judgeDebate(accepts bool, correctness, security int, changes string) clitest.Step {
	if changes == "" {
		changes = "[]"
	}
	return clitest.Step{Fence: true, Reply: json.RawMessage(fmt.Sprintf(`{
 "disagreements": [{"judge": "Judge 2", "criterion": "security", "mine": %d, "theirs": 5, "defense": "only the email is checked: if !validEmail(u.Email) {", "challenge": "Judge 2 ignores the missing authorisation"}],
 "scores": [
  {"criterion": "correctness", "score": %d, "evidence": ["return store.Put(u)"], "justification": "It stores the user."},
  {"criterion": "security", "score": %d, "evidence": ["if !validEmail(u.Email) {"], "justification": "The email is validated."}],
 "overall": 4, "changes": %s, "accepts_consensus": %v, "agrees_with": ["Judge 3"]}`, security, correctness, security, changes, accepts))}
}

func judgeScriptAgents(m map[string]map[string][]clitest.Step) *clitest.Script {
	sc := &clitest.Script{Agents: map[string]clitest.AgentScript{}}
	for agent, steps := range m {
		sc.Agents[agent] = clitest.AgentScript{Steps: steps}
	}
	return sc
}

func startOf(t *testing.T, lc runlog.Contents) engine.DebateStarted {
	t.Helper()
	return lc.Events[0].Payload.(engine.DebateStarted)
}

func TestJudgeConsensusEndToEnd(t *testing.T) {
	s := newSandbox(t)
	sol := s.writeSolution(t)
	r := s.run("judge", sol, "--task", "REST API for user management", "--criteria", judgeCriteria, "--reports-dir", ".specs/reports", "--no-tui")
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"Judge 1", "Judge 2", "Judge 3", "the weights sum to 50, not 100: normalised to correctness 60%, security 40%", "# Judging outcome: consensus"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q\n%s", want, r.stdout)
		}
	}
	lc := s.onlyLog()
	o := outcomeOf(t, lc)
	if o.Result != judge.OutcomeConsensus || !lc.Complete {
		t.Fatalf("outcome %s: %s", o.Result, o.Summary)
	}
	// The usable challengers sit by default, not the defender.
	var agents []string
	for _, st := range startOf(t, lc).Seats {
		agents = append(agents, st.Agent)
	}
	if !slices.Equal(agents, []string{"gemini", "codex", "qwen"}) {
		t.Fatalf("judges %q", agents)
	}
	doc, err := os.ReadFile(filepath.Join(s.dir, enginetest.Document(lc)))
	if err != nil || string(doc) != o.Markdown {
		t.Fatalf("outcome document: %v", err)
	}
	day := time.Now().Format("2006-01-02")
	for n := 1; n <= 3; n++ {
		b, err := os.ReadFile(filepath.Join(s.dir, ".specs/reports", fmt.Sprintf("users-%s.%d.md", day, n)))
		if err != nil || !strings.HasPrefix(string(b), fmt.Sprintf("Done by Judge %d (", n)) || !strings.Contains(string(b), "**Weighted overall (computed by arena):**") {
			t.Fatalf("report %d: %v\n%s", n, err, b)
		}
	}
	copyMD, err := os.ReadFile(filepath.Join(s.dir, ".specs/reports", "users-"+day+".md"))
	if err != nil || string(copyMD) != o.Markdown {
		t.Fatalf("outcome copy: %v", err)
	}

	// A second judging never writes over the first set: it gets a suffix.
	r = s.run("judge", sol, "--task", "REST API for user management", "--criteria", judgeCriteria, "--reports-dir", ".specs/reports", "--no-tui", "--no-log")
	if r.code != exitOK {
		t.Fatalf("second run: exit %d\n%s", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(s.dir, ".specs/reports", "users-"+day+".md")); string(b) != o.Markdown {
		t.Fatal("the first outcome copy was overwritten")
	}
	for _, p := range []string{"users-" + day + "-2.1.md", "users-" + day + "-2.3.md", "users-" + day + "-2.md"} {
		if _, err := os.Stat(filepath.Join(s.dir, ".specs/reports", p)); err != nil {
			t.Errorf("second set: %v", err)
		}
	}

	// The log replays to the same outcome.
	rr := s.run("replay", "--no-tui", s.logs()[0])
	if rr.code != 0 || !strings.Contains(rr.stdout, "# Judging outcome: consensus") {
		t.Fatalf("replay: exit %d\n%s\n%s", rr.code, rr.stdout, rr.stderr)
	}
}

func TestJudgeDebatesTwoRoundsToConsensus(t *testing.T) {
	s := newSandbox(t)
	sol := s.writeSolution(t)
	moved := `[{"criterion": "security", "from": 2, "to": 4, "reason": "Judge 2 is right that the email check covers the input", "evidence": ["if !validEmail(u.Email) {"]}]`
	s.fakes.SetScript(judgeScriptAgents(map[string]map[string][]clitest.Step{
		"gemini": {"judge.analysis": {judgeAnalysis(4, 2)}, "judge.debate": {judgeDebate(true, 4, 4, moved), judgeDebate(true, 4, 4, "")}},
		"codex":  {"judge.analysis": {judgeAnalysis(4, 5)}, "judge.debate": {judgeDebate(false, 4, 5, ""), judgeDebate(true, 4, 4, `[{"criterion": "security", "from": 5, "to": 4, "reason": "no authorisation", "evidence": ["return store.Put(u)"]}]`)}},
		"qwen":   {"judge.analysis": {judgeAnalysis(4, 4)}, "judge.debate": {judgeDebate(true, 4, 4, "")}},
	}))
	r := s.run("judge", sol, "--task", "REST API for user management", "--criteria", judgeCriteria, "--reports-dir", "reports", "--no-tui")
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	lc := s.onlyLog()
	o := outcomeOf(t, lc)
	if o.Rounds != 2 || !strings.Contains(o.Summary, "after 2 debate rounds") {
		t.Fatalf("outcome %s after %d: %s", o.Result, o.Rounds, o.Summary)
	}
	var decisions []string
	for _, e := range lc.Events {
		if tb, ok := e.Payload.(engine.Table); ok && tb.Phase == judge.PhaseCheck && strings.HasPrefix(tb.Title, "Consensus check") {
			decisions = append(decisions, tb.Decision)
		}
	}
	if len(decisions) != 3 || !strings.Contains(decisions[0], "security more than 1 point apart") || !strings.Contains(decisions[1], "Judge 2 did not accept") || !strings.HasPrefix(decisions[2], "Consensus") {
		t.Fatalf("decisions %q", decisions)
	}
	for _, want := range []string{"security: Judge 1 2 vs Judge 2 5 (gap 3)", "Judge 1 2 → 4 (Judge 2 is right", "Rounds to consensus: 2"} {
		if !strings.Contains(o.Markdown, want) {
			t.Errorf("document lacks %q", want)
		}
	}
	day := time.Now().Format("2006-01-02")
	b, err := os.ReadFile(filepath.Join(s.dir, "reports", "users-"+day+".2.md"))
	if err != nil {
		t.Fatal(err)
	}
	rep := string(b)
	for _, want := range []string{"Done by Judge 2 (codex)", "## Debate Round 1", "## Debate Round 2", "### Disagreements Identified", "### Revised Assessment",
		"Revised from 5 to 4/5", "**New Weighted Score (computed by arena)**: 4.00/5.0", "## Evidences"} {
		if !strings.Contains(rep, want) {
			t.Errorf("judge 2's report lacks %q\n%s", want, rep)
		}
	}
}

func TestJudgeNoConsensusNeedsHumanReview(t *testing.T) {
	s := newSandbox(t)
	sol := s.writeSolution(t)
	s.fakes.SetScript(judgeScriptAgents(map[string]map[string][]clitest.Step{
		"gemini": {"judge.analysis": {judgeAnalysis(4, 2)}, "judge.debate": {judgeDebate(false, 4, 2, "")}},
		"codex":  {"judge.analysis": {judgeAnalysis(4, 5)}, "judge.debate": {judgeDebate(false, 4, 5, "")}},
		"qwen":   {"judge.analysis": {judgeAnalysis(4, 4)}, "judge.debate": {judgeDebate(true, 4, 4, "")}},
	}))
	r := s.run("judge", sol, "--task", "REST API for user management", "--criteria", judgeCriteria, "--no-tui")
	if r.code != exitJudgeNoConsensus {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	o := outcomeOf(t, s.onlyLog())
	if o.Result != judge.OutcomeNoConsensus || o.Rounds != 3 || !strings.Contains(o.Markdown, "HUMAN REVIEW NEEDED") || !strings.Contains(o.Markdown, "### security: Judge 1 2, Judge 2 5, Judge 3 4") {
		t.Fatalf("outcome %s after %d\n%s", o.Result, o.Rounds, o.Markdown)
	}
	if n := len(s.fakes.CallsTo("gemini")); n != 4 {
		t.Fatalf("gemini was called %d times, want an analysis and three debate rounds", n)
	}
}

func TestJudgeThatHangsInRound2IsDropped(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	sol := s.writeSolution(t)
	s.fakes.SetScript(judgeScriptAgents(map[string]map[string][]clitest.Step{
		"gemini": {"judge.analysis": {judgeAnalysis(4, 2)}, "judge.debate": {judgeDebate(false, 4, 3, `[{"criterion": "security", "from": 2, "to": 3, "reason": "r", "evidence": ["return store.Put(u)"]}]`), judgeDebate(true, 4, 4, `[{"criterion": "security", "from": 3, "to": 4, "reason": "r", "evidence": ["return store.Put(u)"]}]`)}},
		"codex":  {"judge.analysis": {judgeAnalysis(4, 5)}, "judge.debate": {judgeDebate(true, 4, 5, ""), {Mode: clitest.ModeHang}}},
		"qwen":   {"judge.analysis": {judgeAnalysis(4, 4)}, "judge.debate": {judgeDebate(true, 4, 4, "")}},
	}))
	// Only the judge that hangs gets a short timeout: the others' replies
	// never race it, however busy the machine.
	s.writeConfig("agents:\n  codex: {timeout: 4s}\n")
	r := s.run("judge", sol, "--task", "REST API for user management", "--criteria", judgeCriteria, "--no-tui")
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	o := outcomeOf(t, s.onlyLog())
	if !slices.Equal(o.Failures, []string{"Judge 2 (codex) timed out in debate round 2"}) || o.Rounds != 2 {
		t.Fatalf("failures %q after %d rounds: %s", o.Failures, o.Rounds, o.Summary)
	}
	if n := len(s.fakes.CallsTo("codex")); n != 4 {
		t.Fatalf("codex was called %d times: analysis, round 1, round 2 and its retry", n)
	}
}

func TestJudgeBelowMinScoreAndStdin(t *testing.T) {
	s := newSandbox(t)
	s.fakes.SetScript(judgeScriptAgents(map[string]map[string][]clitest.Step{
		"gemini": {"judge.analysis": {judgeAnalysis(3, 3)}},
		"codex":  {"judge.analysis": {judgeAnalysis(3, 3)}},
		"qwen":   {"judge.analysis": {judgeAnalysis(3, 3)}},
	}))
	r := s.runIn([]byte(judgeSolution), "judge", "-", "--task", "user API", "--criteria", judgeCriteria, "--min-score", "3.5", "--no-tui")
	if r.code != exitJudgeBelowMin {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	o := outcomeOf(t, s.onlyLog())
	if o.Result != judge.OutcomeBelowMin || !strings.Contains(o.Markdown, "is below --min-score 3.5") || !strings.Contains(o.Markdown, "`stdin`") {
		t.Fatalf("outcome %s\n%s", o.Result, o.Markdown)
	}
}

func TestJudgeAuthorGetsNoSeatUnlessNamed(t *testing.T) {
	s := newSandbox(t)
	sol := s.writeSolution(t)
	r := s.run("judge", sol, "--task", "user API", "--author", "gemini", "--no-tui")
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	var agents []string
	for _, st := range startOf(t, s.onlyLog()).Seats {
		agents = append(agents, st.Agent)
	}
	if slices.Contains(agents, "gemini") || len(agents) != 3 {
		t.Fatalf("judges %q", agents)
	}
	r = s.run("judge", sol, "--task", "user API", "--author", "gemini", "--judges", "gemini,codex", "--no-tui", "--no-log", "--reports-dir", "r")
	if r.code != exitOK || !strings.Contains(r.stdout, "Judge 1 is gemini, the author of the solution: it grades its own model's work") {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	b, _ := os.ReadFile(filepath.Join(s.dir, "r", "users-"+time.Now().Format("2006-01-02")+".1.md"))
	if !strings.Contains(string(b), "this judge graded its own model's work") {
		t.Fatalf("report:\n%s", b)
	}
}

func TestJudgeUsageErrors(t *testing.T) {
	s := newSandbox(t)
	sol := s.writeSolution(t)
	if err := os.WriteFile(filepath.Join(s.dir, "logo.png"), []byte("\x89PNG\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"judge", sol}, "--task is required"},
		{[]string{"judge", "--task", "t"}, "arena judge needs the solution to judge"},
		{[]string{"judge", "missing.go", "--task", "t"}, "solution missing.go: does not exist"},
		{[]string{"judge", "logo.png", "--task", "t"}, "logo.png (binary)"},
		{[]string{"judge", sol, "--task", "t", "--criteria", "a:x"}, `--criteria: criterion "a": the weight "x" must be a number above 0`},
		{[]string{"judge", sol, "--task", "t", "--preset", "poetry"}, `--preset "poetry": not a preset (choose code, design, docs)`},
		{[]string{"judge", sol, "--task", "t", "--preset", "docs", "--criteria", "a:1"}, "either --criteria or --preset"},
		{[]string{"judge", sol, "--task", "t", "--min-score", "7"}, "--min-score must be from 1 to 5"},
		{[]string{"judge", sol, "--task", "t", "--judges", "gemini,nobody"}, `unknown agent "nobody"`},
		{[]string{"judge", sol, "--task", "t", "--judges", "gemini"}, "at least two judges"},
		{[]string{"judge", sol, "--task", "t", "--max-rounds", "0"}, "must be at least 1, got 0"},
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

func TestJudgeLiveScreenInTmux(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	sol := s.writeSolution(t)
	// Each judge streams its analysis; its debate reply waits, before it
	// writes anything, for the test to have seen the analyses and the
	// score table.
	slow := func(steps map[string][]clitest.Step) clitest.AgentScript {
		for i := range steps["judge.debate"] {
			steps["judge.debate"][i].Hold, steps["judge.debate"][i].Chunks = "debate", 1
		}
		return clitest.AgentScript{DelayMS: 40, Chunks: 30, Steps: steps}
	}
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
		"gemini": slow(map[string][]clitest.Step{"judge.analysis": {judgeAnalysis(4, 2)}, "judge.debate": {judgeDebate(true, 4, 3, `[{"criterion": "security", "from": 2, "to": 3, "reason": "r", "evidence": ["return store.Put(u)"]}]`)}}),
		"codex":  slow(map[string][]clitest.Step{"judge.analysis": {judgeAnalysis(4, 5)}, "judge.debate": {judgeDebate(true, 4, 4, `[{"criterion": "security", "from": 5, "to": 4, "reason": "r", "evidence": ["return store.Put(u)"]}]`)}}),
		"qwen":   slow(map[string][]clitest.Step{"judge.analysis": {judgeAnalysis(4, 4)}, "judge.debate": {judgeDebate(true, 4, 4, "")}}),
	}})
	ts := s.startTmux(140, 45, nil, "judge", sol, "--task", "REST API for user management", "--criteria", judgeCriteria)
	// The three judges' panes, each streaming its own reply.
	ts.waitFor("three judge panes", 30*time.Second, func(sc string) bool {
		return strings.Contains(sc, "gemini · judge") && strings.Contains(sc, "codex · judge") && strings.Contains(sc, "qwen · judge") &&
			strings.Contains(sc, "security — 2/5") && strings.Contains(sc, "security — 5/5")
	})
	// The consensus check's score table: judges × criteria and the spread.
	tbl := ts.waitFor("the score table", 60*time.Second, func(sc string) bool {
		return strings.Contains(sc, "Consensus check after the independent analysis") && strings.Contains(sc, "spread")
	})
	if !strings.Contains(tbl, "Judge 1 · gemini") {
		t.Fatalf("table:\n%s", tbl)
	}
	s.fakes.Release("debate")
	ts.waitText("Judging outcome: consensus", 90*time.Second)
	ts.keys("q")
	if code := ts.exitCode(15 * time.Second); code != "0" {
		t.Fatalf("exit %s\n%s", code, ts.scrollback())
	}
	if back := ts.scrollback(); !strings.Contains(back, "arena: Consensus after 1 debate round") {
		t.Fatalf("no summary after the screen closed:\n%s", back)
	}
}

// A judge that fails its analysis writes no report: the file arena
// reserved for it is removed, not left empty beside the others.
func TestJudgeDroppedBeforeItsReportLeavesNoEmptyFile(t *testing.T) {
	s := newSandbox(t)
	sol := s.writeSolution(t)
	s.fakes.SetScript(judgeScriptAgents(map[string]map[string][]clitest.Step{
		"gemini": {"judge.analysis": {judgeAnalysis(4, 4)}},
		"codex":  {"judge.analysis": {{Mode: clitest.ModeExit, ExitCode: 2}}},
		"qwen":   {"judge.analysis": {judgeAnalysis(4, 4)}},
	}))
	r := s.run("judge", sol, "--task", "REST API for user management", "--criteria", judgeCriteria, "--reports-dir", "reports", "--no-tui")
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	files, _ := filepath.Glob(filepath.Join(s.dir, "reports", "*.md"))
	if len(files) != 3 { // judges 1 and 3, and the outcome's copy
		t.Fatalf("reports %q", files)
	}
	for _, f := range files {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Fatalf("%s is empty (%v)", f, err)
		}
		if strings.HasSuffix(f, ".2.md") {
			t.Fatalf("the dropped judge has a report: %s", f)
		}
	}
}

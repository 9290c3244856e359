package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/fakecli/fakeapi"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
)

// modelCalls are the calls the fakes got, their --version checks left
// out.
func modelCalls(s *sandbox) int {
	n := 0
	for _, c := range s.fakes.Calls() {
		if c.Kind != fakeapi.KindVersion {
			n++
		}
	}
	return n
}

func budgetEvents(lc runlog.Contents) []engine.BudgetUsed {
	var out []engine.BudgetUsed
	for _, e := range lc.Events {
		if b, ok := e.Payload.(engine.BudgetUsed); ok {
			out = append(out, b)
		}
	}
	return out
}

// A run given --max-calls stops at the call it has no budget for, in
// every protocol: it
// exits 75, its log and outcome say over budget and which call was not
// started, the fakes got exactly the calls the budget allowed; arena
// resume with a higher budget finishes it as an uninterrupted run ends,
// asking no completed call twice.
func TestBudgetStopsARunAndResumeFinishesIt(t *testing.T) {
	for _, c := range resumeCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			baseRun, base, calls := baseline(t, c)
			s := newSandbox(t)
			s.fakes.SetScript(c.script(nil))
			args := c.setup(s)
			// The budget: half the calls the uninterrupted run makes.
			limit := calls / 2
			r := s.run(append(args, "--max-calls", strconv.Itoa(limit))...)
			if r.code != exitOverBudget {
				t.Fatalf("exit %d with --max-calls %d (of %d), want %d\n%s\n%s", r.code, limit, calls, exitOverBudget, r.stdout, r.stderr)
			}
			done := completedHashes(checkStoppedOverBudget(t, s, r, limit))

			// The same budget again, resuming the latest run: over budget at
			// once, nothing asked.
			again := s.run("resume", "--no-tui")
			if again.code != exitOverBudget || modelCalls(s) != limit {
				t.Fatalf("resumed with the same budget: exit %d, %d calls\n%s\n%s", again.code, modelCalls(s), again.stdout, again.stderr)
			}
			r = s.run("resume", "--no-tui", "--max-calls", strconv.Itoa(2*calls), s.logs()[0])
			checkResumedAfter(t, s, done, base, baseRun.code, r, 2)
			if got := modelCalls(s); got != calls {
				t.Fatalf("the run made %d calls in all, the uninterrupted one %d", got, calls)
			}
			o := outcomeOf(t, s.onlyLog())
			if !strings.Contains(o.Markdown, fmt.Sprintf("**Budget:** %d of %d calls (the whole run: its earlier part included)", calls, 2*calls)) {
				t.Fatalf("the resumed outcome's budget:\n%s", o.Markdown)
			}
		})
	}
}

// checkStoppedOverBudget checks a run r stopped by --max-calls limit:
// the fakes got limit calls; its outcome, its outcome document, its log
// and the printer say it is over budget and how to resume it; arena logs
// lists it so. It returns the run's log.
func checkStoppedOverBudget(t *testing.T, s *sandbox, r result, limit int) runlog.Contents {
	t.Helper()
	if got := modelCalls(s); got != limit {
		t.Fatalf("the fakes got %d calls, want %d", got, limit)
	}
	lc := s.onlyLog()
	o := outcomeOf(t, lc)
	if o.Result != engine.OutcomeOverBudget || !strings.Contains(o.Summary, fmt.Sprintf("all %d calls of the budget made", limit)) {
		t.Fatalf("outcome %s: %s", o.Result, o.Summary)
	}
	for _, want := range []string{"> **Over budget:** ", "was not started", "arena resume " + o.LogPath + " --max-calls " + strconv.Itoa(2*limit),
		fmt.Sprintf("**Budget:** %d of %d calls", limit, limit)} {
		if !strings.Contains(o.Markdown, want) {
			t.Fatalf("the outcome document lacks %q:\n%s", want, o.Markdown)
		}
	}
	started := 0
	for _, e := range lc.Events {
		if e.Kind() == engine.KindAgentStarted {
			started++
		}
	}
	b := budgetEvents(lc)
	if started != limit || len(b) == 0 || b[len(b)-1].Over == "" || b[len(b)-1].Spent.Calls != limit {
		t.Fatalf("the log: %d calls started, budget events %+v", started, b)
	}
	if !strings.Contains(r.stdout, "! over budget: ") || !strings.Contains(r.stdout, fmt.Sprintf("Budget: 0 of %d calls", limit)) {
		t.Fatalf("the printer does not show the budget:\n%s", r.stdout)
	}
	// arena logs lists it as over budget (and arena resume without a
	// log takes it).
	if l := s.run("logs"); !strings.Contains(l.stdout, string(engine.OutcomeOverBudget)) {
		t.Fatalf("arena logs:\n%s", l.stdout)
	}
	return lc
}

// baseline runs the case uninterrupted, without a budget, and counts
// its model calls.
func baseline(t *testing.T, c resumeCase) (result, engine.Outcome, int) {
	t.Helper()
	s := newSandbox(t)
	s.fakes.SetScript(c.script(nil))
	r := s.run(c.setup(s)...)
	lc := s.onlyLog()
	if b := budgetEvents(lc); len(b) != 0 {
		t.Fatalf("budget events in a run without a budget: %+v", b)
	}
	return r, outcomeOf(t, lc), modelCalls(s)
}

// --max-cost holds the CLIs that report a cost (claude's stream does);
// the run says up front which seats it cannot hold, and stops before the
// first call once the dollars are spent.
func TestBudgetMaxCostEndToEnd(t *testing.T) {
	s := newSandbox(t)
	r := s.run("--no-tui", "--max-cost", "0.0001", "should we move sessions from Redis to Postgres?")
	if r.code != exitOverBudget {
		t.Fatalf("exit %d, want %d\n%s\n%s", r.code, exitOverBudget, r.stdout, r.stderr)
	}
	// claude's opening costs more than $0.0001: no critique is started.
	if n := modelCalls(s); n != 1 {
		t.Fatalf("%d calls, want 1 (the opening)", n)
	}
	warn := "--max-cost cannot hold gemini, codex and qwen: their CLIs report no cost, so only --max-calls and --max-tokens limit them; no such limit is set, so nothing limits them"
	if !strings.Contains(r.stdout, "! warning: "+warn) {
		t.Fatalf("no warning naming the seats --max-cost cannot hold:\n%s", r.stdout)
	}
	o := outcomeOf(t, s.onlyLog())
	if o.Result != engine.OutcomeOverBudget || !strings.Contains(o.Summary, "spent of a $0.0001 budget") || !strings.Contains(o.Markdown, "- "+warn) {
		t.Fatalf("outcome %s: %s\n%s", o.Result, o.Summary, o.Markdown)
	}
	// It has no outcome to follow up yet: a follow-up would be a call
	// past the budget.
	if a := s.run("ask", s.logs()[0], "why?"); a.code != exitUsage || !strings.Contains(a.stderr, "resume it first") || modelCalls(s) != 1 {
		t.Fatalf("arena ask on an over-budget run: exit %d\n%s", a.code, a.stderr)
	}
}

// A CLI logged in with a subscription is guessed so (arena config says
// it is a guess): its calls count against --max-calls, not dollars.
func TestBudgetSubscriptionSeatEndToEnd(t *testing.T) {
	s := newSandbox(t)
	creds := filepath.Join(s.home, ".claude", ".credentials.json")
	if err := os.MkdirAll(filepath.Dir(creds), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(creds, []byte(`{"claudeAiOauth": {"accessToken": "not-a-real-token"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := s.run("config")
	if !strings.Contains(cfg.stdout, "billing subscription (guessed: logged in with a Claude account (~/.claude/.credentials.json))") {
		t.Fatalf("arena config:\n%s", cfg.stdout)
	}
	if strings.Contains(cfg.stdout, "not-a-real-token") {
		t.Fatal("arena config shows a credential")
	}
	// doctor says so, and that it is a guess.
	doc := s.runWithEnv([]string{"OPENAI_API_KEY=sk-not-real"}, "doctor")
	for _, want := range []string{
		"claude   subscription  guessed: logged in with a Claude account (~/.claude/.credentials.json)",
		"codex    metered       guessed: OPENAI_API_KEY is set: API billing",
		"a guess can be wrong: set agents.NAME.billing: metered | subscription in the config",
	} {
		if !strings.Contains(doc.stdout, want) {
			t.Fatalf("doctor lacks %q:\n%s", want, doc.stdout)
		}
	}
	if strings.Contains(doc.stdout+doc.stderr, "not-a-real-token") || strings.Contains(doc.stdout+doc.stderr, "sk-not-real") {
		t.Fatal("doctor shows a credential")
	}
	r := s.run("--no-tui", "--max-cost", "0.0001", "--max-calls", "3", "should we move sessions from Redis to Postgres?")
	if r.code != exitOverBudget || modelCalls(s) != 3 {
		t.Fatalf("exit %d after %d calls\n%s\n%s", r.code, modelCalls(s), r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "claude is billed by subscription (see arena config): its calls count against --max-calls only") {
		t.Fatalf("no warning naming the subscription seat:\n%s", r.stdout)
	}
	o := outcomeOf(t, s.onlyLog())
	if !strings.Contains(o.Summary, "all 3 calls of the budget made") || !strings.Contains(o.Markdown, "**Budget:** $0 of $0.0001 · 3 of 3 calls") {
		t.Fatalf("outcome %s: %s\n%s", o.Result, o.Summary, o.Markdown)
	}
}

// Through MCP: a run tool takes a budget, which the server's own (here
// its config's) caps; the run stops over budget with exit 75, the status
// says what was spent and how to carry the run on.
func TestBudgetThroughMCP(t *testing.T) {
	s := newSandbox(t)
	s.writeConfig("max_calls: 3\n")
	ms := s.mcp("arena-test")
	res, st := ms.call(bg(t), "debate", map[string]any{"topic": "should we move sessions from Redis to Postgres?", "max_calls": 100, "wait_seconds": 50})
	if res.IsError {
		t.Fatalf("tool error: %s", textOf(res))
	}
	for i := 0; st.State == "running" && i < 10; i++ {
		_, st = ms.call(bg(t), "run_status", map[string]any{"run_id": st.RunID, "wait_seconds": 50})
	}
	o := st.Outcome
	if o == nil || o.Result != string(engine.OutcomeOverBudget) || o.ExitCode != exitOverBudget || !strings.HasPrefix(o.ExitMeaning, "over budget") {
		t.Fatalf("status %+v, outcome %+v", st, o)
	}
	if st.Budget != "3 of 3 calls" || o.Resume == "" || modelCalls(s) != 3 {
		t.Fatalf("budget %q, resume %q, %d calls", st.Budget, o.Resume, modelCalls(s))
	}
	inv := s.onlyLog().Events[0].Payload.(engine.DebateStarted).Invocation
	if inv.Settings == nil || inv.Settings.MaxCalls == nil || *inv.Settings.MaxCalls != 3 {
		t.Fatalf("the run was asked with %+v", inv.Settings)
	}
}

// On the live screen the header shows the budget as it is spent, the
// status line says what was not started, the screen stays on the outcome,
// and arena exits 75; resumed with a higher budget, the header counts the
// whole run.
func TestBudgetOnTheLiveScreenInTmux(t *testing.T) {
	s := newSandbox(t)
	ts := s.startTmux(120, 40, nil, "--max-calls", "3", "should we move sessions from Redis to Postgres?")
	screen := ts.waitText("over budget: all 3 calls of the budget made", 60*time.Second)
	if head := strings.SplitN(screen, "\n", 2)[0]; !strings.Contains(head, "3 of 3 calls") {
		t.Fatalf("the header does not show the budget:\n%s", screen)
	}
	if code := ts.quitDone(30 * time.Second); code != strconv.Itoa(exitOverBudget) {
		t.Fatalf("exit %s\n%s", code, ts.scrollback())
	}
	if !strings.Contains(ts.scrollback(), "arena: Over budget during parallel challenge (round 1): all 3 calls of the budget made") {
		t.Fatalf("the account after the screen:\n%s", ts.scrollback())
	}
	ts = s.startTmux(120, 40, nil, "resume", "--max-calls", "50")
	ts.waitText("Resume it? [Y/n]", 30*time.Second)
	ts.keys("Enter")
	screen = ts.waitFor("the resumed run's budget in the header", 60*time.Second, func(screen string) bool {
		return strings.Contains(strings.SplitN(screen, "\n", 2)[0], " of 50 calls")
	})
	if strings.Contains(strings.SplitN(screen, "\n", 2)[0], " 0 of 50 calls") {
		t.Fatalf("the resumed run's header does not count the earlier calls:\n%s", screen)
	}
	if code := ts.quitDone(90 * time.Second); code != "0" {
		t.Fatalf("exit %s after resuming\n%s", code, ts.scrollback())
	}
	if o := outcomeOf(t, s.onlyLog()); o.Result != "consensus" {
		t.Fatalf("outcome %s", o.Result)
	}
}

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/verdict"
)

// End-to-end tests of arena verdict: the built binary, fake CLIs.

const verdictSeats = "verdict:\n  quick: gemini\n  deep: claude\n  tiebreaker: codex\n"

func judgeReply(v string, sem, prag, syn int) clitest.Step {
	b, _ := json.Marshal(map[string]any{
		"verdict": v, "scores": map[string]int{"semantic": sem, "pragmatic": prag, "syntactic": syn},
		"reasoning": "scored " + v, "improvements": []string{"add tests for the edge cases"},
	})
	return clitest.Step{Reply: json.RawMessage(b)}
}

var (
	jAccept  = judgeReply("accept", 4, 4, 5)
	jImprove = judgeReply("improve", 3, 3, 3)
	jReject  = judgeReply("reject", 1, 3, 3)
)

func judges(steps map[string]map[string][]clitest.Step) *clitest.Script {
	sc := &clitest.Script{Agents: map[string]clitest.AgentScript{}}
	for agent, st := range steps {
		sc.Agents[agent] = clitest.AgentScript{Steps: st}
	}
	return sc
}

func newVerdictSandbox(t *testing.T) *sandbox {
	t.Helper()
	s := newSandbox(t)
	s.writeConfig(verdictSeats)
	if err := os.WriteFile(filepath.Join(s.dir, "report.md"), []byte("# API\n\nGET /users returns the users.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return s
}

// verdictLines reads a verdict log, checking every line against the
// schema arena verdict --schema prints.
func verdictLines(t *testing.T, s *sandbox, path string) []map[string]any {
	t.Helper()
	schema := s.run("verdict", "--schema")
	if schema.code != 0 {
		t.Fatalf("--schema: exit %d %s", schema.code, schema.stderr)
	}
	var sch map[string]any
	dec := json.NewDecoder(strings.NewReader(schema.stdout))
	dec.UseNumber()
	if err := dec.Decode(&sch); err != nil {
		t.Fatalf("--schema prints no JSON: %v", err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 16<<20)
	for n := 1; sc.Scan(); n++ {
		d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			t.Fatalf("line %d is not JSON: %v", n, err)
		}
		if err := verdict.Validate(sch, v); err != nil {
			t.Fatalf("line %d does not validate against --schema: %v\n%s", n, err, sc.Bytes())
		}
		out = append(out, v.(map[string]any))
	}
	return out
}

func defaultVerdictLog(s *sandbox) string {
	return filepath.Join(s.VerdictLogDir(), "verdicts", "verdicts.jsonl")
}

func modesOf(lines []map[string]any) string {
	var m []string
	for _, l := range lines {
		m = append(m, l["mode"].(string)+":"+l["verdict"].(string))
	}
	return strings.Join(m, " ")
}

func TestVerdictQuickAcceptEndToEnd(t *testing.T) {
	s := newVerdictSandbox(t)
	r := s.run("verdict", "--no-tui", "report.md", "--task-id", "issue-18", "--task", "document the API")
	if r.code != exitAccept {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"Scorecard", "quick", "gemini", "4.33", "# Verdict: ACCEPT"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	lines := verdictLines(t, s, defaultVerdictLog(s))
	if got := modesOf(lines); got != "quick:accept final:accept" {
		t.Fatalf("log %s", got)
	}
	// The model is the agent and the model its stream named (the fake gemini says gemini-2.5-pro).
	if lines[0]["model"] != "gemini/gemini-2.5-pro" || lines[0]["task_id"] != "issue-18" || lines[1]["calls"] != json.Number("1") {
		t.Fatalf("%v", lines)
	}
	lc := s.onlyLog()
	if o := outcomeOf(t, lc); o.Result != verdict.OutcomeAccept || !lc.Complete {
		t.Fatalf("%s", o.Result)
	}
	if lines[1]["debate_log"] != s.logs()[0] {
		t.Fatalf("final record's debate log %v, log %v", lines[1]["debate_log"], s.logs())
	}
	if len(s.fakes.CallsTo("claude")) != 0 {
		t.Fatal("the deep judge was asked after a final quick verdict")
	}
	st, _ := os.Stat(defaultVerdictLog(s))
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("verdict log mode %v", st.Mode().Perm())
	}
}

func TestVerdictPathsEndToEnd(t *testing.T) {
	for name, tc := range map[string]struct {
		script *clitest.Script
		args   []string
		exit   int
		log    string
	}{
		"improve then deep accept": {
			judges(map[string]map[string][]clitest.Step{"gemini": {"verdict.quick": {jImprove}}, "claude": {"verdict.deep": {jAccept}}}),
			nil, exitAccept, "quick:improve deep:accept final:accept",
		},
		"improve then deep reject": {
			judges(map[string]map[string][]clitest.Step{"gemini": {"verdict.quick": {jImprove}}, "claude": {"verdict.deep": {jReject}}}),
			nil, exitReject, "quick:improve deep:reject final:reject",
		},
		"improve twice escalates": {
			judges(map[string]map[string][]clitest.Step{"gemini": {"verdict.quick": {jImprove}}, "claude": {"verdict.deep": {jImprove}}}),
			nil, exitEscalate, "quick:improve deep:improve final:escalate",
		},
		"thorough disagreement goes to the tiebreaker": {
			judges(map[string]map[string][]clitest.Step{"gemini": {"verdict.quick": {jAccept}}, "claude": {"verdict.deep": {jReject}}, "codex": {"verdict.tiebreak": {jReject}}}),
			[]string{"--thorough"}, exitReject, "deep:reject quick:accept tiebreaker:reject final:reject",
		},
		"thorough tiebreaker matching neither escalates": {
			judges(map[string]map[string][]clitest.Step{"gemini": {"verdict.quick": {jAccept}}, "claude": {"verdict.deep": {jReject}}, "codex": {"verdict.tiebreak": {jImprove}}}),
			[]string{"--thorough"}, exitEscalate, "deep:reject quick:accept tiebreaker:improve final:escalate",
		},
		"a model's stated verdict loses to its scores": {
			judges(map[string]map[string][]clitest.Step{"gemini": {"verdict.quick": {judgeReply("accept", 1, 5, 5)}}}),
			nil, exitReject, "quick:reject final:reject",
		},
		"invalid JSON after the repair request escalates": {
			judges(map[string]map[string][]clitest.Step{"gemini": {"verdict.quick": {{Reply: "Looks good to me!"}}, "verdict.quick.repair": {{Reply: "Still looks good."}}}}),
			nil, exitEscalate, "final:escalate",
		},
		"sensitive escalates and still records": {
			nil, []string{"--sensitive"}, exitEscalate, "quick:accept final:escalate",
		},
	} {
		t.Run(name, func(t *testing.T) {
			s := newVerdictSandbox(t)
			if tc.script != nil {
				s.fakes.SetScript(tc.script)
			}
			r := s.run(append([]string{"verdict", "--no-tui", "report.md", "--task-id", "issue-18"}, tc.args...)...)
			if r.code != tc.exit {
				t.Fatalf("exit %d, want %d\n%s\n%s", r.code, tc.exit, r.stdout, r.stderr)
			}
			lines := verdictLines(t, s, defaultVerdictLog(s))
			got := modesOf(lines)
			if slices.Contains(tc.args, "--thorough") {
				got = sortParallel(got)
			}
			if got != tc.log {
				t.Fatalf("log %q, want %q", got, tc.log)
			}
			final := lines[len(lines)-1]
			if reached, _ := final["reached"].(string); reached == "" {
				t.Fatalf("final record without how it was reached: %v", final)
			}
		})
	}
}

// sortParallel puts the first two records of a thorough run (quick and
// deep, logged as they finish) in a fixed order.
func sortParallel(s string) string {
	f := strings.Fields(s)
	if len(f) >= 2 && strings.HasPrefix(f[0], "quick") && strings.HasPrefix(f[1], "deep") {
		f[0], f[1] = f[1], f[0]
	}
	return strings.Join(f, " ")
}

func TestVerdictTimeoutAfterRetryEscalates(t *testing.T) {
	t.Parallel()
	s := newVerdictSandbox(t)
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"gemini": {Mode: clitest.ModeHang}}})
	r := s.run("verdict", "--no-tui", "report.md", "--task-id", "issue-18", "--quick-timeout", "2s")
	if r.code != exitEscalate {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if n := len(s.fakes.CallsTo("gemini")); n != 2 {
		t.Fatalf("the quick judge was called %d times, want the call and one retry", n)
	}
	if r.took > 2*2*time.Second+loadedMachine {
		t.Fatalf("took %v", r.took)
	}
	lines := verdictLines(t, s, defaultVerdictLog(s))
	final := lines[len(lines)-1]
	if final["verdict"] != "escalate" || !strings.Contains(final["reached"].(string), "timed out") {
		t.Fatalf("%v", final)
	}
	assertNoSurvivors(t, s)
}

// --json prints the final record and nothing else.
func TestVerdictJSONFromStdin(t *testing.T) {
	s := newVerdictSandbox(t)
	diff := "diff --git a/api.go b/api.go\n+func Users() {}\n"
	r := s.runIn([]byte(diff), "verdict", "-", "--task-id", "feature/users", "--json")
	if r.code != exitAccept {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	var fin verdict.Final
	if err := dec.Decode(&fin); err != nil || dec.More() {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, r.stdout)
	}
	if fin.Verdict != "accept" || fin.TaskID != "feature/users" || fin.Mode != "final" {
		t.Fatalf("%+v", fin)
	}
	if err := verdict.ValidateRecord([]byte(strings.TrimSpace(r.stdout))); err != nil {
		t.Fatal(err)
	}
	calls := s.fakes.CallsTo("gemini")
	if len(calls) != 1 || !strings.Contains(calls[0].Prompt, "+func Users() {}") {
		t.Fatalf("the judge did not get the diff")
	}
}

// Two arena processes appending to one log at once leave every line
// whole.
func TestVerdictConcurrentRunsShareALog(t *testing.T) {
	s := newVerdictSandbox(t)
	s.fakes.SetScript(judges(map[string]map[string][]clitest.Step{"gemini": {"verdict.quick": {jImprove}}, "claude": {"verdict.deep": {jAccept}}}))
	log := filepath.Join(s.dir, "shared", "verdicts.jsonl")
	var wg sync.WaitGroup
	codes := make([]int, 4)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = s.run("verdict", "--no-tui", "report.md", "--task-id", "run-"+string(rune('a'+i)), "--log", log).code
		}()
	}
	wg.Wait()
	for i, c := range codes {
		if c != exitAccept {
			t.Fatalf("run %d: exit %d", i, c)
		}
	}
	lines := verdictLines(t, s, log)
	if len(lines) != 4*3 {
		t.Fatalf("%d lines, want 12", len(lines))
	}
	runs := map[string]int{}
	for _, l := range lines {
		runs[l["run_id"].(string)]++
	}
	if len(runs) != 4 {
		t.Fatalf("run ids %v", runs)
	}
	st := s.run("verdict", "--stats", log)
	for _, want := range []string{"12 records", "gemini", "improve 4", "Quick/deep agreement: 0 of 4 runs (0%)", "Escalations: 0"} {
		if !strings.Contains(st.stdout, want) {
			t.Errorf("stats lack %q:\n%s", want, st.stdout)
		}
	}
}

// --author keeps the agent that wrote the work out of the seats the
// config gives it; naming it with a flag is insisting.
func TestVerdictAuthorIsKeptOut(t *testing.T) {
	s := newVerdictSandbox(t)
	s.fakes.SetScript(judges(map[string]map[string][]clitest.Step{
		"gemini": {"verdict.quick": {jImprove}}, "claude": {"verdict.quick": {jImprove}, "verdict.deep": {jImprove}},
		"codex": {"verdict.quick": {jImprove}, "verdict.deep": {jImprove}}, "qwen": {"verdict.quick": {jImprove}, "verdict.deep": {jImprove}},
	}))
	r := s.run("verdict", "--no-tui", "report.md", "--task-id", "t", "--author", "gemini")
	if r.code != exitEscalate {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if n := len(s.fakes.CallsTo("gemini")); n != 0 {
		t.Fatalf("the author judged its own work (%d calls)", n)
	}
	// claude holds the deep seat, so the quick one goes to codex, free.
	if !strings.Contains(r.stderr, "gemini wrote the work, so codex takes its seat as the quick judge") || strings.Contains(r.stderr, "holds") {
		t.Fatalf("no word of the replacement, or a shared seat:\n%s", r.stderr)
	}
	start := s.onlyLog().Events[0].Payload.(engine.DebateStarted)
	for _, seat := range start.Seats {
		if seat.Agent == "gemini" {
			t.Fatalf("seats %+v", start.Seats)
		}
	}
	// Insisting.
	r = s.run("verdict", "--no-tui", "report.md", "--task-id", "t", "--author", "gemini", "--quick-judge", "gemini")
	if !strings.Contains(r.stderr, "gemini wrote the work and judges it as the quick judge, because --quick-judge names it") || len(s.fakes.CallsTo("gemini")) != 1 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
}

func TestVerdictTiebreakerProviderWarning(t *testing.T) {
	s := newVerdictSandbox(t)
	r := s.run("verdict", "--no-tui", "report.md", "--task-id", "t", "--thorough", "--tiebreaker", "claude")
	if r.code != exitAccept || !strings.Contains(r.stderr, "the tiebreaker claude is from the same family (anthropic) as the deep judge claude") {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	r = s.run("verdict", "--no-tui", "report.md", "--task-id", "t", "--thorough")
	if strings.Contains(r.stderr, "same family") {
		t.Fatalf("warned with codex as tiebreaker:\n%s", r.stderr)
	}
}

func TestVerdictUsageErrors(t *testing.T) {
	s := newVerdictSandbox(t)
	for name, tc := range map[string]struct {
		stdin []byte
		args  []string
		want  string
	}{
		"no task id":        {nil, []string{"report.md"}, "--task-id is required"},
		"no work":           {nil, []string{"--task-id", "t"}, "arena verdict needs the work to judge (its files, or - for a diff on stdin): arena verdict [FILE... | -] --task-id ID"},
		"empty stdin":       {[]byte("  \n"), []string{"-", "--task-id", "t"}, "stdin was empty"},
		"missing file":      {nil, []string{"nope.md", "--task-id", "t"}, "work file nope.md: does not exist"},
		"unknown judge":     {nil, []string{"report.md", "--task-id", "t", "--deep-judge", "gpt9"}, `--deep-judge: unknown agent "gpt9"`},
		"unknown author":    {nil, []string{"report.md", "--task-id", "t", "--author", "gpt9"}, `--author: unknown agent "gpt9"`},
		"bad timeout":       {nil, []string{"report.md", "--task-id", "t", "--deep-timeout", "soon"}, `--deep-timeout: "soon" is not a duration`},
		"schema with files": {nil, []string{"--schema", "report.md"}, "--schema takes no files"},
		"two modes":         {nil, []string{"--schema", "--stats", "x"}, "cannot be used together"},
		"stray force":       {nil, []string{"report.md", "--task-id", "t", "--force"}, "--force goes with --install-hook only"},
		"stats of nothing":  {nil, []string{"--stats", "missing.jsonl"}, "--stats: open missing.jsonl"},
	} {
		t.Run(name, func(t *testing.T) {
			r := s.runIn(tc.stdin, append([]string{"verdict"}, tc.args...)...)
			if r.code != exitUsage || !strings.Contains(r.stderr, tc.want) {
				t.Fatalf("exit %d, want 2 and %q\n%s", r.code, tc.want, r.stderr)
			}
		})
	}
	if len(s.fakes.Calls()) != 0 {
		t.Fatal("a usage error still asked a model")
	}
}

func TestVerdictMissingJudgeAborts(t *testing.T) {
	s := newSandbox(t, "claude", "codex", "qwen") // no gemini
	s.writeConfig(verdictSeats)
	os.WriteFile(filepath.Join(s.dir, "report.md"), []byte("x\n"), 0o600)
	r := s.run("verdict", "--no-tui", "report.md", "--task-id", "t")
	if r.code != exitAborted || !strings.Contains(r.stdout, "the quick judge gemini is not installed") {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// No judge was asked: nothing is written, neither a log nor a record
	// in the verdict log (issue 32, point 2).
	if _, err := os.Lstat(defaultVerdictLog(s)); !errors.Is(err, fs.ErrNotExist) || len(s.logs()) != 0 {
		t.Fatalf("an aborted preflight wrote: verdict log %v, logs %v", err, s.logs())
	}
}

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/challengers/fakecli/fakeapi"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/doc"
	"github.com/arenadebate/arena/engine/runlog"
)

// resumeCase is one protocol's run for the resume tests: how to set it
// up, the script it runs with, and the call where it is interrupted.
type resumeCase struct {
	name  string
	setup func(s *sandbox) []string // writes its files; returns the arguments
	base  func() *clitest.Script    // nil: canned replies
	// cutAgent's first call of kind cutKind is where the run is
	// interrupted (it hangs), or fails every time.
	cutAgent, cutKind string
	// finished is how many replies the log holds when the run is cut.
	finished int
}

var resumeCases = []resumeCase{
	{
		name: "adversarial",
		setup: func(*sandbox) []string {
			return []string{"--no-tui", "should we move sessions from Redis to Postgres?"}
		},
		// Round 1: the opening and two critiques are in when qwen's is cut.
		cutAgent: "qwen", cutKind: "critique", finished: 3,
	},
	{
		name: "compare",
		setup: func(*sandbox) []string {
			return append(slicesClone(compareArgs), "--advocates", "gemini,codex", "--judge", "claude")
		},
		// Both openings and gemini's rebuttal are in when codex's is cut.
		cutAgent: "codex", cutKind: "compare.rebuttal", finished: 3,
	},
	{
		name: "judge",
		setup: func(s *sandbox) []string {
			sol := s.writeSolution(s.t)
			return []string{"judge", sol, "--task", "REST API for user management", "--criteria", judgeCriteria, "--reports-dir", "reports", "--no-tui"}
		},
		cutAgent: "codex", cutKind: "judge.analysis", finished: 2,
	},
	{
		name: "verdict",
		setup: func(s *sandbox) []string {
			s.writeConfig(verdictSeats)
			if err := os.WriteFile(filepath.Join(s.dir, "report.md"), []byte("# API\n\nGET /users returns the users.\n"), 0o600); err != nil {
				s.t.Fatal(err)
			}
			return []string{"verdict", "--no-tui", "report.md", "--task-id", "issue-18", "--task", "document the API"}
		},
		// The quick judge says improve, so the deep judge is asked: cut.
		base: func() *clitest.Script {
			return judges(map[string]map[string][]clitest.Step{"gemini": {"verdict.quick": {jImprove}}})
		},
		cutAgent: "claude", cutKind: "verdict.deep", finished: 1,
	},
	{
		name: "rank",
		setup: func(s *sandbox) []string {
			spec, repos := rankSetup(s.t, s, "alpha", "beta")
			return append([]string{"rank", "--no-tui", "--seed", "7", spec}, repos...)
		},
		// Both repositories' facts are in and the judges are at work
		// when the security judge's call is cut.
		cutAgent: "gemini", cutKind: "rank.judge", finished: 2,
	},
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }

func (c resumeCase) script(cut *clitest.Step) *clitest.Script {
	sc := &clitest.Script{Agents: map[string]clitest.AgentScript{}}
	if c.base != nil {
		sc = c.base()
	}
	if cut != nil {
		as := sc.Agents[c.cutAgent]
		steps := map[string][]clitest.Step{}
		for k, v := range as.Steps {
			steps[k] = v
		}
		steps[c.cutKind] = []clitest.Step{*cut}
		as.Steps = steps
		sc.Agents[c.cutAgent] = as
	}
	return sc
}

// baseline runs the case uninterrupted.
func (c resumeCase) baseline(t *testing.T) (result, engine.Outcome) {
	s := newSandbox(t)
	s.fakes.SetScript(c.script(nil))
	r := s.run(c.setup(s)...)
	return r, outcomeOf(t, s.onlyLog())
}

// secondSet is a report file of a later set: a resumed judging writes
// its reports beside the first run's, never over them.
var secondSet = regexp.MustCompile(`-[2-9]\.(\d+)\.md`)

// headCommit is a ranked repository's HEAD: the baseline's repositories are
// made afresh, so their commits differ.
var headCommit = regexp.MustCompile(`\| [0-9a-f]{12} \|`)

// docBody is an outcome document without what differs from run to run
// (what the agents cost, how the run was resumed, the name of a set of
// report files).
func docBody(o engine.Outcome) string {
	// The protocol's document: not the summary (a resumed one says how
	// many replies it reused), nor arena's sections on what the run cost
	// and how it was resumed.
	md := doc.MarkdownWith(*o.Document, doc.MarkdownOptions{NoSummary: true, Skip: func(s doc.Section) bool {
		return s.ID == doc.SectionCosts || s.ID == doc.SectionBudget || s.ID == doc.SectionResume
	}})
	md = secondSet.ReplaceAllString(md, ".$1.md")
	md = headCommit.ReplaceAllString(md, "| HEAD |")
	return strings.TrimSpace(md)
}

// completedHashes are the prompt hashes of the calls of the log's first
// run that got a reply.
func completedHashes(lc runlog.Contents) map[string]bool {
	out := map[string]bool{}
	asked := map[string]string{}
	for _, e := range lc.Events {
		switch p := e.Payload.(type) {
		case engine.Resumed:
			return out
		case engine.AgentStarted:
			asked[p.Seat] = p.PromptHash
		case engine.AgentFinished:
			out[asked[p.Seat]] = true
		}
	}
	return out
}

// checkResumed checks a resumed run reached the baseline's outcome and
// asked no completed call twice.
func checkResumed(t *testing.T, s *sandbox, done map[string]bool, base engine.Outcome, baseCode int, r result) {
	t.Helper()
	checkResumedAfter(t, s, done, base, baseCode, r, 1)
}

// checkResumedAfter is checkResumed for a log resumed that many times.
func checkResumedAfter(t *testing.T, s *sandbox, done map[string]bool, base engine.Outcome, baseCode int, r result, resumes int) {
	t.Helper()
	if r.code != baseCode {
		t.Fatalf("resume: exit %d, want %d\n%s\n%s", r.code, baseCode, r.stdout, r.stderr)
	}
	lc := s.onlyLog()
	if lc.Problem != "" {
		t.Fatalf("the resumed log has a problem: %s", lc.Problem)
	}
	o := outcomeOf(t, lc)
	if o.Result != base.Result || o.Rounds != base.Rounds {
		t.Fatalf("resumed outcome %s in %d rounds, uninterrupted %s in %d", o.Result, o.Rounds, base.Result, base.Rounds)
	}
	if got, want := docBody(o), docBody(base); got != want {
		t.Fatalf("the resumed outcome document differs from the uninterrupted one:\n--- resumed\n%s\n--- uninterrupted\n%s", got, want)
	}
	if !strings.Contains(o.Markdown, "## Resumed") {
		t.Fatalf("the outcome does not say the run was resumed:\n%s", o.Markdown)
	}
	if len(done) == 0 {
		t.Fatal("the interrupted run completed no call: the test would prove nothing")
	}
	asked := map[string]int{}
	for _, c := range s.fakes.Calls() {
		if c.Kind != fakeapi.KindVersion {
			asked[engine.Hash(c.Prompt)]++
		}
	}
	for h := range done {
		if asked[h] != 1 {
			t.Errorf("a completed call (prompt %s…) was asked %d times", h[:12], asked[h])
		}
	}
	n := 0
	for _, e := range lc.Events {
		if _, ok := e.Payload.(engine.Resumed); ok {
			n++
		}
	}
	if n != resumes {
		t.Fatalf("%d resumed events, want %d", n, resumes)
	}
	// arena logs lists it once, with its final outcome.
	if l := s.run("logs"); strings.Count(l.stdout, ".jsonl") != 1 || !strings.Contains(l.stdout, string(base.Result)) {
		t.Fatalf("arena logs:\n%s", l.stdout)
	}
	// The whole log replays, its two parts one after the other.
	rr := s.run("replay", "--no-tui", s.logs()[0])
	if rr.code != 0 || !strings.Contains(rr.stdout, "↻ resumed from") || strings.Contains(rr.stderr, "ends early") {
		t.Fatalf("replay of the resumed log: exit %d\n%s\n%s", rr.code, rr.stdout, rr.stderr)
	}
}

// waitForCall waits until agent was asked for kind.
func waitForCall(t *testing.T, s *sandbox, agent, kind string) {
	t.Helper()
	waitUntil(t, 60*time.Second, agent+"'s "+kind+" call", func() bool {
		for _, c := range completeCalls(t, s) {
			if c.Agent == agent && string(c.Kind) == kind {
				return true
			}
		}
		return false
	})
}

// waitForFinished waits until the log holds n replies.
func waitForFinished(t *testing.T, s *sandbox, n int) {
	t.Helper()
	waitForEvents(t, s, fmt.Sprintf("%d replies in the log", n), n, func(e engine.Event) bool {
		return e.Kind() == engine.KindAgentFinished
	})
}

// waitForEvents waits until the sandbox's one log holds n events that
// match.
func waitForEvents(t *testing.T, s *sandbox, what string, n int, match func(engine.Event) bool) {
	t.Helper()
	waitUntil(t, 60*time.Second, what, func() bool {
		logs := s.logs()
		if len(logs) != 1 {
			return false
		}
		lc, err := runlog.ReadFile(logs[0])
		if err != nil {
			return false
		}
		got := 0
		for _, e := range lc.Events {
			if match(e) {
				got++
			}
		}
		return got >= n
	})
}

func TestResumeAfterAnInterruption(t *testing.T) {
	for _, c := range resumeCases {
		for _, how := range []string{"SIGINT", "SIGKILL"} {
			t.Run(c.name+"/"+how, func(t *testing.T) {
				t.Parallel()
				baseRun, base := c.baseline(t)
				s := newSandbox(t)
				s.fakes.SetScript(c.script(&clitest.Step{Mode: clitest.ModeHang}))
				cmd, out := s.start(c.setup(s)...)
				waitForCall(t, s, c.cutAgent, c.cutKind)
				waitForFinished(t, s, c.finished)
				if how == "SIGINT" {
					cmd.Process.Signal(syscall.SIGINT)
					if code := exitCodeOf(cmd.Wait()); code != exitInterrupted {
						t.Fatalf("exit %d after SIGINT\n%s", code, out)
					}
				} else {
					cmd.Process.Kill()
					cmd.Wait()
					assertNoSurvivors(t, s)
				}
				lc := s.onlyLog()
				done := completedHashes(lc)
				s.fakes.SetScript(c.script(nil))
				r := s.run("resume", "--no-tui", s.logs()[0])
				checkResumed(t, s, done, base, baseRun.code, r)
				if !strings.Contains(r.stdout, "↻ resumed from") {
					t.Fatalf("the resumed run does not say where it resumed:\n%s", r.stdout)
				}
			})
		}
	}
}

func TestResumeAfterASeatKeptFailing(t *testing.T) {
	cases := map[string]resumeCase{
		// The defender fails every time: the debate is aborted.
		"adversarial": {name: "adversarial", setup: resumeCases[0].setup, cutAgent: "claude", cutKind: "answer"},
		// The judge fails every time, its stand-in too: aborted.
		"compare": {name: "compare", setup: func(*sandbox) []string {
			return append(slicesClone(compareArgs), "--advocates", "gemini,codex", "--judge", "claude")
		}, cutAgent: "claude", cutKind: "compare.judge"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			baseRun, base := c.baseline(t)
			s := newSandbox(t)
			sc := c.script(&clitest.Step{Mode: clitest.ModeExit})
			if name == "compare" {
				sc.Agents["qwen"] = clitest.AgentScript{Mode: clitest.ModeExit}
			}
			s.fakes.SetScript(sc)
			r := s.run(c.setup(s)...)
			if r.code != exitAborted {
				t.Fatalf("exit %d with a seat failing every time\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			done := completedHashes(s.onlyLog())
			s.fakes.SetScript(nil)
			checkResumed(t, s, done, base, baseRun.code, s.run("resume", "--no-tui", s.logs()[0]))
		})
	}
}

const schemaSQL = "create table sessions (id text);\n"

// interruptedDebate leaves an adversarial debate interrupted by SIGINT in
// round 1 (qwen's critique cut), with a context file attached.
func interruptedDebate(t *testing.T) (*sandbox, string) {
	t.Helper()
	s := newSandbox(t)
	if err := os.WriteFile(filepath.Join(s.dir, "schema.sql"), []byte(schemaSQL), 0o600); err != nil {
		t.Fatal(err)
	}
	c := resumeCases[0]
	s.fakes.SetScript(c.script(&clitest.Step{Mode: clitest.ModeHang}))
	cmd, out := s.start("--no-tui", "--context", "schema.sql", "should we move sessions?")
	waitForCall(t, s, c.cutAgent, c.cutKind)
	waitForFinished(t, s, c.finished)
	cmd.Process.Signal(syscall.SIGINT)
	if code := exitCodeOf(cmd.Wait()); code != exitInterrupted {
		t.Fatalf("exit %d after SIGINT\n%s", code, out)
	}
	s.fakes.SetScript(nil)
	return s, s.logs()[0]
}

func TestResumeRefusesWhatItCannotResume(t *testing.T) {
	t.Run("a finished run", func(t *testing.T) {
		s := newSandbox(t)
		if r := s.run("--no-tui", "a topic"); r.code != exitConsensus {
			t.Fatalf("exit %d", r.code)
		}
		r := s.run("resume", "--no-tui", s.logs()[0])
		if r.code != exitUsage || !strings.Contains(r.stderr, "the run is finished (consensus)") || !strings.Contains(r.stderr, "arena replay") {
			t.Fatalf("exit %d\n%s", r.code, r.stderr)
		}
		if r := s.run("resume", "--no-tui"); r.code != exitUsage || !strings.Contains(r.stderr, "no interrupted, aborted or over-budget run") {
			t.Fatalf("resume without a log: exit %d\n%s", r.code, r.stderr)
		}
	})
	t.Run("a newer format", func(t *testing.T) {
		s := newSandbox(t)
		path := filepath.Join(s.dir, "newer.jsonl")
		os.WriteFile(path, []byte(`{"seq":1,"t":"2026-01-01T00:00:00Z","type":"debate_started","data":{"version":99,"protocol":"adversarial"}}`+"\n"), 0o600)
		r := s.run("resume", path)
		if r.code != exitUsage || !strings.Contains(r.stderr, "newer arena") {
			t.Fatalf("exit %d\n%s", r.code, r.stderr)
		}
	})
	t.Run("a changed context file", func(t *testing.T) {
		s, log := interruptedDebate(t)
		os.WriteFile(filepath.Join(s.dir, "schema.sql"), []byte("create table sessions (id uuid);\n"), 0o600)
		before, _ := os.ReadFile(log)
		r := s.run("resume", "--no-tui", log)
		if r.code != exitUsage || !strings.Contains(r.stderr, "schema.sql changed since the run") || !strings.Contains(r.stderr, "--force") {
			t.Fatalf("exit %d\n%s", r.code, r.stderr)
		}
		if after, _ := os.ReadFile(log); string(after) != string(before) {
			t.Fatal("a refused resume changed the log")
		}
		r = s.run("resume", "--no-tui", "--force", log)
		if r.code != exitConsensus {
			t.Fatalf("--force: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
		}
	})
}

func TestResumeADamagedLog(t *testing.T) {
	s, log := interruptedDebate(t)
	// The interrupted run's last line, cut short as a killed arena leaves it.
	f, _ := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"seq":999,"t":"2026-01-01T00:00:00Z","type":"chunk","da`)
	f.Close()
	before, _ := os.ReadFile(log)
	r := s.run("resume", "--no-tui", log)
	if r.code != exitConsensus || !strings.Contains(r.stderr, "the log is damaged") || !strings.Contains(r.stderr, "is cut short") || !strings.Contains(r.stderr, "every byte of it is kept") {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// Every byte is kept: the cut line stays, whole, on a line of its
	// own, and the resumed run follows it.
	after, _ := os.ReadFile(log)
	if !bytes.HasPrefix(after, append(before, '\n')) {
		t.Fatal("the resume changed the log's earlier bytes")
	}
	lc := s.onlyLog()
	if len(lc.Damage) != 1 || outcomeOf(t, lc).Result != "consensus" {
		t.Fatalf("damage %v", lc.Damage)
	}
}

func TestResumeWithOtherSettings(t *testing.T) {
	s, log := interruptedDebate(t)
	critiques := func() (n int) {
		for _, c := range s.fakes.CallsTo("gemini") {
			if c.Kind == fakeapi.KindCritique {
				n++
			}
		}
		return n
	}
	before := critiques()
	if r := s.run("resume", "--seat", "nobody=gemini", log); r.code != exitUsage || !strings.Contains(r.stderr, `no seat or agent "nobody"`) {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if r := s.run("resume", "--seat", "qwen=nobody", log); r.code != exitUsage || !strings.Contains(r.stderr, `unknown agent "nobody"`) {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	r := s.run("resume", "--no-tui", "--timeout", "77s", "--seat", "qwen=gemini", log)
	if r.code != exitConsensus {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	var res *engine.Resumed
	for _, e := range s.onlyLog().Events {
		switch p := e.Payload.(type) {
		case engine.Resumed:
			res = &p
		case engine.AgentStarted:
			if res != nil && p.Seat == "qwen" && (p.Agent != "gemini" || p.Timeout.D() != 77*time.Second) {
				t.Fatalf("qwen's seat was asked of %s with a %v timeout", p.Agent, p.Timeout.D())
			}
		}
	}
	if res == nil || fmt.Sprint(res.Settings) != "[{seat qwen gemini} {timeout 77s}]" || res.Reusable != 3 {
		t.Fatalf("resumed event %+v", res)
	}
	if len(s.fakes.CallsTo("qwen")) != 1 { // the critique that was cut, never again
		t.Fatalf("qwen was called %d times", len(s.fakes.CallsTo("qwen")))
	}
	if critiques() != before+1 {
		t.Fatal("gemini did not take qwen's seat")
	}
}

// A run interrupted again after it was resumed resumes again: the log's
// two earlier parts together give every reply, none is asked twice.
func TestResumeTwice(t *testing.T) {
	bs := newSandbox(t)
	os.WriteFile(filepath.Join(bs.dir, "schema.sql"), []byte(schemaSQL), 0o600)
	baseRun := bs.run("--no-tui", "--context", "schema.sql", "should we move sessions?")
	base := outcomeOf(t, bs.onlyLog())
	s, log := interruptedDebate(t)
	done := completedHashes(s.onlyLog())
	// The resumed run is cut again, at the defender's answer.
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
		"claude": {Steps: map[string][]clitest.Step{"answer": {{Mode: clitest.ModeHang}}}},
	}})
	cmd, out := s.start("resume", "--no-tui", log)
	waitForCall(t, s, "claude", "answer")
	waitForFinished(t, s, 4)
	cmd.Process.Signal(syscall.SIGINT)
	if code := exitCodeOf(cmd.Wait()); code != exitInterrupted {
		t.Fatalf("exit %d after SIGINT\n%s", code, out)
	}
	for h := range completedHashes2(s.onlyLog()) {
		done[h] = true
	}
	askedNow := func() map[string]int {
		asked := map[string]int{}
		for _, c := range s.fakes.Calls() {
			if c.Kind != fakeapi.KindVersion {
				asked[engine.Hash(c.Prompt)]++
			}
		}
		return asked
	}
	before := askedNow()
	s.fakes.SetScript(nil)
	r := s.run("resume", "--no-tui", log)
	if r.code != baseRun.code {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	lc := s.onlyLog()
	if o := outcomeOf(t, lc); o.Result != base.Result || docBody(o) != docBody(base) {
		t.Fatalf("outcome %s, want %s:\n%s\n---\n%s", o.Result, base.Result, docBody(o), docBody(base))
	}
	after := askedNow()
	if len(done) < 4 { // the opening and three critiques
		t.Fatalf("only %d replies before the last resume: the test would prove little", len(done))
	}
	for h := range done {
		if after[h] != before[h] {
			t.Errorf("a call answered in an earlier part was asked again")
		}
	}
}

// completedHashes2 are the prompt hashes of the replies given live in a
// log's second part (after its first resumed event, before its second).
func completedHashes2(lc runlog.Contents) map[string]bool {
	out := map[string]bool{}
	asked := map[string]string{}
	part := 0
	for _, e := range lc.Events {
		switch p := e.Payload.(type) {
		case engine.Resumed:
			part++
		case engine.AgentStarted:
			asked[p.Seat] = p.PromptHash
		case engine.AgentFinished:
			if part == 1 && !p.Reused {
				out[asked[p.Seat]] = true
			}
		}
	}
	return out
}

// A resumed run prints its events as JSON Lines with --json, as any run
// does, and takes moderator's notes from --moderate: the note reaches the
// prompts asked after it and the outcome document.
func TestResumeWithJSONAndAModerator(t *testing.T) {
	s, log := interruptedDebate(t)
	notes := filepath.Join(s.dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("assume we have no Postgres DBA\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := s.run("resume", "--json", "--moderate", notes, log)
	if r.code != exitConsensus && r.code != exitTradeoff {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	var kinds []string
	sawNote := false
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var e engine.Event
		if err := e.UnmarshalJSON([]byte(line)); err != nil {
			t.Fatalf("stdout holds a line that is not an event: %q (%v)", line, err)
		}
		kinds = append(kinds, string(e.Kind()))
		if n, ok := e.Payload.(engine.ModeratorNote); ok && strings.Contains(n.Text, "no Postgres DBA") {
			sawNote = true
		}
	}
	if !sawNote || !slices.Contains(kinds, string(engine.KindOutcome)) {
		t.Fatalf("events %v: moderator's note %v", kinds, sawNote)
	}
	carried := 0
	for _, c := range s.fakes.Calls() {
		if strings.Contains(c.Prompt, "no Postgres DBA") {
			carried++
		}
	}
	if carried == 0 {
		t.Fatal("no prompt after the note carried it")
	}
	if o := outcomeOf(t, s.onlyLog()); !strings.Contains(o.Markdown, "no Postgres DBA") {
		t.Fatalf("the outcome document does not list the note:\n%s", o.Markdown)
	}
}

// --max-rounds on resume reaches the resumed run and the resumed event
// records it.
func TestResumeWithFewerRounds(t *testing.T) {
	s, log := interruptedDebate(t)
	r := s.run("resume", "--no-tui", "--max-rounds", "1", log)
	if r.code != exitConsensus {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	var res *engine.Resumed
	for _, e := range s.onlyLog().Events {
		if p, ok := e.Payload.(engine.Resumed); ok {
			res = &p
		}
	}
	if res == nil || !slices.Contains(res.Settings, engine.Setting{Name: "max rounds", Value: "1"}) {
		t.Fatalf("resumed event %+v", res)
	}
	if o := outcomeOf(t, s.onlyLog()); o.Rounds > 1 {
		t.Fatalf("the resumed run went %d rounds past --max-rounds 1", o.Rounds)
	}
}

// A headless resume names the log it picked and shows its plan before it
// runs, and names every file as the run does: relative to where arena was
// started, the outcome document once (issue 40, item 12: it named neither,
// and its paths switched from relative to absolute).
func TestHeadlessResumeNamesItsLogAndPlanFirst(t *testing.T) {
	s, log := interruptedDebate(t)
	rel, err := filepath.Rel(s.dir, log)
	if err != nil || strings.HasPrefix(rel, "..") {
		t.Fatalf("the log %s is not beneath %s", log, s.dir)
	}
	r := s.run("resume", "--no-tui")
	if r.code != exitConsensus {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"arena resume " + rel + "\n",
		"  runs:       arena debate --context=schema.sql -- \"should we move sessions?\"\n",
		"  reads:      schema.sql (sent to the seats)\n",
		"  the log was written by arena on this machine",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the plan lacks %q:\n%s", want, r.stderr)
		}
	}
	if !strings.HasPrefix(r.stderr, "arena resume ") {
		t.Errorf("the plan is not the first thing said:\n%s", r.stderr)
	}
	doc := strings.TrimSuffix(rel, ".jsonl") + ".md"
	for _, want := range []string{
		"Log of this debate: " + rel + "  (arena replay " + rel + ")\n",
		"Outcome document: " + doc + "\n",
	} {
		if strings.Count(r.stdout, want) != 1 {
			t.Errorf("the run does not say %q once:\n%s", want, tail(r.stdout, 12))
		}
	}
	if n := strings.Count(strings.ToLower(r.stdout), "outcome document: "); n != 1 {
		t.Errorf("the outcome document is named %d times", n)
	}
	if strings.Contains(r.stdout+r.stderr, s.dir+string(filepath.Separator)+"debate-logs") {
		t.Errorf("a file beneath the directory is named absolute:\n%s\n%s", r.stderr, tail(r.stdout, 12))
	}
	// Named by its absolute path, the finished log is refused in the
	// same words.
	r = s.run("resume", "--no-tui", log)
	if r.code != exitUsage || !strings.Contains(r.stderr, "cannot resume "+rel+": the run is finished") {
		t.Errorf("exit %d\n%s", r.code, r.stderr)
	}
}

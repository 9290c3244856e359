package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/adversarial"
	"github.com/arenadebate/arena/engine/runlog"
)

// Fault tests: the built binary against fake CLIs that hang, crash, flood
// and lie, and against signals, full disks and hostile files. Each checks
// the exit code, that the outcome names the failure, that the time is
// bounded, that no process survives, and that the log replays. The files
// faults_*_test.go hold the rest; the helpers shared by all of them are
// here.

// The arena under test is built with the race detector when the tests
// are (go test -race, as scripts/test runs them), and its runtime
// sleeps for a second before exiting (GORACE atexit_sleep_ms, default
// 1000), in arena and again in its reaper, which arena waits for: two
// seconds of every run. Races are still reported when they happen and
// still fail the run (exit 66); only the wait goes. A GORACE that already
// sets atexit_sleep_ms is left alone.
func init() {
	if g := os.Getenv("GORACE"); !strings.Contains(g, "atexit_sleep_ms") {
		os.Setenv("GORACE", strings.TrimSpace(g+" atexit_sleep_ms=0"))
	}
}

// newFaultSandbox is newSandbox for a fault test: whatever of the
// sandbox's processes a failed test leaves running (a hung arena, say) is
// killed at the end.
func newFaultSandbox(t *testing.T) *sandbox {
	t.Helper()
	s := newSandbox(t)
	t.Cleanup(func() {
		for _, p := range s.procs() {
			syscall.Kill(p.pid, syscall.SIGKILL)
		}
	})
	return s
}

// writeConfig writes the sandbox's own arena config file
// ($XDG_CONFIG_HOME/arena/config.yaml).
func (s *sandbox) writeConfig(yaml string) string {
	s.t.Helper()
	dir := filepath.Join(s.home, ".config", "arena")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		s.t.Fatal(err)
	}
	path := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o600); err != nil {
		s.t.Fatal(err)
	}
	return path
}

// rawAgentConfig adds an agent "raw" that runs the qwen fake with plain
// text output (format: text), so whatever bytes it prints flow into the
// debate as text. Its script entry is "raw".
const rawAgentConfig = `agents:
  raw:
    command: [qwen]
    prompt: argv
    format: text
    env: {ARENA_FAKE_AGENT: raw}
`

// agentTimeout is a config giving one agent, the one meant to time out, a
// timeout of its own, and every other agent the default (120 s). A
// --timeout would give the short one to all of them, and on a loaded
// machine cut short the calls meant to answer.
func agentTimeout(agent, d string) string {
	return "agents:\n" + agentTimeoutEntry(agent, d)
}

// agentTimeoutEntry is agentTimeout's entry, to add to a config's agents.
func agentTimeoutEntry(agent, d string) string {
	return "  " + agent + ":\n    timeout: " + d + "\n"
}

// assertTerminalSafe fails if text printed by arena holds an escape byte
// or is not valid UTF-8: an agent's output must never reach the terminal
// as control sequences.
func assertTerminalSafe(t *testing.T, what, text string) {
	t.Helper()
	if i := strings.IndexByte(text, 0x1b); i >= 0 {
		t.Errorf("%s holds an ESC byte at %d: %q", what, i, text[max(0, i-40):min(len(text), i+40)])
	}
	if !utf8.ValidString(text) {
		t.Errorf("%s is not valid UTF-8", what)
	}
}

// sandboxProc is a live process started for a sandbox: arena, its
// reaper, a fake CLI or anything a fake left behind. They all inherit the
// sandbox's ARENA_FAKE_STATE, which no other test shares.
type sandboxProc struct {
	pid     int
	cmdline string
}

func (s *sandbox) procs() []sandboxProc {
	marker := []byte("ARENA_FAKE_STATE=" + s.fakes.State + "\x00")
	stats, _ := filepath.Glob("/proc/[0-9]*/environ")
	var out []sandboxProc
	for _, path := range stats {
		env, err := os.ReadFile(path)
		if err != nil || !bytes.Contains(env, marker) {
			continue
		}
		dir := filepath.Dir(path)
		pid := 0
		for _, c := range filepath.Base(dir) {
			pid = pid*10 + int(c-'0')
		}
		if pid == os.Getpid() || !processAlive(pid) {
			continue
		}
		cl, _ := os.ReadFile(filepath.Join(dir, "cmdline"))
		out = append(out, sandboxProc{pid: pid, cmdline: strings.ReplaceAll(strings.TrimRight(string(cl), "\x00"), "\x00", " ")})
	}
	return out
}

// assertNothingLeft waits up to d for every process of the sandbox to be
// gone — arena, its reaper, the fakes and their grandchildren — then kills
// and reports the ones left. It adds to assertNoSurvivors the processes
// the call log does not name.
func assertNothingLeft(t *testing.T, s *sandbox, d time.Duration) {
	t.Helper()
	assertNoSurvivors(t, s)
	for _, agent := range []string{"claude", "gemini", "codex", "qwen", "raw"} {
		if pid, ok := s.fakes.GrandchildPID(agent); ok {
			deadline := time.Now().Add(d)
			for time.Now().Before(deadline) && processAlive(pid) {
				time.Sleep(20 * time.Millisecond)
			}
			if processAlive(pid) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Errorf("%s's grandchild (pid %d) survived", agent, pid)
			}
		}
	}
	deadline := time.Now().Add(d)
	left := s.procs()
	for len(left) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		left = s.procs()
	}
	for _, p := range left {
		syscall.Kill(p.pid, syscall.SIGKILL)
		t.Errorf("process %d survived: %s", p.pid, p.cmdline)
	}
}

// assertReplays replays a log headless and checks that it plays to the
// end: exit 0, the outcome document and its summary, and each of want.
func assertReplays(t *testing.T, s *sandbox, path string, want ...string) {
	t.Helper()
	r := s.run("replay", "--no-tui", path)
	if r.code != 0 || !strings.Contains(r.stdout, "(DEBATE)") || !strings.Contains(r.stdout, "# Debate outcome:") {
		t.Fatalf("arena replay %s: exit %d\nstdout (tail):\n%s\nstderr:\n%s", path, r.code, tail(r.stdout, 3000), r.stderr)
	}
	for _, w := range want {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("the replay does not show %q", w)
		}
	}
	assertTerminalSafe(t, "the replay's output", r.stdout+r.stderr)
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// finishedTasks lists, per agent, the tasks that finished with a parsed
// reply.
func finishedTasks(lc runlog.Contents) map[string][]engine.Task {
	out := map[string][]engine.Task{}
	for _, e := range lc.Events {
		if f, ok := e.Payload.(engine.AgentFinished); ok && !f.Unparseable {
			out[f.Agent] = append(out[f.Agent], f.Task)
		}
	}
	return out
}

func hasFailure(o engine.Outcome, want string) bool {
	for _, f := range o.Failures {
		if strings.Contains(f, want) {
			return true
		}
	}
	return false
}

type challengerFault struct {
	name   string
	script clitest.Script
	config string
	args   []string
	// agent is the one that misbehaves; failure is how the outcome must
	// name it ("" when it must not fail at all).
	agent, failure string
	// maxTook bounds the whole run.
	maxTook time.Duration
}

// checkNamed checks that the outcome, and the printed document, name the
// failure (and nothing else), or none when the agent must not fail.
func (tc challengerFault) checkNamed(t *testing.T, o engine.Outcome, stdout string) {
	t.Helper()
	if tc.failure == "" {
		if len(o.Failures) != 0 {
			t.Errorf("failures %q, want none", o.Failures)
		}
		return
	}
	if !hasFailure(o, tc.failure) {
		t.Errorf("the outcome's failures %q do not name %q", o.Failures, tc.failure)
	}
	if !strings.Contains(stdout, "## Failures") || !strings.Contains(stdout, tc.failure) {
		t.Errorf("the printed outcome does not name %q", tc.failure)
	}
}

// checkOthersCarriedOn checks that every other challenger replied, and
// the misbehaving one too when it was not to fail.
func (tc challengerFault) checkOthersCarriedOn(t *testing.T, lc runlog.Contents) {
	t.Helper()
	done := finishedTasks(lc)
	for _, st := range lc.Events[0].Payload.(engine.DebateStarted).Seats {
		if a := st.Agent; st.Role == adversarial.RoleChallenger && a != tc.agent && len(done[a]) == 0 {
			t.Errorf("%s gave no reply; the debate should have gone on with it", a)
		}
	}
	if tc.failure == "" && len(done[tc.agent]) == 0 {
		t.Errorf("%s's reply is missing", tc.agent)
	}
}

// critiqueStep is a scripted critique.
func critiqueStep(verdict, strength string) clitest.Step {
	return clitest.Step{Reply: map[string]any{
		"verdict": verdict, "critique": "The plan underestimates session write load (" + verdict + ").",
		"evidence": "every request touches a session", "alternative": "keep Redis for sessions",
		"confidence": "high", "objection_strength": strength, "assumptions_challenged": []string{"low write rate"},
	}}
}

func challengerFaults() []challengerFault {
	agent := func(name string, as clitest.AgentScript) clitest.Script {
		return clitest.Script{Agents: map[string]clitest.AgentScript{name: as}}
	}
	const timeout = 3 * time.Second
	short := func(agent string) string { return agentTimeout(agent, "3s") }
	// Time for everything but the failing call.
	const rest = loadedMachine
	return []challengerFault{
		{name: "hang", script: agent("codex", clitest.AgentScript{Mode: clitest.ModeHang}), config: short("codex"),
			agent: "codex", failure: "codex timed out in round 1", maxTook: timeout + rest},
		{name: "hang-silent", script: agent("qwen", clitest.AgentScript{Mode: clitest.ModeHangSilent}), config: short("qwen"),
			agent: "qwen", failure: "qwen timed out in round 1", maxTook: timeout + rest},
		{name: "ignores-SIGTERM", script: agent("gemini", clitest.AgentScript{Mode: clitest.ModeIgnoreTerm}), config: short("gemini"),
			agent: "gemini", failure: "gemini timed out in round 1", maxTook: timeout + rest},
		// The grandchild holds stdout open for ever; arena must not wait
		// for it, so the call succeeds long before its 60 s timeout.
		{name: "grandchild-holds-stdout", script: agent("qwen", clitest.AgentScript{Mode: clitest.ModeGrandchild}), args: []string{"--timeout", "60s"},
			agent: "qwen", maxTook: rest},
		{name: "crash-mid-stream", script: agent("gemini", clitest.AgentScript{Mode: clitest.ModeCrash, Chunks: 6}),
			agent: "gemini", failure: "gemini exited with status 2", maxTook: rest},
		{name: "invalid-json", script: agent("qwen", clitest.AgentScript{Mode: clitest.ModeGarbage}),
			agent: "qwen", failure: "qwen returned no reply", maxTook: rest},
		{name: "binary-garbage", script: agent("gemini", clitest.AgentScript{Mode: clitest.ModeBinary}),
			agent: "gemini", failure: "gemini returned no reply", maxTook: rest},
		// Random bytes, invalid UTF-8, NULs and terminal escapes (clear
		// screen, window title, alternate screen) read as plain text, so
		// they stream into the output and the log as they come.
		{name: "invalid-utf8-and-escapes-as-text", script: agent("raw", clitest.AgentScript{Mode: clitest.ModeBinary}),
			config: rawAgentConfig, args: []string{"--challengers", "raw,gemini,codex"},
			agent: "raw", failure: "raw returned an unparseable reply in round 1", maxTook: rest},
		{name: "flood-100MiB", script: agent("gemini", clitest.AgentScript{Mode: clitest.ModeFlood, FloodBytes: 100 << 20}),
			agent: "gemini", failure: "gemini printed too much output: stopped after 8 MiB (output_cap) in round 1", maxTook: 2 * rest},
		{name: "trickle", script: agent("codex", clitest.AgentScript{Mode: clitest.ModeTrickle, DelayMS: 1000}), config: short("codex"),
			agent: "codex", failure: "codex timed out in round 1", maxTook: timeout + rest},
		{name: "exit-0-with-error-in-stream", script: agent("codex", clitest.AgentScript{Mode: clitest.ModeErrorInStream}),
			agent: "codex", failure: "codex reported an error: unexpected status 401 Unauthorized", maxTook: rest},
		// A failure in a later round: gemini disagrees, maintains in round
		// 1, then hangs in its round-2 rebuttal; the debate goes on without
		// it.
		{name: "hang-in-round-2-rebuttal", script: clitest.Script{Agents: map[string]clitest.AgentScript{
			"claude": {Steps: map[string][]clitest.Step{"answer": {{Reply: map[string]any{
				"responses":        []any{map[string]string{"challenger": "gemini", "decision": "reject", "explanation": "the numbers say otherwise"}},
				"updated_position": "Move sessions to Postgres.",
			}}}}},
			"gemini": {Steps: map[string][]clitest.Step{
				"critique": {critiqueStep("disagree", "strong")},
				"rebuttal": {{Reply: map[string]string{"choice": "maintain", "explanation": "Postgres will melt."}}, {Mode: clitest.ModeHang}},
			}},
			"codex": {Steps: map[string][]clitest.Step{"critique": {critiqueStep("agree", "minor")}}},
			"qwen":  {Steps: map[string][]clitest.Step{"critique": {critiqueStep("agree", "minor")}}},
		}}, config: short("gemini"), agent: "gemini", failure: "gemini timed out in round 2", maxTook: timeout + rest},
	}
}

// TestChallengerFaults runs a debate with one misbehaving challenger per
// case: the debate goes on with the others to consensus, the outcome names
// the failure, the run is bounded by the timeout, nothing survives, the
// output is safe for a terminal, and the log is complete and replays.
func TestChallengerFaults(t *testing.T) {
	for _, tc := range challengerFaults() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newFaultSandbox(t)
			s.fakes.SetScript(&tc.script)
			if tc.config != "" {
				s.writeConfig(tc.config)
			}
			r := s.run(append(append([]string{"--no-tui"}, tc.args...), "a topic with a misbehaving challenger")...)
			if r.code != exitConsensus {
				t.Fatalf("exit %d, want %d\nstdout (tail):\n%s\nstderr:\n%s", r.code, exitConsensus, tail(r.stdout, 4000), r.stderr)
			}
			if r.took > tc.maxTook {
				t.Errorf("took %v, want at most %v", r.took, tc.maxTook)
			}
			assertTerminalSafe(t, "stdout", r.stdout)
			assertTerminalSafe(t, "stderr", r.stderr)

			lc := s.onlyLog()
			if !lc.Complete || lc.Problem != "" {
				t.Fatalf("log complete %v, problem %q", lc.Complete, lc.Problem)
			}
			o := outcomeOf(t, lc)
			if o.Result != engine.OutcomeKind("consensus") {
				t.Fatalf("outcome %s: %s", o.Result, o.Summary)
			}
			tc.checkNamed(t, o, r.stdout)
			tc.checkOthersCarriedOn(t, lc)
			assertNothingLeft(t, s, 5*time.Second)
			want := []string{o.Summary}
			if tc.failure != "" {
				want = append(want, tc.failure)
			}
			assertReplays(t, s, s.logs()[0], want...)
		})
	}
}

// TestEveryChallengerFails: each challenger fails its own way; the debate
// aborts (exit 4) with a report that names all three.
func TestEveryChallengerFails(t *testing.T) {
	t.Parallel()
	s := newFaultSandbox(t)
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
		"gemini": {Mode: clitest.ModeIgnoreTerm},
		"codex":  {Mode: clitest.ModeCrash},
		"qwen":   {Mode: clitest.ModeErrorInStream},
	}})
	s.writeConfig(agentTimeout("gemini", "3s")) // it ignores SIGTERM: a timeout is its failure
	r := s.run("--no-tui", "a topic nobody can discuss")
	if r.code != exitAborted {
		t.Fatalf("exit %d, want %d\n%s\n%s", r.code, exitAborted, tail(r.stdout, 3000), r.stderr)
	}
	if r.took > 3*time.Second+loadedMachine {
		t.Errorf("took %v with a 3s timeout", r.took)
	}
	o := outcomeOf(t, s.onlyLog())
	if o.Result != engine.OutcomeAborted || !strings.Contains(o.Summary, "every challenger failed") {
		t.Fatalf("outcome %s: %q", o.Result, o.Summary)
	}
	for _, want := range []string{"gemini timed out in round 1", "codex exited with status 2", "qwen reported an error"} {
		if !hasFailure(o, want) || !strings.Contains(r.stdout, want) {
			t.Errorf("the outcome does not name %q: %q", want, o.Failures)
		}
	}
	if !strings.Contains(r.stdout, "# Debate outcome: aborted") || !strings.Contains(r.stdout, "Aborted: every challenger failed") {
		t.Errorf("no abort report:\n%s", tail(r.stdout, 3000))
	}
	assertTerminalSafe(t, "stdout", r.stdout)
	assertNothingLeft(t, s, 5*time.Second)
	assertReplays(t, s, s.logs()[0], "Aborted: every challenger failed")
}

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
)

// The faults whose handling differs on the live screen, driven in tmux:
// what the screen shows, that the terminal is given back (and not taken
// over by what an agent or a log prints), and what stays in the
// scrollback once the screen is gone.

// display evaluates a tmux format (#{pane_title}, #{alternate_on}) for
// the session's pane.
func (ts *tmuxSession) display(format string) string {
	ts.t.Helper()
	out, err := exec.Command("tmux", "-L", ts.socket, "display-message", "-p", "-t", "arena", format).Output()
	if err != nil {
		ts.t.Fatalf("tmux display-message: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// assertTerminalKept checks that nothing an agent or a log printed took
// over the terminal: the window title is not the one the binary garbage
// sets. With atExit, also that the alternate screen was left.
func assertTerminalKept(t *testing.T, ts *tmuxSession, atExit bool) {
	t.Helper()
	if title := ts.display("#{pane_title}"); strings.Contains(title, "pwned") {
		t.Errorf("an escape sequence reached the terminal: the pane title is %q", title)
	}
	if atExit {
		if alt := ts.display("#{alternate_on}"); alt != "0" {
			t.Errorf("the terminal was left on the alternate screen")
		}
	}
}

// arenaPID finds the arena process of a sandbox (not its reaper).
func arenaPID(t *testing.T, s *sandbox) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for _, p := range s.procs() {
			if strings.HasPrefix(p.cmdline, arenaBinary(t)) && !strings.Contains(p.cmdline, reaperCommand) {
				return p.pid
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("arena is not running")
	return 0
}

// TestTUIChallengerFaultsInTmux: on the live screen, a challenger that
// prints binary garbage and terminal escapes, one that hangs and one that
// crashes each fail in their own pane while the fourth carries the debate
// to consensus; the terminal is never taken over, and the failures stay in
// the scrollback.
func TestTUIChallengerFaultsInTmux(t *testing.T) {
	t.Parallel()
	s := newFaultSandbox(t)
	s.writeConfig(rawAgentConfig + agentTimeoutEntry("gemini", "3s"))
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
		"raw":    {Mode: clitest.ModeBinary},
		"gemini": {Mode: clitest.ModeHang},
		"codex":  {Mode: clitest.ModeCrash},
	}})
	ts := s.startTmux(140, 45, nil, "--challengers", "raw,gemini,codex,qwen", "a topic with misbehaving challengers")
	ts.waitText("Debate outcome: consensus", 60*time.Second)
	assertTerminalKept(t, ts, false)
	ts.keys("q")
	if code := ts.exitCode(15 * time.Second); code != "0" {
		t.Fatalf("exit %s\n%s", code, ts.scrollback())
	}
	assertTerminalKept(t, ts, true)
	back := ts.scrollback()
	for _, want := range []string{"✗ raw returned an unparseable reply in round 1", "✗ gemini timed out in round 1", "✗ codex exited with status 2"} {
		if !strings.Contains(back, want) {
			t.Errorf("the scrollback lacks %q:\n%s", want, back)
		}
	}
	o := outcomeOf(t, s.onlyLog())
	if o.Result != engine.OutcomeKind("consensus") || len(o.Failures) != 3 {
		t.Errorf("outcome %s, failures %q", o.Result, o.Failures)
	}
	assertNothingLeft(t, s, 5*time.Second)
}

// TestTUIEveryChallengerFailsInTmux: a flood of output, a challenger that
// ignores SIGTERM and one with an error in its stream; the screen shows
// the abort report and arena exits 4. Only codex has a short timeout: with
// one for all (--timeout 3s), the flood raced the clock to the 8 MiB cap,
// and on a loaded 2-core machine the clock won ("gemini timed out").
func TestTUIEveryChallengerFailsInTmux(t *testing.T) {
	t.Parallel()
	s := newFaultSandbox(t)
	s.writeConfig(agentTimeout("codex", "3s"))
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
		"gemini": {Mode: clitest.ModeFlood, FloodBytes: 100 << 20},
		"codex":  {Mode: clitest.ModeIgnoreTerm},
		"qwen":   {Mode: clitest.ModeErrorInStream},
	}})
	ts := s.startTmux(120, 40, nil, "a topic nobody can discuss")
	ts.waitText("Debate outcome: aborted", 60*time.Second)
	ts.keys("q")
	if code := ts.exitCode(15 * time.Second); code != "4" {
		t.Fatalf("exit %s\n%s", code, ts.scrollback())
	}
	assertTerminalKept(t, ts, true)
	back := ts.scrollback()
	for _, want := range []string{"arena: Aborted: every challenger failed", "✗ gemini printed too much output", "✗ codex timed out in round 1", "✗ qwen reported an error"} {
		if !strings.Contains(back, want) {
			t.Errorf("the scrollback lacks %q:\n%s", want, back)
		}
	}
	assertNothingLeft(t, s, 5*time.Second)
}

// TestTUIDefenderAbortsInTmux: the defender fails twice in the opening;
// the screen shows the abort report and arena exits 4.
func TestTUIDefenderAbortsInTmux(t *testing.T) {
	t.Parallel()
	s := newFaultSandbox(t)
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
		"claude": {Steps: map[string][]clitest.Step{"opening": {{Mode: clitest.ModeCrash}}}},
	}})
	ts := s.startTmux(120, 40, nil, "a topic")
	ts.waitText("Debate outcome: aborted", 30*time.Second)
	ts.keys("q")
	if code := ts.exitCode(15 * time.Second); code != "4" {
		t.Fatalf("exit %s\n%s", code, ts.scrollback())
	}
	if back := ts.scrollback(); !strings.Contains(back, "arena: Aborted: the defender claude failed in opening position (round 1) after a retry") {
		t.Errorf("the scrollback does not say why:\n%s", back)
	}
	assertTerminalKept(t, ts, true)
	assertNothingLeft(t, s, 5*time.Second)
}

// TestTUISignalsInTmux: SIGINT (from kill, not the keyboard), SIGTERM or
// SIGHUP to arena while the live screen runs — as soon as it is drawn, or
// once the challengers are at work — stops the debate without asking,
// gives the terminal back and exits 130, with the interrupted outcome
// logged. The same signals end a replay on the screen.
func TestTUISignalsInTmux(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		for _, when := range []string{"at-start", "mid-debate"} {
			t.Run(sigName(sig)+"/"+when, func(t *testing.T) {
				t.Parallel()
				s := newFaultSandbox(t)
				s.fakes.SetScript(slowDebateScript())
				s.writeConfig(slowDebateConfig)
				ts := s.startTmux(120, 40, nil, "--max-rounds", "2", "a topic")
				ts.waitText("Preflight", 30*time.Second)
				if when == "mid-debate" {
					waitForCalls(t, s, 3)
				}
				if err := syscall.Kill(arenaPID(t, s), sig); err != nil {
					t.Fatal(err)
				}
				if code := ts.exitCode(15 * time.Second); code != "130" {
					t.Fatalf("exit %s after %s\n%s", code, sigName(sig), ts.scrollback())
				}
				assertTerminalKept(t, ts, true)
				if back := ts.scrollback(); !strings.Contains(back, "arena: Interrupted during") {
					t.Errorf("no summary in the scrollback:\n%s", back)
				}
				if o := outcomeOf(t, s.onlyLog()); o.Result != engine.OutcomeInterrupted {
					t.Errorf("outcome %s", o.Result)
				}
				assertNothingLeft(t, s, 5*time.Second)
			})
		}
		t.Run(sigName(sig)+"/replay", func(t *testing.T) {
			t.Parallel()
			s := newFaultSandbox(t)
			ts := s.startTmux(120, 40, nil, "demo", "--speed", "0.5")
			ts.waitText("REPLAY", 30*time.Second)
			if err := syscall.Kill(arenaPID(t, s), sig); err != nil {
				t.Fatal(err)
			}
			if code := ts.exitCode(15 * time.Second); code != "130" {
				t.Errorf("replay exit %s after %s, want 130", code, sigName(sig))
			}
			assertTerminalKept(t, ts, true)
			assertNothingLeft(t, s, 5*time.Second)
		})
	}
}

// TestTUIFullDiskInTmux: with the live screen, the outcome is only on the
// screen and in the log; when the disk fills up, the warning and the
// rescue file are in the scrollback once the screen is gone, and the
// rescue file holds the outcome.
func TestTUIFullDiskInTmux(t *testing.T) {
	t.Parallel()
	s := newFaultSandbox(t)
	logDir := nearlyFullDisk(t, s)
	tmp := t.TempDir()
	ts := s.startTmux(120, 40, []string{"TMPDIR=" + tmp}, "--log-dir", logDir, "a topic")
	ts.waitText("Debate outcome: consensus", 60*time.Second)
	ts.keys("q")
	if code := ts.exitCode(15 * time.Second); code != "0" {
		t.Fatalf("exit %s\n%s", code, ts.scrollback())
	}
	back := ts.scrollback()
	m := rescuedRE.FindStringSubmatch(back)
	if !strings.Contains(back, "could not be fully written") || m == nil || !strings.Contains(back, "arena: Consensus in round 1") {
		t.Fatalf("the scrollback does not tell what happened:\n%s", back)
	}
	lc, err := runlog.ReadFile(m[2])
	if err != nil || !lc.Complete {
		t.Fatalf("rescue file %s: %v, complete %v", m[2], err, lc.Complete)
	}
	if o := outcomeOf(t, lc); !strings.Contains(o.Markdown, "# Debate outcome: consensus") {
		t.Errorf("the rescued outcome lacks its document")
	}
	assertNothingLeft(t, s, 5*time.Second)
}

// TestTUIReplayHostileLogInTmux: replaying a log whose text carries
// terminal escapes (window title, clear screen, alternate screen,
// clipboard) shows the text, not their effect.
func TestTUIReplayHostileLogInTmux(t *testing.T) {
	t.Parallel()
	s := newFaultSandbox(t)
	lines := logLines(t, s)
	for i, l := range lines {
		lines[i] = mutateEvent(t, l, func(e map[string]any) {
			d := e["data"].(map[string]any)
			for _, k := range []string{"topic", "text", "display", "summary", "markdown", "title"} {
				if v, ok := d[k].(string); ok {
					d[k] = "\x1b]0;pwned\x07\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07" + v + "\x1b[?1049l"
				}
			}
		})
	}
	path := filepath.Join(t.TempDir(), "hostile.jsonl")
	os.WriteFile(path, joinLines(lines), 0o600)
	ts := s.startTmux(120, 40, nil, "replay", "--speed", "50", path)
	ts.waitText("Debate outcome: consensus", 30*time.Second)
	assertTerminalKept(t, ts, false)
	ts.keys("q")
	if code := ts.exitCode(15 * time.Second); code != "0" {
		t.Fatalf("exit %s\n%s", code, ts.scrollback())
	}
	assertTerminalKept(t, ts, true)
}

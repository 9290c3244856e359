package main

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
)

// These tests drive the real binary in tmux, as a person would: keys in
// with send-keys, the screen out with capture-pane.

var tmuxN atomic.Int64

type tmuxSession struct {
	t      *testing.T
	socket string
}

func needTmux(t *testing.T) {
	t.Helper()
	clitest.SkipShort(t)
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("ARENA_REQUIRE_TMUX") != "" {
			t.Fatal("tmux is not installed (scripts/test installs it)")
		}
		t.Skip("tmux is not installed; scripts/test installs it")
	}
}

// startTmux runs arena with args in a fresh tmux server of the given size.
// After arena exits the pane prints EXIT=<status> and stays.
func (s *sandbox) startTmux(cols, rows int, env []string, args ...string) *tmuxSession {
	s.t.Helper()
	needTmux(s.t)
	ts := &tmuxSession{t: s.t, socket: fmt.Sprintf("arena-test-%d-%d", os.Getpid(), tmuxN.Add(1))}
	var b strings.Builder
	// env -i: the pane's program gets the sandbox's environment and
	// nothing the tmux server inherited from the test (a CI runner's
	// CI=true or NO_COLOR would change what the screen looks like).
	b.WriteString("cd " + shellQuote(s.dir) + " && env -i")
	for _, kv := range s.env("TERM=xterm-256color", "COLORTERM=") {
		if !strings.HasPrefix(kv, "NO_COLOR=") { // the sandbox's default; a test may set it
			b.WriteString(" " + shellQuote(kv))
		}
	}
	for _, kv := range env {
		b.WriteString(" " + shellQuote(kv))
	}
	b.WriteString(" " + shellQuote(arenaBinary(s.t)))
	for _, a := range args {
		b.WriteString(" " + shellQuote(a))
	}
	b.WriteString("; echo EXIT=$?; sleep 600")
	out, err := exec.Command("tmux", "-L", ts.socket, "-f", "/dev/null", "new-session", "-d", "-s", "arena",
		"-x", fmt.Sprint(cols), "-y", fmt.Sprint(rows), b.String()).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux: %v\n%s", err, out)
	}
	s.t.Cleanup(func() { exec.Command("tmux", "-L", ts.socket, "kill-server").Run() })
	return ts
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func (ts *tmuxSession) screen() string {
	out, err := exec.Command("tmux", "-L", ts.socket, "capture-pane", "-p", "-t", "arena").Output()
	if err != nil {
		ts.t.Fatalf("capture-pane: %v", err)
	}
	return string(out)
}

// scrollback is the pane's history too: what stays after the alternate
// screen is gone.
func (ts *tmuxSession) scrollback() string {
	out, _ := exec.Command("tmux", "-L", ts.socket, "capture-pane", "-p", "-J", "-S", "-200", "-t", "arena").Output()
	return string(out)
}

// keys types keys, in order. It does not wait for arena to act on them:
// a test that looks at the screen afterwards waits for what the keys
// should bring about (waitFor), however long a loaded machine takes.
func (ts *tmuxSession) keys(keys ...string) {
	ts.t.Helper()
	for _, k := range keys {
		if out, err := exec.Command("tmux", "-L", ts.socket, "send-keys", "-t", "arena", k).CombinedOutput(); err != nil {
			ts.t.Fatalf("send-keys %s: %v %s", k, err, out)
		}
	}
}

// waitFor polls the screen until ok holds, and returns that screen.
func (ts *tmuxSession) waitFor(what string, d time.Duration, ok func(screen string) bool) string {
	ts.t.Helper()
	deadline := time.Now().Add(d)
	var last string
	for time.Now().Before(deadline) {
		last = ts.screen()
		if ok(last) {
			return last
		}
		time.Sleep(100 * time.Millisecond)
	}
	ts.t.Fatalf("waited %v for %s; the screen shows:\n%s", d, what, last)
	return ""
}

func (ts *tmuxSession) waitText(text string, d time.Duration) string {
	ts.t.Helper()
	return ts.waitFor(fmt.Sprintf("%q", text), d, func(s string) bool { return strings.Contains(s, text) })
}

var exitRE = regexp.MustCompile(`EXIT=(\d+)`)

// quitDone presses q once the run is over and returns arena's exit code,
// pressing again every few seconds until it exits. A q that reaches the
// screen before the outcome does asks "Stop the debate?", and the outcome
// arriving next clears the question (the run ended on its own): that q is
// spent. A test that sees a reply's words in a pane cannot tell the two
// moments apart (arena verdict's panes and outcome both read "Verdict:
// REJECT"; found by logging the screen's messages).
func (ts *tmuxSession) quitDone(d time.Duration) string {
	ts.t.Helper()
	deadline := time.Now().Add(d)
	for {
		ts.keys("q")
		until := time.Now().Add(3 * time.Second)
		for time.Now().Before(until) {
			if m := exitRE.FindStringSubmatch(ts.scrollback()); m != nil {
				return m[1]
			}
			time.Sleep(100 * time.Millisecond)
		}
		if time.Now().After(deadline) {
			ts.t.Fatalf("arena did not exit within %v of q; the screen shows:\n%s", d, ts.screen())
		}
	}
}

func (ts *tmuxSession) exitCode(d time.Duration) string {
	ts.t.Helper()
	ts.waitFor("arena to exit", d, func(string) bool { return exitRE.MatchString(ts.scrollback()) })
	return exitRE.FindStringSubmatch(ts.scrollback())[1]
}

// paneTitle finds the line holding a pane's title; focused panes have a
// heavy border.
func focusedPane(screen string) string {
	m := regexp.MustCompile(`┏━ ([a-z]+)`).FindStringSubmatch(screen)
	if m == nil {
		return ""
	}
	return m[1]
}

// streamingScript makes every agent stream in many pieces, each at its
// own pace, so that several panes are mid-reply at once. How long a pane
// stays mid-reply depends on the machine: a test that looks at that
// moment holds the agents in it (holding). So the pace only has to be
// slow enough to be seen as streaming, at most 2 s a reply: at the 8 s
// a reply took before the holds, qwen's and codex's paces were most of
// what the tmux tests cost.
func streamingScript() *clitest.Script {
	return &clitest.Script{Agents: map[string]clitest.AgentScript{
		"claude": {DelayMS: 10, Chunks: 30},
		"gemini": {DelayMS: 30, Chunks: 40},
		"codex":  {DelayMS: 40, Chunks: 40},
		"qwen":   {DelayMS: 50, Chunks: 40},
	}}
}

// holding makes the named agents' answers of kind (a key of
// clitest.AgentScript.Steps) stop before their last piece until the test
// calls s.fakes.Release(name) (clitest.Step.Hold): the run stays in the
// moment the test looks at, on a machine of any speed.
func holding(sc *clitest.Script, kind, name string, agents ...string) *clitest.Script {
	for _, a := range agents {
		as := sc.Agents[a]
		if as.Steps == nil {
			as.Steps = map[string][]clitest.Step{}
		}
		steps := as.Steps[kind]
		if len(steps) == 0 {
			steps = []clitest.Step{{}}
		}
		for i := range steps {
			steps[i].Hold = name
		}
		as.Steps[kind] = steps
		sc.Agents[a] = as
	}
	return sc
}

func TestTUILiveDebateInTmux(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	// gemini and qwen hold their critiques before the last piece until the
	// keys below have been tried on the live screen; codex's CLI prints
	// whole messages, so it finishes.
	s.fakes.SetScript(holding(streamingScript(), "critique", "challenge", "gemini", "qwen"))
	ts := s.startTmux(120, 40, nil, "should we adopt a monorepo?")

	// Text from every challenger appears in its pane while they still
	// work: each pane shows its own words, and a pane still counts down.
	screen := ts.waitFor("all three challengers streaming", 60*time.Second, func(s string) bool {
		return strings.Contains(s, "Gemini agrees") && strings.Contains(s, "Codex agrees") &&
			strings.Contains(s, "Qwen agrees") && strings.Contains(s, "left")
	})
	if !strings.Contains(screen, "challenge") || !strings.Contains(screen, "round 1 of 5") {
		t.Fatalf("header:\n%s", screen)
	}

	// tab moves focus from the defender to the first challenger.
	if f := focusedPane(screen); f != "claude" {
		t.Fatalf("focused pane %q at start:\n%s", f, screen)
	}
	focusOn := func(pane string) func(string) bool {
		return func(s string) bool { return focusedPane(s) == pane }
	}
	ts.keys("Tab")
	ts.waitFor("tab to move the focus to gemini", 10*time.Second, focusOn("gemini"))
	ts.keys("BTab")
	ts.waitFor("shift+tab to move the focus back to claude", 10*time.Second, focusOn("claude"))

	// enter zooms the focused pane to the whole screen, esc returns.
	ts.keys("Tab", "Enter")
	ts.waitFor("enter to fill the screen with gemini", 10*time.Second, func(s string) bool {
		return strings.Contains(s, "gemini") && !strings.Contains(s, "─ qwen") && !strings.Contains(s, "─ codex")
	})
	ts.keys("Escape")
	ts.waitFor("esc to bring back every pane", 10*time.Second, func(s string) bool {
		return strings.Contains(s, "qwen") && strings.Contains(s, "codex")
	})
	if sc := ts.screen(); !strings.Contains(sc, "left") {
		t.Fatalf("the challenge ended while held:\n%s", sc)
	}
	s.fakes.Release("challenge")

	// The outcome arrives; it can be scrolled; q leaves and the summary
	// stays behind.
	out := ts.waitText("Debate outcome: consensus", 60*time.Second)
	if !strings.Contains(out, "CONSENSUS") {
		t.Fatalf("outcome view:\n%s", out)
	}
	before := ts.screen()
	ts.keys("PageDown", "PageDown")
	ts.waitFor("pgdn to scroll the outcome", 10*time.Second, func(s string) bool { return s != before })
	ts.keys("q")
	if code := ts.exitCode(10 * time.Second); code != "0" {
		t.Fatalf("exit %s\n%s", code, ts.scrollback())
	}
	back := ts.scrollback()
	if !strings.Contains(back, "arena: Consensus in round 1") || !strings.Contains(back, "arena replay") {
		t.Fatalf("no summary after the screen closed:\n%s", back)
	}

	// Replay the saved log: the same outcome.
	logs := s.logs()
	if len(logs) != 1 {
		t.Fatalf("%d logs", len(logs))
	}
	rs := s.startTmux(120, 40, nil, "replay", "--speed", "20", logs[0])
	replayed := rs.waitText("Debate outcome: consensus", 30*time.Second)
	if !strings.Contains(replayed, "REPLAY") && !strings.Contains(replayed, "CONSENSUS") {
		t.Fatalf("replay screen:\n%s", replayed)
	}
	rs.keys("q")
	if code := rs.exitCode(10 * time.Second); code != "0" {
		t.Fatalf("replay exit %s", code)
	}
}

func TestTUIQuitAsksThenInterrupts(t *testing.T) {
	s := newSandbox(t)
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
		"gemini": {Mode: clitest.ModeIgnoreTerm}, "codex": {Mode: clitest.ModeHang}, "qwen": {Mode: clitest.ModeSlow, DelayMS: 500, Chunks: 40},
	}})
	ts := s.startTmux(100, 30, nil, "--timeout", "5m", "a topic")
	ts.waitText("challenge", 20*time.Second)
	ts.keys("q")
	ts.waitText("Stop the debate?", 5*time.Second)
	ts.keys("n")
	ts.waitFor("n to dismiss the question", 10*time.Second, func(s string) bool { return !strings.Contains(s, "Stop the debate?") })
	ts.keys("C-c")
	ts.waitText("Stop the debate?", 5*time.Second)
	ts.keys("y")
	if code := ts.exitCode(15 * time.Second); code != "130" {
		t.Fatalf("exit %s\n%s", code, ts.scrollback())
	}
	if o := outcomeOf(t, s.onlyLog()); o.Result != engine.OutcomeInterrupted {
		t.Fatalf("outcome %s", o.Result)
	}
	assertNoSurvivors(t, s)
}

func TestDemoPlaysToTheTradeoffInTmux(t *testing.T) {
	s := newSandbox(t)
	// At the slowest speed the demo plays for minutes, so the pause below
	// reaches a replay still playing (at ×50 it lasted under a second,
	// which a loaded machine's keys could miss); n then moves it on while
	// it is paused, and + brings it to the end quickly.
	ts := s.startTmux(100, 30, nil, "demo", "--speed", "0.25")
	ts.waitText("REPLAY", 10*time.Second)
	ts.keys("Space")
	paused := ts.waitText("paused", 10*time.Second)
	// Keys pressed quickly reach arena in one read, which bubbletea hands
	// over as one message ("nn"); each press must still count (issue 27).
	// One send-keys argument sends them together on purpose.
	done := phasesDone(paused)
	ts.keys("nn")
	moved := ts.waitFor("nn to jump two phases on while paused", 10*time.Second, func(sc string) bool {
		return strings.Contains(sc, "paused") && phasesDone(sc) >= done+2
	})
	if phasesDone(moved) != done+2 {
		t.Fatalf("nn moved %d phases on, want 2:\n%s", phasesDone(moved)-done, moved)
	}
	// The speed is changed while paused, so that each step stays on the
	// screen until it is seen.
	ts.keys("+++") // ×0.25 doubled three times
	ts.waitText("REPLAY ×2 · ⏸ paused", 10*time.Second)
	ts.keys("+++++")
	ts.waitText("REPLAY ×64 · ⏸ paused", 10*time.Second)
	ts.keys("Space")
	ts.waitFor("space to play on", 10*time.Second, func(sc string) bool { return !strings.Contains(sc, "paused") })
	screen := ts.waitText("Debate outcome: tradeoff identified", 60*time.Second)
	if !strings.Contains(screen, "codex timed out in round 2") {
		t.Fatalf("the demo's outcome does not name the failed challenger:\n%s", screen)
	}
	ts.keys("oq") // back to the panes, and quit
	if code := ts.exitCode(10 * time.Second); code != "0" {
		t.Fatalf("exit %s", code)
	}
}

// phasesDone counts the phases the timeline (the screen's second line)
// marks done: one a "✓ name", n a "✓ n done" where the names do not fit.
func phasesDone(screen string) int {
	n := 0
	for _, m := range doneMark.FindAllStringSubmatch(timelineOf(screen), -1) {
		k, err := strconv.Atoi(m[1])
		if err != nil {
			k = 1
		}
		n += k
	}
	return n
}

var doneMark = regexp.MustCompile(`✓ (?:(\d+) done)?`)

// timelineOf is the screen's second line, the timeline.
func timelineOf(screen string) string { return strings.Split(screen+"\n", "\n")[1] }

// At 80 columns, on the real binary in a real terminal: the timeline
// names what it marks (it was "✓ ✓ ✓ ✓ ✓ Confrontation ● …"), the panes
// keep their roles, the verdict table says why qwen's AGREE counts as
// partial, no line is wider than the terminal as tmux counts it (the
// arrows and dashes the screen draws are one cell there too), and ?
// lists the replay's keys.
func TestEightyColumnsInTmux(t *testing.T) {
	s := newSandbox(t)
	ts := s.startTmux(80, 24, nil, "demo", "--speed", "0.25")
	ts.waitText("REPLAY", 10*time.Second)
	ts.keys("Space")
	screen := ts.waitText("paused", 10*time.Second)
	for i := 0; !strings.Contains(screen, "agree → partial"); i++ {
		if i == 12 {
			t.Fatalf("no verdict table after 12 phases:\n%s", screen)
		}
		before := timelineOf(screen)
		ts.keys("n")
		screen = ts.waitFor("n to move a phase on", 10*time.Second, func(sc string) bool { return timelineOf(sc) != before })
	}
	for _, line := range strings.Split(screen, "\n") {
		if n := len([]rune(line)); n > 80 {
			t.Fatalf("a %d-column line on an 80-column terminal: %q", n, line)
		}
	}
	if tl := timelineOf(screen); regexp.MustCompile(`[✓–○●] *(›? *[✓–○●]|$)`).MatchString(strings.TrimSpace(tl)) {
		t.Fatalf("the timeline has a mark without its words: %q", tl)
	}
	for _, want := range []string{"qwen · challenger", "claude · defender", "a round-1 agree counts as partial"} {
		if !strings.Contains(screen, want) {
			t.Fatalf("no %q at 80 columns:\n%s", want, screen)
		}
	}
	ts.keys("?")
	ts.waitFor("? to list the replay's keys", 10*time.Second, func(sc string) bool {
		return strings.Contains(sc, "next phase") && strings.Contains(sc, "follow the tail") && strings.Contains(sc, "faster")
	})
	ts.keys("q")
	if code := ts.exitCode(10 * time.Second); code != "0" {
		t.Fatalf("exit %s", code)
	}
}

func TestNarrowTerminalStillReadable(t *testing.T) {
	s := newSandbox(t)
	ts := s.startTmux(60, 20, nil, "demo", "--speed", "30")
	screen := ts.waitText("REPLAY", 10*time.Second)
	for _, line := range strings.Split(screen, "\n") {
		if n := len([]rune(line)); n > 60 {
			t.Fatalf("a %d-column line on a 60-column terminal: %q", n, line)
		}
	}
	ts.keys("q")
	ts.exitCode(10 * time.Second)
}

func (ts *tmuxSession) coloured() string {
	out, _ := exec.Command("tmux", "-L", ts.socket, "capture-pane", "-p", "-e", "-t", "arena").Output()
	return string(out)
}

func TestResizeRelaysTheScreen(t *testing.T) {
	s := newSandbox(t)
	ts := s.startTmux(120, 40, nil, "demo", "--speed", "5")
	// The panes, not only the header: the first frame can be drawn before
	// the replay's first events are applied.
	ts.waitText("gemini", 10*time.Second)
	if out, err := exec.Command("tmux", "-L", ts.socket, "resize-window", "-t", "arena", "-x", "64", "-y", "22").CombinedOutput(); err != nil {
		t.Fatalf("resize: %v %s", err, out)
	}
	narrow := ts.waitFor("a 64-column layout", 5*time.Second, func(s string) bool {
		for _, line := range strings.Split(s, "\n") {
			if len([]rune(strings.TrimRight(line, " "))) > 64 {
				return false
			}
		}
		return strings.Contains(s, "REPLAY") || strings.Contains(s, "ARENA")
	})
	if strings.Count(narrow, "\n") > 22 {
		t.Fatalf("more rows than the terminal:\n%s", narrow)
	}
	ts.keys("q")
	ts.exitCode(10 * time.Second)
}

func TestNoColorMeansNoColour(t *testing.T) {
	s := newSandbox(t)
	ts := s.startTmux(100, 30, []string{"NO_COLOR=1"}, "demo", "--speed", "20")
	// Colours are SGR parameters 30-37, 38;..., 40-47, 48;..., 90-97, 100-107.
	colour := regexp.MustCompile(`\x1b\[[0-9;]*(3[0-8]|4[0-8]|9[0-7]|10[0-7])(;[0-9;]*)?m`)
	checked := func() string {
		screen := ts.coloured()
		if m := colour.FindString(screen); m != "" {
			t.Fatalf("NO_COLOR screen has a colour sequence %q", m)
		}
		return screen
	}
	// Every screen is checked until the replay ends on the outcome, then
	// o brings back the panes with the challengers' verdict badges (drawn
	// in colour when colour is allowed): they are seen on any machine,
	// not only if a look falls in the second the replay shows them.
	ts.waitFor("the end of the replay", 60*time.Second, func(string) bool {
		return strings.Contains(checked(), "· end")
	})
	ts.keys("o")
	ts.waitFor("the challengers' verdicts", 10*time.Second, func(string) bool {
		return strings.Contains(checked(), "agree · minor")
	})
	ts.keys("q")
	ts.exitCode(10 * time.Second)
}

func TestReplayWithoutArgumentOffersTheLatest(t *testing.T) {
	s := newSandbox(t)
	if r := s.run("--no-tui", "first topic"); r.code != 0 {
		t.Fatalf("exit %d %s", r.code, r.stderr)
	}
	if r := s.run("--no-tui", "second topic"); r.code != 0 {
		t.Fatalf("exit %d %s", r.code, r.stderr)
	}
	// It plays at once, unasked (a replay only reads), and says which.
	ts := s.startTmux(100, 30, nil, "replay", "--instant")
	screen := ts.waitText("Debate outcome: consensus", 15*time.Second)
	if !strings.Contains(screen, "second topic") {
		t.Fatalf("the replay is not of the latest run:\n%s", screen)
	}
	ts.keys("q")
	if code := ts.exitCode(10 * time.Second); code != "0" {
		t.Fatalf("exit %s", code)
	}
	if back := ts.scrollback(); !strings.Contains(back, `Replaying the latest run, "second topic"`) || strings.Contains(back, "[Y/n]") {
		t.Fatalf("the replay does not say which run it plays, or asks:\n%s", back)
	}
}

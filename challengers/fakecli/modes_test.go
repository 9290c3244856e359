package main

import (
	"encoding/json"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/arenadebate/arena/challengers/clitest"
)

var allCLIs = []string{"claude", "gemini", "codex", "qwen"}

// startFake starts agent in mode on an opening prompt, in the background.
func startFake(t *testing.T, agent string, as clitest.AgentScript) (*proc, *clitest.Fakes) {
	t.Helper()
	f := scripted(t, agent, as)
	cmd := exec.Command(f.Path(agent), headless(agent, opening)...)
	cmd.Env, cmd.Dir = f.Env(), t.TempDir()
	return start(t, cmd), f
}

func TestErrorInStreamExitsZero(t *testing.T) {
	t.Parallel()
	wants := map[string]string{
		"claude": `"is_error":true`,
		"gemini": `"status":"error"`,
		"codex":  `{"type":"turn.failed"`,
		"qwen":   `"is_error":true`,
	}
	for _, cli := range allCLIs {
		f := scripted(t, cli, clitest.AgentScript{Mode: clitest.ModeErrorInStream})
		r := execFake(t, f, runCfg{}, cli, headless(cli, opening)...)
		last := r.lines()[len(r.lines())-1]
		if r.code != 0 || !strings.Contains(last, wants[cli]) {
			t.Errorf("%s: status %d, last line %s; want 0 and %s", cli, r.code, last, wants[cli])
		}
	}
}

func TestHang(t *testing.T) {
	t.Parallel()
	p, f := startFake(t, "gemini", clitest.AgentScript{Mode: clitest.ModeHang})
	waitHanging(t, f, p)
	if out := p.stdout(t); strings.Count(out, `"delta":true`) != 1 || strings.Contains(out, `"result"`) {
		t.Errorf("hang printed %q; want the start and one chunk", out)
	}
}

func TestHangSilent(t *testing.T) {
	t.Parallel()
	f := scripted(t, "codex", clitest.AgentScript{Mode: clitest.ModeHangSilent})
	cmd := exec.Command(f.Path("codex"), headless("codex", opening)...)
	cmd.Env = f.Env()
	if p := assertHangs(t, f, cmd); p.stdout(t) != "" {
		t.Errorf("hang-silent printed %q", p.stdout(t))
	}
}

func TestIgnoreTerm(t *testing.T) {
	t.Parallel()
	p, f := startFake(t, "qwen", clitest.AgentScript{Mode: clitest.ModeIgnoreTerm})
	waitHanging(t, f, p)
	assertSurvives(t, p.cmd.Process.Pid, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	if p.exited() {
		t.Fatalf("ignore-term died of a catchable signal: %v", p.err)
	}
}

func TestGrandchild(t *testing.T) {
	t.Parallel()
	p, f := startFake(t, "claude", clitest.AgentScript{Mode: clitest.ModeGrandchild})
	if err := p.wait(t, 10*time.Second); err != nil {
		t.Fatalf("the fake itself should answer and exit 0: %v", err)
	}
	if !strings.Contains(p.stdout(t), `"type":"result"`) {
		t.Errorf("no answer: %q", p.stdout(t))
	}
	pid, ok := f.GrandchildPID("claude")
	if !ok {
		t.Fatal("no grandchild pid file")
	}
	if pgid, err := syscall.Getpgid(pid); err != nil || pgid != p.cmd.Process.Pid {
		t.Errorf("grandchild %d: pgid %d (%v), want the fake's group %d", pid, pgid, err, p.cmd.Process.Pid)
	}
	assertSurvives(t, pid, syscall.SIGTERM)
	// The cleanup's SIGKILL to the process group ends it.
}

func TestCrash(t *testing.T) {
	t.Parallel()
	for _, cli := range allCLIs {
		f := scripted(t, cli, clitest.AgentScript{Mode: clitest.ModeCrash, Chunks: 4})
		r := execFake(t, f, runCfg{}, cli, headless(cli, opening)...)
		lines := r.lines()
		last := lines[len(lines)-1]
		if r.code != 2 || strings.HasSuffix(r.stdout, "\n") || json.Valid([]byte(last)) || strings.Contains(r.stdout, `"turn.completed"`) {
			t.Errorf("%s: status %d, output %q; want 2 and a cut-off last line", cli, r.code, r.stdout)
		}
	}
}

func TestGarbageAndBinary(t *testing.T) {
	t.Parallel()
	f := scripted(t, "gemini", clitest.AgentScript{Mode: clitest.ModeGarbage})
	r := execFake(t, f, runCfg{}, "gemini", headless("gemini", opening)...)
	if r.code != 0 || !json.Valid([]byte(r.lines()[0])) || json.Valid([]byte(r.lines()[2])) || strings.Contains(r.stdout, `"result"`) {
		t.Errorf("garbage: status %d, output %q", r.code, r.stdout)
	}
	f.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"gemini": {Mode: clitest.ModeBinary}}})
	r = execFake(t, f, runCfg{}, "gemini", headless("gemini", opening)...)
	if r.code != 0 || !strings.Contains(r.stdout, "\x00") || !strings.Contains(r.stdout, "\x1b[") || utf8.ValidString(r.stdout) {
		t.Errorf("binary: status %d, %d bytes; want NULs, escapes and invalid UTF-8", r.code, len(r.stdout))
	}
}

func TestFlood(t *testing.T) {
	t.Parallel()
	const n = 1 << 20
	for _, cli := range []string{"gemini", "codex"} {
		f := scripted(t, cli, clitest.AgentScript{Mode: clitest.ModeFlood, FloodBytes: n})
		r := execFake(t, f, runCfg{}, cli, headless(cli, opening)...)
		if r.code != 0 || len(r.stdout) < n || len(replyOf(t, r.lines())) != n {
			t.Errorf("%s: status %d, %d bytes out, reply %d bytes; want 0 and %d", cli, r.code, len(r.stdout), len(replyOf(t, r.lines())), n)
		}
	}
}

// TestFloodPieces: with flood_piece, every event carries one line of that
// many bytes; codex, which has no deltas, sends each as a message.
func TestFloodPieces(t *testing.T) {
	t.Parallel()
	const piece, n = 16, 1 << 10
	for _, cli := range []string{"claude", "gemini", "codex", "qwen"} {
		f := scripted(t, cli, clitest.AgentScript{Mode: clitest.ModeFlood, FloodBytes: n, FloodPiece: piece})
		args := headless(cli, opening)
		if cli == "claude" || cli == "qwen" {
			args = append(args, "--include-partial-messages")
		}
		r := execFake(t, f, runCfg{}, cli, args...)
		var pieces []string
		for _, l := range r.lines() {
			var e struct {
				Type    string `json:"type"`
				Role    string `json:"role"`
				Content string `json:"content"`
				Event   struct {
					Delta struct{ Text string } `json:"delta"`
				} `json:"event"`
				Item struct{ Type, Text string } `json:"item"`
			}
			if err := json.Unmarshal([]byte(l), &e); err != nil {
				t.Fatalf("%s: not JSON: %v\n%s", cli, err, l)
			}
			switch {
			case e.Type == "message" && e.Role == "assistant":
				pieces = append(pieces, e.Content)
			case e.Type == "stream_event" && e.Event.Delta.Text != "":
				pieces = append(pieces, e.Event.Delta.Text)
			case e.Type == "item.completed" && e.Item.Type == "agent_message":
				pieces = append(pieces, e.Item.Text)
			}
		}
		if r.code != 0 || len(pieces) != n/piece {
			t.Fatalf("%s: status %d, %d pieces; want 0 and %d", cli, r.code, len(pieces), n/piece)
		}
		for _, p := range pieces {
			if len(p) != piece || strings.Count(p, "\n") != 1 || !strings.HasSuffix(p, "\n") {
				t.Fatalf("%s: piece %q is not one %d-byte line", cli, p, piece)
			}
		}
	}
}

func TestTimingModes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		as   clitest.AgentScript
		min  time.Duration
	}{
		// "OK" is two chunks at most: two pauses.
		{"slow", clitest.AgentScript{Mode: clitest.ModeSlow, DelayMS: 100, Chunks: 3}, 200 * time.Millisecond},
		// "OK" after the init events: 2 bytes + the result line, 1 ms each.
		{"trickle", clitest.AgentScript{Mode: clitest.ModeTrickle, DelayMS: 1}, 50 * time.Millisecond},
	} {
		f := scripted(t, "codex", tc.as)
		began := time.Now()
		r := execFake(t, f, runCfg{}, "codex", headless("codex", "Say hello")...)
		if took := time.Since(began); r.code != 0 || took < tc.min || replyOf(t, r.lines()) != "OK" {
			t.Errorf("%s: status %d in %s, output %q; want 0, at least %s", tc.name, r.code, took, r.stdout, tc.min)
		}
	}
}

func TestExitAndStderr(t *testing.T) {
	t.Parallel()
	f := scripted(t, "qwen", clitest.AgentScript{Mode: clitest.ModeExit, ExitCode: 7})
	if r := execFake(t, f, runCfg{}, "qwen", headless("qwen", opening)...); r.code != 7 || r.stdout != "" || r.stderr == "" {
		t.Errorf("exit: status %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	f.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"qwen": {ExitCode: 3,
		Steps: map[string][]clitest.Step{"opening": {{Stderr: "custom warning\n"}}}}}})
	r := execFake(t, f, runCfg{}, "qwen", headless("qwen", opening)...)
	if r.code != 3 || !strings.Contains(r.stdout, `"subtype":"success"`) || !strings.HasSuffix(r.stderr, "custom warning\n") {
		t.Errorf("ok with exit_code: status %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	f.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"qwen": {Mode: clitest.ModeStderrNoise}}})
	r = execFake(t, f, runCfg{}, "qwen", headless("qwen", opening)...)
	if r.code != 0 || len(r.stderr) < 128<<10 || replyOf(t, r.lines()) == "" {
		t.Errorf("stderr-noise: status %d, %d bytes of stderr", r.code, len(r.stderr))
	}
}

// tokens_per_sec streams the reply at the rate: never faster (a reply of
// N tokens takes at least (N/rate) less one piece), in pieces of one
// token at 100 a second; with stamp, every tenth piece of the prose
// starts with the time it was written, in order, and the reply the CLI
// reports is the text as streamed.
func TestRateMode(t *testing.T) {
	t.Parallel()
	prose := strings.Repeat("word ", 40) // 200 bytes: 50 tokens
	f := scripted(t, "gemini", clitest.AgentScript{TokensPerSec: 100, Stamp: true,
		Steps: map[string][]clitest.Step{"opening": {{Prose: prose}}}})
	began := time.Now()
	r := execFake(t, f, runCfg{}, "gemini", headless("gemini", opening)...)
	took := time.Since(began)
	if r.code != 0 {
		t.Fatalf("status %d: %s", r.code, r.stderr)
	}
	reply := replyOf(t, r.lines())
	if min := 490 * time.Millisecond; took < min { // 50 tokens of prose alone
		t.Errorf("streamed in %s, want at least %s", took, min)
	}
	var deltas []string
	for _, l := range r.lines() {
		var ev struct{ Type, Role, Content string }
		if json.Unmarshal([]byte(l), &ev) == nil && ev.Type == "message" && ev.Role == "assistant" {
			deltas = append(deltas, ev.Content)
		}
	}
	stamps := regexp.MustCompile(`«(\d+)»`).FindAllStringSubmatch(reply, -1)
	if len(stamps) < 5 || len(stamps) > 6 {
		t.Fatalf("%d stamps in %q, want one every ten of the prose's 50 pieces", len(stamps), reply)
	}
	var last int64
	for _, m := range stamps {
		ns, _ := strconv.ParseInt(m[1], 10, 64)
		if ns <= last || ns < began.UnixNano() {
			t.Fatalf("stamps out of order: %v", stamps)
		}
		last = ns
	}
	if strings.Join(deltas, "") != reply || !strings.Contains(regexp.MustCompile(`«\d+»`).ReplaceAllString(reply, ""), prose) {
		t.Fatalf("deltas %q do not make the reply %q", deltas, reply)
	}
	if first := regexp.MustCompile(`«\d+»`).ReplaceAllString(deltas[0], ""); first != "word" {
		t.Fatalf("first piece %q, want one token", deltas[0])
	}
}

// A stamp never goes between a backslash and what it escapes, where it
// would break a JSON string the prose holds: it goes on the next piece.
func TestRateModeStampsSplitNoEscape(t *testing.T) {
	t.Parallel()
	prose := strings.Repeat(strings.Repeat("w", 39)+`\`, 5) // every stamp falls right after a backslash
	f := scripted(t, "gemini", clitest.AgentScript{TokensPerSec: 100, Stamp: true,
		Steps: map[string][]clitest.Step{"opening": {{Prose: prose}}}})
	r := execFake(t, f, runCfg{}, "gemini", headless("gemini", opening)...)
	if r.code != 0 {
		t.Fatalf("status %d: %s", r.code, r.stderr)
	}
	reply := replyOf(t, r.lines())
	if n := strings.Count(reply, "«"); n != 5 || strings.Contains(reply, `\«`) {
		t.Fatalf("%d stamps, or one after a backslash, in %q", n, reply)
	}
}

// hold streams all but the last piece, then waits for the test to release
// it: the run stays mid-stream for as long as the test looks at it.
func TestHoldWaitsForRelease(t *testing.T) {
	t.Parallel()
	f := scripted(t, "gemini", clitest.AgentScript{Hold: "go", DelayMS: -1, Steps: map[string][]clitest.Step{
		"opening": {{Reply: "one1two2thr3fou4", Chunks: 4}}}})
	cmd := exec.Command(f.Path("gemini"), headless("gemini", opening)...)
	cmd.Env, cmd.Dir = f.Env(), t.TempDir()
	p := start(t, cmd)
	waitFor(t, 20*time.Second, "the first three pieces", func() bool { return strings.Contains(p.stdout(t), "thr3") })
	if p.exited() || strings.Contains(p.stdout(t), "fou4") {
		t.Fatalf("the held fake went on (exited %v):\n%s", p.exited(), p.stdout(t))
	}
	f.Release("go")
	if err := p.wait(t, 20*time.Second); err != nil {
		t.Fatalf("after the release: %v\n%s", err, p.stdout(t))
	}
	if got := replyOf(t, strings.Split(strings.TrimSpace(p.stdout(t)), "\n")); got != "one1two2thr3fou4" {
		t.Fatalf("reply %q", got)
	}
}

// Run by a person (no ARENA_FAKE_SCRIPT), a fake streams at a model's
// pace, some 50 tokens a second, in a piece a token; a test's fakes (the
// script set, as clitest does) answer in three pieces at once (issue 32,
// point 11).
func TestAPersonSeesTheFakesStream(t *testing.T) {
	t.Parallel()
	f := clitest.New(t)
	began := time.Now()
	r := execFake(t, f, runCfg{env: []string{"ARENA_FAKE_SCRIPT="}}, "gemini", headless("gemini", opening)...)
	took := time.Since(began)
	deltas := func(r result) int {
		n := 0
		for _, l := range r.lines() {
			var ev struct{ Type, Role string }
			if json.Unmarshal([]byte(l), &ev) == nil && ev.Type == "message" && ev.Role == "assistant" {
				n++
			}
		}
		return n
	}
	reply := replyOf(t, r.lines())
	pieces := deltas(r)
	if want := len(reply)/4 - 1; r.code != 0 || pieces < want {
		t.Fatalf("status %d: %d pieces for %d bytes, want a piece a token (%d)", r.code, pieces, len(reply), want)
	}
	if min := time.Duration(pieces-1) * time.Second / 50; took < min {
		t.Errorf("%d pieces in %s, faster than 50 a second (%s)", pieces, took, min)
	}
	if n := deltas(execFake(t, f, runCfg{}, "gemini", headless("gemini", opening)...)); n != defaultChunks {
		t.Errorf("with the tests' script: %d pieces, want %d", n, defaultChunks)
	}
}

package main

import (
	"bytes"
	"errors"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
)

// Tests of issue 19 item 5: a panic anywhere becomes an aborted outcome.
// They run a test build of arena (testpanic.go) that panics where
// ARENA_TEST_PANIC says.

func panicBinary(t *testing.T) string {
	t.Helper()
	return clitest.Build(t, "./cmd/arena", clitest.WithRace("-tags", "arenapanic")...)
}

func (s *sandbox) runPanicking(at string, args ...string) result {
	s.t.Helper()
	cmd := exec.Command(panicBinary(s.t), args...)
	cmd.Dir, cmd.Env = s.dir, s.env("ARENA_TEST_PANIC="+at)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		s.t.Fatalf("arena still ran after 2 minutes\n%s\n%s", tail(out.String(), 2000), errb.String())
	}
	r := result{stdout: out.String(), stderr: errb.String()}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.code = ee.ExitCode()
	}
	return r
}

func TestAPanicAnywhereIsAnAbortedOutcome(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		at, where string
		args      func(t *testing.T, s *sandbox) []string
	}{
		{"protocol", "the adversarial protocol panicked", nil},
		{"ask", "asking gemini panicked", nil},
		{"chunk", "asking gemini panicked", nil},
		{"sink", "the event consumer engine.SinkFunc panicked", nil},
		{"tests", "'s tests panicked", func(t *testing.T, s *sandbox) []string {
			spec, repos := rankSetup(t, s, "alpha", "beta")
			return []string{"rank", "--no-tui", "--run-tests", spec, repos[0], repos[1]}
		}},
	} {
		t.Run(c.at, func(t *testing.T) {
			t.Parallel()
			s := newFaultSandbox(t)
			args := []string{"--no-tui", "a topic"}
			if c.args != nil {
				args = c.args(t, s)
			}
			r := s.runPanicking(c.at, args...)
			if r.code != exitError {
				t.Fatalf("exit %d, want %d\n%s\n%s", r.code, exitError, tail(r.stdout, 2000), r.stderr)
			}
			if !strings.Contains(r.stderr, "internal error") {
				t.Errorf("stderr does not say internal error:\n%s", r.stderr)
			}
			o := outcomeOf(t, s.onlyLog())
			if o.Result != engine.OutcomeAborted || !strings.Contains(o.InternalError, c.where) || !strings.Contains(o.InternalError, "index out of range") {
				t.Fatalf("outcome %s %q (internal error %q), want aborted naming %q", o.Result, o.Summary, o.InternalError, c.where)
			}
			t.Logf("summary: %s\nstderr: %s", o.Summary, tail(r.stderr, 600))
			if !strings.Contains(o.Markdown, "goroutine") {
				t.Errorf("the outcome document has no stack:\n%s", o.Markdown)
			}
			assertNothingLeft(t, s, 10*time.Second)
		})
	}
}

// TestAPanicOnTheLiveScreenRestoresTheTerminal runs the panicking build
// on a pseudo-terminal: the live screen leaves the alternate screen by
// itself, arena exits 1 and says what failed in the scrollback.
func TestAPanicOnTheLiveScreenRestoresTheTerminal(t *testing.T) {
	t.Parallel()
	for _, at := range []string{"ask", "sink"} {
		t.Run(at, func(t *testing.T) {
			t.Parallel()
			s := newFaultSandbox(t)
			cmd := exec.Command(panicBinary(t), "a topic")
			cmd.Dir, cmd.Env = s.dir, s.env("ARENA_TEST_PANIC="+at, "TERM=xterm-256color")
			tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
			if err != nil {
				t.Fatal(err)
			}
			defer tty.Close()
			var out bytes.Buffer
			read := make(chan struct{})
			// A terminal answers the screen's queries (the cursor
			// position, after the background colour): without an answer
			// each waits 5 s.
			go func() { io.Copy(&terminal{out: &out, tty: tty}, tty); close(read) }() // ends with EIO once arena is gone
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err = <-done:
			case <-time.After(2 * time.Minute):
				cmd.Process.Signal(syscall.SIGKILL)
				<-done
				t.Fatalf("the screen did not end by itself\n%q", tail(out.String(), 2000))
			}
			select {
			case <-read:
			case <-time.After(10 * time.Second):
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != exitError {
				t.Fatalf("exit %v, want %d\n%q", err, exitError, tail(out.String(), 2000))
			}
			text := out.String()
			enter, leave := strings.LastIndex(text, "\x1b[?1049h"), strings.LastIndex(text, "\x1b[?1049l")
			if enter < 0 || leave < enter {
				t.Fatalf("the alternate screen was not left (entered at %d, left at %d)\n%q", enter, leave, tail(text, 2000))
			}
			if after := text[leave:]; !strings.Contains(after, "internal error") {
				t.Errorf("the scrollback does not say what failed:\n%q", tail(after, 2000))
			}
			if o := outcomeOf(t, s.onlyLog()); o.Result != engine.OutcomeAborted || o.InternalError == "" {
				t.Fatalf("outcome %s %q", o.Result, o.Summary)
			}
			assertNothingLeft(t, s, 10*time.Second)
		})
	}
}

// terminal keeps what arena writes to its pseudo-terminal and answers a
// cursor position query (ESC [ 6 n) as a terminal does.
type terminal struct {
	out  *bytes.Buffer
	tty  io.Writer
	seen int // bytes of out already searched
}

func (t *terminal) Write(p []byte) (int, error) {
	t.out.Write(p)
	b := t.out.Bytes()
	for {
		i := bytes.Index(b[t.seen:], []byte("\x1b[6n"))
		if i < 0 {
			break
		}
		t.seen += i + 4
		t.tty.Write([]byte("\x1b[1;1R"))
	}
	t.seen = max(t.seen, len(b)-3) // a query cut by the end of a read is found next time
	return len(p), nil
}

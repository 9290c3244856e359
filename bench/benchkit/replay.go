package benchkit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/term"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/challengers/fakecli/fakeapi"
)

// RunPTY runs cmd with its stdout on a fresh pseudo-terminal, set up as
// arena's runner sets up the built-in agents' (200 columns, no output
// processing, the child in a session of its own with the terminal as its
// controlling tty), and reads the master side to the end in 32 KiB reads,
// as the runner does, throwing the bytes away. The terminal is opened
// before the clock starts; the wall time runs from just before the start
// to the end of both the output and the process. Stdin and stderr are
// left as the caller set them (nil: /dev/null).
func RunPTY(cmd *exec.Cmd) (wall time.Duration, n int64, err error) {
	master, slave, err := pty.Open()
	if err != nil {
		return 0, 0, err
	}
	defer master.Close()
	_ = pty.Setsize(master, &pty.Winsize{Rows: 50, Cols: 200})
	if _, err := term.MakeRaw(int(slave.Fd())); err != nil {
		slave.Close()
		return 0, 0, err
	}
	cmd.Stdout = slave
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 1}
	}
	start := time.Now()
	err = cmd.Start()
	slave.Close()
	if err != nil {
		return 0, 0, err
	}
	buf := make([]byte, 32<<10)
	for {
		k, rerr := master.Read(buf)
		n += int64(k)
		if rerr != nil {
			break // EIO once the last writer has closed the slave side
		}
	}
	err = cmd.Wait()
	return time.Since(start), n, err
}

// Replayer runs invocations recorded in a fake's call log again, one at a
// time, exactly as arena ran them: the same program name and arguments,
// the same prompt (on stdin when it was not in the arguments), the same
// environment and script, a pseudo-terminal as stdout, and a call counter
// state of its own, so that replaying a debate's calls in their logged
// order gives every call the same script step it had.
type Replayer struct {
	tb    testing.TB
	fakes *clitest.Fakes
	base  []string
	dir   string
	State string // call counters of the replayed calls
	Log   string // call log of the replayed calls
}

// NewReplayer replays calls of fakes with base as the environment arena
// was given (the agents' own variables come from the call log).
func NewReplayer(tb testing.TB, fakes *clitest.Fakes, base []string) *Replayer {
	tb.Helper()
	r := &Replayer{tb: tb, fakes: fakes, base: base, dir: tb.TempDir()}
	r.Reset()
	return r
}

// Reset starts the call counters and the call log afresh.
func (r *Replayer) Reset() {
	r.State, r.Log = r.tb.TempDir(), r.tb.TempDir()
}

// Command is the command for one recorded call.
func (r *Replayer) Command(c clitest.Call) (*exec.Cmd, error) {
	cmd := exec.Command(r.fakes.Path(filepath.Base(c.Argv0)), c.Argv...)
	cmd.Args[0] = c.Argv0
	cmd.Dir = r.dir
	env := slices.Clone(r.base)
	// What arena's runner adds to every agent's environment.
	env = append(env, "NO_COLOR=1", "FORCE_COLOR=0")
	for k, v := range c.Env {
		env = append(env, k+"="+v)
	}
	cmd.Env = append(env, fakeapi.EnvState+"="+r.State, fakeapi.EnvLog+"="+r.Log)
	if c.PromptLen > 0 && !slices.Contains(c.Argv, c.Prompt) {
		if len(c.Prompt) != c.PromptLen {
			return nil, fmt.Errorf("the call log holds only the hash of %s's %d-byte stdin prompt", c.Agent, c.PromptLen)
		}
		cmd.Stdin = strings.NewReader(c.Prompt)
	}
	return cmd, nil
}

// Time replays one call and returns its wall time.
func (r *Replayer) Time(c clitest.Call) (time.Duration, error) {
	cmd, err := r.Command(c)
	if err != nil {
		return 0, err
	}
	wall, _, err := RunPTY(cmd)
	if err != nil {
		return wall, fmt.Errorf("replaying %s %s: %w", c.Agent, c.Kind, err)
	}
	return wall, nil
}

// Calls are the calls replayed since the last Reset.
func (r *Replayer) Calls() ([]clitest.Call, error) {
	return ReadCalls(filepath.Join(r.Log, fakeapi.CallLogFile))
}

// ReadCalls reads a fake call log.
func ReadCalls(path string) ([]clitest.Call, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var calls []clitest.Call
	for line := range bytes.Lines(b) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var c clitest.Call
		if err := json.Unmarshal(line, &c); err != nil {
			return nil, err
		}
		calls = append(calls, c)
	}
	return calls, nil
}

// Shell writes a bash script that starts the given calls at once, each in
// the background with `&`, and then waits for all of them: the least any
// orchestrator could spend on running them in parallel. Each command gets
// the variables in which its environment differs from the script's own
// (base), as assignments in front of it; its output goes to /dev/null.
// It returns the script's path; run it with `bash PATH` and env base.
func (r *Replayer) Shell(calls []clitest.Call) (path string, env []string, err error) {
	env = slices.Clone(r.base)
	env = append(env, fakeapi.EnvState+"="+r.State, fakeapi.EnvLog+"="+r.Log)
	var b strings.Builder
	b.WriteString("#!/usr/bin/env bash\n# the same fake calls as arena made, in parallel\n")
	for _, c := range calls {
		cmd, err := r.Command(c)
		if err != nil {
			return "", nil, err
		}
		if cmd.Stdin != nil {
			return "", nil, errors.New("a call with its prompt on stdin cannot go in the shell script")
		}
		for _, kv := range envDiff(env, cmd.Env) {
			k, v, _ := strings.Cut(kv, "=")
			b.WriteString(k + "=" + shellQuote(v) + " ")
		}
		b.WriteString(shellQuote(cmd.Path))
		for _, a := range cmd.Args[1:] {
			b.WriteString(" " + shellQuote(a))
		}
		b.WriteString(" </dev/null >/dev/null 2>&1 &\n")
	}
	b.WriteString("wait\n")
	path = filepath.Join(r.tb.TempDir(), "parallel.sh")
	return path, env, os.WriteFile(path, []byte(b.String()), 0o755)
}

// envDiff lists the entries of env (last value of a key wins) whose value
// differs from base's.
func envDiff(base, env []string) []string {
	last := func(list []string) map[string]string {
		m := map[string]string{}
		for _, kv := range list {
			k, v, _ := strings.Cut(kv, "=")
			m[k] = v
		}
		return m
	}
	b, e := last(base), last(env)
	var out []string
	for k, v := range e {
		if old, ok := b[k]; !ok || old != v {
			out = append(out, k+"="+v)
		}
	}
	slices.Sort(out)
	return out
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
	"golang.org/x/sys/unix"
)

// opening is a prompt of kind opening, shaped like arena's.
const opening = "Question: which database should we use?\n\nREQUIRED RESPONSE FORMAT\n" +
	`{"position": "...", "reasoning": ["..."], "confidence": "low|medium|high"}` + "\n\nREPLY SHAPE: opening\n"

// critiquePrompt asks for a critique.
const critiquePrompt = "Critique this position.\n\nREQUIRED RESPONSE FORMAT\n" +
	`{"verdict": "agree|partial|disagree", "critique": "..."}` + "\n\nREPLY SHAPE: critique\n"

// rebuttalPrompt asks for a rebuttal.
const rebuttalPrompt = "Answer the reply.\n\nREQUIRED RESPONSE FORMAT\n" +
	`{"choice": "accept|maintain", "explanation": "..."}` + "\n\nREPLY SHAPE: rebuttal\n"

// headless is the argument list that makes each CLI answer prompt in its
// streaming JSON format, as arena invokes them.
func headless(name, prompt string) []string {
	switch name {
	case "claude":
		return []string{"-p", prompt, "--output-format", "stream-json", "--verbose"}
	case "gemini":
		return []string{"-p", prompt, "-o", "stream-json", "--skip-trust"}
	case "codex":
		return []string{"exec", "--json", "--skip-git-repo-check", prompt}
	case "qwen":
		return []string{prompt, "-o", "stream-json"}
	}
	return []string{"-p", prompt}
}

type runCfg struct {
	stdin io.Reader // nil: /dev/null, as in the samples
	env   []string  // extra KEY=value entries
	dir   string    // working directory; "" is a fresh temporary one
}

type result struct {
	stdout, stderr string
	code           int
}

// lines splits stdout into its lines, dropping the final newline.
func (r result) lines() []string {
	return strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
}

// execFake runs the named fake to completion (20 s at most).
func execFake(t *testing.T, f *clitest.Fakes, cfg runCfg, name string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, f.Path(name), args...)
	cmd.Env = f.Env(cfg.env...)
	cmd.Dir = cfg.dir
	if cmd.Dir == "" {
		cmd.Dir = t.TempDir()
	}
	cmd.Stdin = cfg.stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("running %s: %v", name, err)
	}
	if ctx.Err() != nil {
		t.Fatalf("%s %q did not finish in time; stdout so far:\n%s", name, args, stdout.String())
	}
	return result{stdout: stdout.String(), stderr: stderr.String(), code: cmd.ProcessState.ExitCode()}
}

// scripted returns fakes whose agent follows as.
func scripted(t *testing.T, agent string, as clitest.AgentScript) *clitest.Fakes {
	f := clitest.New(t)
	f.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{agent: as}})
	return f
}

// event is the part of a stream line that identifies it.
type event struct {
	Type    string `json:"type"`
	Subtype string `json:"subtype"`
	Role    string `json:"role"`
	Event   struct {
		Type string `json:"type"`
	} `json:"event"`
	Item struct {
		Type string `json:"type"`
	} `json:"item"`
}

// signature names a stream line by its type and, where one type covers
// several events, what tells them apart.
func signature(line string) (string, error) {
	var e event
	if err := json.Unmarshal([]byte(line), &e); err != nil {
		return "", err
	}
	return strings.TrimRight(fmt.Sprintf("%s/%s/%s/%s/%s", e.Type, e.Subtype, e.Event.Type, e.Item.Type, e.Role), "/"), nil
}

// topKeys lists a JSON object's keys in the order they appear.
func topKeys(line string) ([]string, error) {
	dec := json.NewDecoder(strings.NewReader(line))
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// proc is a fake started in the background, in its own process group,
// with its output going to files, so that a left-behind grandchild holding
// them open does not keep Wait from returning.
type proc struct {
	cmd     *exec.Cmd
	outPath string
	done    chan struct{}
	err     error
}

// start starts cmd; the test's cleanup kills its whole process group.
func start(t *testing.T, cmd *exec.Cmd) *proc {
	t.Helper()
	dir := t.TempDir()
	p := &proc{cmd: cmd, outPath: filepath.Join(dir, "stdout"), done: make(chan struct{})}
	stdout, err := os.Create(p.outPath)
	if err != nil {
		t.Fatal(err)
	}
	defer stdout.Close()
	stderr, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer stderr.Close()
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-p.done
	})
	return p
}

func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// wait waits for the process to exit, failing the test after d.
func (p *proc) wait(t *testing.T, d time.Duration) error {
	t.Helper()
	select {
	case <-p.done:
		return p.err
	case <-time.After(d):
		t.Fatalf("%s still running after %s", p.cmd.Path, d)
		return nil
	}
}

// stdout is what the process has written so far.
func (p *proc) stdout(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(p.outPath)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// waitFor polls until cond holds, failing the test after d.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(d); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// assertHangs starts cmd, one of f's fakes, waits until it says it hangs
// for good (fakeapi.HangingFile: all it meant to print is printed), and
// checks that it is still running.
func assertHangs(t *testing.T, f *clitest.Fakes, cmd *exec.Cmd) *proc {
	t.Helper()
	p := start(t, cmd)
	waitHanging(t, f, p)
	return p
}

// waitHanging waits until p says it hangs for good, and checks that it is
// still running.
func waitHanging(t *testing.T, f *clitest.Fakes, p *proc) {
	t.Helper()
	waitFor(t, 10*time.Second, "the fake to hang", func() bool { return f.Hanging(p.cmd.Process.Pid) || p.exited() })
	if p.exited() {
		t.Fatalf("%s exited (%v); it should hang; stdout %q", p.cmd.Path, p.err, p.stdout(t))
	}
}

// unread is how many bytes written to the pipe w are still waiting to be
// read (FIONREAD, which Linux also calls TIOCINQ; these tests read /proc
// already, so they are Linux's).
func unread(t *testing.T, w *os.File) int {
	t.Helper()
	conn, err := w.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var n int
	cerr := conn.Control(func(fd uintptr) { n, err = unix.IoctlGetInt(int(fd), unix.TIOCINQ) })
	if err = errors.Join(cerr, err); err != nil {
		t.Fatalf("FIONREAD: %v", err)
	}
	return n
}

// assertSurvives checks that process pid ignores sigs (the SigIgn mask of
// /proc/PID/status), sends them, waits until none is pending any more
// (the kernel drops a signal sent to a process that ignores it; one sent
// while a thread blocks it waits in ShdPnd until a thread takes it), and
// checks that the process is still alive. The mask is what decides:
// once it holds the signals, they cannot end the process.
func assertSurvives(t *testing.T, pid int, sigs ...syscall.Signal) {
	t.Helper()
	var mask uint64
	for _, s := range sigs {
		mask |= 1 << (s - 1)
	}
	if ign := statusMask(t, pid, "SigIgn"); ign&mask != mask {
		t.Fatalf("process %d ignores signals %#x, not all of %v", pid, ign, sigs)
	}
	for _, s := range sigs {
		if err := syscall.Kill(pid, s); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, 10*time.Second, "the signals to be taken", func() bool { return statusMask(t, pid, "ShdPnd")&mask == 0 })
	if state := statusField(t, pid, "State"); strings.HasPrefix(state, "Z") || strings.HasPrefix(state, "X") {
		t.Fatalf("process %d died of %v: state %s", pid, sigs, state)
	}
}

// statusField is a field of /proc/PID/status; the test fails if the
// process is gone.
func statusField(t *testing.T, pid int, name string) string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatalf("process %d is gone: %v", pid, err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && k == name {
			return strings.TrimSpace(v)
		}
	}
	t.Fatalf("/proc/%d/status has no %s", pid, name)
	return ""
}

// statusMask is a signal mask of /proc/PID/status (SigIgn, ShdPnd, ...).
func statusMask(t *testing.T, pid int, name string) uint64 {
	t.Helper()
	m, err := strconv.ParseUint(statusField(t, pid, name), 16, 64)
	if err != nil {
		t.Fatalf("/proc/%d/status %s: %v", pid, name, err)
	}
	return m
}

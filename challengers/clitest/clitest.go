// Package clitest puts fake model CLIs on a test's PATH. The fakes are the
// real executable built from challengers/fakecli, linked under the real
// CLIs' names, so the code under test starts them exactly as it starts
// claude, gemini, codex and qwen in production: same flags, same output
// formats, same exit statuses. A Script says what they answer and how they
// misbehave; Calls reads back what each invocation saw.
//
//	f := clitest.New(t)
//	f.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
//		"gemini": {Steps: map[string][]clitest.Step{
//			"critique": {{Mode: clitest.ModeHang}},
//		}},
//	}})
//	cmd.Env = f.Env()
//	...
//	calls := f.CallsTo("gemini")
package clitest

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/arenadebate/arena/challengers/fakecli/fakeapi"
)

// The script and call-log schema, so tests need only this package.
type (
	Script      = fakeapi.Script
	AgentScript = fakeapi.AgentScript
	Step        = fakeapi.Step
	Mode        = fakeapi.Mode
	Kind        = fakeapi.Kind
	Call        = fakeapi.Call
	Bias        = fakeapi.Bias
	APIRequest  = fakeapi.APIRequest
)

// Modes; see fakeapi for what each does.
const (
	ModeOK            = fakeapi.ModeOK
	ModeSlow          = fakeapi.ModeSlow
	ModeHang          = fakeapi.ModeHang
	ModeHangSilent    = fakeapi.ModeHangSilent
	ModeCrash         = fakeapi.ModeCrash
	ModeGarbage       = fakeapi.ModeGarbage
	ModeBinary        = fakeapi.ModeBinary
	ModeFlood         = fakeapi.ModeFlood
	ModeTrickle       = fakeapi.ModeTrickle
	ModeIgnoreTerm    = fakeapi.ModeIgnoreTerm
	ModeGrandchild    = fakeapi.ModeGrandchild
	ModeErrorInStream = fakeapi.ModeErrorInStream
	ModeAuthError     = fakeapi.ModeAuthError
	ModeExit          = fakeapi.ModeExit
	ModeStderrNoise   = fakeapi.ModeStderrNoise
	ModeRateLimit     = fakeapi.ModeRateLimit
	ModeHTTPError     = fakeapi.ModeHTTPError
	ModeRedirect      = fakeapi.ModeRedirect
	// ModeFail is for AgentScript.VersionMode only.
	ModeFail = fakeapi.ModeFail
)

// Ways to leave a helper behind (AgentScript.Leave); see fakeapi.
const (
	LeaveSetsid     = fakeapi.LeaveSetsid
	LeaveDoubleFork = fakeapi.LeaveDoubleFork
	LeaveNewGroup   = fakeapi.LeaveNewGroup
)

// Request kinds, the keys of AgentScript.Steps (append RepairSuffix for
// repair calls).
const (
	KindOpening   = fakeapi.KindOpening
	KindCritique  = fakeapi.KindCritique
	KindAnswer    = fakeapi.KindAnswer
	KindRebuttal  = fakeapi.KindRebuttal
	KindFinal     = fakeapi.KindFinal
	KindSynthesis = fakeapi.KindSynthesis
	KindOther     = fakeapi.KindOther
	KindVersion   = fakeapi.KindVersion
	RepairSuffix  = fakeapi.RepairSuffix
)

// EchoKey, in the API fake's scripted text, is the key the request
// carried; see fakeapi.
const EchoKey = fakeapi.EchoKey

// DefaultNames are the CLIs Install and New link when given no names. agy
// is left out: its presence changes which program arena picks for gemini.
var DefaultNames = []string{"claude", "gemini", "codex", "qwen"}

var builds struct {
	mu   sync.Mutex
	done map[string]*builtBinary
}

type builtBinary struct {
	once sync.Once
	path string
	err  error
}

// Binary builds challengers/fakecli once per test process and returns the
// executable's path. It fails the test, with the compiler's output, if the
// build fails. Unlike Build it builds under -short too: a fake answers in
// milliseconds, so the unit tests that start one (the runner's, the
// fake's own) stay in the quick suite.
func Binary(t testing.TB) string {
	t.Helper()
	return buildOnce(t, "./challengers/fakecli", nil)
}

// Build compiles one of this module's commands (pkg as in go build, e.g.
// "./cmd/arena"), with extra go build flags such as "-race" (see
// WithRace), once per test process, and returns the executable's path.
// The end-to-end tests and the benchmarks build arena with it.
//
// Under go test -short it skips the test instead: a test that drives a
// built command end to end (arena with fake CLIs under it, in tmux, under
// an npm client) takes seconds where a unit test takes milliseconds, and
// the short suite is the one a developer runs between edits.
func Build(t testing.TB, pkg string, flags ...string) string {
	t.Helper()
	SkipShort(t)
	return buildOnce(t, pkg, flags)
}

// SkipShort skips the test under go test -short, as Build does: for the
// helpers of tests that drive a built binary, to skip before they set
// anything up (a tmux server, an npm client).
func SkipShort(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: drives the built binary")
	}
}

// WithRace returns flags with -race in front when this test binary was
// built with the race detector, so that go test -race checks the built
// command for races too, and a plain go test builds it without (a race
// build of arena runs several times slower, which is most of what the
// end-to-end tests cost).
func WithRace(flags ...string) []string {
	if Race {
		return append([]string{"-race"}, flags...)
	}
	return flags
}

func buildOnce(t testing.TB, pkg string, flags []string) string {
	t.Helper()
	key := pkg + " " + strings.Join(flags, " ")
	builds.mu.Lock()
	if builds.done == nil {
		builds.done = map[string]*builtBinary{}
	}
	b := builds.done[key]
	if b == nil {
		b = &builtBinary{}
		builds.done[key] = b
	}
	builds.mu.Unlock()
	b.once.Do(func() { b.path, b.err = build(pkg, flags) })
	if b.err != nil {
		t.Fatalf("clitest: %v", b.err)
	}
	return b.path
}

// build builds into a directory shared by every test process of this
// module checkout (go test runs packages in parallel), writing a
// temporary file and renaming it into place so that no process ever runs
// a half-written binary. Each process rebuilds (the go build cache makes
// that a fraction of a second), so the binary always matches the sources.
func build(pkg string, flags []string) (string, error) {
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(root + "\x00" + strings.Join(flags, " ")))
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("arena-build-%d", os.Getuid()), hex.EncodeToString(sum[:6]))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	name := filepath.Base(pkg)
	tmp := filepath.Join(dir, fmt.Sprintf("%s.%d.tmp", name, os.Getpid()))
	cmd := exec.Command("go", append(append([]string{"build"}, flags...), "-o", tmp, pkg)...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %w\n%s", pkg, err, out)
	}
	path := filepath.Join(dir, name)
	if err := os.Rename(tmp, path); err != nil {
		return "", err
	}
	return path, nil
}

// ModuleRoot is the directory of the go.mod that governs the current
// directory (a test runs in its package's directory).
func ModuleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("not inside a Go module")
	}
	return filepath.Dir(gomod), nil
}

// Install returns a fresh directory holding links named after the given
// CLIs (default DefaultNames) to the fake binary. Put it first on PATH.
func Install(t testing.TB, names ...string) string {
	t.Helper()
	bin := Binary(t)
	if len(names) == 0 {
		names = DefaultNames
	}
	dir := t.TempDir()
	for _, n := range names {
		if err := os.Symlink(bin, filepath.Join(dir, n)); err != nil {
			t.Fatalf("clitest: %v", err)
		}
	}
	return dir
}

// Fakes is one test's set of fake CLIs with their script, call counters
// and call log, each in the test's own temporary directories.
type Fakes struct {
	Dir    string // the fake executables
	Script string // the script file (ARENA_FAKE_SCRIPT)
	State  string // call counters and pid files (ARENA_FAKE_STATE)
	Log    string // the directory of calls.jsonl (ARENA_FAKE_LOG)
	t      testing.TB
}

// New installs the named fakes (default DefaultNames) with an empty
// script: every call gets the canned reply for its kind.
func New(t testing.TB, names ...string) *Fakes {
	t.Helper()
	f := &Fakes{Dir: Install(t, names...), State: t.TempDir(), Log: t.TempDir(), t: t}
	f.Script = filepath.Join(t.TempDir(), "script.json")
	f.SetScript(nil)
	return f
}

// SetScript replaces the script (nil: no scripted behaviour). The file is
// replaced atomically, so a fake starting at that moment reads either the
// old script or the new one. Call counters carry on.
func (f *Fakes) SetScript(s *Script) {
	f.t.Helper()
	if s == nil {
		s = &Script{}
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err == nil {
		tmp := f.Script + ".tmp"
		if err = os.WriteFile(tmp, b, 0o644); err == nil {
			err = os.Rename(tmp, f.Script)
		}
	}
	if err != nil {
		f.t.Fatalf("clitest: writing script: %v", err)
	}
}

// Path is the full path of the named fake.
func (f *Fakes) Path(name string) string {
	return filepath.Join(f.Dir, name)
}

// Env is the environment for a process that should find the fakes: this
// process's environment with the fakes' directory first on PATH and the
// ARENA_FAKE_* variables set, followed by extra ("KEY=value", overriding).
//
// Three things are removed from the inherited environment so that a
// developer's or a CI runner's own setup cannot change a test's outcome:
// any ARENA_FAKE_*/GEMINI_CLI_TRUST_WORKSPACE setting; the variables that
// change how a program sees its terminal (CI=true alone makes termenv
// call every terminal colourless, and glamour then prints **bold** as
// asterisks); and every PATH directory holding a real claude, gemini,
// codex, qwen or agy, so a test can never start a real model CLI by
// accident. A test that wants one of them passes it in extra.
func (f *Fakes) Env(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k != "PATH" && !strings.HasPrefix(k, "ARENA_FAKE_") && k != "GEMINI_CLI_TRUST_WORKSPACE" && !terminalVars[k] {
			env = append(env, kv)
		}
	}
	for k, v := range f.vars() {
		env = append(env, k+"="+v)
	}
	for _, kv := range extra {
		k, _, _ := strings.Cut(kv, "=")
		env = withoutKey(env, k)
		env = append(env, kv)
	}
	return env
}

// Setenv points this process's environment at the fakes for the rest of
// the test (t.Setenv: not allowed in parallel tests), for code under test
// that starts the CLIs with the inherited environment.
func (f *Fakes) Setenv(t testing.TB) {
	t.Helper()
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "ARENA_FAKE_") || k == "GEMINI_CLI_TRUST_WORKSPACE" {
			t.Setenv(k, "") // registers the restore
			os.Unsetenv(k)
		}
	}
	for k, v := range f.vars() {
		t.Setenv(k, v)
	}
}

func (f *Fakes) vars() map[string]string {
	return map[string]string{
		"PATH":            f.Dir + string(os.PathListSeparator) + safePath(os.Getenv("PATH")),
		fakeapi.EnvScript: f.Script,
		fakeapi.EnvState:  f.State,
		fakeapi.EnvLog:    f.Log,
	}
}

// realCLIs are the programs a test must never reach.
var realCLIs = []string{"claude", "gemini", "codex", "qwen", "agy"}

// safePath drops from a PATH value the directories that hold a real model
// CLI.
func safePath(path string) string {
	var keep []string
	for _, d := range filepath.SplitList(path) {
		if d != "" && !holdsAny(d, realCLIs) {
			keep = append(keep, d)
		}
	}
	return strings.Join(keep, string(os.PathListSeparator))
}

func holdsAny(dir string, names []string) bool {
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			return true
		}
	}
	return false
}

// terminalVars are the inherited variables that change how arena or its
// libraries see the terminal: termenv's CI check and colour overrides,
// the background hint, the terminal's own name.
var terminalVars = map[string]bool{
	"CI": true, "NO_COLOR": true, "CLICOLOR": true, "CLICOLOR_FORCE": true,
	"COLORTERM": true, "COLORFGBG": true, "TERM_PROGRAM": true,
}

func withoutKey(env []string, key string) []string {
	out := env[:0]
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k != key {
			out = append(out, kv)
		}
	}
	return out
}

// Calls returns every invocation recorded so far, in the order they were
// logged.
func (f *Fakes) Calls() []Call {
	f.t.Helper()
	b, err := os.ReadFile(filepath.Join(f.Log, fakeapi.CallLogFile))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		f.t.Fatalf("clitest: reading call log: %v", err)
	}
	// A fake appends its record with one write, but a reader can catch a
	// long one (a prompt of a few KiB) half-copied: a last line without its
	// newline is still being written, and is left for the next read.
	// (Reading it as a broken record failed tests that poll the log while
	// agents start, now and then, on a loaded machine.)
	if i := bytes.LastIndexByte(b, '\n'); i < len(b)-1 {
		b = b[:i+1]
	}
	var calls []Call
	for _, line := range bytes.Split(b, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var c Call
		if err := json.Unmarshal(line, &c); err != nil {
			f.t.Fatalf("clitest: call log line %q: %v", line, err)
		}
		calls = append(calls, c)
	}
	return calls
}

// CallsTo returns the recorded invocations of one agent.
func (f *Fakes) CallsTo(agent string) []Call {
	f.t.Helper()
	var out []Call
	for _, c := range f.Calls() {
		if c.Agent == agent {
			out = append(out, c)
		}
	}
	return out
}

// Release lets go the fakes whose script holds on name (AgentScript.Hold,
// Step.Hold): they send the last piece of their answer and end.
func (f *Fakes) Release(name string) {
	f.t.Helper()
	if err := os.WriteFile(filepath.Join(f.State, filepath.Base(name)), nil, 0o644); err != nil {
		f.t.Fatalf("clitest: releasing %s: %v", name, err)
	}
}

// Hanging reports whether the fake with this pid has started to hang for
// good (fakeapi.HangingFile), having printed all it was going to.
func (f *Fakes) Hanging(pid int) bool {
	_, err := os.Stat(filepath.Join(f.State, fakeapi.HangingFile(pid)))
	return err == nil
}

// GrandchildPID returns the pid of the process a ModeGrandchild call of
// agent left behind, if one was started.
func (f *Fakes) GrandchildPID(agent string) (int, bool) {
	b, err := os.ReadFile(filepath.Join(f.State, fakeapi.GrandchildPIDFile(agent)))
	if err != nil {
		return 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid, err == nil
}

// ServeAPI starts the API fake (fakecli serve-api): an OpenAI-compatible
// Chat Completions server on the loopback, answering from this set's
// script (the model a request names is the script's agent), counters and
// call log. It returns its base URL ("http://127.0.0.1:PORT/v1"); the
// server stops when the test ends.
func (f *Fakes) ServeAPI() string {
	f.t.Helper()
	cmd := exec.Command(Binary(f.t), "serve-api")
	cmd.Env = f.Env()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		f.t.Fatalf("clitest: %v", err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		f.t.Fatalf("clitest: %v", err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		f.t.Fatalf("clitest: starting the API fake: %v", err)
	}
	f.t.Cleanup(func() {
		stdin.Close() // the fake stops when its stdin closes
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		f.t.Fatalf("clitest: the API fake said no address: %v", err)
	}
	return strings.TrimSpace(line)
}

// DaemonPIDs returns the pids of the helpers the calls of agent left
// behind (AgentScript.Leave), each once its pid file was written.
func (f *Fakes) DaemonPIDs(agent string) []int {
	paths, _ := filepath.Glob(filepath.Join(f.State, fakeapi.DaemonPIDGlob(agent)))
	var out []int
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && perr == nil {
			out = append(out, pid)
		}
	}
	return out
}

package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
)

func TestVersions(t *testing.T) {
	t.Parallel()
	f := clitest.New(t, "claude", "gemini", "codex", "qwen", "agy")
	for _, tc := range []struct {
		cli  string
		args []string
		want string
	}{
		{"claude", []string{"--version"}, "2.1.330 (Claude Code)\n"},
		{"claude", []string{"-v"}, "2.1.330 (Claude Code)\n"},
		{"gemini", []string{"--version"}, "0.61.0\n"},
		{"gemini", []string{"-v"}, "0.61.0\n"},
		{"codex", []string{"--version"}, "codex-cli 0.169.0\n"},
		{"codex", []string{"exec", "-V"}, "codex-cli-exec 0.169.0\n"},
		{"qwen", []string{"--version"}, "0.24.4\n"},
		{"qwen", []string{"-v"}, "0.24.4\n"},
	} {
		r := execFake(t, f, runCfg{}, tc.cli, tc.args...)
		if r.code != 0 || r.stdout != tc.want {
			t.Errorf("%s %q: status %d, stdout %q; want 0, %q", tc.cli, tc.args, r.code, r.stdout, tc.want)
		}
	}
	for _, c := range f.Calls() {
		if c.Kind != clitest.KindVersion {
			t.Errorf("%s %q logged as kind %q", c.Agent, c.Argv, c.Kind)
		}
	}
}

func TestVersionModes(t *testing.T) {
	t.Parallel()
	f := scripted(t, "gemini", clitest.AgentScript{VersionMode: clitest.ModeFail})
	if r := execFake(t, f, runCfg{}, "gemini", "--version"); r.code != 1 || r.stdout != "" {
		t.Errorf("version_mode fail: status %d, stdout %q", r.code, r.stdout)
	}
	f.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"gemini": {VersionMode: clitest.ModeHang}}})
	cmd := exec.Command(f.Path("gemini"), "--version")
	cmd.Env = f.Env()
	if p := assertHangs(t, f, cmd); p.stdout(t) != "" {
		t.Errorf("version_mode hang printed %q", p.stdout(t))
	}
}

// TestRejectsWhatTheRealCLIsReject checks that a wrong invocation fails
// the way the real CLI fails, so tests catch it.
func TestRejectsWhatTheRealCLIsReject(t *testing.T) {
	t.Parallel()
	f := clitest.New(t)
	for _, tc := range []struct {
		cli    string
		args   []string
		env    []string
		code   int
		stderr string
	}{
		{"claude", []string{"--bogus", "-p", "hi"}, nil, 1, "error: unknown option '--bogus'\n"},
		{"claude", []string{"-p", "hi", "--output-format", "yaml"}, nil, 1, "error: option '--output-format <format>' argument 'yaml' is invalid. Allowed choices are text, json, stream-json.\n"},
		{"claude", []string{"-p", "hi", "--model"}, nil, 1, "error: option '--model <model>' argument missing\n"},
		{"claude", []string{"-p", "hi", "--output-format", "stream-json"}, nil, 1, "Error: When using --print, --output-format=stream-json requires --verbose\n"},
		{"claude", []string{"-p", "--output-format", "stream-json", "--verbose"}, nil, 1, "Error: Input must be provided either through stdin or as a prompt argument when using --print\n"},
		{"claude", []string{"-p", "hi", "--include-partial-messages"}, nil, 1, "Error: --include-partial-messages requires --print and --output-format=stream-json.\n"},
		{"gemini", []string{"--bogus", "-p", "hi"}, nil, 1, "Unknown argument: bogus\n"},
		{"gemini", []string{"-p"}, nil, 1, "Not enough arguments following: p\n"},
		{"gemini", []string{"-p", "hi", "-o", "yaml"}, nil, 1, "Invalid values:\n  Argument: output-format, Given: \"yaml\", Choices: \"text\", \"json\", \"stream-json\"\n"},
		{"gemini", []string{"-p", "hi"}, []string{"NO_COLOR=1"}, 55, "Gemini CLI is not running in a trusted directory. To proceed, either use `--skip-trust`"},
		{"gemini", []string{"-p", "hi"}, []string{"GEMINI_CLI_TRUST_WORKSPACE=false"}, 55, "\x1b[31mGemini CLI is not running in a trusted directory."},
		{"codex", []string{"exec", "--full-auto", "hi"}, nil, 2, "error: unexpected argument '--full-auto' found\n\n  tip: to pass '--full-auto' as a value, use '-- --full-auto'\n"},
		{"codex", []string{"exec", "-s", "bogus", "hi"}, nil, 2, "error: invalid value 'bogus' for '--sandbox <SANDBOX_MODE>'\n  [possible values: read-only, workspace-write, danger-full-access]\n"},
		{"codex", []string{"exec", "--json", "hi"}, nil, 1, "Reading additional input from stdin...\nNot inside a trusted directory and --skip-git-repo-check was not specified.\n"},
		{"codex", []string{"exec", "--skip-git-repo-check", "-c", "foo", "hi"}, nil, 1, "Error parsing -c overrides: Invalid override (missing '='): foo\n"},
		{"codex", []string{"exec", "--skip-git-repo-check", "hi", "there"}, nil, 2, "error: unexpected argument 'there' found\n"},
		{"codex", []string{"hi"}, nil, 1, "Error: stdin is not a terminal\n"},
		{"qwen", []string{"--bogus", "hi"}, nil, 1, "Unknown argument: bogus\n"},
		{"qwen", []string{"hi", "--include-partial-messages"}, nil, 1, "--include-partial-messages requires --output-format stream-json\n"},
		{"qwen", []string{"hi", "-p", "there"}, nil, 1, "Cannot use both a positional prompt and the --prompt (-p) flag together\n"},
	} {
		r := execFake(t, f, runCfg{env: tc.env}, tc.cli, tc.args...)
		if r.code != tc.code || !strings.HasPrefix(r.stderr, tc.stderr) || r.stdout != "" {
			t.Errorf("%s %q: status %d, stderr %q, stdout %q\nwant status %d, stderr starting %q",
				tc.cli, tc.args, r.code, r.stderr, r.stdout, tc.code, tc.stderr)
		}
	}
	for _, c := range f.Calls() {
		if c.Error == "" {
			t.Errorf("rejected call %s %q logged without an error", c.Agent, c.Argv)
		}
	}
}

func TestGeminiTrustOverrides(t *testing.T) {
	t.Parallel()
	f := clitest.New(t)
	for _, tc := range []struct {
		args []string
		env  []string
	}{
		{[]string{"-p", opening, "-o", "stream-json", "--skip-trust"}, nil},
		{[]string{"-p", opening, "-o", "stream-json"}, []string{"GEMINI_CLI_TRUST_WORKSPACE=true"}},
	} {
		if r := execFake(t, f, runCfg{env: tc.env}, "gemini", tc.args...); r.code != 0 {
			t.Errorf("gemini %q %q: status %d, stderr %q", tc.args, tc.env, r.code, r.stderr)
		}
	}
}

func TestCodexTrustsAGitRepository(t *testing.T) {
	t.Parallel()
	f := clitest.New(t)
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(repo, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if r := execFake(t, f, runCfg{dir: sub}, "codex", "exec", "--json", opening); r.code != 0 {
		t.Errorf("inside a git repository: status %d, stderr %q", r.code, r.stderr)
	}
	if r := execFake(t, f, runCfg{}, "codex", "exec", "--json", "-C", repo, opening); r.code != 0 {
		t.Errorf("-C a git repository: status %d, stderr %q", r.code, r.stderr)
	}
}

func TestCodexLastMessageFile(t *testing.T) {
	t.Parallel()
	f := scripted(t, "codex", clitest.AgentScript{Steps: map[string][]clitest.Step{"other": {{Reply: "final words"}}}})
	last := filepath.Join(t.TempDir(), "last.txt")
	if r := execFake(t, f, runCfg{}, "codex", "exec", "--skip-git-repo-check", "-o", last, "Say hello"); r.code != 0 || r.stdout != "final words\n" {
		t.Fatalf("codex -o: status %d, stdout %q", r.code, r.stdout)
	}
	if b, err := os.ReadFile(last); err != nil || string(b) != "final words" {
		t.Errorf("last message file %q, %v", b, err)
	}
}

// TestCodexWaitsForStdin checks that codex, like the real one, reads an
// open stdin to EOF before answering, and appends it to the prompt.
func TestCodexWaitsForStdin(t *testing.T) {
	t.Parallel()
	f := clitest.New(t)
	cmd := exec.Command(f.Path("codex"), headless("codex", "Say hello")...)
	cmd.Env, cmd.Dir = f.Env(), t.TempDir()
	r, stdin, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	cmd.Stdin = r
	p := start(t, cmd)
	r.Close()
	// The second piece goes in once codex has taken the first from the
	// pipe: a codex that answered on what it had, without waiting for the
	// end of its input, would leave it out of the prompt.
	for _, piece := range []string{"more ", "context"} {
		if _, err := io.WriteString(stdin, piece); err != nil {
			t.Fatal(err)
		}
		waitFor(t, 10*time.Second, "codex to read "+piece, func() bool { return p.exited() || unread(t, stdin) == 0 })
	}
	if p.exited() || p.stdout(t) != "" {
		t.Fatalf("codex answered before stdin was closed: %q", p.stdout(t))
	}
	stdin.Close()
	if err := p.wait(t, 10*time.Second); err != nil {
		t.Fatalf("codex: %v", err)
	}
	if !strings.Contains(p.stdout(t), `"agent_message"`) {
		t.Errorf("no answer after stdin closed: %q", p.stdout(t))
	}
	want := "Say hello\n\n<stdin>\nmore context\n</stdin>"
	if c := f.Calls(); len(c) != 1 || c[0].Prompt != want {
		t.Errorf("logged calls %+v, want one with prompt %q", c, want)
	}
}

// TestStdinPrompts checks how each CLI combines piped input with the
// prompt argument.
func TestStdinPrompts(t *testing.T) {
	t.Parallel()
	f := clitest.New(t)
	for _, tc := range []struct {
		cli  string
		args []string
		want string
	}{
		{"claude", []string{"-p", "--output-format", "stream-json", "--verbose"}, "piped"},
		{"claude", []string{"-p", "arg", "--output-format", "stream-json", "--verbose"}, "arg\npiped"},
		{"gemini", []string{"-o", "stream-json", "--skip-trust"}, "piped"},
		{"gemini", []string{"-p", "arg", "-o", "stream-json", "--skip-trust"}, "piped\n\narg"},
		{"codex", []string{"exec", "--json", "--skip-git-repo-check", "-"}, "piped"},
		{"codex", []string{"exec", "--json", "--skip-git-repo-check"}, "piped"},
		{"qwen", []string{"-o", "stream-json"}, "piped"},
		{"qwen", []string{"arg", "-o", "stream-json"}, "piped\n\narg"},
	} {
		r := execFake(t, f, runCfg{stdin: strings.NewReader("piped")}, tc.cli, tc.args...)
		calls := f.Calls()
		if got := calls[len(calls)-1].Prompt; r.code != 0 || got != tc.want {
			t.Errorf("%s %q: status %d, prompt %q, want %q (stderr %q)", tc.cli, tc.args, r.code, got, tc.want, r.stderr)
		}
	}
}

func TestAgyPrintsNothingWithoutATerminal(t *testing.T) {
	t.Parallel()
	f := clitest.New(t, "agy")
	r := execFake(t, f, runCfg{}, "agy", "-p", opening)
	if r.code != 0 || r.stdout != "" {
		t.Errorf("agy into a pipe: status %d, stdout %q; want 0 and nothing", r.code, r.stdout)
	}
	if c := f.Calls(); len(c) != 1 || c[0].Kind != clitest.KindOpening || c[0].StdoutIsTTY {
		t.Errorf("calls %+v", c)
	}
}

func TestInstallCommand(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "bin")
	cmd := exec.Command(clitest.Binary(t), "install", dir, "claude", "agy")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "fakecli: claude, agy in "+dir+" now run the fakes") {
		t.Fatalf("install: %v\n%s", err, out)
	}
	for _, n := range []string{"claude", "agy"} {
		out, err := exec.Command(filepath.Join(dir, n), "--version").Output()
		if err != nil || len(out) == 0 {
			t.Errorf("%s --version: %v %q", n, err, out)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "gemini")); err == nil {
		t.Error("gemini installed though not asked for")
	}
	if err := exec.Command(clitest.Binary(t), "install", dir, "bogus").Run(); err == nil {
		t.Error("installing an unknown CLI succeeded")
	}
}

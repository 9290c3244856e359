package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
)

// nasty is a prompt a shell would mangle.
const nasty = "Is $(rm -rf ~) safe? `whoami` 'single' \"double\" \\ back\nslash\n\ttab; echo $HOME && exit 1 | cat > /dev/null * ?"

func TestCallLogRecordsArgvAndPromptExactly(t *testing.T) {
	t.Parallel()
	f := clitest.New(t)
	dir, err := filepath.EvalSymlinks(t.TempDir()) // what getcwd reports
	if err != nil {
		t.Fatal(err)
	}
	for _, cli := range allCLIs {
		args := headless(cli, nasty)
		if r := execFake(t, f, runCfg{dir: dir, env: []string{"TERM=xterm-256color"}}, cli, args...); r.code != 0 {
			t.Fatalf("%s: status %d, stderr %q", cli, r.code, r.stderr)
		}
		calls := f.CallsTo(cli)
		if len(calls) != 1 {
			t.Fatalf("%s: %d calls logged, want 1", cli, len(calls))
		}
		c := calls[0]
		if !slices.Equal(c.Argv, args) || c.Prompt != nasty || c.PromptLen != len(nasty) || filepath.Base(c.Argv0) != cli {
			t.Errorf("%s: logged argv0 %q argv %q prompt %q", cli, c.Argv0, c.Argv, c.Prompt)
		}
		if c.Cwd != dir || c.StdinIsTTY || c.StdoutIsTTY || c.Env["TERM"] != "xterm-256color" || c.Env["ARENA_FAKE_LOG"] != f.Log {
			t.Errorf("%s: logged cwd %q ttys %v/%v env %v", cli, c.Cwd, c.StdinIsTTY, c.StdoutIsTTY, c.Env)
		}
		if _, ok := c.Env["HOME"]; ok {
			t.Errorf("%s: logged env has HOME; only ARENA_*, GEMINI_* and TERM belong there", cli)
		}
	}
}

// TestCallLogLargePrompt sends a 1 MiB prompt on stdin, as arena does when
// a prompt is too large for one argument.
func TestCallLogLargePrompt(t *testing.T) {
	t.Parallel()
	f := clitest.New(t)
	big := strings.Repeat("0123456789abcdef", 1<<16) + "\n" + critiquePrompt
	sum := sha256.Sum256([]byte(big))
	for _, tc := range []struct {
		cli  string
		args []string
	}{
		{"claude", []string{"-p", "--output-format", "stream-json", "--verbose", "--include-partial-messages"}},
		{"codex", []string{"exec", "--json", "--skip-git-repo-check", "-"}},
		{"gemini", []string{"-o", "stream-json", "--skip-trust"}},
	} {
		r := execFake(t, f, runCfg{stdin: strings.NewReader(big)}, tc.cli, tc.args...)
		calls := f.CallsTo(tc.cli)
		if r.code != 0 || len(calls) != 1 {
			t.Fatalf("%s: status %d, %d calls, stderr %q", tc.cli, r.code, len(calls), r.stderr)
		}
		c := calls[0]
		if c.PromptLen != len(big) || c.PromptSHA256 != hex.EncodeToString(sum[:]) || c.Prompt != "" || c.Kind != clitest.KindCritique {
			t.Errorf("%s: logged len %d sha %s prompt %d bytes kind %q; want %d bytes, whole, not inline",
				tc.cli, c.PromptLen, c.PromptSHA256, len(c.Prompt), c.Kind, len(big))
		}
	}
}

func TestCallLogProcessGroup(t *testing.T) {
	t.Parallel()
	f := clitest.New(t)
	cmd := exec.Command(f.Path("qwen"), headless("qwen", opening)...)
	cmd.Env = f.Env()
	p := start(t, cmd) // in its own process group
	if err := p.wait(t, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	c := f.Calls()[0]
	if c.PID != cmd.Process.Pid || c.PGID != c.PID {
		t.Errorf("logged pid %d pgid %d; want %d for both", c.PID, c.PGID, cmd.Process.Pid)
	}
}

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
)

// Tests of issue 19 item 4: after a SIGKILL of arena, nothing it started
// runs and nothing it made stays in TMPDIR, for every protocol and for
// the tests arena rank --run-tests runs.

// reapDeadline is how long the reaper gets to bring everything down after
// a SIGKILL: "within a few seconds", with room for a loaded machine. The
// checks poll, so a quick machine is done at once.
const reapDeadline = 15 * time.Second

// startTmp starts arena in the sandbox with a TMPDIR of its own, and
// returns that TMPDIR.
func (s *sandbox) startTmp(args ...string) (*exec.Cmd, *bytes.Buffer, string) {
	s.t.Helper()
	tmp := filepath.Join(s.home, "tmp")
	if err := os.MkdirAll(tmp, 0o700); err != nil {
		s.t.Fatal(err)
	}
	cmd := exec.Command(arenaBinary(s.t), args...)
	cmd.Dir, cmd.Env = s.dir, s.env("TMPDIR="+tmp)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, &out, tmp
}

// killAndCheck SIGKILLs arena and checks that every process of the
// sandbox is gone and TMPDIR is empty within reapDeadline.
func killAndCheck(t *testing.T, s *sandbox, cmd *exec.Cmd, tmp string) {
	t.Helper()
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	assertNothingLeft(t, s, reapDeadline)
	var left []string
	deadline := time.Now().Add(reapDeadline)
	for {
		left = left[:0]
		filepath.WalkDir(tmp, func(p string, d os.DirEntry, err error) error {
			if p != tmp {
				left = append(left, strings.TrimPrefix(p, tmp+"/"))
			}
			return nil
		})
		if len(left) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(left) > 0 {
		t.Errorf("left in TMPDIR %v after the SIGKILL: %s", reapDeadline, strings.Join(left, ", "))
	}
}

// sleepersCommand is a repository's test command that forks three
// sleepers (out of reach of arena's pipe: their output goes to /dev/null),
// says so in started, and waits for them: with two repositories, eight
// processes of test commands.
func sleepersCommand(started string) string {
	return `for i in 1 2 3; do sleep 300 >/dev/null 2>&1 & done; echo up >>` + started + `; wait`
}

func TestSIGKILLDuringRankRunTestsLeavesNothing(t *testing.T) {
	t.Parallel()
	s := newFaultSandbox(t)
	spec, repos := rankSetup(t, s, "alpha", "beta")
	started := filepath.Join(t.TempDir(), "started")
	s.writeConfig("rank:\n  test_command: '" + sleepersCommand(started) + "'\n")
	cmd, out, tmp := s.startTmp("rank", spec, repos[0], repos[1], "--no-tui", "--run-tests")
	waitUntil(t, 60*time.Second, "both test commands to start their sleepers", func() bool {
		b, _ := os.ReadFile(started)
		return bytes.Count(b, []byte("up\n")) == 2 || cmd.ProcessState != nil
	})
	if n := len(s.procs()); n < 8 {
		t.Fatalf("%d processes in the sandbox before the SIGKILL, want arena, its reaper and 8 of the tests\n%s", n, out)
	}
	if exports, _ := filepath.Glob(filepath.Join(tmp, "arena-run-*", "arena-rank-tests-*")); len(exports) != 2 {
		t.Errorf("exports %v, want 2 inside the run's directory", exports)
	}
	killAndCheck(t, s, cmd, tmp)
}

// TestSIGKILLOfEachProtocolLeavesNothing kills arena in the middle of a
// call of each protocol (every seat hangs) and checks the aftermath: no
// process and no scratch directory left.
func TestSIGKILLOfEachProtocolLeavesNothing(t *testing.T) {
	t.Parallel()
	hang := &clitest.Script{Agents: map[string]clitest.AgentScript{
		"claude": {Mode: clitest.ModeHang}, "gemini": {Mode: clitest.ModeGrandchild},
		"codex": {Mode: clitest.ModeHang}, "qwen": {Mode: clitest.ModeHang},
	}}
	for _, c := range []struct {
		name  string
		setup func(t *testing.T, s *sandbox) []string
	}{
		{"debate", func(*testing.T, *sandbox) []string { return []string{"--no-tui", "a topic"} }},
		{"compare", func(*testing.T, *sandbox) []string {
			return []string{"compare", "--no-tui", "which queue?", "--option", "Kafka", "--option", "NATS"}
		}},
		{"judge", func(t *testing.T, s *sandbox) []string {
			return []string{"judge", s.writeSolution(t), "--task", "user API", "--criteria", judgeCriteria, "--no-tui"}
		}},
		{"verdict", func(t *testing.T, s *sandbox) []string {
			s.writeConfig(verdictSeats)
			os.WriteFile(filepath.Join(s.dir, "report.md"), []byte("# API\n\nGET /users.\n"), 0o600)
			return []string{"verdict", "--no-tui", "report.md", "--task-id", "t1", "--task", "document the API"}
		}},
		{"rank", func(t *testing.T, s *sandbox) []string {
			spec, repos := rankSetup(t, s, "alpha", "beta")
			return []string{"rank", "--no-tui", spec, repos[0], repos[1]}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := newFaultSandbox(t)
			s.fakes.SetScript(hang)
			cmd, _, tmp := s.startTmp(c.setup(t, s)...)
			waitForCalls(t, s, 1)
			// Every seat works in a directory of the run's own: a scratch
			// directory, or (rank's fact seats) a copy of its repository.
			if dirs, _ := filepath.Glob(filepath.Join(tmp, "arena-run-*", "arena-*-*")); len(dirs) == 0 {
				t.Error("no scratch directory inside the run's directory while a seat runs")
			}
			killAndCheck(t, s, cmd, tmp)
		})
	}
}

// TestCommandOverrideRunsForStdinPrompts (item 7): a built-in whose
// command the config overrides runs that command when the prompt goes on
// stdin (prompt: stdin, or a prompt over 100 KiB), never the built-in's
// own stdin command.
func TestCommandOverrideRunsForStdinPrompts(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, config, topic string }{
		{"prompt-stdin", "agents:\n  claude: {command: [ADAPTER, -p, --output-format, stream-json, --verbose], prompt: stdin}\n", "a topic"},
		{"prompt-over-100KiB", "agents:\n  claude: {command: [ADAPTER, -p, '{prompt}', --output-format, stream-json, --verbose]}\n", strings.Repeat("a long topic ", 10<<10)},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := newFaultSandbox(t)
			marker := filepath.Join(t.TempDir(), "adapter-ran")
			adapter := filepath.Join(t.TempDir(), "adapter")
			script := "#!/bin/sh\necho \"$*\" >>" + marker + "\nexec claude \"$@\"\n"
			if err := os.WriteFile(adapter, []byte(script), 0o700); err != nil {
				t.Fatal(err)
			}
			s.writeConfig(strings.ReplaceAll(c.config, "ADAPTER", adapter))
			topic := filepath.Join(s.dir, "topic.md")
			os.WriteFile(topic, []byte(c.topic), 0o600)
			r := s.run("--no-tui", "-f", topic)
			if r.code != exitConsensus {
				t.Fatalf("exit %d\n%s\n%s", r.code, tail(r.stdout, 2000), r.stderr)
			}
			b, _ := os.ReadFile(marker)
			calls := s.fakes.CallsTo("claude")
			if n := bytes.Count(b, []byte("\n")); n == 0 || n != len(calls) {
				t.Fatalf("the adapter ran %d times for %d calls of claude", n, len(calls))
			}
			for _, call := range calls {
				if strings.Contains(strings.Join(call.Argv, " "), "--include-partial-messages") {
					t.Fatalf("the built-in's stdin command ran: %q", call.Argv)
				}
			}
		})
	}
}

// TestResumedVerdictWritesOneFinalPerRunID (item 8): a verdict run
// interrupted (its final record says so) and then resumed writes the
// resumed part's records, final included, under a run id of its own.
func TestResumedVerdictWritesOneFinalPerRunID(t *testing.T) {
	t.Parallel()
	c := resumeCases[3]
	if c.name != "verdict" {
		t.Fatalf("resumeCases[3] is %s", c.name)
	}
	s := newSandbox(t)
	s.fakes.SetScript(c.script(&clitest.Step{Mode: clitest.ModeHang}))
	cmd, out := s.start(c.setup(s)...)
	waitForCall(t, s, c.cutAgent, c.cutKind)
	waitForFinished(t, s, c.finished)
	cmd.Process.Signal(syscall.SIGINT)
	if code := exitCodeOf(cmd.Wait()); code != exitInterrupted {
		t.Fatalf("exit %d after SIGINT\n%s", code, out)
	}
	s.fakes.SetScript(c.script(nil))
	if r := s.run("resume", "--no-tui", s.logs()[0]); r.code == exitInterrupted || r.code == exitError {
		t.Fatalf("resume: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	finals := map[string][]string{}
	for _, l := range verdictLines(t, s, defaultVerdictLog(s)) {
		if l["mode"] == "final" {
			id := l["run_id"].(string)
			finals[id] = append(finals[id], l["verdict"].(string)+": "+l["reached"].(string))
		}
	}
	resumed := 0
	for id, fs := range finals {
		if len(fs) != 1 {
			t.Errorf("run %s has %d final records: %q", id, len(fs), fs)
		}
		if strings.HasSuffix(id, "-resumed") {
			resumed++
			if !strings.Contains(fs[0], "(resumed from run ") {
				t.Errorf("the resumed final does not name the run it resumes: %q", fs[0])
			}
		}
	}
	if len(finals) != 2 || resumed != 1 {
		t.Fatalf("finals %q", finals)
	}
}

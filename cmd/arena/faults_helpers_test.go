package main

import (
	"syscall"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
)

// Tests of issue 29 item 1: a helper an agent starts and leaves behind
// (an MCP server, a language server, telemetry) in a session of its own,
// double-forked, or in a process group of its own ends with the call, and
// with arena however arena ends. The helpers ignore SIGTERM, SIGHUP and
// SIGINT, and hold none of the call's output.

var leaves = []string{clitest.LeaveSetsid, clitest.LeaveDoubleFork, clitest.LeaveNewGroup}

// TestHelpersEndWithTheirCall: claude's opening leaves a helper; while the
// challengers' calls stream (held before their last piece), claude's call
// is over and its helper must be gone already.
func TestHelpersEndWithTheirCall(t *testing.T) {
	t.Parallel()
	for _, how := range leaves {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			s := newFaultSandbox(t)
			s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
				"claude": {Steps: map[string][]clitest.Step{"opening": {{Leave: how}}}},
				"gemini": {Hold: "go"}, "codex": {Hold: "go"}, "qwen": {Hold: "go"},
			}})
			cmd, out := s.start("--no-tui", "a topic")
			waitForCall(t, s, "gemini", "critique")
			pids := s.fakes.DaemonPIDs("claude")
			if len(pids) != 1 {
				t.Fatalf("claude's helpers: %v, want one\n%s", pids, out)
			}
			if processAlive(pids[0]) {
				t.Errorf("claude's helper (%s, pid %d) outlived the call that started it", how, pids[0])
			}
			s.fakes.Release("go")
			if code := exitCodeOf(cmd.Wait()); code != exitConsensus {
				t.Errorf("exit %d\n%s", code, tail(out.String(), 2000))
			}
			assertNothingLeft(t, s, 0)
		})
	}
}

// TestHelpersEndWithArena: every challenger leaves a helper of its own
// kind and hangs; arena is then ended by SIGTERM, SIGINT or SIGKILL.
// Once a catchable signal has ended arena nothing is left at all; after
// a SIGKILL, the reaper brings everything down within reapDeadline.
func TestHelpersEndWithArena(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGKILL} {
		t.Run(sigName(sig), func(t *testing.T) {
			t.Parallel()
			s := newFaultSandbox(t)
			s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
				"gemini": {Mode: clitest.ModeHang, Leave: clitest.LeaveSetsid},
				"codex":  {Mode: clitest.ModeHang, Leave: clitest.LeaveDoubleFork},
				"qwen":   {Mode: clitest.ModeHang, Leave: clitest.LeaveNewGroup},
			}})
			cmd, out := s.start("--no-tui", "a topic")
			var pids []int
			waitUntil(t, 60*time.Second, "the three challengers' helpers", func() bool {
				pids = pids[:0]
				for _, a := range []string{"gemini", "codex", "qwen"} {
					pids = append(pids, s.fakes.DaemonPIDs(a)...)
				}
				return len(pids) == 3
			})
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			code := exitCodeOf(cmd.Wait())
			deadline := time.Duration(0) // arena waits for what it started
			if sig == syscall.SIGKILL {
				deadline = reapDeadline
			} else if code != exitInterrupted {
				t.Errorf("exit %d after %v\n%s", code, sig, tail(out.String(), 2000))
			}
			for _, pid := range pids {
				for end := time.Now().Add(deadline); processAlive(pid) && time.Now().Before(end); {
					time.Sleep(20 * time.Millisecond)
				}
				if processAlive(pid) {
					syscall.Kill(pid, syscall.SIGKILL)
					t.Errorf("a helper (pid %d) outlived arena's %v", pid, sig)
				}
			}
			assertNothingLeft(t, s, deadline)
		})
	}
}

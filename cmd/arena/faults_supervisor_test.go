package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arenadebate/arena/bench/benchkit"
	"github.com/arenadebate/arena/challengers/clitest"
)

// Tests of issue 36 item 7 and issue 37's one supervisor per run: every
// call runs under the run's one supervisor, its subreaper, and nothing a
// seat starts outlives arena, whatever the seat does to what watches it
// (its parent: the supervisor now, each call's reaper before) and however
// arena ends.

// hostileGemini puts in front of the fakes on the sandbox's PATH a gemini
// that first leaves a daemon (a double fork into a session of its own,
// deaf to SIGTERM, SIGHUP and SIGINT, its pid written to the returned
// file once it runs), then runs attack, then execs the fake gemini.
func hostileGemini(t *testing.T, s *sandbox, attack string) (pidFile string) {
	t.Helper()
	dir := t.TempDir()
	pidFile = filepath.Join(dir, "daemon.pid")
	script := "#!/bin/sh\n" +
		"( setsid sh -c 'trap \"\" TERM HUP INT; echo $$ >" + pidFile + ".tmp; mv " + pidFile + ".tmp " + pidFile + "; exec sleep 300' </dev/null >/dev/null 2>&1 & )\n" +
		"while [ ! -s " + pidFile + " ]; do sleep 0.01; done\n" +
		attack + "\n" +
		"exec " + s.fakes.Path("gemini") + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "gemini"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, kv := range s.env() {
		if path, ok := strings.CutPrefix(kv, "PATH="); ok {
			s.extraEnv = append(s.extraEnv, "PATH="+dir+string(os.PathListSeparator)+path)
		}
	}
	return pidFile
}

// daemonPID reads the hostile gemini's daemon's pid (0 before it runs).
func daemonPID(pidFile string) int {
	b, _ := os.ReadFile(pidFile)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}

// assertDaemonGone fails if the daemon is still running.
func assertDaemonGone(t *testing.T, pidFile string) {
	t.Helper()
	pid := daemonPID(pidFile)
	if pid == 0 {
		t.Fatal("the hostile gemini never started its daemon")
	}
	if processAlive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the daemon (pid %d) outlived arena", pid)
	}
}

// TestASeatThatKillsOrStopsItsWatcherLeavesNothing: a challenger leaves a
// daemon and then SIGKILLs, or SIGSTOPs, its parent, the process that
// watches over its call. Once arena has exited, nothing of the sandbox
// runs. With a call's reaper as the parent, a killed reaper left the
// daemon to init, and a stopped one hung the call until its timeout and
// then left it to init.
func TestASeatThatKillsOrStopsItsWatcherLeavesNothing(t *testing.T) {
	t.Parallel()
	for _, sig := range []string{"KILL", "STOP"} {
		t.Run("SIG"+sig, func(t *testing.T) {
			t.Parallel()
			s := newFaultSandbox(t)
			pidFile := hostileGemini(t, s, "kill -"+sig+" $PPID")
			s.writeConfig(agentTimeout("gemini", "20s"))
			cmd, out := s.start("--no-tui", "--max-rounds", "1", "a topic")
			code := exitCodeOf(cmd.Wait())
			if sig == "STOP" && code != exitConsensus || strings.Contains(out.String(), "DATA RACE") {
				t.Errorf("exit %d: a seat that stops its watcher still answers; one that kills it fails\n%s", code, tail(out.String(), 2000))
			}
			assertDaemonGone(t, pidFile)
			assertNothingLeft(t, s, 0)
		})
	}
}

// TestArenaKilledWhileASeatStopsItsWatcherLeavesNothing: a challenger
// on pipes leaves a daemon, SIGSTOPs its parent and hangs; arena is then
// SIGKILLed. Within reapDeadline nothing of the sandbox runs. (On a
// pseudo-terminal the hangup when arena's end closes sends SIGCONT to
// the terminal's session leader, which a call's reaper was: on pipes
// nothing woke a stopped reaper, and its SIGKILL left the daemon to
// init.)
func TestArenaKilledWhileASeatStopsItsWatcherLeavesNothing(t *testing.T) {
	t.Parallel()
	s := newFaultSandbox(t)
	pidFile := hostileGemini(t, s, "kill -STOP $PPID")
	s.writeConfig("agents:\n  gemini:\n    pty: false\n")
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"gemini": {Mode: clitest.ModeHang}}})
	cmd, out := s.start("--no-tui", "a topic")
	waitUntil(t, 60*time.Second, "the hostile gemini to hang", func() bool {
		calls := s.fakes.CallsTo("gemini")
		return daemonPID(pidFile) != 0 && len(calls) > 0 && s.fakes.Hanging(calls[0].PID)
	})
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	for end := time.Now().Add(reapDeadline); processAlive(daemonPID(pidFile)) && time.Now().Before(end); {
		time.Sleep(20 * time.Millisecond)
	}
	assertDaemonGone(t, pidFile)
	assertNothingLeft(t, s, reapDeadline)
	if t.Failed() {
		t.Log(tail(out.String(), 2000))
	}
}

// TestArenasBinaryStartsTwiceADebate: during a five-round debate with the
// fakes (every call instant) arena's own binary is started twice, arena
// and its run's supervisor, however many calls there are (each call
// started it once more before). Counted with a build of arena that writes
// its coverage counters (GOCOVERDIR) as each of its processes exits: a
// file a process.
func TestArenasBinaryStartsTwiceADebate(t *testing.T) {
	t.Parallel()
	s := newFaultSandbox(t)
	s.fakes.SetScript(benchkit.TradeoffScript())
	counted := clitest.Build(t, "./cmd/arena", clitest.WithRace("-cover", "-coverpkg=github.com/arenadebate/arena/cmd/arena")...)
	covdir := t.TempDir()
	cmd := exec.Command(counted, "--no-tui", benchTopic)
	cmd.Dir, cmd.Env = s.dir, s.env("GOCOVERDIR="+covdir)
	if out, err := cmd.CombinedOutput(); exitCodeOf(err) != exitTradeoff {
		t.Fatalf("exit %d\n%s", exitCodeOf(err), tail(string(out), 2000))
	}
	calls := len(s.fakes.Calls())
	files, _ := filepath.Glob(filepath.Join(covdir, "covcounters.*"))
	pids := map[string]bool{}
	for _, f := range files {
		if parts := strings.Split(filepath.Base(f), "."); len(parts) == 4 {
			pids[parts[2]] = true
		}
	}
	if len(pids) != 2 || calls < 10 {
		t.Fatalf("arena's binary ran as %d processes in a debate of %d calls, want 2 (arena and its supervisor)", len(pids), calls)
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
)

// arena replay --follow: a run going on in another process, watched as
// its log grows.

// startSlowDebate starts a debate whose agents stream slowly and waits
// until its log holds its first event.
func startSlowDebate(t *testing.T, s *sandbox, agents clitest.AgentScript) *exec.Cmd {
	t.Helper()
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"claude": agents, "gemini": agents, "codex": agents, "qwen": agents}})
	cmd, _ := s.start("--no-tui", "should we move sessions from Redis to Postgres?")
	waitUntil(t, 60*time.Second, "the run's log", func() bool {
		logs := s.logs()
		if len(logs) != 1 {
			return false
		}
		lc, err := runlog.ReadFile(logs[0])
		return err == nil && len(lc.Events) > 0
	})
	return cmd
}

// heldOpening is a slow debate whose defender holds its opening before
// the last piece until the test calls s.fakes.Release(openingHeld): the
// run is still going when the follow starts, on a machine of any speed.
func heldOpening() clitest.AgentScript {
	return clitest.AgentScript{Mode: clitest.ModeSlow, DelayMS: 300, Chunks: 3,
		Steps: map[string][]clitest.Step{"opening": {{Hold: openingHeld}}}}
}

const openingHeld = "opening-held"

func TestReplayFollowsALiveLog(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	run := startSlowDebate(t, s, heldOpening())
	ctx, cancel := context.WithTimeout(context.Background(), 3*loadedMachine) // a hang, not slowness
	defer cancel()
	follow := exec.CommandContext(ctx, arenaBinary(t), "replay", "--follow", "--json", s.logs()[0])
	follow.Dir, follow.Env = s.dir, s.env()
	stdout, stderr := &lockedBuffer{}, &lockedBuffer{}
	follow.Stdout, follow.Stderr = stdout, stderr
	if err := follow.Start(); err != nil {
		t.Fatal(err)
	}
	// The follow has begun while the run is held in its opening; the rest
	// of the run is written after.
	waitUntil(t, 60*time.Second, "the follow to print the run's start", func() bool { return strings.Contains(stdout.String(), `"debate_started"`) })
	s.fakes.Release(openingHeld)
	if code := exitCodeOf(follow.Wait()); code != 0 {
		t.Fatalf("follow: exit %d\n%s", code, stderr)
	}
	if code := exitCodeOf(run.Wait()); code != exitConsensus {
		t.Fatalf("the run: exit %d", code)
	}
	if lc := s.onlyLog(); len(lc.Events) < 2 || !lc.Complete {
		t.Fatalf("the log: %d events, complete %v", len(lc.Events), lc.Complete)
	}
	// Every event of the log, in order, each once: those written before
	// the follow began and those after.
	var seqs []int64
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var e engine.Event
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("not an event: %v\n%s", err, line)
		}
		seqs = append(seqs, e.Seq)
	}
	var want []int64
	for _, e := range s.onlyLog().Events {
		want = append(want, e.Seq)
	}
	if !slices.Equal(seqs, want) {
		t.Fatalf("followed %v\nthe log has %v", seqs, want)
	}
}

func TestReplayFollowStopsWatchingNotTheRun(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	run := startSlowDebate(t, s, heldOpening())
	follow := exec.Command(arenaBinary(t), "replay", "--follow", "--no-tui", s.logs()[0])
	follow.Dir, follow.Env = s.dir, s.env()
	out := &lockedBuffer{}
	follow.Stdout, follow.Stderr = out, out
	if err := follow.Start(); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, 60*time.Second, "the follow to print the run's start", func() bool { return strings.Contains(out.String(), "Topic: should we move sessions") })
	follow.Process.Signal(syscall.SIGINT)
	if code := exitCodeOf(follow.Wait()); code != exitInterrupted {
		t.Fatalf("follow after SIGINT: exit %d\n%s", code, out)
	}
	// The run, held until now, goes on to its outcome.
	s.fakes.Release(openingHeld)
	if code := exitCodeOf(run.Wait()); code != exitConsensus {
		t.Fatalf("the run stopped with the watching: exit %d", code)
	}
	if lc := s.onlyLog(); !lc.Complete {
		t.Fatal("the run's log is not complete")
	}
}

func TestReplayFollowOfAFinishedLogOrNone(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	if r := s.run("--no-tui", "should we move sessions from Redis to Postgres?"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	r := s.run("replay", "--follow", "--no-tui", s.logs()[0])
	if r.code != 0 || !strings.Contains(r.stdout, "# Debate outcome: consensus") {
		t.Fatalf("follow of a finished log: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, bad := range []string{"no-such.jsonl", "README.md"} {
		if r := s.run("replay", "--follow", bad); r.code != exitUsage {
			t.Fatalf("follow %s: exit %d %s", bad, r.code, r.stderr)
		}
	}
}

func TestReplayFollowOnTheScreen(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	run := startSlowDebate(t, s, heldOpening())
	ts := s.startTmux(120, 40, nil, "replay", "--follow", s.logs()[0])
	// The defender's opening streams on the screen while the run goes on.
	ts.waitFor("the opening streaming", 60*time.Second, func(sc string) bool {
		return strings.Contains(sc, "Claude's position") && strings.Contains(sc, "left")
	})
	s.fakes.Release(openingHeld)
	ts.waitText("Debate outcome", 90*time.Second)
	if code := ts.quitDone(30 * time.Second); code != "0" {
		t.Fatalf("exit %s", code)
	}
	run.Wait()
}

// lockedBuffer is a buffer a process writes to while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A run killed outright leaves a log without an outcome, and no writer:
// the follow plays what is there, says so, and ends.
func TestReplayFollowEndsWhenTheWriterIsGone(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	run := startSlowDebate(t, s, clitest.AgentScript{Mode: clitest.ModeHang})
	follow := exec.Command(arenaBinary(t), "replay", "--follow", "--json", s.logs()[0])
	follow.Dir, follow.Env = s.dir, s.env()
	out := &lockedBuffer{}
	follow.Stdout, follow.Stderr = out, out
	if err := follow.Start(); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, 60*time.Second, "the follow to print the start", func() bool { return strings.Contains(out.String(), `"debate_started"`) })
	run.Process.Kill()
	run.Wait()
	done := make(chan error, 1)
	go func() { done <- follow.Wait() }()
	select {
	case err := <-done:
		if code := exitCodeOf(err); code != 0 || !strings.Contains(out.String(), "cut short") {
			t.Fatalf("exit %d\n%s", code, out)
		}
	case <-time.After(2 * time.Minute):
		follow.Process.Kill()
		t.Fatalf("the follow went on after its writer died:\n%s", out)
	}
}

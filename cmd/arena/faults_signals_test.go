package main

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
)

// slowDebateScript is a debate that goes through every phase slowly
// (about 6.5 s with --max-rounds 2 up to the synthesis, which then holds
// until the signal ends it): everyone streams at a walking pace;
// codex ignores SIGTERM and hangs in the challenge until its own 2 s
// timeout (set in slowDebateConfig); qwen leaves a grandchild holding its
// stdout; gemini disagrees and maintains, so there are two rounds, the
// final questions and a synthesis.
func slowDebateScript() *clitest.Script {
	slow := func(as clitest.AgentScript) clitest.AgentScript {
		as.DelayMS, as.Chunks = 100, 6
		return as
	}
	answer := func(rs ...string) clitest.Step {
		var list []any
		for i := 0; i < len(rs); i += 2 {
			list = append(list, map[string]string{"challenger": rs[i], "decision": rs[i+1], "explanation": "the numbers say otherwise"})
		}
		return clitest.Step{Reply: map[string]any{"responses": list, "updated_position": "Move sessions to Postgres; keep Redis for rate limits."}}
	}
	return &clitest.Script{Agents: map[string]clitest.AgentScript{
		"claude": slow(clitest.AgentScript{Steps: map[string][]clitest.Step{
			"answer": {answer("gemini", "reject", "qwen", "accept"), answer("gemini", "reject")},
			// The last phase streams, then holds before its last piece
			// and is never released: the debate cannot end before the
			// test's signal, however late a loaded machine sends it.
			"synthesis": {{Chunks: 40, Hold: "never"}},
		}}),
		"gemini": slow(clitest.AgentScript{Steps: map[string][]clitest.Step{
			"critique": {critiqueStep("disagree", "strong")},
			"rebuttal": {{Reply: map[string]string{"choice": "maintain", "explanation": "Postgres will melt under session writes."}}},
		}}),
		"codex": {Mode: clitest.ModeIgnoreTerm},
		"qwen": slow(clitest.AgentScript{Mode: clitest.ModeGrandchild, Steps: map[string][]clitest.Step{
			"critique": {critiqueStep("partial", "minor")},
		}}),
	}}
}

// slowDebateConfig gives codex a timeout of its own (--timeout would
// override it).
const slowDebateConfig = `timeout_per_cli: 60s
agents:
  codex:
    timeout: 2s
`

// slowDebateSpan is the part of the slow debate, from its first agent
// call, over which signal points are spread: from the opening to the
// synthesis, which starts at about 6.5 s (the debate cannot be faster
// than its fakes' pauses; a loaded machine only makes it slower).
const slowDebateSpan = 7500 * time.Millisecond

// faultSeed is the seed of the random signal points: ARENA_FAULT_SEED to
// replay a run, otherwise the clock.
func faultSeed(t *testing.T) int64 {
	seed := time.Now().UnixNano()
	if v := os.Getenv("ARENA_FAULT_SEED"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			t.Fatalf("ARENA_FAULT_SEED=%q: %v", v, err)
		}
		seed = n
	}
	t.Logf("random signal points from seed %d (rerun with ARENA_FAULT_SEED=%d)", seed, seed)
	return seed
}

// TestSignalsAtRandomPoints sends SIGINT, SIGTERM, SIGHUP and SIGKILL to
// arena at random points of a slow debate, several per signal, one in each
// third of the debate so that they fall in different phases. Afterwards no
// process of the debate is left, a catchable signal ends arena with exit
// 130 and an interrupted outcome, and the log reads back up to its last
// complete event and replays. The debates of one signal run at the same
// time (they mostly wait), each checked in its own subtest.
func TestSignalsAtRandomPoints(t *testing.T) {
	rng := rand.New(rand.NewSource(faultSeed(t)))
	const points = 3
	slice := slowDebateSpan / points
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGKILL} {
		var at [points]time.Duration
		for i := range at {
			at[i] = (time.Duration(i)*slice + time.Duration(rng.Int63n(int64(slice)))).Round(time.Millisecond)
		}
		t.Run(sigName(sig), func(t *testing.T) {
			t.Parallel()
			var runs [points]*signalRun
			for i := range runs {
				runs[i] = startSignalRun(t, sig, at[i])
			}
			for _, r := range runs {
				t.Run(fmt.Sprintf("at_%v", r.at), r.check)
			}
		})
	}
}

func sigName(sig syscall.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGKILL:
		return "SIGKILL"
	}
	return sig.String()
}

// signalRun is one debate signalled at one point.
type signalRun struct {
	s     *sandbox
	sig   syscall.Signal
	at    time.Duration
	out   *bytes.Buffer
	done  chan struct{}
	where string        // the phase the signal fell in
	fatal string        // why the run went wrong before it could be checked
	err   error         // from Wait
	took  time.Duration // from the signal to arena's exit
}

// startSignalRun starts arena and, in the background, signals it at the
// point; check waits for that and checks the aftermath.
func startSignalRun(t *testing.T, sig syscall.Signal, at time.Duration) *signalRun {
	s := newFaultSandbox(t)
	s.fakes.SetScript(slowDebateScript())
	s.writeConfig(slowDebateConfig)
	cmd, out := s.start("--no-tui", "--max-rounds", "2", "should we move sessions from Redis to Postgres?")
	r := &signalRun{s: s, sig: sig, at: at, out: out, done: make(chan struct{}), where: "?"}
	logPath := filepath.Join(s.dir, "debate-logs")
	go func() {
		defer close(r.done)
		waited := make(chan error, 1)
		go func() { waited <- cmd.Wait() }()
		// The debate is under way once the defender has been called.
		calls := filepath.Join(s.fakes.Log, "calls.jsonl")
		deadline := time.Now().Add(30 * time.Second)
		for {
			if st, err := os.Stat(calls); err == nil && st.Size() > 0 {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				<-waited
				r.fatal = "no agent was called in 30s"
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
		select {
		case r.err = <-waited:
			r.fatal = fmt.Sprintf("arena ended (%v) before the signal", r.err)
			return
		case <-time.After(at):
		}
		if logs, _ := filepath.Glob(filepath.Join(logPath, "*.jsonl")); len(logs) == 1 {
			if lc, err := runlog.ReadFile(logs[0]); err == nil {
				for _, e := range lc.Events {
					if p, ok := e.Payload.(engine.PhaseStarted); ok {
						r.where = p.Title
					}
				}
			}
		}
		sent := time.Now()
		if err := cmd.Process.Signal(sig); err != nil {
			r.fatal = fmt.Sprintf("signal: %v", err)
		}
		select {
		case r.err = <-waited:
			r.took = time.Since(sent)
		case <-time.After(loadedMachine + 10*time.Second):
			cmd.Process.Kill()
			r.err = <-waited
			r.fatal = fmt.Sprintf("arena still ran %v after the signal", loadedMachine+10*time.Second)
		}
	}()
	return r
}

func (r *signalRun) check(t *testing.T) {
	<-r.done
	s, sig := r.s, r.sig
	s.t = t
	t.Logf("%s %v into the debate, during %q", sigName(sig), r.at, r.where)
	if r.fatal != "" {
		t.Fatalf("%s\n%s", r.fatal, tail(r.out.String(), 3000))
	}
	if r.took > loadedMachine {
		t.Errorf("arena took %v to stop after %s", r.took, sigName(sig))
	}
	catchable := sig != syscall.SIGKILL
	if code := exitCodeOf(r.err); catchable && code != exitInterrupted {
		t.Errorf("exit %d (%v) after %s, want %d\n%s", code, r.err, sigName(sig), exitInterrupted, tail(r.out.String(), 3000))
	}
	if catchable {
		assertTerminalSafe(t, "output", r.out.String())
	}

	// After SIGKILL the agents' parent-death signal and the reaper must
	// bring everything down within a few seconds.
	assertNothingLeft(t, s, 5*time.Second)

	logs := s.logs()
	if len(logs) != 1 {
		t.Fatalf("%d logs", len(logs))
	}
	lc, err := runlog.ReadFile(logs[0])
	if err != nil || len(lc.Events) == 0 {
		t.Fatalf("the log does not read back: %v, %d events", err, len(lc.Events))
	}
	if catchable {
		o := outcomeOf(t, lc)
		if o.Result != engine.OutcomeInterrupted || !lc.Complete || lc.Problem != "" {
			t.Fatalf("outcome %s (%q), complete %v, problem %q", o.Result, o.Summary, lc.Complete, lc.Problem)
		}
		if !strings.HasPrefix(o.Summary, "Interrupted during ") {
			t.Errorf("summary %q", o.Summary)
		}
		assertReplays(t, s, logs[0], o.Summary)
		return
	}
	if lc.Complete {
		t.Fatal("a log cut by SIGKILL claims to be complete")
	}
	rr := s.run("replay", "--no-tui", logs[0])
	if rr.code != 0 || !strings.Contains(rr.stdout, "(DEBATE)") || !strings.Contains(rr.stderr, "the log ends") {
		t.Fatalf("replay after SIGKILL: exit %d\n%s\n%s", rr.code, tail(rr.stdout, 2000), rr.stderr)
	}
}

package main

import (
	"fmt"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/compare"
	"github.com/arenadebate/arena/engine/runlog"
)

// repeatArgs are a comparison whose judge alone is asked, in 2 orders,
// each asked twice: 4 calls, two of each prompt.
var repeatArgs = append(slicesClone(compareArgs), "--single", "--orders", "2", "--judge", "claude", "--repeats", "2")

// judgeCalls are the fakes' compare.judge calls.
func judgeCalls(t *testing.T, s *sandbox) int {
	n := 0
	for _, c := range completeCalls(t, s) {
		if string(c.Kind) == compare.ShapeJudge {
			n++
		}
	}
	return n
}

// readings are the log's (order, repeat) of each recommendation read.
func readings(lc runlog.Contents) []string {
	var out []string
	for _, e := range lc.Events {
		if sc, ok := e.Payload.(engine.Scored); ok && sc.Judgement == "recommendation" {
			out = append(out, fmt.Sprintf("%d/%d", sc.Order, sc.Repeat))
		}
	}
	slices.Sort(out)
	return out
}

// --repeats 2 asks each order twice from the built binary: the log's
// readings carry their order and repeat, the outcome says each order was
// asked twice and names the criteria each order showed; a run cut after
// three of its four judge calls resumes asking only the fourth, though it
// shares its prompt with another, and ends as the uncut run did.
func TestCompareRepeatsEndToEnd(t *testing.T) {
	base := newSandbox(t)
	r := base.run(repeatArgs...)
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	baseOut := outcomeOf(t, base.onlyLog())
	if got := readings(base.onlyLog()); !slices.Equal(got, []string{"0/0", "0/1", "1/0", "1/1"}) {
		t.Fatalf("readings (order/repeat) %v, want each of 2 orders asked twice", got)
	}
	if n := judgeCalls(t, base); n != 4 {
		t.Fatalf("%d judge calls, want 4", n)
	}
	for _, want := range []string{
		"asked in 2 orders, each asked twice, the criteria rotated with the options",
		"criteria throughput, ops cost, team skills",
		"criteria team skills, ops cost, throughput",
		"asked again in the same order",
	} {
		if !strings.Contains(baseOut.Markdown, want) {
			t.Errorf("the outcome lacks %q:\n%s", want, baseOut.Markdown)
		}
	}

	s := newSandbox(t)
	// The first judge call hangs; the other three are answered.
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"claude": {Steps: map[string][]clitest.Step{
		compare.ShapeJudge: {{Mode: clitest.ModeHang}, {}, {}, {}},
	}}}})
	cmd, out := s.start(repeatArgs...)
	waitForFinished(t, s, 3)
	cmd.Process.Signal(syscall.SIGINT)
	if code := exitCodeOf(cmd.Wait()); code != exitInterrupted {
		t.Fatalf("exit %d after SIGINT\n%s", code, out)
	}
	before := judgeCalls(t, s)
	s.fakes.SetScript(nil)
	r = s.run("resume", "--no-tui", s.logs()[0])
	if r.code != exitOK {
		t.Fatalf("resume: exit %d\n%s", r.code, r.stderr)
	}
	if asked := judgeCalls(t, s) - before; asked != 1 {
		t.Fatalf("the resumed run asked the judge %d times, want the one call left (each repeat is its own call)", asked)
	}
	o := outcomeOf(t, s.onlyLog())
	if got, want := docBody(o), docBody(baseOut); got != want {
		t.Fatalf("the resumed outcome differs from the uncut one:\n--- resumed\n%s\n--- uncut\n%s", got, want)
	}
}

// rank --repeats 2 asks every dimension judge each order twice from the
// built binary: the log holds each reading with its order and repeat,
// each asking its own seat.
func TestRankRepeatsEndToEnd(t *testing.T) {
	s := newSandbox(t)
	spec, repos := rankSetup(t, s, "alpha", "beta")
	r := s.run(append([]string{"rank", "--no-tui", "--seed", "7", "--repeats", "2", spec}, repos...)...)
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	lc := s.onlyLog()
	got := map[string]int{}
	seats := map[string]bool{}
	for _, e := range lc.Events {
		if sc, ok := e.Payload.(engine.Scored); ok && sc.Judgement == "security" {
			got[fmt.Sprintf("%d/%d", sc.Order, sc.Repeat)]++
			seats[sc.Seat] = true
		}
	}
	if len(got) != 4 || len(seats) != 4 {
		t.Fatalf("security readings by order/repeat %v in seats %v: want 2 orders each asked twice, each its own seat", got, seats)
	}
}

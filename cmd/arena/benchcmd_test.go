package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine/bench"
)

// benchSample is a bundled sample file of engine/bench.
func benchSample(t *testing.T, name string) string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(here), "..", "..", "engine", "bench", "samples", name)
}

// benchPanel scripts claude as a judge that sees each answer's quality
// (the samples mark it) and gemini as one that picks the answer shown
// first.
func benchPanel(s *sandbox, extra map[string][]clitest.Step) {
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
		"claude": {Bias: &clitest.Bias{Quality: `quality (\d)`}},
		"gemini": {Bias: &clitest.Bias{FirstShown: true}, Steps: extra},
	}})
}

type benchJSON struct {
	bench.Report
	Result  string `json:"result"`
	Results string `json:"results_file"`
}

func benchOf(t *testing.T, r result) benchJSON {
	t.Helper()
	var b benchJSON
	if err := json.Unmarshal([]byte(r.stdout), &b); err != nil {
		t.Fatalf("arena bench --json: %v\n%s\n%s", err, r.stdout, r.stderr)
	}
	return b
}

func benchCalls(t *testing.T, s *sandbox) int {
	n := 0
	for _, c := range completeCalls(t, s) {
		if string(c.Kind) == bench.ShapeJudge {
			n++
		}
	}
	return n
}

// arena bench scores a panel of fakes on each bundled sample: the figures
// are those the fakes' picks give, beside the papers' own.
func TestBenchScoresAPanel(t *testing.T) {
	for _, c := range []struct {
		file                 string
		pairs, labels, calls int
		published            string
	}{
		{"judgebench-sample.jsonl", 6, 6, 24, "75.4%"},
		{"mt-bench-human-sample.jsonl", 6, 7, 24, "65%"},
	} {
		t.Run(c.file, func(t *testing.T) {
			s := newSandbox(t)
			benchPanel(s, nil)
			r := s.run("bench", benchSample(t, c.file), "--judges", "claude,gemini", "--json")
			if r.code != 0 {
				t.Fatalf("exit %d\n%s", r.code, r.stderr)
			}
			b := benchOf(t, r)
			truth, first := b.Judges[0], b.Judges[1]
			if b.Pairs != c.pairs || b.Calls != c.calls || b.Answered != c.calls || b.Result != "scored" ||
				truth.Accuracy.Value != 1 || truth.Accuracy.N != c.labels || truth.Consistency.Value != 1 || truth.FirstPosition.Value != 0 ||
				first.Accuracy.Value != 0 || first.Consistency.Value != 0 || first.FirstPosition.Value != 1 || !first.FirstPosition.Shown {
				t.Fatalf("figures %+v", b)
			}
			if n := benchCalls(t, s); n != c.calls {
				t.Fatalf("%d calls, want %d", n, c.calls)
			}
			if !strings.Contains(r.stdout, c.published) {
				t.Fatalf("the papers' figures are missing:\n%s", r.stdout)
			}
		})
	}
}

// The text report names every figure with its interval, and says the
// papers' figures are the papers'.
func TestBenchReport(t *testing.T) {
	s := newSandbox(t)
	benchPanel(s, nil)
	r := s.run("bench", benchSample(t, "judgebench-sample.jsonl"), "--judges", "claude,gemini", "--repeats", "2")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{
		"| claude | 100% [61–100%] (n=6) | 100% [61–100%] (n=6) | 0% [0–39%] (n=6) | 100% [76–100%] (n=12) |",
		"consistency (MT-Bench)", "These are the papers' figures on the published file, not measured here",
		"o1-preview", "claude and gemini: κ 0.00", "## What each agent cost", "**Results file:**",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the report lacks %q:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, "bench: 48/48 calls (100%)") {
		t.Errorf("no progress on stderr:\n%s", r.stderr)
	}
}

// A run stopped by --max-cost exits 75 having kept its answers; the same
// command again asks only the calls left, and ends as one uninterrupted
// run would.
func TestBenchStopsAtMaxCostAndCarriesOn(t *testing.T) {
	s := newSandbox(t)
	benchPanel(s, nil)
	file := benchSample(t, "judgebench-sample.jsonl")
	r := s.run("bench", file, "--judges", "claude,gemini", "--max-cost", "0.0001", "--json")
	if r.code != exitOverBudget {
		t.Fatalf("exit %d, want %d\n%s", r.code, exitOverBudget, r.stderr)
	}
	b := benchOf(t, r)
	if b.Answered == 0 || b.Answered >= 24 || b.Result != "over_budget" {
		t.Fatalf("over budget: %d of %d answered, %s", b.Answered, b.Calls, b.Result)
	}
	asked := benchCalls(t, s)
	r = s.run("bench", file, "--judges", "claude,gemini", "--json")
	b = benchOf(t, r)
	if r.code != 0 || b.Answered != 24 || b.Judges[0].Accuracy.Value != 1 {
		t.Fatalf("carried on: exit %d, %+v\n%s", r.code, b, r.stderr)
	}
	if n := benchCalls(t, s); n != 24 {
		t.Fatalf("%d calls in all (%d before), want 24: an answered call was asked again", n, asked)
	}
}

// Ctrl+C keeps every answer; the same command again asks the rest.
func TestBenchResumesAfterCtrlC(t *testing.T) {
	s := newSandbox(t)
	// gemini's third call hangs until the run is interrupted.
	benchPanel(s, map[string][]clitest.Step{bench.ShapeJudge: {{}, {}, {Mode: clitest.ModeHang}, {}}})
	file := benchSample(t, "judgebench-sample.jsonl")
	results := filepath.Join(s.dir, "results.jsonl")
	cmd, out := s.start("bench", file, "--judges", "claude,gemini", "--results", results)
	waitUntil(t, loadedMachine, "the hanging call and 10 answers", func() bool {
		b, _ := os.ReadFile(results)
		return strings.Count(string(b), "\n") >= 11 && benchCallsOf(t, s, "gemini") >= 3
	})
	cmd.Process.Signal(syscall.SIGINT)
	if code := exitCodeOf(cmd.Wait()); code != exitInterrupted {
		t.Fatalf("exit %d after SIGINT\n%s", code, out)
	}
	before := benchCalls(t, s)
	kept, _ := os.ReadFile(results)
	answered := strings.Count(string(kept), "\n") - 1 // the header
	s.fakes.SetScript(nil)
	benchPanel(s, nil)
	r := s.run("bench", file, "--judges", "claude,gemini", "--results", results, "--json")
	b := benchOf(t, r)
	if r.code != 0 || b.Answered != 24 || b.Judges[1].FirstPosition.Value != 1 {
		t.Fatalf("resumed: exit %d, %+v\n%s", r.code, b, r.stderr)
	}
	// The resumed run asks exactly the calls no answer was kept of.
	if n := benchCalls(t, s); n-before != 24-answered {
		t.Fatalf("%d calls before, %d after, %d answers kept: want the %d unanswered asked once each", before, n, answered, 24-answered)
	}
}

func benchCallsOf(t *testing.T, s *sandbox, agent string) int {
	n := 0
	for _, c := range completeCalls(t, s) {
		if string(c.Kind) == bench.ShapeJudge && c.Agent == agent {
			n++
		}
	}
	return n
}

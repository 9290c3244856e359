package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
	"github.com/arenadebate/arena/engine/stats"
)

// The figures of arena stats, from the built binary over logs real runs
// of the fakes wrote, recomputed here from the logs' events with code of
// the test's own: the scores each judge gave in each order, the picks,
// the person's labels, the ledgers.

// wilson95 is Wilson's 95% score interval of k of n, written apart from
// the stats package.
func wilson95(k, n int) (lo, hi float64) {
	z := 1.959963984540054
	p, nf := float64(k)/float64(n), float64(n)
	d := 1 + z*z/nf
	c := (p + z*z/(2*nf)) / d
	h := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / d
	return math.Max(0, c-h), math.Min(1, c+h)
}

// sameRate fails unless f is k of n with its Wilson interval, from runs.
func sameRate(t *testing.T, what string, f stats.Figure, k, n, runs int) {
	t.Helper()
	lo, hi := wilson95(k, n)
	want := float64(k) / float64(n)
	if !f.Shown || f.N != n || f.Runs != runs || math.Abs(f.Value-want) > 1e-9 || math.Abs(f.Low-lo) > 1e-9 || math.Abs(f.High-hi) > 1e-9 ||
		f.Interval != stats.IntervalWilson {
		t.Errorf("%s = %+v, recomputed %d of %d from %d runs (%.4f, %.4f–%.4f)", what, f, k, n, runs, want, lo, hi)
	}
}

// runAll runs arena once for each args, three at a time (the runs are
// independent: each writes its own log), and returns the results in
// order.
func (s *sandbox) runAll(args [][]string) []result {
	s.t.Helper()
	out := make([]result, len(args))
	next := make(chan int)
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = s.run(args[i]...)
			}
		}()
	}
	for i := range args {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// labelEach labels the sandbox's logs, in the order of their names, with
// the words words gives each (nil: none); nth counts for it what it
// likes.
func labelEach(t *testing.T, s *sandbox, words func(lc runlog.Contents, nth map[string]int) []string) {
	t.Helper()
	logs := s.logs()
	slices.Sort(logs)
	nth := map[string]int{}
	var labels [][]string
	for _, l := range logs {
		lc, err := runlog.ReadFile(l)
		if err != nil {
			t.Fatal(err)
		}
		if w := words(lc, nth); w != nil {
			labels = append(labels, append([]string{"label", l}, w...))
		}
	}
	for i, r := range s.runAll(labels) {
		if r.code != 0 {
			t.Fatalf("%v: exit %d\n%s\n%s", labels[i], r.code, r.stdout, r.stderr)
		}
	}
}

// judgeOf is the agent that gave a compare run's recommendation.
func judgeOf(lc runlog.Contents) string {
	for _, e := range lc.Events {
		if sc, ok := e.Payload.(engine.Scored); ok && sc.Judgement == "recommendation" {
			return sc.Agent
		}
	}
	return ""
}

// recomputed are one judge's order figures as the test counts them from
// the scored events: decisive pairs and those that did not hold, MT-Bench's
// classes of swapped pairs, first-shown picks, and the person's winner
// beside the judge's headline preference.
type recomputed struct {
	decisive, notHeld                int
	swaps, consistent, first, second int
	picks, firstPicks                int
	person, own                      []string
	runs                             map[string]bool
}

// recompute counts agent's figures in the logs.
func recompute(t *testing.T, logs []string, agent string) recomputed {
	t.Helper()
	rc := recomputed{runs: map[string]bool{}}
	for _, path := range logs {
		lc, err := runlog.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		byJudgement := map[string][]engine.Scored{}
		var label *engine.Label
		for _, e := range lc.Events {
			switch p := e.Payload.(type) {
			case engine.Scored:
				if p.Agent == agent {
					byJudgement[p.Judgement] = append(byJudgement[p.Judgement], p)
				}
			case engine.Label:
				label = &p
			}
		}
		for what, rs := range byJudgement {
			if len(rs) != 2 {
				t.Fatalf("%s: %s has %d readings", path, what, len(rs))
			}
			rc.runs[path] = true
			winner := ""
			if what == "recommendation" && label != nil {
				winner = label.Winner
			}
			rc.add(rs, winner)
		}
	}
	return rc
}

// pref is the candidate a reading of two scored higher, "=" when level.
func pref(r engine.Scored) string {
	a, b := *r.Candidates[0].Score, *r.Candidates[1].Score
	switch {
	case a > b:
		return r.Candidates[0].ID
	case b > a:
		return r.Candidates[1].ID
	}
	return "="
}

// add counts a judgement's two readings (two candidates, two orders),
// and, where the person named a winner, the judge's word beside it.
func (rc *recomputed) add(rs []engine.Scored, winner string) {
	for _, r := range rs {
		if r.Pick != "" {
			rc.picks++
			if r.Candidates[0].ID == r.Pick {
				rc.firstPicks++
			}
		}
	}
	p0, p1 := pref(rs[0]), pref(rs[1])
	if p0 != "=" || p1 != "=" {
		rc.decisive++
		if p0 != p1 {
			rc.notHeld++
		}
	}
	rc.swaps++
	switch {
	case p0 == p1:
		rc.consistent++
	case p0 == rs[0].Candidates[0].ID && p1 == rs[1].Candidates[0].ID:
		rc.first++
	case p0 == rs[0].Candidates[1].ID && p1 == rs[1].Candidates[1].ID:
		rc.second++
	}
	if winner != "" {
		own := "tie"
		if p0 == p1 && p0 != "=" {
			own = p0
		}
		rc.person, rc.own = append(rc.person, winner), append(rc.own, own)
	}
}

// kappa is Cohen's κ, written apart from the stats package.
func kappa(a, b []string) float64 {
	n := float64(len(a))
	agree := 0.0
	ca, cb := map[string]float64{}, map[string]float64{}
	for i := range a {
		if a[i] == b[i] {
			agree++
		}
		ca[a[i]]++
		cb[b[i]]++
	}
	pe := 0.0
	for k, v := range ca {
		pe += v / n * cb[k] / n
	}
	return (agree/n - pe) / (1 - pe)
}

// matchTheLogs fails unless the agents' order figures in rep are what
// the test recomputes from the logs: the flip rates, MT-Bench's
// consistency and position shares, first-shown picks, each with its
// count, runs and Wilson interval, and κ on the winner.
func matchTheLogs(t *testing.T, rep stats.Report, logs []string, agents ...string) {
	t.Helper()
	for _, agent := range agents {
		rc := recompute(t, logs, agent)
		j := statsModel(t, rep, agent).Judge
		runs := len(rc.runs)
		sameRate(t, agent+" flip rate", j.FlipRate, rc.notHeld, rc.decisive, runs)
		if len(j.FlipRateByOrders) != 1 || j.FlipRateByOrders[0].Orders != 2 {
			t.Errorf("%s: by orders %+v", agent, j.FlipRateByOrders)
		}
		sameRate(t, agent+" consistency", j.Swap.Consistency, rc.consistent, rc.swaps, runs)
		sameRate(t, agent+" biased toward first", j.Swap.FirstPosition, rc.first, rc.swaps, runs)
		sameRate(t, agent+" biased toward second", j.Swap.SecondPosition, rc.second, rc.swaps, runs)
		sameRate(t, agent+" first shown", j.FirstShown, rc.firstPicks, rc.picks, runs)
		k := j.Person.Winner.Kappa
		if want := kappa(rc.person, rc.own); !k.Shown || k.N != len(rc.person) || math.Abs(k.Value-want) > 1e-9 ||
			k.Interval != stats.IntervalBootstrap || k.Low > k.Value || k.High < k.Value {
			t.Errorf("%s κ on the winner %+v, recomputed %.4f of %d", agent, k, want, len(rc.person))
		}
	}
}

// Five judgings of a solution by three judges, one of whom (qwen) gives
// its own work top marks, so each run debates; the person labels each
// with a verdict. The ledger across runs in arena stats is what the test
// counts from the logs' ledgers: how often the debate changed the plain
// vote's result, and whether the vote and the result matched the person.
func TestStatsLedgerMatchesTheLogs(t *testing.T) {
	s := newSandbox(t)
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"qwen": {Bias: &clitest.Bias{Own: "zebra"}}}})
	var runs [][]string
	for i := range 5 {
		name := fmt.Sprintf("add%d.go", i)
		body := strings.Repeat("// zebra style\n", i+1) + "package add\n\nfunc Add(a, b int) int { return a + b }\n"
		if err := os.WriteFile(filepath.Join(s.dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, []string{"judge", name, "--no-tui", "--task", "add two ints", "--judges", "gemini,codex,qwen", "--author", "qwen"})
	}
	for i, r := range s.runAll(runs) {
		if r.code != exitOK {
			t.Fatalf("run %d: exit %d\n%s\n%s", i, r.code, r.stdout, r.stderr)
		}
	}
	labelEach(t, s, func(_ runlog.Contents, nth map[string]int) []string {
		nth[""]++
		return []string{[]string{"accept", "improve", "accept", "reject", "accept"}[nth[""]-1]}
	})
	changed, labelled, voteRight, resultRight := 0, 0, 0, 0
	for _, path := range s.logs() {
		lc, err := runlog.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var l *engine.DebateLedger
		var person string
		for _, e := range lc.Events {
			switch p := e.Payload.(type) {
			case engine.DebateLedger:
				l = &p
			case engine.Label:
				person = p.Verdict
			}
		}
		if l == nil || l.VoteVerdict == "" {
			t.Fatalf("%s: no ledger with the vote's verdict", path)
		}
		if l.Changed {
			changed++
		}
		labelled++
		if l.VoteVerdict == person {
			voteRight++
		}
		if l.ResultVerdict == person {
			resultRight++
		}
	}
	rep := statsJSON(t, s)
	if len(rep.Ledger) != 1 || rep.Ledger[0].Protocol != "judge" || rep.Ledger[0].Debates != 5 || rep.Ledger[0].Labelled != labelled {
		t.Fatalf("%+v", rep.Ledger)
	}
	l := rep.Ledger[0]
	sameRate(t, "changed", l.Changed, changed, 5, 5)
	sameRate(t, "vote right", l.VoteRight, voteRight, 5, 5)
	sameRate(t, "result right", l.ResultRight, resultRight, 5, 5)
	if r := s.run("stats"); !strings.Contains(r.stdout, "judge: changed the vote's result") {
		t.Fatalf("%s", r.stdout)
	}
}

// gateRunsAndLabels runs the gate's verdict runs and labels them.
func gateRunsAndLabels(t *testing.T, s *sandbox) {
	t.Helper()
	var runs [][]string
	var want []int
	add := func(file string, code int) {
		runs = append(runs, []string{"verdict", "--no-tui", file, "--task-id", "t", "--task", "document the API", "--log-dir", "debate-logs"})
		want = append(want, code)
	}
	for range stats.GateNeeded + 1 {
		add("good.md", exitAccept)
		add("bad.md", exitReject)
	}
	add("unsure.md", exitEscalate)
	for i, r := range s.runAll(runs) {
		if r.code != want[i] {
			t.Fatalf("%v: exit %d\n%s\n%s", runs[i], r.code, r.stdout, r.stderr)
		}
	}
	// The person labels every accepted run "accept" and every rejected
	// one "improve", but the first of each; and the escalated one.
	labelEach(t, s, func(lc runlog.Contents, nth map[string]int) []string {
		o, _ := engine.LastOutcome(lc.Events)
		nth[string(o.Result)]++
		switch {
		case o.Result == "escalate":
			return []string{"reject"}
		case nth[string(o.Result)] == 1:
			return nil
		case o.Result == "accept":
			return []string{"accept"}
		}
		return []string{"improve"}
	})
}

// Sixty-three verdict runs of the fakes: thirty of work the judges accept
// and thirty of work marked for rejection, which the person labels
// "accept" and "improve" (the rules wrong on every rejection), two more
// unlabelled, and one the rules escalate. arena stats reports no gate
// until shadow_escalation_gate is set; then one that learned the rules'
// rejections were wrong: every labelled run told apart leave-one-out, and
// the unlabelled rejection escalated too, never the escalated run.
func TestStatsShadowGateFromRealRuns(t *testing.T) {
	s := newVerdictSandbox(t)
	work := func(name, text string) {
		if err := os.WriteFile(filepath.Join(s.dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	work("good.md", "# API\n\nGET /users returns the users.\n")
	work("bad.md", "# API\n\nGET /users deletes the users. VERDICT:REJECT\n")
	work("unsure.md", "# API\n\nGET /users might return the users. VERDICT:IMPROVE\n")
	gateRunsAndLabels(t, s)
	if rep := statsJSON(t, s, "debate-logs"); rep.Gate != nil {
		t.Fatal("the gate was reported without the setting")
	}
	// What the logs say: each run's decision, and the person's verdict.
	var unlabelledReject string
	decided, right, wrong := 0, 0, 0
	for _, path := range s.logs() {
		lc, err := runlog.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		o, _ := engine.LastOutcome(lc.Events)
		l, ok := stats.LastLabel(lc.Events)
		switch {
		case o.Result == "escalate":
			continue
		case !ok:
			if o.Result == "reject" {
				unlabelledReject = path
			}
		case l.Verdict == string(o.Result):
			right++
		default:
			wrong++
		}
		decided++
	}
	s.writeConfig(verdictSeats + "shadow_escalation_gate: true\n")
	rep := statsJSON(t, s, "debate-logs")
	g := rep.Gate
	if g == nil || !g.Shown || g.Right != right || g.Wrong != wrong || g.Decided != decided || right != stats.GateNeeded || wrong != stats.GateNeeded {
		t.Fatalf("gate %+v; the logs: %d right, %d wrong, %d decided", g, right, wrong, decided)
	}
	if g.AUROC.Value != 1 || g.AUROC.N != 2*stats.GateNeeded || g.Caught.Value != 1 || g.FalseAlarms.Value != 0 {
		t.Fatalf("AUROC %+v caught %+v false alarms %+v", g.AUROC, g.Caught, g.FalseAlarms)
	}
	if len(g.WouldEscalate) != stats.GateNeeded+1 || !slices.ContainsFunc(g.WouldEscalate, func(p string) bool { return filepath.Base(p) == filepath.Base(unlabelledReject) }) {
		t.Fatalf("would escalate %d runs, %v; want the %d rejections and %s", len(g.WouldEscalate), g.WouldEscalate, stats.GateNeeded+1, unlabelledReject)
	}
	if r := s.run("stats", "debate-logs"); !strings.Contains(r.stdout, "SHADOW ESCALATION GATE") || !strings.Contains(r.stdout, "leave-one-out AUROC 1.00 n=60") {
		t.Fatalf("%s", r.stdout)
	}
}

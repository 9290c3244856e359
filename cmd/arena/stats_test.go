package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
	"github.com/arenadebate/arena/engine/stats"
)

// statsJSON runs arena stats --json with args and decodes it.
func statsJSON(t *testing.T, s *sandbox, args ...string) stats.Report {
	t.Helper()
	r := s.run(append([]string{"stats", "--json"}, args...)...)
	if r.code != 0 {
		t.Fatalf("arena stats: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	var rep stats.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("arena stats --json: %v\n%s", err, r.stdout)
	}
	return rep
}

func statsModel(t *testing.T, rep stats.Report, name string) stats.Model {
	t.Helper()
	for _, m := range rep.Models {
		if m.Name == name {
			return m
		}
	}
	t.Fatalf("no figures for %s: %+v", name, rep.Models)
	return stats.Model{}
}

// A position-biased fake judge (qwen: it always prefers the option listed
// first) and an unbiased one (claude) each judge five comparisons, in two
// orders; the person labels each run's winner, Kafka in three of each
// judge's and NATS in two. The biased judge's receipts show its flips and
// count them as ties (exit 3: no robust recommendation); the stats name it
// with a flip rate of 1, a first-position rate of 1 and MT-Bench's
// "biased toward first" in every swap, and the unbiased one with 0, one
// half and consistency in every swap. Every figure, its count, its runs
// and its interval are what the test recomputes from the logs.
func TestStatsNameThePositionBiasedJudge(t *testing.T) {
	s := newSandbox(t)
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"qwen": {Bias: &clitest.Bias{FirstShown: true}}}})
	var runs [][]string
	for range 5 {
		for _, judge := range []string{"qwen", "claude"} {
			runs = append(runs, []string{"compare", "--no-tui", "Which queue for order events?", "--option", "Kafka", "--option", "NATS",
				"--criteria", "throughput:high,cost:medium", "--quick", "--advocates", "gemini,codex", "--judge", judge})
		}
	}
	for i, r := range s.runAll(runs) {
		if i%2 == 0 && (r.code != exitOrderDependent ||
			!strings.Contains(r.stdout, "the pick flipped (Kafka in 1 of 2 orders, NATS in 1) — counted as a tie") ||
			!strings.Contains(r.stdout, "Kafka and NATS flipped")) {
			t.Fatalf("qwen: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		if i%2 == 1 && (r.code != exitOK || !strings.Contains(r.stdout, "picked Kafka in 2 of 2 orders")) {
			t.Fatalf("claude: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
		}
	}
	labelEach(t, s, func(lc runlog.Contents, nth map[string]int) []string {
		judge := judgeOf(lc)
		nth[judge]++
		if nth[judge] <= 3 {
			return []string{"winner", "Kafka"}
		}
		return []string{"winner", "NATS"}
	})
	rep := statsJSON(t, s)
	if rep.Runs != 10 || rep.Logs != 10 || rep.Labelled != 10 {
		t.Fatalf("runs %d logs %d labelled %d", rep.Runs, rep.Logs, rep.Labelled)
	}
	q, c := statsModel(t, rep, "qwen").Judge, statsModel(t, rep, "claude").Judge
	// Per run three decisive preferences (the pick, two criteria).
	if !q.FlipRate.Shown || q.FlipRate.Value != 1 || q.FlipRate.N != 15 {
		t.Fatalf("qwen flip rate %+v", q.FlipRate)
	}
	if !c.FlipRate.Shown || c.FlipRate.Value != 0 || c.FlipRate.N != 15 {
		t.Fatalf("claude flip rate %+v", c.FlipRate)
	}
	if !q.FirstShown.Shown || q.FirstShown.Value != 1 || q.FirstShown.N != 10 || c.FirstShown.Value != 0.5 || q.FirstShownChance != 0.5 {
		t.Fatalf("first shown: qwen %+v claude %+v", q.FirstShown, c.FirstShown)
	}
	if q.Swap.FirstPosition.Value != 1 || q.Swap.FirstPosition.N != 15 || c.Swap.Consistency.Value != 1 {
		t.Fatalf("qwen %+v, claude %+v", q.Swap, c.Swap)
	}
	// claude picks Kafka every time: no better than chance against the
	// person's three Kafkas and two NATS.
	if k := c.Person.Winner.Kappa; !k.Shown || k.Value != 0 {
		t.Fatalf("claude's κ %+v", k)
	}
	matchTheLogs(t, rep, s.logs(), "qwen", "claude")
	// Every seat's calls are counted; the advocates never judged.
	if g := statsModel(t, rep, "gemini"); g.Seat.Calls != 10 || g.Judge.Readings != 0 || g.Seat.LatencyP50.N != 10 {
		t.Fatalf("gemini %+v", g)
	}
	// The same to a pipe: tables with the counts.
	r := s.run("stats", "--protocol", "compare")
	if r.code != 0 || !strings.Contains(r.stdout, "AS A JUDGE") || !strings.Contains(r.stdout, "AS A SEAT") || !strings.Contains(r.stdout, "1.00 (n=15)") ||
		!strings.Contains(r.stdout, "10 runs from 10 arena logs") {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// With their intervals, counts and runs, beside GPT-4's figures.
	lo, hi := wilson95(15, 15)
	if !regexp.MustCompile(fmt.Sprintf(`(?m)^  biased toward first +1\.00 +%.2f–%.2f +15 \(5 runs\) +GPT-4 in MT-Bench 0\.30`, lo, hi)).MatchString(r.stdout) ||
		!strings.Contains(r.stdout, "GPT-4 in MT-Bench 0.65") {
		t.Fatalf("the tables lack MT-Bench's figures with their intervals:\n%s", r.stdout)
	}
	if r := s.run("stats", "--protocol", "rank", "--json"); r.code != 0 || !strings.Contains(r.stdout, `"runs":0`) {
		t.Fatalf("--protocol rank: %s", r.stdout)
	}
	if r := s.run("stats", "--since", "yesterday"); r.code != exitUsage || !strings.Contains(r.stderr, `--since "yesterday"`) {
		t.Fatalf("--since: exit %d %s", r.code, r.stderr)
	}
	if r := s.run("stats", "--protocol", "poker"); r.code != exitUsage || !strings.Contains(r.stderr, "the protocols are") {
		t.Fatalf("--protocol: exit %d %s", r.code, r.stderr)
	}
	if r := s.run("stats", "no-such-dir"); r.code != exitUsage {
		t.Fatalf("a missing directory: exit %d %s", r.code, r.stderr)
	}
}

// A judge that prefers its own model's work (qwen, on every solution
// marked as its style) grades solutions qwen wrote, in five judgings with
// --author qwen and two without. Self-preference shows only where the
// author is known; the debates it forced are in the ledger, its moves
// without new evidence.
func TestStatsSelfPreferenceOnlyWhereAuthorsAreKnown(t *testing.T) {
	s := newSandbox(t)
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"qwen": {Bias: &clitest.Bias{Own: "zebra"}}}})
	for i := range 7 {
		sol := filepath.Join(s.dir, "add.go")
		body := strings.Repeat("// zebra style\n", i+1) + "package add\n\nfunc Add(a, b int) int { return a + b }\n"
		if err := os.WriteFile(sol, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"judge", "add.go", "--no-tui", "--task", "add two ints", "--judges", "gemini,codex,qwen", "--log-dir", "with"}
		if i >= 5 {
			args = []string{"judge", "add.go", "--no-tui", "--task", "add two ints", "--judges", "gemini,codex,qwen", "--log-dir", "without"}
		} else {
			args = append(args, "--author", "qwen")
		}
		if r := s.run(args...); r.code != exitOK || !strings.Contains(r.stdout, "Debate ledger") {
			t.Fatalf("run %d: exit %d\n%s\n%s", i, r.code, r.stdout, r.stderr)
		}
	}
	with := statsModel(t, statsJSON(t, s, "with"), "qwen").Judge
	// qwen gave 5 everywhere; the other two 4, with one criterion 3.
	if !with.SelfPreference.Shown || with.SelfPreference.N != 5 || with.SelfPreference.Value < 0.9 {
		t.Fatalf("self-preference %+v", with.SelfPreference)
	}
	if !with.Conformity.Shown || with.Conformity.Value != 1 {
		t.Fatalf("conformity %+v", with.Conformity)
	}
	if !with.PanelDifference.Shown || with.PanelDifference.Value < 0.9 {
		t.Fatalf("panel difference %+v", with.PanelDifference)
	}
	if g := statsModel(t, statsJSON(t, s, "with"), "gemini").Judge; g.SelfPreference.Shown {
		t.Fatalf("gemini wrote nothing: %+v", g.SelfPreference)
	}
	without := statsModel(t, statsJSON(t, s, "without"), "qwen").Judge
	if without.SelfPreference.Shown || !strings.Contains(without.SelfPreference.Note, "authors unknown") {
		t.Fatalf("self-preference without authors %+v", without.SelfPreference)
	}
}

// qualityRepo is a git repository whose branch adds q<N>.go: the fake
// judges with a Quality bias read N, whatever letter it is shown under.
func qualityRepo(t *testing.T, dir, name string, q int) string {
	t.Helper()
	path := filepath.Join(dir, name)
	git := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("git", append([]string{"-C", path}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	os.MkdirAll(path, 0o755)
	git("init", "-q", "-b", "main")
	git("config", "user.email", "dev@example.com")
	git("config", "user.name", "dev")
	git("config", "commit.gpgsign", "false")
	os.WriteFile(filepath.Join(path, "README.md"), []byte("# "+name+"\n"), 0o644)
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	git("checkout", "-q", "-b", "impl")
	os.WriteFile(filepath.Join(path, "q"+string(rune('0'+q))+".go"), []byte("package p\n\nfunc Add(a, b int) int { return a + b }\n"), 0o644)
	git("add", "-A")
	git("commit", "-q", "-m", "implement")
	return path
}

// Three rankings of the same three authors' work, whose true order is
// known (claude's q5, codex's q4, gemini's q2), each under different
// labels and in a different order: the ratings put them in that order.
// The person labels each run's winner; the judge that saw the quality
// agrees with every word of it.
func TestStatsRatesAuthorsInTheirTrueOrder(t *testing.T) {
	s := newSandbox(t)
	s.fakes.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{"qwen": {Bias: &clitest.Bias{Quality: `"file": "q([1-5])\.go"`}}}})
	if err := os.WriteFile(filepath.Join(s.dir, "spec.md"), []byte("# Spec\n\nAdd(a, b int) int.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	type repo struct {
		author string
		q      int
	}
	work := []repo{{"claude", 5}, {"codex", 4}, {"gemini", 2}}
	for run, order := range [][]int{{0, 1, 2}, {2, 0, 1}, {1, 2, 0}} {
		root := t.TempDir()
		args := []string{"rank", "spec.md"}
		var authors, labels []string
		winner := ""
		for k, i := range order {
			label := string(rune('p' + k))
			args = append(args, qualityRepo(t, root, label, work[i].q))
			authors, labels = append(authors, work[i].author), append(labels, label)
			if work[i].q == 5 {
				winner = label
			}
		}
		args = append(args, "--no-tui", "--labels", strings.Join(labels, ","), "--authors", strings.Join(authors, ","), "--seed", "7")
		r := s.run(args...)
		if r.code != exitOK || !strings.Contains(r.stdout, "Order receipts") {
			t.Fatalf("run %d: exit %d\n%s\n%s", run, r.code, r.stdout, r.stderr)
		}
		logs := s.logs()
		slices.Sort(logs)
		var last string
		for _, l := range logs {
			if lc, err := runlog.ReadFile(l); err == nil && len(lc.Events) > 0 && !labelled(lc) {
				last = l
			}
		}
		if r := s.run("label", last, "winner", strings.ToUpper(winner)); r.code != 0 || !strings.Contains(r.stdout, "winner "+winner) {
			t.Fatalf("label: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
		}
	}
	rep := statsJSON(t, s)
	if len(rep.Authors) != 3 || rep.Labelled != 3 {
		t.Fatalf("authors %+v, labelled %d", rep.Authors, rep.Labelled)
	}
	for i, name := range []string{"claude", "codex", "gemini"} {
		a := rep.Authors[i]
		if a.Name != name || !a.Shown || a.Games != 6 || a.Low >= a.Rating || a.High <= a.Rating {
			t.Fatalf("rating %d: %+v", i, a)
		}
	}
	// Agreement on the winner, pair by pair (five dimensions, two pairs,
	// three runs); κ resamples runs and three are too few.
	q := statsModel(t, rep, "qwen").Judge
	if w := q.Person.Winner; !w.Agreement.Shown || w.Agreement.Value != 1 || w.Agreement.N != 30 || w.Kappa.Shown || w.Kappa.Note != "too few runs: 3, 5 needed to resample" {
		t.Fatalf("winner %+v", w)
	}
	if !q.FlipRate.Shown || q.FlipRate.Value != 0 {
		t.Fatalf("qwen flip rate %+v", q.FlipRate)
	}
}

func labelled(lc runlog.Contents) bool {
	for _, e := range lc.Events {
		if _, ok := e.Payload.(engine.Label); ok {
			return true
		}
	}
	return false
}

// arena label refuses what it cannot record, and records what it can,
// after the outcome, once per call; the latest counts.
func TestLabelRecordsAPersonsVerdict(t *testing.T) {
	s := newSandbox(t)
	if r := s.run("compare", "--no-tui", "Which queue?", "--option", "Kafka", "--option", "NATS", "--criteria", "speed:high", "--quick"); r.code != exitOK {
		t.Fatalf("compare: exit %d\n%s", r.code, r.stderr)
	}
	log := s.logs()[0]
	for _, tc := range []struct{ args, want string }{
		{"winner Redis", `winner "Redis" is not one of the run's candidates (Kafka, NATS)`},
		{"maybe", `"maybe" is not a verdict`},
		{"", "no verdict given"},
		{"score 7", "give a number from 1 to 5"},
	} {
		args := append([]string{"label", log}, strings.Fields(tc.args)...)
		if r := s.run(args...); r.code != exitUsage || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("label %s: exit %d %s", tc.args, r.code, r.stderr)
		}
	}
	if r := s.run("label", log, "winner", "nats", "--note", "we run NATS\x1b[31m already"); r.code != 0 || !strings.Contains(r.stdout, "winner NATS (we run NATS already)") {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	lc, err := runlog.ReadFile(log)
	if err != nil || lc.Problem != "" {
		t.Fatalf("%v %s", err, lc.Problem)
	}
	n := len(lc.Events)
	l, ok := lc.Events[n-2].Payload.(engine.Label)
	if !ok || l.Winner != "NATS" || l.By != "person" || lc.Events[n-2].Seq != lc.Events[n-3].Seq+1 {
		t.Fatalf("the log ends %+v %+v", lc.Events[n-2], lc.Events[n-1])
	}
	if note, ok := lc.Events[n-1].Payload.(engine.Note); !ok || !strings.Contains(note.Message, "the person's own verdict") {
		t.Fatalf("no note: %+v", lc.Events[n-1])
	}
	// A second verdict of another kind replaces the first, and says so.
	if r := s.run("label", log, "accept"); r.code != 0 || !strings.Contains(r.stdout, "It replaces your earlier one (winner NATS (we run NATS already))") {
		t.Fatalf("a second label: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// Replay shows it.
	if r := s.run("replay", log, "--instant", "--no-tui"); r.code != 0 || !strings.Contains(r.stdout, "the person's own verdict (arena label): winner NATS") {
		t.Fatalf("replay: %s", r.stdout)
	}
	// A file that is not an arena log, and one through a link, are not
	// written.
	other := filepath.Join(s.dir, "notes.jsonl")
	os.WriteFile(other, []byte(`{"not":"a log"}`+"\n"), 0o600)
	if r := s.run("label", other, "accept"); r.code != exitUsage {
		t.Fatalf("a foreign file: exit %d", r.code)
	}
	if b, _ := os.ReadFile(other); string(b) != `{"not":"a log"}`+"\n" {
		t.Fatal("a foreign file was written")
	}
	link := filepath.Join(s.dir, "link.jsonl")
	os.Symlink(log, link)
	before, _ := os.ReadFile(log)
	if r := s.run("label", link, "accept"); r.code == 0 {
		t.Fatal("labelled through a symbolic link")
	}
	if after, _ := os.ReadFile(log); string(after) != string(before) {
		t.Fatal("the log was written through a link")
	}
}

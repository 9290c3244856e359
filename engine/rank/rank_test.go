package rank

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/doc"
	"github.com/arenadebate/arena/engine/enginetest"
	"github.com/arenadebate/arena/engine/rank/facts"
)

// factsReply is a fact seat's reply whose requirements name the
// repository, so a judge's prompt shows which repository a letter is.
func factsReply(marker string, testCount int) map[string]any {
	return map[string]any{
		"functionality":   map[string]any{"spec_requirements": []string{"login", marker, "in the style Mistral and Llama favour"}, "implemented": []string{marker}, "missing": []string{"login"}},
		"security":        map[string]any{"findings": []any{map[string]any{"file": "main.go", "line": 3, "issue": "hard-coded token"}, map[string]any{"file": "ghost.go", "line": 1, "issue": "invented"}}, "patterns_observed": []string{}},
		"tests":           map[string]any{"coverage_estimate": "low", "dry_violations": []any{}, "test_count": testCount, "mocking_approach": "none"},
		"overengineering": map[string]any{"abstractions": []any{}, "defensive_code": []any{}, "config_complexity": "low"},
		"dead_code":       map[string]any{"unused_imports": []string{}, "unused_functions": []string{}, "todo_comments": 1, "commented_code_blocks": 0},
	}
}

// judgeReply scores each letter as given.
func judgeReply(dim string, scores map[string]int) map[string]any {
	sc := map[string]any{}
	var rk []string
	for l, n := range scores {
		sc[l] = map[string]any{"score": n, "justification": fmt.Sprintf("%s gets %d", l, n), "evidence": []string{"facts"}}
		rk = append(rk, l)
	}
	slices.Sort(rk)
	return map[string]any{"dimension": dim, "scores": sc, "ranking": rk}
}

func config(labels ...string) Config {
	cfg := Config{
		ID: "t", Spec: engine.Doc{Name: "spec.md", Content: "Build a login page."}, Weights: DefaultWeights(),
		Judges:  map[Dimension]challengers.Agent{},
		Verdict: enginetest.Agent("claude"), Seed: 7,
		Lines: func(r Repo, p string) (int, bool) {
			if p == "main.go" {
				return 10, true
			}
			return 0, false
		},
		Now: func() time.Time { return time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC) },
	}
	fact := []string{"claude", "gemini", "qwen"}
	for i, l := range labels {
		cfg.Repos = append(cfg.Repos, Repo{
			Label: l, Path: "/repos/" + l + "-dir", Agent: enginetest.Agent(fact[i%len(fact)]),
			Git: facts.Git{Branch: "feature-" + l, Base: "main", Head: strings.Repeat(fmt.Sprint(i), 40), FilesChanged: 2 + i, Additions: 10 * (i + 1), Deletions: i},
		})
	}
	judges := []string{"codex", "gemini", "qwen", "claude", "codex"}
	for i, d := range Dimensions {
		cfg.Judges[d] = enginetest.Agent(judges[i])
	}
	return cfg
}

// letterOfMarker finds, in a judge's prompt, the letter of the candidate
// whose facts hold marker.
func letterOfMarker(t *testing.T, prompt, marker string) string {
	t.Helper()
	for _, part := range strings.Split(prompt, "\nCANDIDATE ")[1:] {
		if strings.Contains(part, marker) {
			return part[:1]
		}
	}
	t.Fatalf("no candidate holds %q", marker)
	return ""
}

func TestScoresFollowTheLettersThroughEachJudgesShuffle(t *testing.T) {
	cfg := config("alpha", "beta", "gamma")
	cfg.Authors = []string{"mistral", "", "llama"}
	cfg.Orders = 1 // one order: what a letter scores is what its repository gets
	s := enginetest.NewScript()
	s.On("claude", ShapeFacts, enginetest.Step{Reply: factsReply("req-one", 3)})
	s.On("gemini", ShapeFacts, enginetest.Step{Reply: factsReply("req-two", 3)})
	s.On("qwen", ShapeFacts, enginetest.Step{Reply: factsReply("req-three", 3)})
	// Every judge gives A 5, B 3, C 1: what a repository gets depends only
	// on the letter its judge showed it under.
	for _, a := range []string{"codex", "gemini", "qwen", "claude"} {
		s.On(a, ShapeJudge, enginetest.Step{Reply: judgeReply("x", map[string]int{"A": 5, "B": 3, "C": 1})})
	}
	s.On("claude", ShapeSynthesis, enginetest.Step{Reply: map[string]any{"verdict": "placeholder"}})
	p := New(cfg)
	out, events := enginetest.Run(t, context.Background(), p, s)
	rep := p.Report()
	if rep == nil {
		t.Fatalf("no report; outcome %+v", out)
	}
	want := map[string]int{"A": 5, "B": 3, "C": 1}
	orders := map[string]bool{}
	for _, c := range s.Calls() {
		if c.Shape != ShapeJudge {
			continue
		}
		var dim Dimension
		for _, d := range Dimensions {
			if strings.Contains(c.Prompt, `"dimension": "`+string(d)+`"`) {
				dim = d
			}
		}
		order := ""
		for _, lm := range [][2]string{{"alpha", "req-one"}, {"beta", "req-two"}, {"gamma", "req-three"}} {
			l, letter := lm[0], letterOfMarker(t, c.Prompt, lm[1])
			order += letter
			if got := rep.Scores[l].Dims[dim].Score; got != float64(want[letter]) {
				t.Errorf("%s judge showed %s as %s (score %d), report has %g", dim, l, letter, want[letter], got)
			}
		}
		orders[order] = true
		// A judge never sees a label, path, branch or agent.
		for _, bad := range []string{"alpha-dir", "/repos", "feature-", "claude", "gemini", "qwen", "istral", "lama"} {
			if i := strings.Index(c.Prompt, "CANDIDATE A"); strings.Contains(c.Prompt[i:], bad) {
				t.Errorf("%s judge's prompt names %q", dim, bad)
			}
		}
	}
	if len(orders) < 2 {
		t.Errorf("every judge saw the same order: %v", orders)
	}
	// The verdict writer did not name the winner twice: arena states it.
	if rep.VerdictBy != "arena" || !strings.HasPrefix(rep.Verdict, rep.Ranking[0]+" ranks first") {
		t.Errorf("verdict %q by %s", rep.Verdict, rep.VerdictBy)
	}
	if got := enginetest.Phases(events); !slices.Equal(got, []string{"measure/0", "facts/0", "judging/0", "verdict/0", "outcome/0"}) {
		t.Errorf("phases %q", got)
	}
	// The invented finding was dropped and said.
	if c := rep.Checks["alpha"]; len(c) != 1 || !strings.Contains(c[0], "ghost.go") {
		t.Errorf("checks %q", c)
	}
	if n := len(rep.Facts["alpha"].Security.Findings); n != 1 {
		t.Errorf("%d findings kept", n)
	}
	checkAlphaFindings(t, out)
}

// checkAlphaFindings checks that the outcome document has each
// repository's kept findings, with their places, for SARIF: the invented
// one is not among them.
func checkAlphaFindings(t *testing.T, out engine.Outcome) {
	t.Helper()
	var alpha *doc.Section
	for i, sec := range out.Document.Sections {
		if sec.ID == doc.SectionFindings && sec.Heading == "Findings in alpha" {
			alpha = &out.Document.Sections[i]
		}
	}
	if alpha == nil {
		t.Fatalf("no findings section for alpha:\n%s", out.Markdown)
	}
	wantFound := []doc.Finding{{About: "security", Issue: "hard-coded token", File: "main.go", Line: 3, Level: doc.LevelWarning, By: []string{"claude (fact seat)"}}}
	if got := alpha.Blocks[0].Findings.Items; !reflect.DeepEqual(got, wantFound) {
		t.Errorf("alpha's findings:\n got %+v\nwant %+v", got, wantFound)
	}
}

func TestTotalsRankingAndReport(t *testing.T) {
	cfg := config("alpha", "beta")
	cfg.Seed = 1
	s := enginetest.NewScript()
	s.On("claude", ShapeFacts, enginetest.Step{Reply: factsReply("req-one", 3)})
	s.On("gemini", ShapeFacts, enginetest.Step{Reply: factsReply("req-two", 3)})
	for _, a := range []string{"codex", "gemini", "qwen", "claude"} {
		s.On(a, ShapeJudge, enginetest.Step{Reply: judgeReply("x", map[string]int{"A": 4, "B": 2})})
	}
	s.On("claude", ShapeSynthesis, enginetest.Step{Reply: "```json\n{\"verdict\": \"WINNER leads on every dimension.\"}\n```"})
	p := New(cfg)
	out, events := enginetest.Run(t, context.Background(), p, s)
	rep := p.Report()
	// Each repository's total is its own weighted mean, computed here
	// from the report's scores.
	for l, rs := range rep.Scores {
		num, den := 0.0, 0
		for _, d := range Dimensions {
			num += rs.Dims[d].Score * float64(cfg.Weights[d])
			den += cfg.Weights[d]
		}
		if want := num / float64(den); fmt.Sprintf("%.2f", want) != fmt.Sprintf("%.2f", rs.WeightedTotal) {
			t.Errorf("%s total %.2f, want %.2f", l, rs.WeightedTotal, want)
		}
	}
	if rep.Places[0].Total < rep.Places[1].Total || out.Result != OutcomeRanked && out.Result != OutcomeTie {
		t.Fatalf("places %+v result %s", rep.Places, out.Result)
	}
	tables := enginetest.Payloads[engine.Table](events)
	if len(tables) != 3 || tables[2].Rows[len(tables[2].Rows)-1].Cells[0] != "Weighted total" || tables[1].Title != "Order receipts" {
		t.Fatalf("tables %+v", tables)
	}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	for _, k := range []string{"version", "created_at", "spec_file", "repos", "weights", "scores", "ranking", "verdict"} {
		if _, ok := m[k]; !ok {
			t.Errorf("report lacks %q", k)
		}
	}
	repo0 := m["repos"].([]any)[0].(map[string]any)
	for _, k := range []string{"label", "path", "branch", "git_head"} {
		if _, ok := repo0[k]; !ok {
			t.Errorf("report repo lacks %q", k)
		}
	}
	sc := m["scores"].(map[string]any)["alpha"].(map[string]any)
	if _, ok := sc["weighted_total"]; !ok || sc["functionality"] == nil {
		t.Errorf("scores %v", sc)
	}
	for _, want := range []string{"| Dimension | Weight |", "| Functionality | 30% |", "**Weighted total**", "## Ranking", "## Verdict", "## Detailed justifications"} {
		if !strings.Contains(out.Markdown, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
}

func TestAFactSeatThatFailsTwiceLeavesItsRepositoryNotJudged(t *testing.T) {
	cfg := config("alpha", "beta", "gamma")
	s := enginetest.NewScript()
	s.On("claude", ShapeFacts, enginetest.Step{Reply: factsReply("req-one", 3)})
	s.On("gemini", ShapeFacts, enginetest.Step{Reason: challengers.ReasonTimeout})
	s.On("qwen", ShapeFacts, enginetest.Step{Reply: factsReply("req-three", 3)})
	for _, a := range []string{"codex", "gemini", "qwen", "claude"} {
		s.On(a, ShapeJudge, enginetest.Step{Reply: judgeReply("x", map[string]int{"A": 4, "B": 4})})
	}
	s.On("claude", ShapeSynthesis, enginetest.Step{Reply: map[string]any{"verdict": "alpha and gamma tie."}})
	p := New(cfg)
	out, _ := enginetest.Run(t, context.Background(), p, s)
	if s.Count("gemini", ShapeFacts) != 2 {
		t.Fatalf("the fact seat was asked %d times, want 2", s.Count("gemini", ShapeFacts))
	}
	rep := p.Report()
	if out.Result != OutcomeTie || rep.NotJudged["beta"] == "" || slices.Contains(rep.Ranking, "beta") {
		t.Fatalf("result %s, not judged %v, ranking %q", out.Result, rep.NotJudged, rep.Ranking)
	}
	if !slices.ContainsFunc(out.Failures, func(f string) bool { return strings.HasPrefix(f, "beta not judged") }) {
		t.Fatalf("failures %q", out.Failures)
	}
	if !strings.Contains(out.Markdown, "**beta** was not judged") || rep.VerdictBy != "claude" {
		t.Fatalf("markdown:\n%s", out.Markdown)
	}
}

func TestAFailedJudgeLeavesItsDimensionOutOfEveryTotal(t *testing.T) {
	cfg := config("alpha", "beta")
	cfg.Judges[DimSecurity] = enginetest.Agent("broken")
	s := enginetest.NewScript()
	s.On("claude", ShapeFacts, enginetest.Step{Reply: factsReply("req-one", 3)})
	s.On("gemini", ShapeFacts, enginetest.Step{Reply: factsReply("req-two", 3)})
	for _, a := range []string{"codex", "gemini", "qwen", "claude"} {
		s.On(a, ShapeJudge, enginetest.Step{Reply: judgeReply("x", map[string]int{"A": 5, "B": 1})})
	}
	s.On("broken", ShapeJudge, enginetest.Step{Reply: "I would rather not say."})
	s.On("claude", ShapeSynthesis, enginetest.Step{Reply: map[string]any{"verdict": "alpha and beta, see the table"}})
	p := New(cfg)
	out, _ := enginetest.Run(t, context.Background(), p, s)
	rep := p.Report()
	if rep.LeftOut["security"] == "" || s.Count("broken", ShapeJudge+".repair") != 2 {
		t.Fatalf("left out %v", rep.LeftOut)
	}
	for l, rs := range rep.Scores {
		if _, ok := rs.Dims[DimSecurity]; ok {
			t.Errorf("%s has a security score", l)
		}
		num, den := 0.0, 0
		for d, ds := range rs.Dims {
			num += ds.Score * float64(cfg.Weights[d])
			den += cfg.Weights[d]
		}
		if den != 75 || fmt.Sprintf("%.2f", num/75) != fmt.Sprintf("%.2f", rs.WeightedTotal) {
			t.Errorf("%s total %.2f over weights %d", l, rs.WeightedTotal, den)
		}
	}
	if !strings.Contains(out.Markdown, "**Security** is left out of every total") {
		t.Fatalf("markdown:\n%s", out.Markdown)
	}
}

func TestEveryFactSeatFailingAborts(t *testing.T) {
	cfg := config("alpha", "beta")
	s := enginetest.NewScript()
	s.On("claude", ShapeFacts, enginetest.Step{Reason: challengers.ReasonExit})
	s.On("gemini", ShapeFacts, enginetest.Step{Reason: challengers.ReasonTimeout})
	p := New(cfg)
	out, _ := enginetest.Run(t, context.Background(), p, s)
	if out.Result != engine.OutcomeAborted || p.Report() == nil || len(p.Report().Ranking) != 0 {
		t.Fatalf("%+v", out)
	}
}

func TestTestsRunBeforeTheFactsAndReplaceTheReportedCount(t *testing.T) {
	cfg := config("alpha", "beta")
	cfg.RunTests = func(ctx context.Context, r Repo) facts.TestRun {
		if r.Label == "alpha" {
			return facts.TestRun{Ran: true, Counted: true, Passed: 4, Failed: 1, Command: "go test -count=1 -json ./..."}
		}
		return facts.TestRun{Ran: true, Counted: true, Passed: 3, Command: "go test -count=1 -json ./..."}
	}
	s := enginetest.NewScript()
	s.On("claude", ShapeFacts, enginetest.Step{Reply: factsReply("req-one", 40)})
	s.On("gemini", ShapeFacts, enginetest.Step{Reply: factsReply("req-two", 3)})
	for _, a := range []string{"codex", "gemini", "qwen", "claude"} {
		s.On(a, ShapeJudge, enginetest.Step{Reply: judgeReply("x", map[string]int{"A": 3, "B": 3})})
	}
	s.On("claude", ShapeSynthesis, enginetest.Step{Reply: map[string]any{"verdict": "alpha and beta tie"}})
	p := New(cfg)
	enginetest.Run(t, context.Background(), p, s)
	rep := p.Report()
	if rep.Facts["alpha"].Tests.TestCount != 5 || !strings.Contains(strings.Join(rep.Checks["alpha"], "\n"), "reported 40 tests; running them counted 5") {
		t.Fatalf("alpha: %d tests, checks %q", rep.Facts["alpha"].Tests.TestCount, rep.Checks["alpha"])
	}
	if rep.Repos[0].TestResults.Failed != 1 {
		t.Fatalf("repos %+v", rep.Repos[0])
	}
	for _, c := range s.Calls() {
		if c.Shape == ShapeFacts && c.Agent == "claude" && !strings.Contains(c.Prompt, "4 passed, 1 failed, 0 skipped") {
			t.Fatalf("the fact seat was not told the measured tests:\n%s", c.Prompt)
		}
	}
}

func TestInterruptedRanking(t *testing.T) {
	cfg := config("alpha", "beta")
	ctx, cancel := context.WithCancel(context.Background())
	s := enginetest.NewScript()
	s.On("claude", ShapeFacts, enginetest.Step{Reply: factsReply("req-one", 3), Delay: time.Minute})
	s.On("gemini", ShapeFacts, enginetest.Step{Reply: factsReply("req-two", 3), Delay: time.Minute})
	s.Before = func(agent, shape string) { cancel() }
	out, _ := enginetest.Run(t, ctx, New(cfg), s)
	if out.Result != engine.OutcomeInterrupted {
		t.Fatalf("%+v", out)
	}
}

// byMarker scores each candidate by the marker its facts hold, whatever
// letter it is shown under: an unbiased judge.
func byMarker(scores map[string]int) func(prompt string) any {
	return func(prompt string) any {
		letters := map[string]int{}
		for _, part := range strings.Split(prompt, "\nCANDIDATE ")[1:] {
			for m, n := range scores {
				if strings.Contains(part, m) {
					letters[part[:1]] = n
				}
			}
		}
		return judgeReply("x", letters)
	}
}

// firstShown scores the first candidate shown 5 and the others 2: a
// judge with a position bias.
func firstShown(prompt string) any {
	sc := map[string]int{}
	for _, part := range strings.Split(prompt, "\nCANDIDATE ")[1:] {
		sc[part[:1]] = 2
	}
	sc["A"] = 5
	return judgeReply("x", sc)
}

// The security judge always favours the first candidate shown; the others
// judge the facts. Asked in two orders, security's preference flips and
// counts as a tie (both levelled to 3.5); the others' hold. The receipts
// say which, the tally counts the flips, and every reading is recorded.
func TestAPositionBiasedJudgeIsCountedAsATie(t *testing.T) {
	cfg := config("alpha", "beta")
	cfg.Authors = []string{"claude", "gemini"}
	s := enginetest.NewScript()
	s.On("claude", ShapeFacts, enginetest.Step{Reply: factsReply("req-one", 3)})
	s.On("gemini", ShapeFacts, enginetest.Step{Reply: factsReply("req-two", 3)})
	cfg.Judges[DimSecurity] = enginetest.Agent("biased")
	s.On("biased", ShapeJudge, enginetest.Step{Reply: firstShown})
	for _, a := range []string{"codex", "qwen", "claude"} {
		s.On(a, ShapeJudge, enginetest.Step{Reply: byMarker(map[string]int{"req-one": 4, "req-two": 3})})
	}
	s.On("claude", ShapeSynthesis, enginetest.Step{Reply: map[string]any{"verdict": "alpha ranks first."}})
	p := New(cfg)
	out, events := enginetest.Run(t, context.Background(), p, s)
	rep := p.Report()
	if out.Result != OutcomeRanked || rep.Ranking[0] != "alpha" || s.Count("biased", ShapeJudge) != 2 {
		t.Fatalf("%s %q; biased asked %d times", out.Result, rep.Ranking, s.Count("biased", ShapeJudge))
	}
	sec := rep.Scores["alpha"].Dims[DimSecurity]
	if sec.Score != 3.5 || !sec.Levelled || rep.Scores["beta"].Dims[DimSecurity].Score != 3.5 || len(sec.ByOrder) != 2 {
		t.Fatalf("security %+v / %+v", sec, rep.Scores["beta"].Dims[DimSecurity])
	}
	if f := rep.Scores["alpha"].Dims[DimFunctionality]; f.Score != 4 || f.Levelled {
		t.Fatalf("functionality %+v", f)
	}
	// Functionality 30, tests 20, overengineering 15, dead code 10 favour
	// alpha 4 to 3; security 25 is level at 3.5.
	if want := (4*75 + 3.5*25) / 100.0; math.Abs(rep.Scores["alpha"].WeightedTotal-math.Round(want*100)/100) > 1e-9 {
		t.Fatalf("alpha total %v, want %v", rep.Scores["alpha"].WeightedTotal, want)
	}
	for _, w := range []string{
		"- Security: alpha and beta flipped (alpha over beta in 1 of 2 orders, beta over alpha in 1) — counted as a tie",
		"- Functionality: alpha over beta in 2 of 2 orders",
		"1 of 5 decisive preferences did not hold across the orders (1 flipped outright)",
		"| 3.5 ⇄ |",
		"## Order receipts",
	} {
		if !strings.Contains(out.Markdown, w) {
			t.Errorf("the document lacks %q", w)
		}
	}
	if rep.Orders != 2 || len(rep.Judges["security"].Orders) != 2 || rep.Version != "1.1.0" {
		t.Fatalf("report orders %d %v", rep.Orders, rep.Judges["security"].Orders)
	}
	sc := enginetest.Payloads[engine.Scored](events)
	if len(sc) != 10 {
		t.Fatalf("%d scored events", len(sc))
	}
	var biased []engine.Scored
	for _, x := range sc {
		if x.Agent == "biased" {
			biased = append(biased, x)
		}
	}
	if len(biased) != 2 || biased[0].Seat != "security judge" || biased[1].Seat != "security judge, reversed" ||
		biased[0].Candidates[0].ID != biased[1].Candidates[1].ID || biased[0].Pick != biased[0].Candidates[0].ID ||
		biased[1].Pick != biased[1].Candidates[0].ID || biased[0].Candidates[0].Shown != "Candidate A" || biased[0].Candidates[0].Bytes == 0 {
		t.Fatalf("biased readings %+v", biased)
	}
	if a := biased[0].Candidates[0]; a.Author != map[string]string{"alpha": "claude", "beta": "gemini"}[a.ID] {
		t.Fatalf("author %+v", a)
	}
	placed := enginetest.Payloads[engine.Placed](events)
	if len(placed) != 1 || placed[0].Candidates[0] != (engine.Standing{ID: "alpha", Author: "claude", Place: 1}) {
		t.Fatalf("placed %+v", placed)
	}
	tables := enginetest.Payloads[engine.Table](events)
	if rc := tables[len(tables)-2]; rc.Title != "Order receipts" || len(rc.Rows) != 5 || rc.Rows[1].Stance != engine.StanceDisagree || rc.Rows[0].Stance != engine.StanceAgree {
		t.Fatalf("receipt table %+v", rc)
	}
}

// Two repositories have two orders: --orders 3 asks in two, and says so.
// A judge that answers in one order only leaves its receipts resting on
// that one.
func TestOrdersAreCappedAndAFailedOrderIsNamed(t *testing.T) {
	cfg := config("alpha", "beta")
	cfg.Orders = 3
	s := enginetest.NewScript()
	s.On("claude", ShapeFacts, enginetest.Step{Reply: factsReply("req-one", 3)})
	s.On("gemini", ShapeFacts, enginetest.Step{Reply: factsReply("req-two", 3)})
	for _, a := range []string{"gemini", "qwen", "claude"} {
		s.On(a, ShapeJudge, enginetest.Step{Reply: byMarker(map[string]int{"req-one": 4, "req-two": 3})})
	}
	s.On("codex", ShapeJudge, enginetest.Step{Reply: byMarker(map[string]int{"req-one": 4, "req-two": 3})},
		enginetest.Step{Reason: challengers.ReasonTimeout})
	s.On("claude", ShapeSynthesis, enginetest.Step{Reply: map[string]any{"verdict": "alpha ranks first."}})
	p := New(cfg)
	out, events := enginetest.Run(t, context.Background(), p, s)
	if out.Result != OutcomeRanked {
		t.Fatalf("%+v", out)
	}
	notes := enginetest.Payloads[engine.Note](events)
	has := func(sub string) bool {
		return slices.ContainsFunc(notes, func(n engine.Note) bool { return strings.Contains(n.Message, sub) })
	}
	if !has("2 repositories can be shown in 2 distinct orders: each judge is asked in 2, not 3") || !has("answered in 1 of 2 orders") {
		t.Fatalf("notes %+v", notes)
	}
}

package judge

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/enginetest"
)

var crit = []Criterion{{"correctness", 50}, {"security", 30}, {"docs", 20}}

const solutionText = "func Add(a, b int) int {\n\treturn a + b\n}\n// Add adds two numbers.\n"

func scores(vals []int, evidence string) []map[string]any {
	out := make([]map[string]any, len(crit))
	for i, c := range crit {
		out[i] = map[string]any{"criterion": c.Name, "score": vals[i], "evidence": []string{evidence}, "justification": "because"}
	}
	return out
}

func analysis(vals ...int) map[string]any {
	return map[string]any{
		"scores": scores(vals, "return a + b"), "overall": 4.9,
		"strengths": []string{"small"}, "weaknesses": []string{"no tests"},
		"verification": []map[string]any{{"question": "length bias?", "answer": "no", "changed": false}},
	}
}

func debate(accepts bool, vals []int, changes ...map[string]any) map[string]any {
	if changes == nil {
		changes = []map[string]any{}
	}
	return map[string]any{
		"disagreements": []map[string]any{{"judge": "Judge 2", "criterion": "security", "mine": vals[1], "theirs": 5, "defense": "no input validation", "challenge": "they missed it"}},
		"scores":        scores(vals, "return a + b"), "overall": 4, "changes": changes,
		"accepts_consensus": accepts, "agrees_with": []string{"Judge 3"},
	}
}

var synthesis = map[string]any{
	"strengths": []string{"small"}, "weaknesses": []string{"no tests"}, "recommendation": "pass",
	"justification": "solid", "resolutions": []map[string]any{{"criterion": "security", "how_resolved": "Judge 1 saw the check"}},
}

type memReports struct {
	files   map[int]string
	outcome string
}

func (m *memReports) Append(n int, text string) (string, error) {
	if m.files == nil {
		m.files = map[int]string{}
	}
	m.files[n] += text
	return fmt.Sprintf("reports/add-2026-01-01.%d.md", n), nil
}

func (m *memReports) Outcome(md string) (string, error) {
	m.outcome = md
	return "reports/add-2026-01-01.md", nil
}

func newJudging(rep ReportSink, maxRounds int, judges ...string) *Protocol {
	var as []challengers.Agent
	for _, j := range judges {
		as = append(as, enginetest.Agent(j))
	}
	return New(Config{
		ID: "t", Task: "an adder", Criteria: crit, Judges: as, MaxRounds: maxRounds, Reports: rep, Author: "qwen",
		Solution: Solution{Name: "add", Files: []engine.Doc{{Name: "add.go", Content: solutionText}}},
	})
}

func TestConsensusAfterTheAnalysis(t *testing.T) {
	s := enginetest.NewScript().
		On("gemini", ShapeAnalysis, enginetest.Step{Reply: analysis(4, 4, 3)}).
		On("codex", ShapeAnalysis, enginetest.Step{Reply: analysis(4, 3, 3)}).
		On("qwen", ShapeAnalysis, enginetest.Step{Reply: analysis(4, 4, 4)}).
		On("gemini", ShapeSynthesis, enginetest.Step{Reply: synthesis})
	rep := &memReports{}
	out, events := enginetest.Run(t, context.Background(), newJudging(rep, 3, "gemini", "codex", "qwen"), s)
	if out.Result != OutcomeConsensus || out.Rounds != 0 {
		t.Fatalf("outcome %s after %d rounds: %s", out.Result, out.Rounds, out.Summary)
	}
	if got := enginetest.Phases(events); !slices.Equal(got, []string{"analysis/0", "consensus_check/0", "synthesis/0", "outcome/0"}) {
		t.Fatalf("phases %q", got)
	}
	tables := enginetest.Payloads[engine.Table](events)
	if len(tables) != 1 || len(tables[0].Rows) != 4 || tables[0].Rows[3].Cells[0] != "spread" || !strings.HasPrefix(tables[0].Decision, "Consensus") {
		t.Fatalf("table %+v", tables)
	}
	// Judge 1: (4*50+4*30+3*20)/100 = 3.8; judge 3: 4.0; judge 2: 3.5, exactly 0.5 below.
	if tables[0].Rows[0].Cells[4] != "3.80" || tables[0].Rows[2].Cells[4] != "4.00" {
		t.Fatalf("overalls %q %q", tables[0].Rows[0].Cells, tables[0].Rows[2].Cells)
	}
	md := out.Markdown
	for _, want := range []string{
		"# Judging outcome: consensus", "| docs | 20% | 3/5 | 3/5 | 4/5 | 3.3/5 |", "**Consensus Overall Score:** 3.77/5.0",
		"Judge 3 (qwen) ⚠ graded its own model's work", "## Consensus Strengths", "- small", "Rounds to consensus: 0",
		"**Pass**", "gave an overall of 4.9; arena's weighted score", "Krippendorff's alpha",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("document lacks %q\n%s", want, md)
		}
	}
	if !strings.HasPrefix(rep.files[1], "Done by Judge 1 (gemini)\n") || !strings.Contains(rep.files[3], "this judge graded its own model's work") {
		t.Fatalf("reports %v", rep.files)
	}
	if rep.outcome != md {
		t.Fatal("the reports directory's copy differs from the outcome document")
	}
	// Judges are named to each other by number, never by model.
	for _, c := range s.Calls() {
		if strings.Contains(c.Prompt, "gemini") || strings.Contains(c.Prompt, "codex") {
			t.Fatalf("a prompt names a model:\n%s", c.Prompt)
		}
	}
}

func TestDebateToConsensusFlagsQuotesAndUnexplainedChanges(t *testing.T) {
	s := enginetest.NewScript().
		On("gemini", ShapeAnalysis, enginetest.Step{Reply: analysis(4, 2, 3)}).
		On("codex", ShapeAnalysis, enginetest.Step{Reply: analysis(4, 5, 3)}).
		On("qwen", ShapeAnalysis, enginetest.Step{Reply: analysis(4, 4, 3)}).
		// Round 1: gemini moves with reason and evidence but quotes what
		// is not there; codex moves with no reason; qwen holds out.
		On("gemini", ShapeDebate,
			enginetest.Step{Reply: debate(true, []int{4, 4, 3}, map[string]any{"criterion": "security", "from": 2, "to": 4, "reason": "Judge 2 showed the validation", "evidence": []string{"validateEmail(u.Email)"}})},
		).
		On("codex", ShapeDebate, enginetest.Step{Reply: debate(true, []int{4, 4, 3})}).
		On("qwen", ShapeDebate, enginetest.Step{Reply: debate(false, []int{4, 4, 3})}, enginetest.Step{Reply: debate(true, []int{4, 4, 3})}).
		On("gemini", ShapeSynthesis, enginetest.Step{Reply: synthesis})
	rep := &memReports{}
	out, events := enginetest.Run(t, context.Background(), newJudging(rep, 3, "gemini", "codex", "qwen"), s)
	if out.Result != OutcomeConsensus || out.Rounds != 2 {
		t.Fatalf("outcome %s after %d rounds: %s", out.Result, out.Rounds, out.Summary)
	}
	want := []string{"analysis/0", "consensus_check/0", "debate/1", "consensus_check/1", "debate/2", "consensus_check/2", "synthesis/2", "outcome/2"}
	if got := enginetest.Phases(events); !slices.Equal(got, want) {
		t.Fatalf("phases %q", got)
	}
	tables := enginetest.Payloads[engine.Table](events)
	if !strings.Contains(tables[0].Decision, "security more than 1 point apart") || !strings.Contains(tables[1].Decision, "Judge 3 did not accept") {
		t.Fatalf("decisions %q / %q", tables[0].Decision, tables[1].Decision)
	}
	var notes []string
	for _, n := range enginetest.Payloads[engine.Note](events) {
		notes = append(notes, n.Message)
	}
	all := strings.Join(notes, "\n")
	for _, want := range []string{
		"Judge 1 quotes evidence for security that is not in the solution: “validateEmail(u.Email)” (debate round 1)",
		"Judge 2 changed security 5 → 4 with no stated reason or evidence in debate round 1 (sycophancy guard)",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("notes lack %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "Judge 1 changed") {
		t.Errorf("a change with reason and evidence was flagged:\n%s", all)
	}
	md := out.Markdown
	for _, want := range []string{"security: Judge 1 2 vs Judge 2 5 (gap 3)", "Judge 1 2 → 4 (Judge 2 showed the validation)", "panel: Judge 1 saw the check", "after the debate"} {
		if !strings.Contains(md, want) {
			t.Errorf("document lacks %q", want)
		}
	}
	if !strings.Contains(rep.files[2], "## Debate Round 1") || !strings.Contains(rep.files[2], "## Debate Round 2") || !strings.Contains(rep.files[2], "Sycophancy guard") {
		t.Fatalf("judge 2's report:\n%s", rep.files[2])
	}
	// Round 2's prompt carries the other judges' reports with round 1.
	var last string
	for _, c := range s.Calls() {
		if c.Agent == "qwen" && c.Shape == ShapeDebate {
			last = c.Prompt
		}
	}
	if !strings.Contains(last, "REPORT OF Judge 1") || !strings.Contains(last, "## Debate Round 1") || !strings.Contains(last, "- security: 4") {
		t.Fatalf("round 2 prompt:\n%s", last)
	}
}

func TestNoConsensusFlagsHumanReview(t *testing.T) {
	s := enginetest.NewScript().
		On("gemini", ShapeAnalysis, enginetest.Step{Reply: analysis(4, 2, 3)}).
		On("codex", ShapeAnalysis, enginetest.Step{Reply: analysis(4, 5, 3)}).
		On("gemini", ShapeDebate, enginetest.Step{Reply: debate(false, []int{4, 2, 3})}).
		On("codex", ShapeDebate, enginetest.Step{Reply: debate(false, []int{4, 5, 3})})
	out, events := enginetest.Run(t, context.Background(), newJudging(nil, 2, "gemini", "codex"), s)
	if out.Result != OutcomeNoConsensus || out.Rounds != 2 {
		t.Fatalf("outcome %s after %d: %s", out.Result, out.Rounds, out.Summary)
	}
	if n := len(enginetest.Payloads[engine.Table](events)); n != 4 {
		t.Fatalf("%d tables", n)
	}
	if l := enginetest.Payloads[engine.DebateLedger](events); len(l) != 1 || !l[0].Changed || len(l[0].Moves) != 0 || !strings.HasPrefix(l[0].Result, "no consensus") ||
		l[0].VoteVerdict == "" || l[0].ResultVerdict != "" {
		t.Fatalf("ledger %+v", l)
	}
	for _, want := range []string{"HUMAN REVIEW NEEDED", "### security: Judge 1 2, Judge 2 5", "no input validation"} {
		if !strings.Contains(out.Markdown, want) {
			t.Errorf("document lacks %q\n%s", want, out.Markdown)
		}
	}
	if s.Count("gemini", ShapeSynthesis) != 0 {
		t.Fatal("no synthesis without consensus")
	}
}

func TestAJudgeThatFailsTwiceIsDropped(t *testing.T) {
	s := enginetest.NewScript().
		On("gemini", ShapeAnalysis, enginetest.Step{Reply: analysis(4, 2, 3)}).
		On("codex", ShapeAnalysis, enginetest.Step{Reply: analysis(4, 5, 3)}).
		On("qwen", ShapeAnalysis, enginetest.Step{Reply: analysis(4, 4, 3)}).
		On("gemini", ShapeDebate, enginetest.Step{Reason: challengers.ReasonTimeout}).
		On("codex", ShapeDebate, enginetest.Step{Reply: debate(true, []int{4, 4, 3}, map[string]any{"criterion": "security", "from": 5, "to": 4, "reason": "r", "evidence": "return a + b"})}).
		On("qwen", ShapeDebate, enginetest.Step{Reply: debate(true, []int{4, 4, 3})}).
		On("codex", ShapeSynthesis, enginetest.Step{Reply: synthesis})
	out, _ := enginetest.Run(t, context.Background(), newJudging(nil, 3, "gemini", "codex", "qwen"), s)
	if out.Result != OutcomeConsensus || s.Count("gemini", ShapeDebate) != 2 {
		t.Fatalf("outcome %s, gemini asked %d times: %s", out.Result, s.Count("gemini", ShapeDebate), out.Summary)
	}
	if !slices.Equal(out.Failures, []string{"Judge 1 (gemini) timed out in debate round 1"}) {
		t.Fatalf("failures %q", out.Failures)
	}
	if !strings.Contains(out.Markdown, "Judge 1 (gemini) — dropped") {
		t.Fatal("the document does not name the dropped judge")
	}
}

func TestOneJudgeLeftAborts(t *testing.T) {
	s := enginetest.NewScript().
		On("gemini", ShapeAnalysis, enginetest.Step{Reply: analysis(4, 2, 3)}).
		On("codex", ShapeAnalysis, enginetest.Step{Reason: challengers.ReasonExit}).
		On("qwen", ShapeAnalysis, enginetest.Step{Reply: "not json at all"})
	rep := &memReports{}
	out, _ := enginetest.Run(t, context.Background(), newJudging(rep, 3, "gemini", "codex", "qwen"), s)
	if out.Result != engine.OutcomeAborted || !strings.Contains(out.Summary, "one judge left") {
		t.Fatalf("outcome %s: %s", out.Result, out.Summary)
	}
	if len(out.Failures) != 2 || !strings.Contains(out.Failures[1], "Judge 3 (qwen) returned an unparseable reply") {
		t.Fatalf("failures %q", out.Failures)
	}
	if rep.files[1] == "" || rep.outcome == "" {
		t.Fatal("the reports written so far are kept on abort")
	}
}

func TestBelowMinScore(t *testing.T) {
	s := enginetest.NewScript().
		On("gemini", ShapeAnalysis, enginetest.Step{Reply: analysis(3, 3, 3)}).
		On("codex", ShapeAnalysis, enginetest.Step{Reply: analysis(3, 3, 3)}).
		On("gemini", ShapeSynthesis, enginetest.Step{Reply: synthesis})
	p := newJudging(nil, 3, "gemini", "codex")
	p.cfg.MinScore = 3.5
	out, _ := enginetest.Run(t, context.Background(), p, s)
	if out.Result != OutcomeBelowMin || !strings.Contains(out.Markdown, "**Needs revision**") || !strings.Contains(out.Markdown, "differs") {
		t.Fatalf("outcome %s: %s\n%s", out.Result, out.Summary, out.Markdown)
	}
}

// The ledger: a judge that moves citing a line of the solution it had not
// cited is backed by new evidence; one that moves citing only what it had
// cited already is flagged as conformity, and toward whom. A plain vote of
// the round-one overalls (3.20, 4.10, 3.80: mean 3.70) said pass, as the
// debate did.
func TestTheLedgerTellsEvidenceFromConformity(t *testing.T) {
	s := enginetest.NewScript().
		On("gemini", ShapeAnalysis, enginetest.Step{Reply: analysis(4, 2, 3)}).
		On("codex", ShapeAnalysis, enginetest.Step{Reply: analysis(4, 5, 3)}).
		On("qwen", ShapeAnalysis, enginetest.Step{Reply: analysis(4, 4, 3)}).
		On("gemini", ShapeDebate, enginetest.Step{Reply: debate(true, []int{4, 4, 3}, map[string]any{"criterion": "security", "from": 2, "to": 4,
			"reason": "the signature takes ints only, so 15 of the 16 injection cases cannot arise", "evidence": []string{"func Add(a, b int) int"}})}).
		On("codex", ShapeDebate, enginetest.Step{Reply: debate(true, []int{4, 4, 3}, map[string]any{"criterion": "security", "from": 5, "to": 4,
			"reason": "the others see it lower", "evidence": []string{"return a + b"}})}).
		On("qwen", ShapeDebate, enginetest.Step{Reply: debate(true, []int{4, 4, 3})}).
		On("gemini", ShapeSynthesis, enginetest.Step{Reply: synthesis})
	out, events := enginetest.Run(t, context.Background(), newJudging(nil, 3, "gemini", "codex", "qwen"), s)
	if out.Result != OutcomeConsensus {
		t.Fatalf("%s: %s", out.Result, out.Summary)
	}
	ls := enginetest.Payloads[engine.DebateLedger](events)
	if len(ls) != 1 {
		t.Fatalf("%d ledgers", len(ls))
	}
	l := ls[0]
	if l.Vote != "Pass (3.70)" || l.Changed || !strings.HasPrefix(l.Result, "Pass (consensus overall 3.80)") || len(l.Positions) != 3 || *l.Positions[0].Score != 3.2 ||
		l.VoteVerdict != "accept" || l.ResultVerdict != "accept" {
		t.Fatalf("ledger %+v", l)
	}
	if len(l.Moves) != 2 {
		t.Fatalf("moves %+v", l.Moves)
	}
	g, c := l.Moves[0], l.Moves[1]
	if g.Seat != "Judge 1" || g.On != "security" || g.From != "2" || g.To != "4" || g.Conformity ||
		!slices.Equal(g.Evidence, []string{"“func Add(a, b int) int”", "figure 15", "figure 16"}) || g.Toward != "Judge 2, Judge 3" {
		t.Fatalf("gemini's move %+v", g)
	}
	if c.Seat != "Judge 2" || !c.Conformity || len(c.Evidence) != 0 || c.Toward != "Judge 1, Judge 3" {
		t.Fatalf("codex's move %+v", c)
	}
	for _, w := range []string{"## Debate ledger", "**Plain vote** (mean of the judges' round-one overalls): Pass (3.70).", "**The debate did not change the result.**",
		"- Judge 2 (codex): security 5 → 4 (round 1), toward Judge 1, Judge 3 — ⚠ **no new evidence (conformity)**"} {
		if !strings.Contains(out.Markdown, w) {
			t.Errorf("document lacks %q", w)
		}
	}
	tables := enginetest.Payloads[engine.Table](events)
	if lt := tables[len(tables)-1]; !strings.HasPrefix(lt.Title, "Debate ledger") || lt.Rows[1].Stance != engine.StanceDisagree || lt.Rows[2].Cells[2] != "stayed" {
		t.Fatalf("ledger table %+v", lt)
	}
	// Every judge's independent scores are recorded for arena stats.
	var overall []engine.Scored
	for _, sc := range enginetest.Payloads[engine.Scored](events) {
		if sc.Judgement == "overall" {
			overall = append(overall, sc)
		}
	}
	if len(overall) != 3 || overall[1].Agent != "codex" || *overall[1].Candidates[0].Score != 4.1 || overall[1].Verdict != "accept" ||
		overall[0].Verdict != "improve" || overall[0].Candidates[0].Author != "qwen" || overall[0].Candidates[0].Bytes != len(solutionText) {
		t.Fatalf("overall readings %+v", overall)
	}
}

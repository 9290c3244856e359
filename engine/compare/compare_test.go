package compare

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

var options = []string{"Kafka", "Postgres LISTEN/NOTIFY"}

func opening(option, other string) Opening {
	o := Opening{Option: option, Stakeholders: "The platform team prefers fewer systems; " + option + " earns that.",
		ClosingArgument: option + " is the right call. It carries the load. It fails safely."}
	for _, c := range crit {
		o.Arguments = append(o.Arguments, Argument{Criterion: c.Name,
			ForThis:      fmt.Sprintf("%s is strong on %s because it was built for it", option, c.Name),
			AgainstOther: other + " was not"})
	}
	o.RisksOfOther = []string{other + " risk one", other + " risk two", other + " risk three"}
	return o
}

// rebuttal quotes three claims of the opening for opponent, word for word.
func rebuttal(opponent string) Rebuttal {
	r := Rebuttal{Conceded: []string{"the closing is fair"}}
	for _, c := range crit {
		r.Attacks = append(r.Attacks, Attack{Claim: fmt.Sprintf("%s is strong on %s because it was built for it", opponent, c.Name),
			WhyItFails: "it was not", CounterEvidence: "benchmarks"})
	}
	return r
}

// judgement scores favour on every criterion 5 and the others 3, and
// recommends favour.
func judgement(favour string) Judgement { return judgementOf(favour, options) }

// judgementOf is judgement over other options.
func judgementOf(favour string, options []string) Judgement {
	j := Judgement{Recommendation: favour, OpenQuestions: []string{"what is the peak rate?"},
		Audit: []AuditItem{{Option: "Kafka", Kind: "unsupported", Claim: "1M events/s", Detail: "no source"}}}
	for _, o := range options {
		s := 3
		if o == favour {
			s = 5
		}
		for _, c := range crit {
			j.Scores = append(j.Scores, Score{Criterion: c.Name, Option: o, Score: s, Justification: "because", MoreConvinced: favour})
		}
		j.Conditions = append(j.Conditions, Condition{Option: o, ChooseIf: []string{"you need " + o}})
		j.Rebuttals = append(j.Rebuttals, RebuttalScore{Option: o, Effectiveness: 3, Survived: []string{"a"}, Collapsed: []string{"b"}})
	}
	return j
}

// firstListed recommends whichever option the prompt lists first: a judge
// with a position bias.
func firstListed(prompt string) any {
	i := strings.Index(prompt, "OPTIONS, in the order")
	rest := prompt[i:]
	if strings.Contains(rest, "1. Kafka") && strings.Index(rest, "1. Kafka") < strings.Index(rest, "2. ") {
		return judgement("Kafka")
	}
	return judgement("Postgres LISTEN/NOTIFY")
}

// script answers every request of a comparison, but for the
// "agent/shape" pairs in except, which the test scripts itself.
func script(except ...string) *enginetest.Script {
	s := enginetest.NewScript()
	for _, st := range []struct {
		agent, shape string
		reply        any
	}{
		{"gemini", ShapeOpening, opening("Kafka", "Postgres LISTEN/NOTIFY")},
		{"codex", ShapeOpening, opening("Postgres LISTEN/NOTIFY", "Kafka")},
		{"gemini", ShapeRebuttal, rebuttal("Postgres LISTEN/NOTIFY")},
		{"codex", ShapeRebuttal, rebuttal("Kafka")},
		{"claude", ShapeJudge, judgement("Kafka")},
		{"claude", ShapeCriteria, Criteria{Criteria: crit}},
	} {
		if !slices.Contains(except, st.agent+"/"+st.shape) {
			s.On(st.agent, st.shape, enginetest.Step{Reply: st.reply})
		}
	}
	return s
}

func config() Config {
	return Config{
		ID: "t", Decision: "which queue for order events?", Options: options, Criteria: crit,
		Advocates: []challengers.Agent{enginetest.Agent("gemini"), enginetest.Agent("codex")},
		Judge:     enginetest.Agent("claude"),
	}
}

func TestComparisonToARecommendation(t *testing.T) {
	s := script()
	out, events := enginetest.Run(t, context.Background(), New(config()), s)
	if out.Result != OutcomeRecommendation || !strings.Contains(out.Summary, "Recommendation: Kafka") {
		t.Fatalf("%s: %s", out.Result, out.Summary)
	}
	want := []string{"preflight/1", "opening/1", "rebuttal/1", "judge/1", "outcome/1"}
	if got := enginetest.Phases(events); !slices.Equal(got, want) {
		t.Fatalf("phases %v", got)
	}
	if s.Count("claude", ShapeJudge) != 2 {
		t.Fatalf("the judge was asked %d times, want twice (both orders)", s.Count("claude", ShapeJudge))
	}
	// The two readings saw the options in opposite orders, and never the
	// advocates' agents.
	var judged []string
	for _, c := range s.Calls() {
		if c.Shape == ShapeJudge {
			judged = append(judged, c.Prompt)
			if strings.Contains(c.Prompt, "gemini") || strings.Contains(c.Prompt, "codex") {
				t.Fatal("the judge's prompt names an advocate's agent")
			}
		}
	}
	first := func(p string) bool {
		return strings.Contains(p, "1. Kafka") && strings.Index(p, "1. Kafka") < strings.Index(p, "2. Postgres")
	}
	if first(judged[0]) == first(judged[1]) {
		t.Fatal("both readings listed the options in the same order")
	}
	// arena's arithmetic: Kafka 5×3+5×2+5×1 = 30 in both readings.
	for _, w := range []string{"5×3 + 5×2 + 5×1 = 30", "3×3 + 3×2 + 3×1 = 18", "## Decision conditions", "**Choose Kafka if:**", "## Argument audit", "## Rebuttal analysis", "## Open questions", "## Audit trail"} {
		if !strings.Contains(out.Markdown, w) {
			t.Errorf("the document lacks %q", w)
		}
	}
	tables := enginetest.Payloads[engine.Table](events)
	if len(tables) != 2 || tables[1].Rows[0].Cells[0] != "Kafka" || tables[1].Rows[0].Cells[3] != "30.0" || tables[1].Rows[0].Stance != engine.StanceAgree {
		t.Fatalf("scorecard table %+v", tables)
	}
	if rc := tables[0]; !strings.HasPrefix(rc.Title, "Order receipts") || rc.Rows[0].Cells[1] != "picked Kafka in 2 of 2 orders" ||
		rc.Rows[1].Cells[1] != "Kafka over Postgres LISTEN/NOTIFY in 2 of 2 orders" || !strings.HasPrefix(rc.Decision, "0 of 4 decisive preferences did not hold") {
		t.Fatalf("receipt table %+v", rc)
	}
	seats := events[0].Payload.(engine.DebateStarted).Seats
	if len(seats) != 4 || seats[0].Role != "advocate for Kafka" || seats[3].Name != "judge, reversed" {
		t.Fatalf("seats %+v", seats)
	}
}

func TestAnOrderFlipIsNotRobust(t *testing.T) {
	s := script("claude/"+ShapeJudge).On("claude", ShapeJudge, enginetest.Step{Reply: firstListed})
	out, _ := enginetest.Run(t, context.Background(), New(config()), s)
	if out.Result != OutcomeOrderDependent || out.Stance != engine.StancePartial || !strings.Contains(out.Markdown, "not robust") {
		t.Fatalf("%s: %s", out.Result, out.Summary)
	}
}

func TestQuickSkipsRebuttalsAndProposedCriteriaAreUsed(t *testing.T) {
	s := script()
	cfg := config()
	cfg.Quick, cfg.Criteria = true, nil
	out, events := enginetest.Run(t, context.Background(), New(cfg), s)
	if out.Result != OutcomeRecommendation {
		t.Fatalf("%s: %s", out.Result, out.Summary)
	}
	want := []string{"preflight/1", "criteria/1", "opening/1", "judge/1", "outcome/1"}
	if got := enginetest.Phases(events); !slices.Equal(got, want) {
		t.Fatalf("phases %v", got)
	}
	if s.Count("gemini", ShapeRebuttal)+s.Count("codex", ShapeRebuttal) != 0 {
		t.Fatal("--quick asked for rebuttals")
	}
	for _, c := range s.Calls() {
		if c.Shape == ShapeOpening && !strings.Contains(c.Prompt, "- ops cost: medium") {
			t.Fatalf("an opening did not get the proposed criteria:\n%s", c.Prompt)
		}
	}
	if tables := enginetest.Payloads[engine.Table](events); tables[0].Title != "Criteria" || len(tables[0].Rows) != 3 {
		t.Fatalf("criteria table %+v", tables[0])
	}
}

func TestAHedgingOpeningGetsOneRepairRequest(t *testing.T) {
	hedged := opening("Kafka", "Postgres LISTEN/NOTIFY")
	hedged.ClosingArgument = "Honestly both are good options. Kafka a bit more."
	s := script("gemini/"+ShapeOpening).
		On("gemini", ShapeOpening, enginetest.Step{Reply: hedged}).
		On("gemini", ShapeOpening+".repair", enginetest.Step{Reply: opening("Kafka", "Postgres LISTEN/NOTIFY")})
	out, _ := enginetest.Run(t, context.Background(), New(config()), s)
	if out.Result != OutcomeRecommendation || s.Count("gemini", ShapeOpening+".repair") != 1 {
		t.Fatalf("%s; repairs %d", out.Result, s.Count("gemini", ShapeOpening+".repair"))
	}
	for _, c := range s.Calls() {
		if c.Shape == ShapeOpening+".repair" && !strings.Contains(c.Prompt, `"both are good options"`) {
			t.Fatalf("the repair request does not name the phrase:\n%s", c.Prompt)
		}
	}
}

func TestAMisquoteIsNoted(t *testing.T) {
	bad := rebuttal("Postgres LISTEN/NOTIFY")
	bad.Attacks[0].Claim = "Postgres can never scale"
	s := script("gemini/"+ShapeRebuttal).On("gemini", ShapeRebuttal, enginetest.Step{Reply: bad})
	out, events := enginetest.Run(t, context.Background(), New(config()), s)
	if !strings.Contains(out.Markdown, `quoted a claim that is not in the opening for Postgres LISTEN/NOTIFY: "Postgres can never scale"`) {
		t.Fatalf("no misquote in the audit:\n%s", out.Markdown)
	}
	if !slices.ContainsFunc(enginetest.Payloads[engine.Note](events), func(n engine.Note) bool { return strings.Contains(n.Message, "Postgres can never scale") }) {
		t.Fatal("no note on screen")
	}
}

func TestAFailingAdvocateIsReplacedByAStandIn(t *testing.T) {
	s := script("codex/"+ShapeOpening, "codex/"+ShapeRebuttal).
		On("codex", ShapeOpening, enginetest.Step{Reason: challengers.ReasonTimeout}).
		On("qwen", ShapeOpening, enginetest.Step{Reply: opening("Postgres LISTEN/NOTIFY", "Kafka")}).
		On("qwen", ShapeRebuttal, enginetest.Step{Reply: rebuttal("Kafka")})
	cfg := config()
	cfg.StandIns = []challengers.Agent{enginetest.Agent("qwen")}
	out, events := enginetest.Run(t, context.Background(), New(cfg), s)
	if out.Result != OutcomeRecommendation {
		t.Fatalf("%s: %s", out.Result, out.Summary)
	}
	if s.Count("codex", ShapeOpening) != 2 || s.Count("qwen", ShapeRebuttal) != 1 {
		t.Fatalf("codex openings %d, qwen rebuttals %d", s.Count("codex", ShapeOpening), s.Count("qwen", ShapeRebuttal))
	}
	if len(out.Failures) != 1 || !strings.Contains(out.Failures[0], "codex timed out") {
		t.Fatalf("failures %q", out.Failures)
	}
	if !slices.ContainsFunc(enginetest.Payloads[engine.Note](events), func(n engine.Note) bool {
		return strings.Contains(n.Message, "qwen takes the seat for Postgres LISTEN/NOTIFY")
	}) {
		t.Fatal("no note says who took the seat")
	}
}

func TestAJudgeFailingTwiceWithNoStandInAborts(t *testing.T) {
	s := script("claude/"+ShapeJudge).On("claude", ShapeJudge, enginetest.Step{Reason: challengers.ReasonExit})
	out, _ := enginetest.Run(t, context.Background(), New(config()), s)
	if out.Result != engine.OutcomeAborted || !strings.Contains(out.Summary, "no agent left for the judge") {
		t.Fatalf("%s: %s", out.Result, out.Summary)
	}
	if s.Count("claude", ShapeJudge) != 4 {
		t.Fatalf("the judge was asked %d times, want 4 (two readings, each retried once)", s.Count("claude", ShapeJudge))
	}
	if !strings.Contains(out.Markdown, "## Failures") || !strings.Contains(out.Markdown, "## Audit trail") {
		t.Fatalf("the abort report:\n%s", out.Markdown)
	}
}

func TestSingleAsksOneAgentOnce(t *testing.T) {
	s := script()
	cfg := config()
	cfg.Single = true
	out, events := enginetest.Run(t, context.Background(), New(cfg), s)
	if out.Result != OutcomeRecommendation || s.Count("claude", ShapeJudge) != 1 || s.Count("gemini", ShapeOpening) != 0 {
		t.Fatalf("%s; judge calls %d", out.Result, s.Count("claude", ShapeJudge))
	}
	if got := enginetest.Phases(events); !slices.Equal(got, []string{"preflight/1", "judge/1", "outcome/1"}) {
		t.Fatalf("phases %v", got)
	}
}

func TestInterruptedComparison(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s := script()
	s.Before = func(agent, shape string) {
		if shape == ShapeRebuttal {
			cancel()
		}
	}
	out, _ := enginetest.Run(t, ctx, New(config()), s)
	if out.Result != engine.OutcomeInterrupted || !strings.Contains(out.Summary, "rebuttals") {
		t.Fatalf("%s: %s", out.Result, out.Summary)
	}
}

// A judge that always favours the first option listed flips with the
// order: every preference counts as a tie, the averages are levelled, the
// receipts say so, and the tally counts the flips and the first-shown
// picks.
func TestAFlipCountsAsATie(t *testing.T) {
	s := script("claude/"+ShapeJudge).On("claude", ShapeJudge, enginetest.Step{Reply: firstListed})
	out, events := enginetest.Run(t, context.Background(), New(config()), s)
	if out.Result != OutcomeOrderDependent || !strings.Contains(out.Summary, "Kafka with the options as given and Postgres LISTEN/NOTIFY with them reversed — counted as a tie") {
		t.Fatalf("%s: %s", out.Result, out.Summary)
	}
	for _, w := range []string{
		"## Order receipts",
		"- recommendation: the pick flipped (Kafka in 1 of 2 orders, Postgres LISTEN/NOTIFY in 1) — counted as a tie",
		"- throughput: Kafka and Postgres LISTEN/NOTIFY flipped (Kafka over Postgres LISTEN/NOTIFY in 1 of 2 orders, Postgres LISTEN/NOTIFY over Kafka in 1) — counted as a tie",
		"4 of 4 decisive preferences did not hold across the orders (4 flipped outright); the first-shown candidate was picked in 2 of 2 readings (1.0 expected by chance).",
		"| 4.0 ⇄ |",
	} {
		if !strings.Contains(out.Markdown, w) {
			t.Errorf("the document lacks %q", w)
		}
	}
	tables := enginetest.Payloads[engine.Table](events)
	// Levelled: 4.0 on every criterion for both, 4×6 = 24 each.
	if tables[1].Rows[0].Cells[3] != "24.0" || tables[1].Rows[1].Cells[3] != "24.0" {
		t.Fatalf("scorecard %+v", tables[1])
	}
	rc := tables[0]
	for _, row := range rc.Rows {
		if row.Stance != engine.StanceDisagree && !strings.HasPrefix(row.Cells[0], "shown ") {
			t.Fatalf("a receipt held: %+v", row)
		}
	}
	placed := enginetest.Payloads[engine.Placed](events)
	if len(placed) != 1 || placed[0].Candidates[0].Place != 1 || placed[0].Candidates[1].Place != 1 {
		t.Fatalf("placed %+v", placed)
	}
}

// Every reading is recorded for arena stats: the options in the order
// shown, with their scores, the lengths read, the pick and the authors.
func TestReadingsAreRecordedForStats(t *testing.T) {
	cfg := config()
	cfg.Authors = []string{"claude", ""}
	out, events := enginetest.Run(t, context.Background(), New(cfg), script())
	if out.Result != OutcomeRecommendation {
		t.Fatal(out.Summary)
	}
	sc := enginetest.Payloads[engine.Scored](events)
	if len(sc) != 2*(1+len(crit)) {
		t.Fatalf("%d scored events", len(sc))
	}
	rec := sc[0]
	if rec.Judgement != "recommendation" || rec.Seat != "judge" || rec.Agent != "claude" || rec.Order != 0 || rec.Orders != 2 ||
		rec.Pick != "Kafka" || rec.Candidates[0].ID != "Kafka" || rec.Candidates[0].Author != "claude" || *rec.Candidates[0].Score != 30 || rec.Candidates[0].Bytes == 0 {
		t.Fatalf("first reading %+v", rec)
	}
	rev := sc[1+len(crit)]
	if rev.Seat != "judge, reversed" || rev.Order != 1 || rev.Candidates[0].ID != "Postgres LISTEN/NOTIFY" || rev.Candidates[0].Author != "" {
		t.Fatalf("second reading %+v", rev)
	}
	if sc[1].Judgement != crit[0].Name || sc[1].Max != 5 || *sc[1].Candidates[1].Score != 3 {
		t.Fatalf("criterion reading %+v", sc[1])
	}
	placed := enginetest.Payloads[engine.Placed](events)
	if len(placed) != 1 || placed[0].Candidates[0] != (engine.Standing{ID: "Kafka", Author: "claude", Place: 1}) || placed[0].Candidates[1].Place != 2 {
		t.Fatalf("placed %+v", placed)
	}
	st := events[0].Payload.(engine.DebateStarted)
	if !slices.Contains(st.Settings, engine.Setting{Name: "authors", Value: "Kafka: claude · Postgres LISTEN/NOTIFY: —"}) {
		t.Fatalf("settings %+v", st.Settings)
	}
}

// --orders 4 with three options: four counterbalanced orders, each its own
// seat, every option shown first at least once.
func TestMoreOrders(t *testing.T) {
	cfg := config()
	cfg.Options = []string{"Kafka", "Postgres LISTEN/NOTIFY", "NATS"}
	cfg.Advocates = append(cfg.Advocates, enginetest.Agent("qwen"))
	cfg.Orders, cfg.Quick = 4, true
	s := script("claude/"+ShapeJudge).On("qwen", ShapeOpening, enginetest.Step{Reply: opening("NATS", "Kafka")}).
		On("claude", ShapeJudge, enginetest.Step{Reply: judgementOf("Kafka", cfg.Options)})
	out, events := enginetest.Run(t, context.Background(), New(cfg), s)
	if out.Result != OutcomeRecommendation || s.Count("claude", ShapeJudge) != 4 {
		t.Fatalf("%s: %s; %d judge calls", out.Result, out.Summary, s.Count("claude", ShapeJudge))
	}
	seats := events[0].Payload.(engine.DebateStarted).Seats
	var judges []string
	for _, st := range seats {
		if strings.HasPrefix(st.Name, "judge") {
			judges = append(judges, st.Name)
		}
	}
	if !slices.Equal(judges, []string{"judge", "judge, reversed", "judge, order 3", "judge, order 4"}) {
		t.Fatalf("judge seats %q", judges)
	}
	firsts := map[string]bool{}
	for _, sc := range enginetest.Payloads[engine.Scored](events) {
		firsts[sc.Candidates[0].ID] = true
	}
	if len(firsts) != 3 {
		t.Fatalf("first shown: %v", firsts)
	}
	if !strings.Contains(out.Markdown, "The judge was asked in 4 orders") || !strings.Contains(out.Summary, "in all 4 orders") {
		t.Fatalf("%s\n%s", out.Summary, out.Markdown)
	}
}

package verdict

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/enginetest"
)

func reply(v string, sem, prag, syn int) enginetest.Step {
	return enginetest.Step{Reply: map[string]any{
		"verdict": v, "scores": map[string]int{"semantic": sem, "pragmatic": prag, "syntactic": syn},
		"reasoning": v + " because the scores say so", "improvements": []string{"name the edge cases"},
	}}
}

var (
	acceptStep  = reply("accept", 4, 4, 5)
	improveStep = reply("improve", 3, 3, 3)
	rejectStep  = reply("reject", 1, 3, 3)
)

func config(thorough bool) Config {
	return Config{
		ID: "t", TaskID: "issue-18", Task: "add a --json flag",
		Work:     []engine.Doc{{Name: "stdin", Content: "diff --git a/x b/x\n+hello\n"}},
		Judges:   map[Mode]challengers.Agent{Quick: enginetest.Agent("gemini"), Deep: enginetest.Agent("claude"), Tiebreaker: enginetest.Agent("codex")},
		Thorough: thorough,
	}
}

func runIt(t *testing.T, cfg Config, s *enginetest.Script) (engine.Outcome, []engine.Event, Result) {
	t.Helper()
	p := New(cfg)
	out, evs := enginetest.Run(t, context.Background(), p, s)
	return out, evs, p.Result()
}

func TestQuickAcceptIsFinal(t *testing.T) {
	s := enginetest.NewScript().On("gemini", ShapeQuick, acceptStep)
	out, evs, res := runIt(t, config(false), s)
	if out.Result != OutcomeAccept || res.Calls != 1 || res.Decision != Accept {
		t.Fatalf("%s %+v", out.Result, res)
	}
	if got := strings.Join(enginetest.Phases(evs), " "); got != "quick/1 outcome/1" {
		t.Fatalf("phases %s", got)
	}
	tables := enginetest.Payloads[engine.Table](evs)
	if len(tables) != 1 || !strings.HasPrefix(tables[0].Decision, "ACCEPT") || tables[0].Rows[0].Cells[5] != "4.33" {
		t.Fatalf("%+v", tables)
	}
	if !strings.Contains(out.Markdown, "# Verdict: ACCEPT") || !strings.Contains(out.Markdown, "| quick | gemini | 4 | 4 | 5 | 4.33 | accept |") {
		t.Fatalf("document:\n%s", out.Markdown)
	}
}

func TestImproveThenDeep(t *testing.T) {
	for name, tc := range map[string]struct {
		deep enginetest.Step
		want engine.OutcomeKind
	}{
		"deep accepts":            {acceptStep, OutcomeAccept},
		"deep rejects":            {rejectStep, OutcomeReject},
		"deep improves: escalate": {improveStep, OutcomeEscalate},
	} {
		t.Run(name, func(t *testing.T) {
			s := enginetest.NewScript().On("gemini", ShapeQuick, improveStep).On("claude", ShapeDeep, tc.deep)
			out, evs, res := runIt(t, config(false), s)
			if out.Result != tc.want || res.Calls != 2 {
				t.Fatalf("%s after %d calls", out.Result, res.Calls)
			}
			if got := strings.Join(enginetest.Phases(evs), " "); got != "quick/1 deep/1 outcome/1" {
				t.Fatalf("phases %s", got)
			}
		})
	}
}

// The model's stated verdict does not count: its scores do.
func TestThresholdsWinOverTheModel(t *testing.T) {
	s := enginetest.NewScript().On("gemini", ShapeQuick, reply("accept", 3, 3, 3)).On("claude", ShapeDeep, reply("improve", 5, 5, 4))
	out, evs, res := runIt(t, config(false), s)
	if out.Result != OutcomeAccept || res.Judgements[Quick].Verdict != Improve || res.Judgements[Quick].Stated != Accept {
		t.Fatalf("%s %+v", out.Result, res.Judgements)
	}
	var noted bool
	for _, n := range enginetest.Payloads[engine.Note](evs) {
		noted = noted || strings.Contains(n.Message, "said accept, but its own scores (3/3/3, average 3.00) make it improve")
	}
	if !noted {
		t.Fatal("no note of the disagreement between the model's verdict and its scores")
	}
}

func TestThoroughDisagreementGoesToTheTiebreaker(t *testing.T) {
	for name, tc := range map[string]struct {
		tie  enginetest.Step
		want engine.OutcomeKind
	}{
		"sides with deep":  {rejectStep, OutcomeReject},
		"sides with quick": {acceptStep, OutcomeAccept},
		"matches neither":  {improveStep, OutcomeEscalate},
	} {
		t.Run(name, func(t *testing.T) {
			s := enginetest.NewScript().On("gemini", ShapeQuick, acceptStep).On("claude", ShapeDeep, rejectStep).On("codex", ShapeTiebreak, tc.tie)
			out, evs, res := runIt(t, config(true), s)
			if out.Result != tc.want || res.Calls != 3 {
				t.Fatalf("%s after %d calls: %s", out.Result, res.Calls, res.Reason)
			}
			if got := strings.Join(enginetest.Phases(evs), " "); got != "judges/1 tiebreak/1 outcome/1" {
				t.Fatalf("phases %s", got)
			}
			// The tiebreaker gets the deep prompt with both verdicts,
			// under neutral labels.
			calls := s.Calls()
			p := calls[len(calls)-1].Prompt
			for _, want := range []string{"PRIOR VERDICTS", "Judge A: accept", "Judge B: reject", "reasoning chain"} {
				if want == "reasoning chain" {
					want = "reason step by step"
				}
				if !strings.Contains(p, want) {
					t.Errorf("tiebreaker prompt lacks %q", want)
				}
			}
			if strings.Contains(p, "gemini") || strings.Contains(p, "claude") {
				t.Error("the tiebreaker prompt names the other judges' models")
			}
		})
	}
}

func TestThoroughAgreementSkipsTheTiebreaker(t *testing.T) {
	s := enginetest.NewScript().On("gemini", ShapeQuick, acceptStep).On("claude", ShapeDeep, acceptStep)
	out, _, res := runIt(t, config(true), s)
	if out.Result != OutcomeAccept || res.Calls != 2 || s.Count("codex", ShapeTiebreak) != 0 {
		t.Fatalf("%s %d", out.Result, res.Calls)
	}
}

func TestInvalidJSONTwiceEscalates(t *testing.T) {
	s := enginetest.NewScript().On("gemini", ShapeQuick, enginetest.Step{Reply: "I think it is fine."})
	out, _, res := runIt(t, config(false), s)
	if out.Result != OutcomeEscalate || s.Count("gemini", ShapeQuick+".repair") != 1 {
		t.Fatalf("%s, %d repairs", out.Result, s.Count("gemini", ShapeQuick+".repair"))
	}
	if !strings.Contains(res.Reason, "no valid JSON after one repair request") || len(out.Failures) != 1 {
		t.Fatalf("%q %q", res.Reason, out.Failures)
	}
}

func TestTimeoutAfterRetryEscalates(t *testing.T) {
	s := enginetest.NewScript().On("gemini", ShapeQuick, improveStep).
		On("claude", ShapeDeep, enginetest.Step{Reason: challengers.ReasonTimeout})
	out, evs, res := runIt(t, config(false), s)
	if out.Result != OutcomeEscalate || s.Count("claude", ShapeDeep) != 2 {
		t.Fatalf("%s, deep asked %d times", out.Result, s.Count("claude", ShapeDeep))
	}
	if !strings.Contains(res.Reason, "deep judge (claude) failed after one retry: timed out") {
		t.Fatalf("%q", res.Reason)
	}
	if f := enginetest.Payloads[engine.AgentFailed](evs); len(f) != 2 || !f[0].WillRetry || f[1].WillRetry {
		t.Fatalf("%+v", f)
	}
}

func TestRetryThatSucceedsCounts(t *testing.T) {
	s := enginetest.NewScript().On("gemini", ShapeQuick, enginetest.Step{Reason: challengers.ReasonTimeout}, acceptStep)
	out, _, _ := runIt(t, config(false), s)
	if out.Result != OutcomeAccept {
		t.Fatalf("%s", out.Result)
	}
}

func TestSensitiveEscalatesButRecords(t *testing.T) {
	cfg := config(false)
	cfg.Sensitive = true
	s := enginetest.NewScript().On("gemini", ShapeQuick, acceptStep)
	out, _, res := runIt(t, cfg, s)
	if out.Result != OutcomeEscalate || res.Judgements[Quick].Verdict != Accept || !strings.Contains(res.Reason, "decided accept") {
		t.Fatalf("%s %+v", out.Result, res)
	}
}

func TestInterruptedMidRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := enginetest.NewScript().On("gemini", ShapeQuick, enginetest.Step{Reply: "x", Delay: time.Minute})
	s.Before = func(string, string) { cancel() }
	p := New(config(false))
	out, _ := enginetest.Run(t, ctx, p, s)
	if out.Result != engine.OutcomeInterrupted || p.Result().Decision != "" {
		t.Fatalf("%s", out.Result)
	}
}

func TestPromptsCarryTheWorkAndRubric(t *testing.T) {
	s := enginetest.NewScript().On("gemini", ShapeQuick, improveStep).On("claude", ShapeDeep, acceptStep)
	runIt(t, config(false), s)
	calls := s.Calls()
	for _, c := range calls {
		for _, want := range []string{"issue-18: add a --json flag", "+hello", "semantic", "pragmatic", "syntactic", "valid JSON only"} {
			if !strings.Contains(c.Prompt, want) {
				t.Errorf("%s prompt lacks %q", c.Shape, want)
			}
		}
	}
	if !strings.Contains(calls[0].Prompt, "one line") || !strings.Contains(calls[1].Prompt, "step by step") {
		t.Error("quick and deep prompts are not distinct")
	}
}

func TestReplyInEventIsArenasReading(t *testing.T) {
	s := enginetest.NewScript().On("gemini", ShapeQuick, reply("accept", 1, 5, 5))
	_, evs, _ := runIt(t, config(false), s)
	f := enginetest.Payloads[engine.AgentFinished](evs)
	var j Judgement
	if err := json.Unmarshal(f[0].Reply, &j); err != nil || j.Verdict != Reject || j.Stated != Accept || f[0].Badge != "reject 3.67" {
		t.Fatalf("%s %v %q", f[0].Reply, err, f[0].Badge)
	}
}

func TestMissingJudgeAborts(t *testing.T) {
	cfg := config(false)
	missing := enginetest.Agent("claude")
	missing.Command = []string{"no-such-cli-anywhere"}
	cfg.Judges[Deep] = missing
	s := enginetest.NewScript()
	out, _, res := runIt(t, cfg, s)
	if out.Result != engine.OutcomeAborted || len(s.Calls()) != 0 || !strings.Contains(res.Reason, "the deep judge claude is not installed") {
		t.Fatalf("%s %q, %d calls", out.Result, res.Reason, len(s.Calls()))
	}
}

package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/challengers/shape"
)

// reply runs agent on prompt in its streaming format and returns the
// reply text.
func reply(t *testing.T, f *clitest.Fakes, agent, prompt string) string {
	t.Helper()
	r := execFake(t, f, runCfg{}, agent, headless(agent, prompt)...)
	if r.code != 0 {
		t.Fatalf("%s: status %d, stderr %q", agent, r.code, r.stderr)
	}
	return replyOf(t, r.lines())
}

func TestStepsAdvancePerCallAndPerKind(t *testing.T) {
	t.Parallel()
	f := scripted(t, "gemini", clitest.AgentScript{Steps: map[string][]clitest.Step{
		"critique": {{Reply: "first critique"}, {Reply: "second critique"}},
		"rebuttal": {{Reply: "only rebuttal"}},
	}})
	var got []string
	for _, p := range []string{critiquePrompt, rebuttalPrompt, critiquePrompt, critiquePrompt, rebuttalPrompt} {
		got = append(got, reply(t, f, "gemini", p))
	}
	want := []string{"first critique", "only rebuttal", "second critique", "second critique", "only rebuttal"}
	if !slices.Equal(got, want) {
		t.Errorf("replies %q, want %q", got, want)
	}
	var idx []int
	for _, c := range f.Calls() {
		idx = append(idx, c.Index)
	}
	if want := []int{0, 0, 1, 2, 1}; !slices.Equal(idx, want) {
		t.Errorf("call indexes %v, want %v", idx, want)
	}
}

func TestStepsOfOtherAgentsAreIndependent(t *testing.T) {
	t.Parallel()
	f := clitest.New(t)
	f.SetScript(&clitest.Script{Agents: map[string]clitest.AgentScript{
		"claude": {Steps: map[string][]clitest.Step{"critique": {{Reply: "claude 1"}, {Reply: "claude 2"}}}},
		"codex":  {Steps: map[string][]clitest.Step{"critique": {{Reply: "codex 1"}, {Reply: "codex 2"}}}},
	}})
	got := []string{reply(t, f, "claude", critiquePrompt), reply(t, f, "codex", critiquePrompt), reply(t, f, "codex", critiquePrompt)}
	if want := []string{"claude 1", "codex 1", "codex 2"}; !slices.Equal(got, want) {
		t.Errorf("replies %q, want %q", got, want)
	}
}

// TestConcurrentCallsGetDistinctSteps runs one agent many times at once:
// every step must be handed out exactly once.
func TestConcurrentCallsGetDistinctSteps(t *testing.T) {
	t.Parallel()
	const n = 8
	var steps []clitest.Step
	for i := range n {
		steps = append(steps, clitest.Step{Reply: fmt.Sprintf("reply %d", i)})
	}
	f := scripted(t, "qwen", clitest.AgentScript{Steps: map[string][]clitest.Step{"critique": steps}})
	got := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { got[i] = reply(t, f, "qwen", critiquePrompt) })
	}
	wg.Wait()
	slices.Sort(got)
	for i := range n {
		if want := fmt.Sprintf("reply %d", i); got[i] != want {
			t.Fatalf("replies %q: each of the %d steps should be used once", got, n)
		}
	}
}

func TestRepairCalls(t *testing.T) {
	t.Parallel()
	repair := shape.RepairLead + ": no JSON. Answer again.\n\n" + critiquePrompt
	f := scripted(t, "claude", clitest.AgentScript{Steps: map[string][]clitest.Step{
		"critique":        {{Reply: "critique 1"}, {Reply: "critique 2"}},
		"critique.repair": {{Reply: "repaired"}},
	}})
	got := []string{reply(t, f, "claude", critiquePrompt), reply(t, f, "claude", repair), reply(t, f, "claude", critiquePrompt)}
	if want := []string{"critique 1", "repaired", "critique 2"}; !slices.Equal(got, want) {
		t.Errorf("replies %q, want %q", got, want)
	}
	if c := f.Calls(); !c[1].Repair || c[0].Repair || c[1].Kind != clitest.KindCritique {
		t.Errorf("calls %+v: only the second is a repair of a critique", c)
	}

	// Without repair steps, a repair call uses the kind's own list, counted
	// separately from the first calls.
	f = scripted(t, "claude", clitest.AgentScript{Steps: map[string][]clitest.Step{
		"critique": {{Reply: "critique 1"}, {Reply: "critique 2"}},
	}})
	got = []string{reply(t, f, "claude", critiquePrompt), reply(t, f, "claude", repair)}
	if want := []string{"critique 1", "critique 1"}; !slices.Equal(got, want) {
		t.Errorf("fallback replies %q, want %q", got, want)
	}
}

func TestReplyDressing(t *testing.T) {
	t.Parallel()
	f := scripted(t, "codex", clitest.AgentScript{Steps: map[string][]clitest.Step{
		"critique": {{
			Reply: map[string]any{"verdict": "disagree", "critique": "no"},
			Fence: true, Prose: "Here is my critique:",
		}},
	}})
	got := reply(t, f, "codex", critiquePrompt)
	want := "Here is my critique:\n\n```json\n{\n  \"critique\": \"no\",\n  \"verdict\": \"disagree\"\n}\n```"
	if got != want {
		t.Errorf("reply\n%s\nwant\n%s", got, want)
	}
}

// TestCannedReplies checks that, unscripted, every kind gets valid JSON of
// the shape arena asks for, worded differently per agent.
func TestCannedReplies(t *testing.T) {
	t.Parallel()
	f := clitest.New(t)
	answer := "=== CRITIQUE FROM gemini ===\nToo slow.\n\n## Critique from **qwen**:\nToo big.\n\n" +
		"REQUIRED RESPONSE FORMAT\n" + `{"responses": [{"challenger": "...", "decision": "accept|reject"}], "updated_position": "..."}` + "\n\nREPLY SHAPE: answer"
	for _, tc := range []struct {
		prompt string
		keys   []string
	}{
		{opening, []string{"position", "reasoning", "confidence", "weaknesses", "assumptions"}},
		{critiquePrompt, []string{"verdict", "critique", "evidence", "alternative", "confidence", "objection_strength", "assumptions_challenged"}},
		{answer, []string{"responses", "updated_position"}},
		{rebuttalPrompt, []string{"choice", "explanation"}},
		{"REQUIRED RESPONSE FORMAT\n" + `{"why_disagree": "", "what_would_make_other_right": "", "my_assumption": ""}` + "\nREPLY SHAPE: final", []string{"why_disagree", "what_would_make_other_right", "my_assumption"}},
		{"REQUIRED RESPONSE FORMAT\n" + `{"options": [], "recommendation": "", "open_questions": []}` + "\nREPLY SHAPE: synthesis", []string{"options", "recommendation", "open_questions"}},
	} {
		text := reply(t, f, "claude", tc.prompt)
		if keys, err := topKeys(text); err != nil || !slices.Equal(keys, tc.keys) {
			t.Errorf("reply %s\nhas keys %q (%v), want %q", text, keys, err, tc.keys)
		}
		if other := reply(t, f, "gemini", tc.prompt); other == text {
			t.Errorf("claude and gemini gave the same reply %s", text)
		}
	}
	var a struct {
		Responses []struct{ Challenger string } `json:"responses"`
	}
	if err := json.Unmarshal([]byte(reply(t, f, "qwen", answer)), &a); err != nil || len(a.Responses) != 2 ||
		a.Responses[0].Challenger != "gemini" || a.Responses[1].Challenger != "qwen" {
		t.Errorf("answer responses %+v (%v), want gemini and qwen", a.Responses, err)
	}
	if got := reply(t, f, "codex", "Say hello"); got != "OK" {
		t.Errorf("reply to a prompt of no known kind %q, want OK", got)
	}
}

func TestScriptErrorsAreLoud(t *testing.T) {
	t.Parallel()
	f := scripted(t, "gemini", clitest.AgentScript{Mode: "bogus"})
	r := execFake(t, f, runCfg{}, "gemini", headless("gemini", opening)...)
	if r.code != 99 || !strings.Contains(r.stderr, `unknown mode "bogus"`) {
		t.Errorf("status %d, stderr %q; want 99 and the unknown mode named", r.code, r.stderr)
	}
}

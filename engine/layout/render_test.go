package layout

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestRenderShapes(t *testing.T) {
	tests := []struct {
		name   string
		layout Layout
		in     string
		want   string
	}{
		{"opening", openingLayout,
			"```json\n{\"position\": \"Use Postgres\", \"reasoning\": [\"mature\", \"JSONB\"], \"confidence\": \"high\", \"weaknesses\": [\"ops cost\"], \"assumptions\": [\"one region\"]}\n```",
			"**Position:** Use Postgres\n\n**Reasoning:**\n1. mature\n2. JSONB\n\n**Confidence:** HIGH\n\n**Weaknesses it admits:**\n- ops cost\n\n**Assumptions:**\n- one region"},
		{"critique", critiqueLayout,
			`{"verdict": "disagree", "critique": "It ignores cost.", "evidence": "The bill.", "alternative": "", "confidence": "high", "objection_strength": "strong", "assumptions_challenged": ["cheap disks"]}`,
			"**Verdict:** DISAGREE · strong objection · high confidence\n\n**Critique:** It ignores cost.\n\n**Evidence:** The bill.\n\n**Assumptions challenged:**\n- cheap disks"},
		{"answer", answerLayout,
			`{"responses": [{"challenger": "codex", "decision": "accept", "explanation": "Fair."}, {"challenger": "gemini", "decision": "partial", "explanation": "Half right."}], "updated_position": "Postgres, tuned."}`,
			"**To codex — ACCEPT:** Fair.\n\n**To gemini — PARTIALLY ACCEPT:** Half right.\n\n**Position now:** Postgres, tuned."},
		{"rebuttal", rebuttalLayout,
			`{"choice": "maintain", "explanation": "Still too costly."}`,
			"**MAINTAIN:** Still too costly."},
		{"final", finalLayout,
			`{"why_disagree": "Cost.", "what_would_make_other_right": "A cheap host.", "my_assumption": "Budget is tight."}`,
			"**Why I still disagree:** Cost.\n\n**What would make the other side right:** A cheap host.\n\n**My assumption:** Budget is tight."},
		{"synthesis", synthesisLayout,
			`{"options": [{"name": "Postgres", "summary": "safe", "choose_if": ["you need joins", "ops exist"]}, {"name": "SQLite", "summary": "cheap", "choose_if": ["one node"]}], "recommendation": "Postgres.", "open_questions": ["Budget?"]}`,
			"**Postgres** — safe\n- choose if you need joins\n- choose if ops exist\n\n**SQLite** — cheap\n- choose if one node\n\n**Recommendation:** Postgres.\n\n**Open questions:**\n- Budget?"},
		{"criteria", criteriaLayout,
			`{"criteria": [{"name": "Cost", "weight": "high", "why": "Budget is fixed."}, {"name": "Speed", "weight": "low", "why": "Batch jobs."}]}`,
			"**Criteria:**\n1. **Cost** (high weight) — Budget is fixed.\n2. **Speed** (low weight) — Batch jobs."},
		{"comparative opening", compOpeningLayout,
			"Here is my case.\n\n```json\n{\"option\": \"A\", \"arguments\": [{\"criterion\": \"Cost\", \"for_this\": \"A is cheap\", \"against_other\": \"B bills per seat\"}], \"risks_of_other\": [\"lock-in\", \"outages\", \"price rises\"], \"stakeholders\": \"finance, ops\", \"closing_argument\": \"Pick A.\"}\n```\n\nThanks.",
			"Here is my case.\n\n**For:** A\n\n**Arguments:**\n- **Cost:** A is cheap — against the other: B bills per seat\n\n**Risks of the other option:**\n- lock-in\n- outages\n- price rises\n\n**Stakeholders:** finance, ops\n\n**In closing:** Pick A.\n\nThanks."},
		{"comparative rebuttal", compRebuttalLayout,
			`{"attacks": [{"claim": "B is faster", "why_it_fails": "Only on small data.", "counter_evidence": "The TPC-H run."}], "conceded": ["B has better docs"]}`,
			"**Attacks:**\n1. **B is faster**\n   - **Why it fails:** Only on small data.\n   - **Counter-evidence:** The TPC-H run.\n\n**Conceded:**\n- B has better docs"},
		{"judge", judgeLayout,
			`{"scores": [{"criterion": "Cost", "option": "A", "score": 4, "justification": "cheap", "more_convincing": "A"}], "audit": [{"claim": "B is faster", "holds": false}], "rebuttals": ["A's rebuttal landed"], "recommendation": "A", "conditions": [{"option": "B", "choose_if": ["speed matters"]}], "open_questions": ["Load?"]}`,
			"**Scores:**\n- **Cost — A:** 4/5 · more convincing: A — cheap\n\n**Recommendation:** A\n\n**Conditions:**\n\n**B**\n- choose if speed matters\n\n**Open questions:**\n- Load?\n\n**Audit:**\n- **Claim:** B is faster\n  - **Holds:** false\n\n**Rebuttals:**\n- A's rebuttal landed"},
		{"no layout", Layout{},
			`{"open_questions": ["a", "b"], "score": 3.5, "ok": true, "nothing": null, "nested": {"inner_key": "v", "list": [{"x": 1}]}}`,
			"**Open questions:**\n- a\n- b\n\n**Score:** 3.5\n\n**Ok:** true\n\n**Nested:**\n- **Inner key:** v\n- **List:**\n  - **X:** 1"},
		{"no json", critiqueLayout, "  I can't answer that: {not json} here.\n", "I can't answer that: {not json} here."},
		{"fenced code kept", Layout{}, "Code:\n```go\nm := map[string]int{\"a\": 1}\n```\n", "Code:\n```go\nm := map[string]int{\"a\": 1}\n```"},
		{"camel keys", critiqueLayout, `{"Verdict": "agree", "objectionStrength": "minor", "Confidence": "low", "critique": "ok"}`,
			"**Verdict:** AGREE · minor objection · low confidence\n\n**Critique:** ok"},
		{"escapes", Layout{}, `{"a": "caf\u00e9 \ud83d\ude00 \"q\"\ttab\\"}`, "**A:** café 😀 \"q\"\ttab\\"},
		{"truncated", openingLayout, "```json\n{\"position\": \"Use Pos", "**Position:** Use Pos"},
		{"broken object", Layout{}, `{"a": "x", "b": ]}`, "**A:** x\n\n\"b\": ]}"},
		{"duplicate key", Layout{}, `{"a": "first", "a": "second"}`, "**A:** first"},
		{"lenient", Layout{}, "{\"a\": \"line\nbreak\" \"b\": [1, 2,], \"c\": True,}", "**A:** line\nbreak\n\n**B:**\n- 1\n- 2\n\n**C:** True"},
		{"two objects", Layout{}, "```json\n{\"a\": \"1\"}\n```\nand\n```json\n{\"b\": \"2\"}\n```", "**A:** 1\n\nand\n\n**B:** 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Render(tt.in, tt.layout)
			if got != tt.want {
				t.Errorf("Render:\n%s\n--- want:\n%s\n--- got %q", got, tt.want, got)
			}
		})
	}
}

func TestLayoutRoundTripsThroughJSON(t *testing.T) {
	b, err := json.Marshal(judgeLayout)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"style":"bullets"`) {
		t.Fatalf("styles not written by name: %s", b)
	}
	var back Layout
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, judgeLayout) {
		t.Fatalf("%v\n%+v", err, back)
	}
}

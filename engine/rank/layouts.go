package rank

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/layout"
)

// How each reply shape reads, on screen while it streams and once done.
var (
	findingItem = &layout.Layout{Fields: []layout.Field{
		{Key: "file", Style: layout.Heading}, {Key: "line", Style: layout.Line, Sep: ":"}, {Key: "issue", Style: layout.Line, Sep: " — "},
		{Key: "description", Style: layout.Line, Sep: " — "},
	}}

	factsLayout = layout.Layout{Fields: []layout.Field{
		{Key: "functionality", Item: &layout.Layout{Fields: []layout.Field{
			{Key: "spec_requirements", Label: "Requirements", Style: layout.Bullets},
			{Key: "implemented", Style: layout.Bullets},
			{Key: "missing", Style: layout.Bullets},
		}}},
		{Key: "security", Item: &layout.Layout{Fields: []layout.Field{
			{Key: "findings", Style: layout.Bullets, Item: findingItem},
			{Key: "patterns_observed", Style: layout.Bullets},
		}}},
		{Key: "tests", Item: &layout.Layout{Fields: []layout.Field{
			{Key: "test_count", Label: "Tests"},
			{Key: "coverage_estimate", Label: "Coverage", Style: layout.Line},
			{Key: "mocking_approach", Label: "Mocking"},
			{Key: "dry_violations", Label: "DRY violations", Style: layout.Bullets, Item: findingItem},
		}}},
		{Key: "overengineering", Item: &layout.Layout{Fields: []layout.Field{
			{Key: "abstractions", Style: layout.Bullets, Item: findingItem},
			{Key: "defensive_code", Style: layout.Bullets, Item: findingItem},
			{Key: "config_complexity"},
		}}},
		{Key: "dead_code"},
	}}

	judgeLayout = layout.Layout{Fields: []layout.Field{
		{Key: "dimension", Style: layout.Upper},
		{Key: "scores", Item: &layout.Layout{Fields: []layout.Field{
			{Key: "score", Format: "%s/5", Style: layout.Heading},
			{Key: "justification", Style: layout.Line, Sep: " — "},
			{Key: "evidence", Style: layout.Bullets, Bare: true},
		}}},
		{Key: "ranking", Style: layout.Numbered},
	}}

	synthesisLayout = layout.Layout{Fields: []layout.Field{{Key: "verdict", Bare: true}}}
)

// Layouts are the protocol's reply shapes' layouts, for the start event.
var Layouts = map[string]layout.Layout{ShapeFacts: factsLayout, ShapeJudge: judgeLayout, ShapeSynthesis: synthesisLayout}

func (f Facts) Display() string     { return engine.Show(f, factsLayout) }
func (j Judgement) Display() string { return engine.Show(j, judgeLayout) }
func (s Synthesis) Display() string { return engine.Show(s, synthesisLayout) }

func (f Facts) Badge() (string, engine.Stance) {
	return fmt.Sprintf("%d/%d requirements · %s", len(f.Functionality.Implemented), len(f.Functionality.SpecRequirements), findingWords(len(f.Security.Findings))), engine.StanceNeutral
}

func (j Judgement) Badge() (string, engine.Stance) {
	b := "scored"
	for _, l := range j.Ranking {
		b += fmt.Sprintf(" %s:%d", l, j.Scores[l].Score)
	}
	return b, engine.StanceNeutral
}

func (s Synthesis) Badge() (string, engine.Stance) { return "verdict", engine.StanceAgree }

func indentJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil
	}
	return bytes.TrimSpace(b.Bytes())
}

// findingWords counts security findings in words: "no security
// findings", "1 security finding" (issue 32, point 10: "1 findings").
func findingWords(n int) string {
	if n == 0 {
		return "no security findings"
	}
	return engine.Plural(n, "security finding")
}

package judge

import (
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/layout"
)

// How each reply shape reads, on screen while it streams and once done.
var (
	scoreItem = &layout.Layout{Fields: []layout.Field{
		{Key: "criterion", Style: layout.Heading},
		{Key: "score", Style: layout.Line, Format: "%s/5", Sep: " — "},
		{Key: "justification", Bare: true},
		{Key: "evidence", Style: layout.Bullets, Format: "“%s”"},
	}}

	analysisLayout = layout.Layout{Fields: []layout.Field{
		{Key: "scores", Style: layout.Paragraphs, Bare: true, Item: scoreItem},
		{Key: "overall", Label: "Its own total (arena computes the weighted score)"},
		{Key: "strengths", Style: layout.Bullets},
		{Key: "weaknesses", Style: layout.Bullets},
		{Key: "verification", Label: "Verification", Style: layout.Paragraphs, Item: &layout.Layout{Fields: []layout.Field{
			{Key: "question", Style: layout.Label},
			{Key: "answer"},
			{Key: "changed", Style: layout.Line, Values: map[string]string{"true": "score revised", "false": "no change"}},
		}}},
	}}

	debateLayout = layout.Layout{Fields: []layout.Field{
		{Key: "disagreements", Style: layout.Paragraphs, Item: &layout.Layout{Fields: []layout.Field{
			{Key: "judge", Style: layout.Heading},
			{Key: "criterion", Style: layout.Line, Sep: " on "},
			{Key: "mine", Style: layout.Line, Format: "mine %s"},
			{Key: "theirs", Style: layout.Line, Format: "theirs %s"},
			{Key: "defense"},
			{Key: "challenge"},
		}}},
		{Key: "scores", Label: "Revised assessment", Style: layout.Paragraphs, Item: scoreItem},
		{Key: "overall", Label: "Its own total (arena computes the weighted score)"},
		{Key: "changes", Style: layout.Paragraphs, Item: &layout.Layout{Fields: []layout.Field{
			{Key: "criterion", Style: layout.Heading},
			{Key: "from", Style: layout.Line, Format: "from %s", Sep: " — "},
			{Key: "to", Style: layout.Line, Format: "to %s"},
			{Key: "reason"},
			{Key: "evidence", Style: layout.Bullets},
		}}},
		{Key: "accepts_consensus", Label: "Accepts the consensus", Values: map[string]string{"true": "yes", "false": "no"}},
		{Key: "agrees_with", Style: layout.Bullets},
	}}

	synthesisLayout = layout.Layout{Fields: []layout.Field{
		{Key: "recommendation", Style: layout.Upper, Values: map[string]string{"needs_revision": "needs revision"}},
		{Key: "justification"},
		{Key: "strengths", Label: "Consensus strengths", Style: layout.Bullets},
		{Key: "weaknesses", Label: "Consensus weaknesses", Style: layout.Bullets},
		{Key: "resolutions", Label: "How disagreements were resolved", Style: layout.Bullets},
	}}
)

// Layouts are the protocol's reply shapes' layouts, for the start event.
var Layouts = map[string]layout.Layout{
	ShapeAnalysis: analysisLayout, ShapeDebate: debateLayout, ShapeSynthesis: synthesisLayout,
}

func (a Analysis) Display() string  { return engine.Show(a, analysisLayout) }
func (d Debate) Display() string    { return engine.Show(d, debateLayout) }
func (s Synthesis) Display() string { return engine.Show(s, synthesisLayout) }

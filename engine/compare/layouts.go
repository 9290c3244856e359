package compare

import (
	"fmt"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/layout"
)

// How each reply shape reads, on screen while it streams and once done.
var (
	criteriaLayout = layout.Layout{Fields: []layout.Field{
		{Key: "criteria", Style: layout.Numbered, Item: &layout.Layout{Fields: []layout.Field{
			{Key: "name", Style: layout.Heading},
			{Key: "weight", Style: layout.Line, Sep: " ", Format: "(%s weight)"},
			{Key: "why", Style: layout.Line, Sep: " — "},
		}}},
	}}

	openingLayout = layout.Layout{Fields: []layout.Field{
		{Key: "option", Label: "For"},
		{Key: "arguments", Style: layout.Bullets, Item: &layout.Layout{Fields: []layout.Field{
			{Key: "criterion", Style: layout.Label},
			{Key: "for_this"},
			{Key: "against_other", Style: layout.Line, Sep: " — ", Format: "against the other: %s"},
		}}},
		{Key: "risks_of_other", Label: "Risks of the other option", Style: layout.Bullets},
		{Key: "stakeholders"},
		{Key: "closing_argument", Label: "In closing"},
	}}

	rebuttalLayout = layout.Layout{Fields: []layout.Field{
		{Key: "attacks", Style: layout.Numbered, Item: &layout.Layout{Fields: []layout.Field{
			{Key: "claim", Style: layout.Heading},
			{Key: "why_it_fails", Label: "Why it fails"},
			{Key: "counter_evidence", Label: "Counter-evidence"},
		}}},
		{Key: "conceded", Style: layout.Bullets},
	}}

	judgeLayout = layout.Layout{Fields: []layout.Field{
		{Key: "scores", Style: layout.Bullets, Item: &layout.Layout{Fields: []layout.Field{
			{Key: "criterion", Style: layout.Label},
			{Key: "option", Style: layout.Line, Sep: " — "},
			{Key: "score", Format: "%s/5"},
			{Key: "more_convincing", Style: layout.Line, Format: "more convincing: %s"},
			{Key: "justification", Style: layout.Line, Sep: " — "},
		}}},
		{Key: "recommendation"},
		{Key: "conditions", Style: layout.Paragraphs, Item: &layout.Layout{Fields: []layout.Field{
			{Key: "option", Style: layout.Heading},
			{Key: "choose_if", Style: layout.Bullets, Bare: true, Format: "choose if %s"},
		}}},
		{Key: "open_questions", Style: layout.Bullets},
		// A finding and a rebuttal's fate each read on one line, as the
		// outcome document has them.
		{Key: "audit", Style: layout.Bullets, Item: &layout.Layout{Fields: []layout.Field{
			{Key: "kind", Style: layout.Heading},
			{Key: "option", Style: layout.Line, Sep: " ", Format: "(the advocate for %s)"},
			{Key: "claim", Style: layout.Line, Sep: ": ", Format: "“%s”"},
			{Key: "detail", Style: layout.Line, Sep: " — "},
		}}},
		{Key: "rebuttals", Style: layout.Bullets, Item: &layout.Layout{Fields: []layout.Field{
			{Key: "option", Style: layout.Heading, Format: "the rebuttal for %s"},
			{Key: "effectiveness", Style: layout.Line, Sep: ": ", Format: "effectiveness %s/5"},
			{Key: "survived", Style: layout.Line, Sep: "; survived: "},
			{Key: "collapsed", Style: layout.Line, Sep: "; collapsed: "},
		}}},
	}}
)

// Layouts are the protocol's reply shapes' layouts, for the start event.
var Layouts = map[string]layout.Layout{
	ShapeCriteria: criteriaLayout, ShapeOpening: openingLayout,
	ShapeRebuttal: rebuttalLayout, ShapeJudge: judgeLayout,
}

func (c Criteria) Display() string { return engine.Show(c, criteriaLayout) }
func (c Criteria) Badge() (string, engine.Stance) {
	return fmt.Sprintf("%d criteria", len(c.Criteria)), engine.StanceNeutral
}

func (o Opening) Display() string { return engine.Show(o, openingLayout) }
func (o Opening) Badge() (string, engine.Stance) {
	return "for " + o.Option, engine.StanceNeutral
}

func (r Rebuttal) Display() string { return engine.Show(r, rebuttalLayout) }
func (r Rebuttal) Badge() (string, engine.Stance) {
	return fmt.Sprintf("%d attacks · %d conceded", len(r.Attacks), len(r.Conceded)), engine.StanceNeutral
}

func (j Judgement) Display() string { return engine.Show(j, judgeLayout) }
func (j Judgement) Badge() (string, engine.Stance) {
	return "recommends " + j.Recommendation, engine.StanceAgree
}

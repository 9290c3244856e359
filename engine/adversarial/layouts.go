package adversarial

import (
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/layout"
)

// How each reply shape reads, on screen while it streams and once done.
var (
	openingLayout = layout.Layout{Fields: []layout.Field{
		{Key: "position"},
		{Key: "reasoning", Style: layout.Numbered},
		{Key: "confidence", Style: layout.Upper},
		{Key: "weaknesses", Label: "Weaknesses it admits", Style: layout.Bullets},
		{Key: "assumptions", Style: layout.Bullets},
	}}

	critiqueLayout = layout.Layout{Fields: []layout.Field{
		{Key: "verdict", Style: layout.Upper},
		{Key: "objection_strength", Style: layout.Line, Format: "%s objection"},
		{Key: "confidence", Style: layout.Line, Format: "%s confidence"},
		{Key: "critique"},
		{Key: "evidence"},
		{Key: "alternative"},
		{Key: "assumptions_challenged", Style: layout.Bullets},
	}}

	answerLayout = layout.Layout{Fields: []layout.Field{
		{Key: "responses", Style: layout.Paragraphs, Bare: true, Item: &layout.Layout{Fields: []layout.Field{
			{Key: "challenger", Style: layout.Label, Format: "To %s"},
			{Key: "decision", Style: layout.Line, Sep: " — ", Upper: true, Values: map[string]string{"partial": "partially accept"}},
			{Key: "explanation"},
		}}},
		{Key: "updated_position", Label: "Position now"},
	}}

	rebuttalLayout = layout.Layout{Fields: []layout.Field{
		{Key: "choice", Style: layout.Label, Upper: true},
		{Key: "explanation"},
	}}

	finalLayout = layout.Layout{Fields: []layout.Field{
		{Key: "why_disagree", Label: "Why I still disagree"},
		{Key: "what_would_make_other_right", Label: "What would make the other side right"},
		{Key: "my_assumption", Label: "My assumption"},
	}}

	synthesisLayout = layout.Layout{Fields: []layout.Field{
		{Key: "options", Style: layout.Paragraphs, Bare: true, Item: &layout.Layout{Fields: []layout.Field{
			{Key: "name", Style: layout.Heading},
			{Key: "summary", Style: layout.Line, Sep: " — "},
			{Key: "choose_if", Style: layout.Bullets, Bare: true, Format: "choose if %s"},
		}}},
		{Key: "recommendation"},
		{Key: "open_questions", Style: layout.Bullets},
	}}
)

// Layouts are the protocol's reply shapes' layouts, for the start event.
var Layouts = map[string]layout.Layout{
	ShapeOpening: openingLayout, ShapeCritique: critiqueLayout, ShapeAnswer: answerLayout,
	ShapeRebuttal: rebuttalLayout, ShapeFinal: finalLayout, ShapeSynthesis: synthesisLayout,
}

func (o Opening) Display() string   { return engine.Show(o, openingLayout) }
func (c Critique) Display() string  { return engine.Show(c, critiqueLayout) }
func (a Answer) Display() string    { return engine.Show(a, answerLayout) }
func (r Rebuttal) Display() string  { return engine.Show(r, rebuttalLayout) }
func (f Final) Display() string     { return engine.Show(f, finalLayout) }
func (s Synthesis) Display() string { return engine.Show(s, synthesisLayout) }

package layout

// The layouts of the reply shapes, as a caller would declare them: the
// adversarial debate's (they read as engine/display.go's hand-written
// renderings did) and the comparative debate's.

var (
	openingLayout = Layout{Fields: []Field{
		{Key: "position"},
		{Key: "reasoning", Style: Numbered},
		{Key: "confidence", Style: Upper},
		{Key: "weaknesses", Label: "Weaknesses it admits", Style: Bullets},
		{Key: "assumptions", Style: Bullets},
	}}

	critiqueLayout = Layout{Fields: []Field{
		{Key: "verdict", Style: Upper},
		{Key: "objection_strength", Style: Line, Format: "%s objection"},
		{Key: "confidence", Style: Line, Format: "%s confidence"},
		{Key: "critique"},
		{Key: "evidence"},
		{Key: "alternative"},
		{Key: "assumptions_challenged", Style: Bullets},
	}}

	answerLayout = Layout{Fields: []Field{
		{Key: "responses", Style: Paragraphs, Bare: true, Item: &Layout{Fields: []Field{
			{Key: "challenger", Style: Label, Format: "To %s"},
			{Key: "decision", Style: Line, Sep: " — ", Upper: true, Values: map[string]string{"partial": "partially accept"}},
			{Key: "explanation"},
		}}},
		{Key: "updated_position", Label: "Position now"},
	}}

	rebuttalLayout = Layout{Fields: []Field{
		{Key: "choice", Style: Label, Upper: true},
		{Key: "explanation"},
	}}

	finalLayout = Layout{Fields: []Field{
		{Key: "why_disagree", Label: "Why I still disagree"},
		{Key: "what_would_make_other_right", Label: "What would make the other side right"},
		{Key: "my_assumption", Label: "My assumption"},
	}}

	synthesisLayout = Layout{Fields: []Field{
		{Key: "options", Style: Paragraphs, Bare: true, Item: &Layout{Fields: []Field{
			{Key: "name", Style: Heading},
			{Key: "summary", Style: Line, Sep: " — "},
			{Key: "choose_if", Style: Bullets, Bare: true, Format: "choose if %s"},
		}}},
		{Key: "recommendation"},
		{Key: "open_questions", Style: Bullets},
	}}

	// The comparative debate.

	criteriaLayout = Layout{Fields: []Field{
		{Key: "criteria", Style: Numbered, Item: &Layout{Fields: []Field{
			{Key: "name", Style: Heading},
			{Key: "weight", Style: Line, Sep: " ", Format: "(%s weight)"},
			{Key: "why", Style: Line, Sep: " — "},
		}}},
	}}

	compOpeningLayout = Layout{Fields: []Field{
		{Key: "option", Label: "For"},
		{Key: "arguments", Style: Bullets, Item: &Layout{Fields: []Field{
			{Key: "criterion", Style: Label},
			{Key: "for_this"},
			{Key: "against_other", Style: Line, Sep: " — ", Format: "against the other: %s"},
		}}},
		{Key: "risks_of_other", Label: "Risks of the other option", Style: Bullets},
		{Key: "stakeholders"},
		{Key: "closing_argument", Label: "In closing"},
	}}

	compRebuttalLayout = Layout{Fields: []Field{
		{Key: "attacks", Style: Numbered, Item: &Layout{Fields: []Field{
			{Key: "claim", Style: Heading},
			{Key: "why_it_fails", Label: "Why it fails"},
			{Key: "counter_evidence", Label: "Counter-evidence"},
		}}},
		{Key: "conceded", Style: Bullets},
	}}

	judgeLayout = Layout{Fields: []Field{
		{Key: "scores", Style: Bullets, Item: &Layout{Fields: []Field{
			{Key: "criterion", Style: Label},
			{Key: "option", Style: Line, Sep: " — "},
			{Key: "score", Format: "%s/5"},
			{Key: "more_convincing", Style: Line, Format: "more convincing: %s"},
			{Key: "justification", Style: Line, Sep: " — "},
		}}},
		{Key: "recommendation"},
		{Key: "conditions", Style: Paragraphs, Item: &Layout{Fields: []Field{
			{Key: "option", Style: Heading},
			{Key: "choose_if", Style: Bullets, Bare: true, Format: "choose if %s"},
		}}},
		{Key: "open_questions", Style: Bullets},
	}}
)

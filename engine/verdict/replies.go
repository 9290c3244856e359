package verdict

import (
	"fmt"
	"strings"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/layout"
)

// The reply shapes, as prompts name them (package shape). The tiebreaker
// answers the deep judge's shape, asked with the prior verdicts appended.
const (
	ShapeQuick    = "verdict.quick"
	ShapeDeep     = "verdict.deep"
	ShapeTiebreak = "verdict.tiebreak"
)

// Judgement is one judge's reply, validated, with arena's own reading of
// it: Verdict is what the thresholds make of the scores; Stated is what
// the model said, kept when the two differ.
type Judgement struct {
	Verdict      Verdict  `json:"verdict"`
	Stated       Verdict  `json:"stated_verdict,omitempty"`
	Scores       Scores   `json:"scores"`
	Average      float64  `json:"average"`
	Reasoning    string   `json:"reasoning"`
	Improvements []string `json:"improvements"`
	// Quotes are the text of the work each improvement quotes, by its
	// position in Improvements ("" for one that quotes none; nil when
	// none does): a judge may give an improvement as {"improvement":
	// ..., "quote": ...}, and arena finds the quote's file and line.
	Quotes []string `json:"quotes,omitempty"`
	// Stripped says what arena had to take away around the JSON object
	// the models are told to return alone ("a ```json fence").
	Stripped []string `json:"stripped,omitempty"`
}

var replyKeys = engine.ShapeKeys("verdict", "scores", "reasoning", "improvements")

// Parse reads a judge's reply: lenient about what surrounds the JSON,
// strict about its fields; the verdict is recomputed from the scores.
func Parse(text string) (Judgement, error) {
	j, err := engine.ParseObject(text, replyKeys, validate)
	if err != nil {
		return j, err
	}
	j.Stripped = stripped(text)
	return j, nil
}

func validate(f engine.Fields) (Judgement, error) {
	var j Judgement
	var stated string
	err := engine.Collect(
		func() (err error) { stated, err = f.Enum("verdict", judgeVerdicts...); return },
		func() (err error) { j.Scores, err = scores(f); return },
		func() (err error) { j.Reasoning, err = reasoning(f); return },
		func() (err error) {
			if _, ok := f["improvements"]; !ok {
				j.Improvements = []string{} // a quick judge may leave it out
				return nil
			}
			j.Improvements, j.Quotes, err = improvements(f)
			return
		},
	)
	if err != nil {
		return j, err
	}
	j.Verdict, j.Average = Decide(j.Scores), j.Scores.Average()
	if Verdict(stated) != j.Verdict {
		j.Stated = Verdict(stated)
	}
	return j, nil
}

// improvements reads the improvements: each a string, or an object
// {"improvement": "...", "quote": "the text of the work it is about"}
// ("text" or "issue" for the improvement, "evidence" for the quote).
// quotes is nil when none quotes the work.
func improvements(f engine.Fields) (texts, quotes []string, err error) {
	arr, ok := f["improvements"].([]any)
	if !ok {
		return nil, nil, engine.FieldError("improvements", "must be a list of strings or {\"improvement\", \"quote\"} objects")
	}
	texts = []string{}
	var quoted []string
	cites := false
	for i, x := range arr {
		text, quote := "", ""
		switch v := x.(type) {
		case string:
			text = strings.TrimSpace(v)
		case map[string]any:
			o := engine.Fields{}
			for k, val := range v {
				o[engine.NormKey(k)] = val
			}
			text, quote = firstOf(o, "improvement", "text", "issue"), firstOf(o, "quote", "evidence")
			if text == "" {
				return nil, nil, engine.FieldError(fmt.Sprintf("improvements[%d]", i), "has no \"improvement\"")
			}
		default:
			return nil, nil, engine.FieldError(fmt.Sprintf("improvements[%d]", i), "must be a string or an object")
		}
		if text == "" {
			continue
		}
		texts, quoted = append(texts, text), append(quoted, quote)
		cites = cites || quote != ""
	}
	if cites {
		quotes = quoted
	}
	return texts, quotes, nil
}

// firstOf is the first of keys o holds a string under.
func firstOf(o engine.Fields, keys ...string) string {
	for _, k := range keys {
		if s := o.Opt(k); s != "" {
			return s
		}
	}
	return ""
}

func scores(f engine.Fields) (Scores, error) {
	var s Scores
	raw, ok := f["scores"]
	if !ok {
		return s, engine.FieldError("scores", "is missing")
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return s, engine.FieldError("scores", "must be an object {\"semantic\": 1-5, \"pragmatic\": 1-5, \"syntactic\": 1-5}")
	}
	sf := engine.Fields{}
	for k, v := range m {
		sf[engine.NormKey(k)] = v
	}
	err := engine.Collect(
		func() (err error) { s.Semantic, err = sf.Int("semantic", minScore, maxScore); return },
		func() (err error) { s.Pragmatic, err = sf.Int("pragmatic", minScore, maxScore); return },
		func() (err error) { s.Syntactic, err = sf.Int("syntactic", minScore, maxScore); return },
	)
	if err != nil {
		return s, fmt.Errorf("scores: %w", err)
	}
	return s, nil
}

// reasoning is a string, or the deep judge's chain as a list of steps.
func reasoning(f engine.Fields) (string, error) {
	if _, ok := f["reasoning"].([]any); ok {
		steps, err := f.List("reasoning")
		if err != nil {
			return "", err
		}
		if len(steps) == 0 {
			return "", engine.FieldError("reasoning", "is empty")
		}
		for i := range steps {
			steps[i] = fmt.Sprintf("%d. %s", i+1, steps[i])
		}
		return strings.Join(steps, "\n"), nil
	}
	return f.Str("reasoning", false)
}

// stripped says what surrounded the JSON object in a reply.
func stripped(text string) []string {
	t := strings.TrimSpace(text)
	var out []string
	if strings.Contains(t, "```") {
		out = append(out, "a code fence")
	}
	if i := strings.IndexAny(t, "{`"); i > 0 {
		out = append(out, "text before the JSON")
	}
	if i := strings.LastIndexAny(t, "}`"); i >= 0 && i < len(t)-1 {
		out = append(out, "text after the JSON")
	}
	return out
}

// layout is how a judgement reads, streaming and done.
var judgementLayout = layout.Layout{Fields: []layout.Field{
	{Key: "verdict", Style: layout.Upper},
	{Key: "scores", Item: &layout.Layout{Fields: []layout.Field{
		{Key: "semantic", Format: "%s/5"},
		{Key: "pragmatic", Format: "%s/5"},
		{Key: "syntactic", Format: "%s/5"},
	}}},
	{Key: "reasoning"},
	{Key: "improvements", Style: layout.Bullets},
}}

// Layouts are the protocol's reply shapes' layouts, for the start event.
var Layouts = map[string]layout.Layout{ShapeQuick: judgementLayout, ShapeDeep: judgementLayout, ShapeTiebreak: judgementLayout}

// Display shows the judgement as the model wrote it, then arena's reading.
func (j Judgement) Display() string {
	shown := struct {
		Verdict      Verdict  `json:"verdict"`
		Scores       Scores   `json:"scores"`
		Reasoning    string   `json:"reasoning"`
		Improvements []string `json:"improvements"`
	}{j.stated(), j.Scores, j.Reasoning, j.Improvements}
	if strings.Contains(shown.Reasoning, "\n") {
		shown.Reasoning = "\n" + shown.Reasoning // a chain reads as a list under its label
	}
	out := engine.Show(shown, judgementLayout)
	out += fmt.Sprintf("\n\nArena: average %.2f → %s (%s)", j.Average, strings.ToUpper(string(j.Verdict)), Why(j.Scores, j.Verdict))
	if j.Stated != "" {
		out += fmt.Sprintf("; the model said %s, the thresholds win", j.Stated)
	}
	return out
}

func (j Judgement) stated() Verdict {
	if j.Stated != "" {
		return j.Stated
	}
	return j.Verdict
}

// Badge is arena's verdict, coloured.
func (j Judgement) Badge() (string, engine.Stance) {
	return fmt.Sprintf("%s %.2f", j.Verdict, j.Average), Stance(j.Verdict)
}

// Stance colours a verdict.
func Stance(v Verdict) engine.Stance {
	switch v {
	case Accept:
		return engine.StanceAgree
	case Reject:
		return engine.StanceDisagree
	case Improve, Escalate:
		return engine.StancePartial
	}
	return engine.StanceNeutral
}

package adversarial

import (
	"fmt"
	"strings"

	"github.com/arenadebate/arena/engine"
)

// The reply shapes. A key means the same thing, with the same type, in
// every shape: "confidence" is always high|medium|low, "explanation" is
// always a string saying why.

// Opening is the defender's opening position.
type Opening struct {
	Position    string   `json:"position"`
	Reasoning   []string `json:"reasoning"`
	Confidence  string   `json:"confidence"`
	Weaknesses  []string `json:"weaknesses"`
	Assumptions []string `json:"assumptions"`
}

// Critique is a challenger's attack on the position.
type Critique struct {
	Verdict               string   `json:"verdict"`
	Critique              string   `json:"critique"`
	Evidence              string   `json:"evidence"`
	Alternative           string   `json:"alternative"`
	Confidence            string   `json:"confidence"`
	ObjectionStrength     string   `json:"objection_strength"`
	AssumptionsChallenged []string `json:"assumptions_challenged"`
}

// Answer is the defender's answer to the critiques of a round.
type Answer struct {
	Responses       []Response `json:"responses"`
	UpdatedPosition string     `json:"updated_position"`
}

// Response is the defender's decision on one challenger's critique.
type Response struct {
	Challenger  string `json:"challenger"`
	Decision    string `json:"decision"`
	Explanation string `json:"explanation"`
}

// Rebuttal is a challenger's reply to the defender's response.
type Rebuttal struct {
	Choice      string `json:"choice"`
	Explanation string `json:"explanation"`
}

// Final answers the three final questions of assumption extraction.
type Final struct {
	WhyDisagree             string `json:"why_disagree"`
	WhatWouldMakeOtherRight string `json:"what_would_make_other_right"`
	MyAssumption            string `json:"my_assumption"`
}

// Synthesis is the defender's tradeoff synthesis.
type Synthesis struct {
	Options        []Option `json:"options"`
	Recommendation string   `json:"recommendation"`
	OpenQuestions  []string `json:"open_questions"`
}

// Option is one way to go, and when to choose it.
type Option struct {
	Name     string   `json:"name"`
	Summary  string   `json:"summary"`
	ChooseIf []string `json:"choose_if"`
}

// Enum values.
var (
	confidences = []string{"high", "medium", "low"}
	verdicts    = []string{"agree", "partial", "disagree"}
	strengths   = []string{"strong", "moderate", "minor"}
	decisions   = []string{"accept", "partial", "reject"}
	choices     = []string{"accept", "maintain", "escalate"}
)

var (
	openingKeys   = engine.ShapeKeys("position", "reasoning", "confidence", "weaknesses", "assumptions")
	critiqueKeys  = engine.ShapeKeys("verdict", "critique", "evidence", "alternative", "confidence", "objection_strength", "assumptions_challenged")
	answerKeys    = engine.ShapeKeys("responses", "updated_position")
	rebuttalKeys  = engine.ShapeKeys("choice", "explanation")
	finalKeys     = engine.ShapeKeys("why_disagree", "what_would_make_other_right", "my_assumption")
	synthesisKeys = engine.ShapeKeys("options", "recommendation", "open_questions")
)

// ParseOpening parses and validates an opening.
func ParseOpening(text string) (Opening, error) {
	return engine.ParseObject(text, openingKeys, func(f engine.Fields) (o Opening, err error) {
		err = engine.Collect(
			func() (e error) { o.Position, e = f.Str("position", false); return },
			func() (e error) { o.Reasoning, e = f.List("reasoning"); return },
			func() (e error) { o.Confidence, e = f.Enum("confidence", confidences...); return },
			func() (e error) { o.Weaknesses, e = f.List("weaknesses"); return },
			func() (e error) { o.Assumptions, e = f.List("assumptions"); return },
		)
		return o, err
	})
}

// ParseCritique parses and validates a critique.
func ParseCritique(text string) (Critique, error) {
	return engine.ParseObject(text, critiqueKeys, func(f engine.Fields) (c Critique, err error) {
		err = engine.Collect(
			func() (e error) { c.Verdict, e = f.Enum("verdict", verdicts...); return },
			func() (e error) { c.Critique, e = f.Str("critique", false); return },
			func() (e error) { c.Evidence, e = f.Str("evidence", true); return },
			func() (e error) { c.Alternative, e = f.Str("alternative", true); return },
			func() (e error) { c.Confidence, e = f.Enum("confidence", confidences...); return },
			func() (e error) { c.ObjectionStrength, e = f.Enum("objection_strength", strengths...); return },
			func() (e error) { c.AssumptionsChallenged, e = f.List("assumptions_challenged"); return },
		)
		return c, err
	})
}

// ParseAnswer parses and validates the defender's answer, which must hold
// exactly one response for each of the named challengers.
func ParseAnswer(text string, challengers []string) (Answer, error) {
	return engine.ParseObject(text, answerKeys, func(f engine.Fields) (a Answer, err error) {
		var objs []engine.Fields
		err = engine.Collect(
			func() (e error) { objs, e = f.Objects("responses"); return },
			func() (e error) { a.UpdatedPosition, e = f.Str("updated_position", false); return },
		)
		if err != nil {
			return a, err
		}
		a.Responses, err = parseResponses(objs, challengers)
		return a, err
	})
}

func parseResponses(objs []engine.Fields, want []string) ([]Response, error) {
	byName := map[string]Response{}
	for i, o := range objs {
		var r Response
		err := engine.Collect(
			func() (e error) { r.Challenger, e = o.Str("challenger", false); return },
			func() (e error) { r.Decision, e = o.Enum("decision", decisions...); return },
			func() (e error) { r.Explanation, e = o.Str("explanation", false); return },
		)
		if err != nil {
			return nil, fmt.Errorf("responses[%d]: %w", i, err)
		}
		name, ok := matchName(r.Challenger, want)
		if !ok {
			return nil, fmt.Errorf("responses[%d]: %q is not one of the challengers (%s)", i, r.Challenger, strings.Join(want, ", "))
		}
		if _, dup := byName[name]; dup {
			return nil, fmt.Errorf("responses: two responses for %s", name)
		}
		r.Challenger = name
		byName[name] = r
	}
	out := make([]Response, 0, len(want))
	for _, n := range want {
		r, ok := byName[n]
		if !ok {
			return nil, fmt.Errorf("responses: no response for %s", n)
		}
		out = append(out, r)
	}
	return out, nil
}

func matchName(s string, names []string) (string, bool) {
	for _, n := range names {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return n, true
		}
	}
	return "", false
}

// ParseRebuttal parses and validates a rebuttal.
func ParseRebuttal(text string) (Rebuttal, error) {
	return engine.ParseObject(text, rebuttalKeys, func(f engine.Fields) (r Rebuttal, err error) {
		err = engine.Collect(
			func() (e error) { r.Choice, e = f.Enum("choice", choices...); return },
			func() (e error) { r.Explanation, e = f.Str("explanation", false); return },
		)
		return r, err
	})
}

// ParseFinal parses and validates answers to the final questions.
func ParseFinal(text string) (Final, error) {
	return engine.ParseObject(text, finalKeys, func(f engine.Fields) (r Final, err error) {
		err = engine.Collect(
			func() (e error) { r.WhyDisagree, e = f.Str("why_disagree", false); return },
			func() (e error) { r.WhatWouldMakeOtherRight, e = f.Str("what_would_make_other_right", false); return },
			func() (e error) { r.MyAssumption, e = f.Str("my_assumption", false); return },
		)
		return r, err
	})
}

// ParseSynthesis parses and validates the tradeoff synthesis.
func ParseSynthesis(text string) (Synthesis, error) {
	return engine.ParseObject(text, synthesisKeys, func(f engine.Fields) (s Synthesis, err error) {
		var objs []engine.Fields
		err = engine.Collect(
			func() (e error) { objs, e = f.Objects("options"); return },
			func() (e error) { s.Recommendation, e = f.Str("recommendation", false); return },
			func() (e error) { s.OpenQuestions, e = f.List("open_questions"); return },
		)
		if err != nil {
			return s, err
		}
		if len(objs) == 0 {
			return s, engine.FieldError("options", "is empty")
		}
		for i, o := range objs {
			var opt Option
			err := engine.Collect(
				func() (e error) { opt.Name, e = o.Str("name", false); return },
				func() (e error) { opt.Summary, e = o.Str("summary", false); return },
				func() (e error) { opt.ChooseIf, e = o.List("choose_if"); return },
			)
			if err != nil {
				return s, fmt.Errorf("options[%d]: %w", i, err)
			}
			s.Options = append(s.Options, opt)
		}
		return s, nil
	})
}

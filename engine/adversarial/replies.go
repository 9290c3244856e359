package engine

import (
	"fmt"
	"strings"
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
	openingKeys   = shapeKeys("position", "reasoning", "confidence", "weaknesses", "assumptions")
	critiqueKeys  = shapeKeys("verdict", "critique", "evidence", "alternative", "confidence", "objection_strength", "assumptions_challenged")
	answerKeys    = shapeKeys("responses", "updated_position")
	rebuttalKeys  = shapeKeys("choice", "explanation")
	finalKeys     = shapeKeys("why_disagree", "what_would_make_other_right", "my_assumption")
	synthesisKeys = shapeKeys("options", "recommendation", "open_questions")
)

// ParseOpening parses and validates an opening.
func ParseOpening(text string) (Opening, error) {
	return parseObject(text, openingKeys, func(f fields) (o Opening, err error) {
		err = collect(
			func() (e error) { o.Position, e = f.str("position", false); return },
			func() (e error) { o.Reasoning, e = f.list("reasoning"); return },
			func() (e error) { o.Confidence, e = f.enum("confidence", confidences...); return },
			func() (e error) { o.Weaknesses, e = f.list("weaknesses"); return },
			func() (e error) { o.Assumptions, e = f.list("assumptions"); return },
		)
		return o, err
	})
}

// ParseCritique parses and validates a critique.
func ParseCritique(text string) (Critique, error) {
	return parseObject(text, critiqueKeys, func(f fields) (c Critique, err error) {
		err = collect(
			func() (e error) { c.Verdict, e = f.enum("verdict", verdicts...); return },
			func() (e error) { c.Critique, e = f.str("critique", false); return },
			func() (e error) { c.Evidence, e = f.str("evidence", true); return },
			func() (e error) { c.Alternative, e = f.str("alternative", true); return },
			func() (e error) { c.Confidence, e = f.enum("confidence", confidences...); return },
			func() (e error) { c.ObjectionStrength, e = f.enum("objection_strength", strengths...); return },
			func() (e error) { c.AssumptionsChallenged, e = f.list("assumptions_challenged"); return },
		)
		return c, err
	})
}

// ParseAnswer parses and validates the defender's answer, which must hold
// exactly one response for each of the named challengers.
func ParseAnswer(text string, challengers []string) (Answer, error) {
	return parseObject(text, answerKeys, func(f fields) (a Answer, err error) {
		var objs []fields
		err = collect(
			func() (e error) { objs, e = f.objects("responses"); return },
			func() (e error) { a.UpdatedPosition, e = f.str("updated_position", false); return },
		)
		if err != nil {
			return a, err
		}
		a.Responses, err = parseResponses(objs, challengers)
		return a, err
	})
}

func parseResponses(objs []fields, want []string) ([]Response, error) {
	byName := map[string]Response{}
	for i, o := range objs {
		var r Response
		err := collect(
			func() (e error) { r.Challenger, e = o.str("challenger", false); return },
			func() (e error) { r.Decision, e = o.enum("decision", decisions...); return },
			func() (e error) { r.Explanation, e = o.str("explanation", false); return },
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
	return parseObject(text, rebuttalKeys, func(f fields) (r Rebuttal, err error) {
		err = collect(
			func() (e error) { r.Choice, e = f.enum("choice", choices...); return },
			func() (e error) { r.Explanation, e = f.str("explanation", false); return },
		)
		return r, err
	})
}

// ParseFinal parses and validates answers to the final questions.
func ParseFinal(text string) (Final, error) {
	return parseObject(text, finalKeys, func(f fields) (r Final, err error) {
		err = collect(
			func() (e error) { r.WhyDisagree, e = f.str("why_disagree", false); return },
			func() (e error) { r.WhatWouldMakeOtherRight, e = f.str("what_would_make_other_right", false); return },
			func() (e error) { r.MyAssumption, e = f.str("my_assumption", false); return },
		)
		return r, err
	})
}

// ParseSynthesis parses and validates the tradeoff synthesis.
func ParseSynthesis(text string) (Synthesis, error) {
	return parseObject(text, synthesisKeys, func(f fields) (s Synthesis, err error) {
		var objs []fields
		err = collect(
			func() (e error) { objs, e = f.objects("options"); return },
			func() (e error) { s.Recommendation, e = f.str("recommendation", false); return },
			func() (e error) { s.OpenQuestions, e = f.list("open_questions"); return },
		)
		if err != nil {
			return s, err
		}
		if len(objs) == 0 {
			return s, &fieldErr{"options", "is empty"}
		}
		for i, o := range objs {
			var opt Option
			err := collect(
				func() (e error) { opt.Name, e = o.str("name", false); return },
				func() (e error) { opt.Summary, e = o.str("summary", false); return },
				func() (e error) { opt.ChooseIf, e = o.list("choose_if"); return },
			)
			if err != nil {
				return s, fmt.Errorf("options[%d]: %w", i, err)
			}
			s.Options = append(s.Options, opt)
		}
		return s, nil
	})
}

package compare

import (
	"fmt"
	"strings"

	"github.com/arenadebate/arena/engine"
)

// The reply shapes, as prompts name them (package shape).
const (
	ShapeCriteria = "compare.criteria"
	ShapeOpening  = "compare.opening"
	ShapeRebuttal = "compare.rebuttal"
	ShapeJudge    = "compare.judge"
)

// Criteria is the judge's proposal of criteria when none were given.
type Criteria struct {
	Criteria []Criterion `json:"criteria"`
}

// Argument is an opening's case on one criterion.
type Argument struct {
	Criterion    string `json:"criterion"`
	ForThis      string `json:"for_this"`
	AgainstOther string `json:"against_other"`
}

// Opening is an advocate's case for its option.
type Opening struct {
	Option          string     `json:"option"`
	Arguments       []Argument `json:"arguments"`
	RisksOfOther    []string   `json:"risks_of_other"`
	Stakeholders    string     `json:"stakeholders"`
	ClosingArgument string     `json:"closing_argument"`
}

// Attack is a rebuttal's attack on one quoted claim.
type Attack struct {
	Claim           string `json:"claim"`
	WhyItFails      string `json:"why_it_fails"`
	CounterEvidence string `json:"counter_evidence"`
}

// Rebuttal is an advocate's attack on the other's opening.
type Rebuttal struct {
	Attacks  []Attack `json:"attacks"`
	Conceded []string `json:"conceded"`
}

// AuditItem is a flaw the judge found in an advocate's argument.
type AuditItem struct {
	Option string `json:"option"`
	Kind   string `json:"kind"` // strawman | unsupported
	Claim  string `json:"claim"`
	Detail string `json:"detail"`
}

// RebuttalScore is the judge's reading of one advocate's rebuttal.
type RebuttalScore struct {
	Option        string   `json:"option"`
	Effectiveness int      `json:"effectiveness"`
	Survived      []string `json:"survived"`
	Collapsed     []string `json:"collapsed"`
}

// Condition is "choose this option if ...".
type Condition struct {
	Option   string   `json:"option"`
	ChooseIf []string `json:"choose_if"`
}

// Judgement is the judge's scorecard, in one order of the options.
type Judgement struct {
	Scores         []Score         `json:"scores"`
	Audit          []AuditItem     `json:"audit"`
	Rebuttals      []RebuttalScore `json:"rebuttals"`
	Recommendation string          `json:"recommendation"`
	Conditions     []Condition     `json:"conditions"`
	OpenQuestions  []string        `json:"open_questions"`
	// Totals are the weighted totals the model stated, if it did; arena
	// computes its own and notes a disagreement.
	Totals map[string]float64 `json:"weighted_totals,omitempty"`
}

var (
	criteriaKeys = engine.ShapeKeys("criteria")
	openingKeys  = engine.ShapeKeys("option", "arguments", "risks_of_other", "stakeholders", "closing_argument")
	rebuttalKeys = engine.ShapeKeys("attacks", "conceded")
	judgeKeys    = engine.ShapeKeys("scores", "audit", "rebuttals", "recommendation", "conditions", "open_questions")
)

// parseCriteriaReply reads the judge's proposed criteria: four to six, each
// weighted high, medium or low.
func parseCriteriaReply(text string) (Criteria, error) {
	return engine.ParseObject(text, criteriaKeys, func(f engine.Fields) (c Criteria, err error) {
		objs, err := f.Objects("criteria")
		if err != nil {
			return c, err
		}
		seen := map[string]bool{}
		for i, o := range objs {
			var cr Criterion
			if err := engine.Collect(
				func() (e error) { cr.Name, e = o.Str("name", false); return },
				func() (e error) { cr.Weight, e = o.Enum("weight", "high", "medium", "low"); return },
			); err != nil {
				return c, fmt.Errorf("criteria[%d]: %w", i, err)
			}
			cr.Why = o.Opt("why")
			if seen[strings.ToLower(cr.Name)] {
				return c, fmt.Errorf("criteria[%d]: %q is named twice", i, cr.Name)
			}
			seen[strings.ToLower(cr.Name)] = true
			c.Criteria = append(c.Criteria, cr)
		}
		if n := len(c.Criteria); n < 2 || n > 8 {
			return c, engine.FieldError("criteria", fmt.Sprintf("must hold four to six criteria, got %d", n))
		}
		return c, nil
	})
}

// parseOpening reads an advocate's opening for option, checking that it
// argues every criterion, names exactly three risks, and does not hedge.
func parseOpening(text, option string, options []string, criteria []Criterion) (Opening, error) {
	return engine.ParseObject(text, openingKeys, func(f engine.Fields) (o Opening, err error) {
		var args []engine.Fields
		err = engine.Collect(
			func() (e error) { o.Option, e = f.Str("option", false); return },
			func() (e error) { args, e = f.Objects("arguments"); return },
			func() (e error) { o.RisksOfOther, e = f.List("risks_of_other"); return },
			func() (e error) { o.Stakeholders, e = f.Str("stakeholders", true); return },
			func() (e error) { o.ClosingArgument, e = f.Str("closing_argument", false); return },
		)
		if err != nil {
			return o, err
		}
		if m, ok := MatchOption(o.Option, options); !ok || m != option {
			return o, engine.FieldError("option", fmt.Sprintf("must be %q, the option you argue for, got %q", option, o.Option))
		}
		o.Option = option
		argued := map[string]bool{}
		for i, a := range args {
			var arg Argument
			if err := engine.Collect(
				func() (e error) { arg.Criterion, e = a.Str("criterion", false); return },
				func() (e error) { arg.ForThis, e = a.Str("for_this", false); return },
				func() (e error) { arg.AgainstOther, e = a.Str("against_other", true); return },
			); err != nil {
				return o, fmt.Errorf("arguments[%d]: %w", i, err)
			}
			if name, ok := MatchCriterion(arg.Criterion, criteria); ok {
				arg.Criterion = name
				argued[name] = true
			}
			o.Arguments = append(o.Arguments, arg)
		}
		for _, c := range criteria {
			if !argued[c.Name] {
				return o, engine.FieldError("arguments", fmt.Sprintf("must argue every criterion; %q is missing", c.Name))
			}
		}
		if len(o.RisksOfOther) != 3 {
			return o, engine.FieldError("risks_of_other", fmt.Sprintf("must hold exactly 3 risks, got %d", len(o.RisksOfOther)))
		}
		if h := Hedge(o.ClosingArgument + "\n" + forThis(o)); h != "" {
			return o, fmt.Errorf("the opening hedges (%q): argue for %s with conviction, without hedging", h, option)
		}
		return o, nil
	})
}

func forThis(o Opening) string {
	var b strings.Builder
	for _, a := range o.Arguments {
		b.WriteString(a.ForThis + "\n")
	}
	return b.String()
}

// parseRebuttal reads a rebuttal: exactly three attacks, each quoting a
// claim.
func parseRebuttal(text string) (Rebuttal, error) {
	return engine.ParseObject(text, rebuttalKeys, func(f engine.Fields) (r Rebuttal, err error) {
		var attacks []engine.Fields
		err = engine.Collect(
			func() (e error) { attacks, e = f.Objects("attacks"); return },
			func() (e error) { r.Conceded, e = f.List("conceded"); return },
		)
		if err != nil {
			return r, err
		}
		for i, a := range attacks {
			var at Attack
			if err := engine.Collect(
				func() (e error) { at.Claim, e = a.Str("claim", false); return },
				func() (e error) { at.WhyItFails, e = a.Str("why_it_fails", false); return },
				func() (e error) { at.CounterEvidence, e = a.Str("counter_evidence", true); return },
			); err != nil {
				return r, fmt.Errorf("attacks[%d]: %w", i, err)
			}
			r.Attacks = append(r.Attacks, at)
		}
		if len(r.Attacks) != 3 {
			return r, engine.FieldError("attacks", fmt.Sprintf("must attack exactly 3 claims, got %d", len(r.Attacks)))
		}
		return r, nil
	})
}

// parseJudgement reads a judge's scorecard: a score from 1 to 5 for every
// option on every criterion, and exactly one recommended option.
func parseJudgement(text string, options []string, criteria []Criterion, rebuttals bool) (Judgement, error) {
	return engine.ParseObject(text, judgeKeys, func(f engine.Fields) (j Judgement, err error) {
		var scores, audit, rebs, conds []engine.Fields
		err = engine.Collect(
			func() (e error) { scores, e = f.Objects("scores"); return },
			func() (e error) { audit, e = f.Objects("audit"); return },
			func() (e error) { j.Recommendation, e = f.Str("recommendation", false); return },
			func() (e error) { conds, e = f.Objects("conditions"); return },
			func() (e error) { j.OpenQuestions, e = f.List("open_questions"); return },
		)
		if err != nil {
			return j, err
		}
		if rebuttals {
			if rebs, err = f.Objects("rebuttals"); err != nil {
				return j, err
			}
		}
		rec, ok := MatchOption(j.Recommendation, options)
		if !ok {
			return j, engine.FieldError("recommendation", fmt.Sprintf("must name exactly one of %s, got %q", quoteAll(options), j.Recommendation))
		}
		j.Recommendation = rec
		r := judgementReader{options: options, criteria: criteria}
		if j.Scores, err = r.scores(scores); err != nil {
			return j, err
		}
		j.Audit = r.audit(audit)
		if j.Rebuttals, err = r.rebuttals(rebs); err != nil {
			return j, err
		}
		if j.Conditions, err = r.conditions(conds); err != nil {
			return j, err
		}
		j.Totals = r.totals(f["weighted_totals"])
		return j, nil
	})
}

// judgementReader reads the parts of a scorecard, matching the options
// and criteria a judge names to the comparison's.
type judgementReader struct {
	options  []string
	criteria []Criterion
}

// scores reads every score: each option on each criterion exactly once.
func (r judgementReader) scores(scores []engine.Fields) ([]Score, error) {
	var out []Score
	seen := map[[2]string]bool{}
	for i, s := range scores {
		sc, err := r.score(s)
		if err != nil {
			return nil, fmt.Errorf("scores[%d]: %w", i, err)
		}
		key := [2]string{sc.Option, sc.Criterion}
		if seen[key] {
			return nil, fmt.Errorf("scores[%d]: %s on %q is scored twice", i, sc.Option, sc.Criterion)
		}
		seen[key] = true
		out = append(out, sc)
	}
	for _, o := range r.options {
		for _, c := range r.criteria {
			if !seen[[2]string{o, c.Name}] {
				return nil, engine.FieldError("scores", fmt.Sprintf("must score every option on every criterion; %s on %q is missing", o, c.Name))
			}
		}
	}
	return out, nil
}

// score reads one score.
func (r judgementReader) score(s engine.Fields) (Score, error) {
	var sc Score
	var opt, crit string
	if err := engine.Collect(
		func() (e error) { crit, e = s.Str("criterion", false); return },
		func() (e error) { opt, e = s.Str("option", false); return },
		func() (e error) { sc.Score, e = s.Int("score", 1, 5); return },
		func() (e error) { sc.Justification, e = s.Str("justification", true); return },
	); err != nil {
		return sc, err
	}
	var ok bool
	if sc.Option, ok = MatchOption(opt, r.options); !ok {
		return sc, engine.FieldError("option", fmt.Sprintf("must be one of %s, got %q", quoteAll(r.options), opt))
	}
	if sc.Criterion, ok = MatchCriterion(crit, r.criteria); !ok {
		return sc, engine.FieldError("criterion", fmt.Sprintf("is not one of the criteria: %q", crit))
	}
	if m, ok := MatchOption(s.Opt("more_convincing"), r.options); ok {
		sc.MoreConvinced = m
	}
	return sc, nil
}

// audit reads the audit of the arguments, keeping an option it cannot
// match as the judge wrote it.
func (r judgementReader) audit(audit []engine.Fields) []AuditItem {
	var out []AuditItem
	for _, a := range audit {
		item := AuditItem{Kind: strings.ToLower(a.Opt("kind")), Claim: a.Opt("claim"), Detail: a.Opt("detail")}
		item.Option, _ = MatchOption(a.Opt("option"), r.options)
		if item.Option == "" {
			item.Option = a.Opt("option")
		}
		out = append(out, item)
	}
	return out
}

// rebuttals reads how well each option's rebuttal did.
func (r judgementReader) rebuttals(rebs []engine.Fields) ([]RebuttalScore, error) {
	var out []RebuttalScore
	for i, f := range rebs {
		var rs RebuttalScore
		if err := engine.Collect(
			func() (e error) { rs.Effectiveness, e = f.Int("effectiveness", 1, 5); return },
			func() (e error) { rs.Survived, e = f.List("survived"); return },
			func() (e error) { rs.Collapsed, e = f.List("collapsed"); return },
		); err != nil {
			return nil, fmt.Errorf("rebuttals[%d]: %w", i, err)
		}
		rs.Option, _ = MatchOption(f.Opt("option"), r.options)
		out = append(out, rs)
	}
	return out, nil
}

// conditions reads when to choose each option.
func (r judgementReader) conditions(conds []engine.Fields) ([]Condition, error) {
	var out []Condition
	for i, c := range conds {
		var cd Condition
		var err error
		if cd.ChooseIf, err = c.List("choose_if"); err != nil {
			return nil, fmt.Errorf("conditions[%d]: %w", i, err)
		}
		cd.Option, _ = MatchOption(c.Opt("option"), r.options)
		out = append(out, cd)
	}
	return out, nil
}

// totals reads the judge's own weighted totals (noted, never used: arena
// computes its own), nil when it gave none.
func (r judgementReader) totals(v any) map[string]float64 {
	t, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	out := map[string]float64{}
	for k, v := range t {
		if o, ok := MatchOption(k, r.options); ok {
			if n, ok := number(v); ok {
				out[o] = n
			}
		}
	}
	return out
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// number reads a JSON number as decoded by the lenient parser.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case interface{ Float64() (float64, error) }:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

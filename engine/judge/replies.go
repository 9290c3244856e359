package judge

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/arenadebate/arena/engine"
)

// The reply shapes. "scores" means the same in the analysis and the
// debate reply: one entry per criterion, with evidence quoted from the
// solution.

// Score is a judge's score for one criterion.
type Score struct {
	Criterion     string   `json:"criterion"`
	Score         int      `json:"score"`
	Evidence      []string `json:"evidence"`
	Justification string   `json:"justification"`
}

// Verification is one of the questions a judge asks about its own
// evaluation, answered.
type Verification struct {
	Question string `json:"question"`
	Answer   string `json:"answer"`
	Changed  bool   `json:"changed"`
}

// Analysis is a judge's independent analysis.
type Analysis struct {
	Scores       []Score        `json:"scores"`
	Overall      *float64       `json:"overall"` // the model's own total: noted, never used
	Strengths    []string       `json:"strengths"`
	Weaknesses   []string       `json:"weaknesses"`
	Verification []Verification `json:"verification"`
	// weighted is arena's overall from the scores (for the badge).
	weighted float64
}

// Disagreement is one disagreement a judge names in a debate round.
type Disagreement struct {
	Judge     string `json:"judge"`
	Criterion string `json:"criterion"`
	Mine      int    `json:"mine"`
	Theirs    int    `json:"theirs"`
	Defense   string `json:"defense"`
	Challenge string `json:"challenge"`
}

// Debate is a judge's reply in a debate round.
type Debate struct {
	Disagreements    []Disagreement `json:"disagreements"`
	Scores           []Score        `json:"scores"`
	Overall          *float64       `json:"overall"`
	Changes          []Change       `json:"changes"`
	AcceptsConsensus bool           `json:"accepts_consensus"`
	AgreesWith       []string       `json:"agrees_with"`
	weighted         float64
}

// Resolution says how a disagreement on one criterion was resolved.
type Resolution struct {
	Criterion   string `json:"criterion"`
	HowResolved string `json:"how_resolved"`
}

// Synthesis merges the judges' strengths and weaknesses.
type Synthesis struct {
	Strengths      []string     `json:"strengths"`
	Weaknesses     []string     `json:"weaknesses"`
	Recommendation string       `json:"recommendation"`
	Justification  string       `json:"justification"`
	Resolutions    []Resolution `json:"resolutions"`
}

var (
	analysisKeys  = engine.ShapeKeys("scores", "overall", "strengths", "weaknesses", "verification")
	debateKeys    = engine.ShapeKeys("disagreements", "scores", "overall", "changes", "accepts_consensus", "agrees_with")
	synthesisKeys = engine.ShapeKeys("strengths", "weaknesses", "recommendation", "justification", "resolutions")
	// Recommendations are the synthesis's recommendation values.
	Recommendations = []string{"pass", "fail", "needs_revision"}
)

// ParseAnalysis parses and validates an analysis of the criteria cs.
func ParseAnalysis(text string, cs []Criterion) (Analysis, error) {
	return engine.ParseObject(text, analysisKeys, func(f engine.Fields) (a Analysis, err error) {
		var vs []engine.Fields
		err = engine.Collect(
			func() (e error) { a.Scores, e = parseScores(f, cs); return },
			func() (e error) { a.Strengths, e = f.List("strengths"); return },
			func() (e error) { a.Weaknesses, e = f.List("weaknesses"); return },
			func() (e error) { vs, e = f.Objects("verification"); return },
		)
		if err != nil {
			return a, err
		}
		for i, v := range vs {
			var q Verification
			err := engine.Collect(
				func() (e error) { q.Question, e = v.Str("question", false); return },
				func() (e error) { q.Answer, e = v.Str("answer", true); return },
			)
			if err != nil {
				return a, fmt.Errorf("verification[%d]: %w", i, err)
			}
			q.Changed, _ = boolField(v, "changed")
			a.Verification = append(a.Verification, q)
		}
		a.Overall = numberField(f, "overall")
		a.weighted = Weighted(cs, ScoresOf(cs, a.Scores))
		return a, nil
	})
}

// ParseDebate parses and validates a debate-round reply.
func ParseDebate(text string, cs []Criterion) (Debate, error) {
	return engine.ParseObject(text, debateKeys, func(f engine.Fields) (d Debate, err error) {
		var ds, chs []engine.Fields
		err = engine.Collect(
			func() (e error) { ds, e = f.Objects("disagreements"); return },
			func() (e error) { d.Scores, e = parseScores(f, cs); return },
			func() (e error) { chs, e = f.Objects("changes"); return },
			func() (e error) { d.AcceptsConsensus, e = boolField(f, "accepts_consensus"); return },
			func() (e error) { d.AgreesWith, e = f.List("agrees_with"); return },
		)
		if err != nil {
			return d, err
		}
		for i, o := range ds {
			var x Disagreement
			err := engine.Collect(
				func() (e error) { x.Judge, e = o.Str("judge", false); return },
				func() (e error) { x.Criterion, e = o.Str("criterion", false); return },
				func() (e error) { x.Mine, e = o.Int("mine", 1, 5); return },
				func() (e error) { x.Theirs, e = o.Int("theirs", 1, 5); return },
			)
			if err != nil {
				return d, fmt.Errorf("disagreements[%d]: %w", i, err)
			}
			x.Defense, x.Challenge = o.Opt("defense"), o.Opt("challenge")
			d.Disagreements = append(d.Disagreements, x)
		}
		for i, o := range chs {
			var c Change
			err := engine.Collect(
				func() (e error) { c.Criterion, e = o.Str("criterion", false); return },
				func() (e error) { c.From, e = o.Int("from", 1, 5); return },
				func() (e error) { c.To, e = o.Int("to", 1, 5); return },
			)
			if err != nil {
				return d, fmt.Errorf("changes[%d]: %w", i, err)
			}
			c.Reason = o.Opt("reason")
			c.Evidence = stringsField(o, "evidence")
			d.Changes = append(d.Changes, c)
		}
		d.Overall = numberField(f, "overall")
		d.weighted = Weighted(cs, ScoresOf(cs, d.Scores))
		return d, nil
	})
}

// ParseSynthesis parses and validates the synthesis.
func ParseSynthesis(text string) (Synthesis, error) {
	return engine.ParseObject(text, synthesisKeys, func(f engine.Fields) (s Synthesis, err error) {
		var rs []engine.Fields
		err = engine.Collect(
			func() (e error) { s.Strengths, e = f.List("strengths"); return },
			func() (e error) { s.Weaknesses, e = f.List("weaknesses"); return },
			func() (e error) { s.Recommendation, e = f.Enum("recommendation", Recommendations...); return },
			func() (e error) { s.Justification, e = f.Str("justification", true); return },
			func() (e error) { rs, e = f.Objects("resolutions"); return },
		)
		if err != nil {
			return s, err
		}
		for i, o := range rs {
			var r Resolution
			err := engine.Collect(
				func() (e error) { r.Criterion, e = o.Str("criterion", false); return },
				func() (e error) { r.HowResolved, e = o.Str("how_resolved", false); return },
			)
			if err != nil {
				return s, fmt.Errorf("resolutions[%d]: %w", i, err)
			}
			s.Resolutions = append(s.Resolutions, r)
		}
		return s, nil
	})
}

// parseScores reads "scores": exactly one entry per criterion, in the
// criteria's order.
func parseScores(f engine.Fields, cs []Criterion) ([]Score, error) {
	objs, err := f.Objects("scores")
	if err != nil {
		return nil, err
	}
	got := make([]*Score, len(cs))
	for i, o := range objs {
		var s Score
		err := engine.Collect(
			func() (e error) { s.Criterion, e = o.Str("criterion", false); return },
			func() (e error) { s.Score, e = o.Int("score", 1, 5); return },
			func() (e error) { s.Justification, e = o.Str("justification", true); return },
		)
		if err != nil {
			return nil, fmt.Errorf("scores[%d]: %w", i, err)
		}
		s.Evidence = stringsField(o, "evidence")
		j, ok := matchCriterion(cs, s.Criterion)
		if !ok {
			return nil, fmt.Errorf("scores[%d]: %q is not one of the criteria (%s)", i, s.Criterion, criteriaNames(cs))
		}
		if got[j] != nil {
			return nil, fmt.Errorf("scores: %s is scored twice", cs[j].Name)
		}
		s.Criterion = cs[j].Name
		got[j] = &s
	}
	out := make([]Score, len(cs))
	for i, s := range got {
		if s == nil {
			return nil, fmt.Errorf("scores: no score for %s", cs[i].Name)
		}
		out[i] = *s
	}
	return out, nil
}

func criteriaNames(cs []Criterion) string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

// ScoresOf lists the scores in the criteria's order (parseScores already
// put them so).
func ScoresOf(cs []Criterion, ss []Score) []int {
	out := make([]int, len(cs))
	for i := range cs {
		if i < len(ss) {
			out[i] = ss[i].Score
		}
	}
	return out
}

// boolField reads a boolean; "true"/"yes" strings count.
func boolField(f engine.Fields, key string) (bool, error) {
	switch v := f[key].(type) {
	case bool:
		return v, nil
	case string:
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "true", "yes":
			return true, nil
		case "false", "no":
			return false, nil
		}
	case nil:
		return false, engine.FieldError(key, "is missing")
	}
	return false, engine.FieldError(key, "must be true or false")
}

// numberField reads an optional number: nil when absent or not a number.
func numberField(f engine.Fields, key string) *float64 {
	var n float64
	switch v := f[key].(type) {
	case json.Number:
		x, err := v.Float64()
		if err != nil {
			return nil
		}
		n = x
	case float64:
		n = v
	case string:
		x, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), "/5"), 64)
		if err != nil {
			return nil
		}
		n = x
	default:
		return nil
	}
	if math.IsNaN(n) || math.IsInf(n, 0) {
		return nil
	}
	return &n
}

// stringsField reads a list of strings or one string ("" and absent: none).
func stringsField(f engine.Fields, key string) []string {
	switch v := f[key].(type) {
	case string:
		if s := strings.TrimSpace(v); s != "" {
			return []string{s}
		}
	case []any:
		var out []string
		for _, x := range v {
			if s, ok := x.(string); ok && strings.TrimSpace(s) != "" {
				out = append(out, strings.TrimSpace(s))
			}
		}
		return out
	}
	return nil
}

// scoreStance colours a score out of 5.
func scoreStance(v float64) engine.Stance {
	switch {
	case v >= 3.5:
		return engine.StanceAgree
	case v >= 2.5:
		return engine.StancePartial
	}
	return engine.StanceDisagree
}

func (a Analysis) Badge() (string, engine.Stance) {
	return fmt.Sprintf("%.2f/5 weighted", a.weighted), scoreStance(a.weighted)
}

func (d Debate) Badge() (string, engine.Stance) {
	if d.AcceptsConsensus {
		return fmt.Sprintf("accepts · %.2f/5", d.weighted), engine.StanceAgree
	}
	return fmt.Sprintf("holds out · %.2f/5", d.weighted), engine.StanceDisagree
}

func (s Synthesis) Badge() (string, engine.Stance) {
	st := engine.StancePartial
	switch s.Recommendation {
	case "pass":
		st = engine.StanceAgree
	case "fail":
		st = engine.StanceDisagree
	}
	return RecommendationWords(s.Recommendation), st
}

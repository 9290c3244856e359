package judge

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/arenadebate/arena/engine"
)

// Criterion is one thing the judges score, with its weight as given (the
// weights need not sum to 100; Weight/Total is its share).
type Criterion struct {
	Name   string  `json:"name"`
	Weight float64 `json:"weight"`
}

// Presets are the seed's criteria sets, by name.
var Presets = map[string][]Criterion{
	"code": {{"correctness", 30}, {"design", 25}, {"efficiency", 20}, {"code quality", 15}, {"testing", 10}},
	"design": {{"completeness", 30}, {"feasibility", 25}, {"scalability", 20}, {"simplicity", 15},
		{"documentation", 10}},
	"docs": {{"accuracy", 35}, {"completeness", 30}, {"clarity", 20}, {"usability", 15}},
}

// PresetNames lists the presets, sorted, for messages.
func PresetNames() []string {
	var out []string
	for n := range Presets {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// maxWeight is the largest weight of a criterion.
const maxWeight = 1000

// ParseCriteria reads "correctness:30,design:25,security:20". A name
// without a weight ("clarity") weighs 1 like every other unweighted one;
// mixing weighted and unweighted names is an error, since what a bare name
// would weigh against the others is a guess.
func ParseCriteria(s string) ([]Criterion, error) {
	var out []Criterion
	seen := map[string]bool{}
	weighted, bare := 0, 0
	for i, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, w, hasW := strings.Cut(part, ":")
		name = strings.TrimSpace(name)
		if name == "" {
			return nil, fmt.Errorf("criterion %d (%q) has no name", i+1, part)
		}
		weight := 1.0
		if hasW {
			v, err := strconv.ParseFloat(strings.TrimSpace(w), 64)
			// At most maxWeight: a weight of 1e308 makes every weighted
			// score infinite, and the run would abort after asking every
			// judge.
			if err != nil || !(v > 0 && v <= maxWeight) {
				return nil, fmt.Errorf("criterion %q: the weight %q must be a number above 0 and at most %d", name, strings.TrimSpace(w), maxWeight)
			}
			weight = v
			weighted++
		} else {
			bare++
		}
		key := engine.NormKey(name)
		if seen[key] {
			return nil, fmt.Errorf("criterion %q is named twice", name)
		}
		seen[key] = true
		out = append(out, Criterion{Name: name, Weight: weight})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no criteria given (write them as name:weight,name:weight)")
	}
	if weighted > 0 && bare > 0 {
		return nil, fmt.Errorf("give every criterion a weight, or none (some have one, some do not)")
	}
	return out, nil
}

// Total is the sum of the weights.
func Total(cs []Criterion) float64 {
	t := 0.0
	for _, c := range cs {
		t += c.Weight
	}
	return t
}

// NormaliseNote says how the weights were normalised, or "" when they
// already sum to 100.
func NormaliseNote(cs []Criterion) string {
	t := Total(cs)
	if math.Abs(t-100) < 1e-9 {
		return ""
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = fmt.Sprintf("%s %s%%", c.Name, trimFloat(100*c.Weight/t))
	}
	return fmt.Sprintf("the weights sum to %s, not 100: normalised to %s", trimFloat(t), strings.Join(parts, ", "))
}

// Share is a criterion's share of the total weight, in percent.
func Share(cs []Criterion, i int) float64 { return 100 * cs[i].Weight / Total(cs) }

func trimFloat(v float64) string {
	return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
}

// Rubric is the meaning of each score, sent to every judge.
var Rubric = []string{
	"1 — Poor: fails the criterion; major problems, or the criterion is not addressed at all.",
	"2 — Below expectations: addresses the criterion partly, with significant problems.",
	"3 — Acceptable: meets the basic expectations, with notable room for improvement.",
	"4 — Good: meets the criterion well, with minor issues only.",
	"5 — Excellent: exemplary; hard to find anything to improve.",
}

// matchCriterion finds the criterion a model named, whatever its case or
// word breaks ("Code Quality", "code_quality").
func matchCriterion(cs []Criterion, name string) (int, bool) {
	k := engine.NormKey(name)
	for i, c := range cs {
		if engine.NormKey(c.Name) == k {
			return i, true
		}
	}
	return 0, false
}

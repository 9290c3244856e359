package compare

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// The comparison's rules, as pure functions: arena computes the totals and
// decides what the judge's two readings mean; models only score.

// Weights of the criteria: High=3, Medium=2, Low=1.
var weights = map[string]int{"high": 3, "medium": 2, "low": 1}

// WeightOf is a weight's number; 0 for a word that is not a weight.
func WeightOf(w string) int { return weights[strings.ToLower(strings.TrimSpace(w))] }

// Criterion is one thing the options are judged on.
type Criterion struct {
	Name   string `json:"name"`
	Weight string `json:"weight"` // high | medium | low
	Why    string `json:"why,omitempty"`
}

// ParseCriteria reads "throughput:high,ops cost:high,latency:medium".
// Each entry needs a name and a weight of high, medium or low.
func ParseCriteria(s string) ([]Criterion, error) {
	var out []Criterion
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		i := strings.LastIndex(part, ":")
		if i < 0 {
			return nil, fmt.Errorf("criterion %q has no weight: write it as name:high, name:medium or name:low", part)
		}
		name, w := strings.TrimSpace(part[:i]), strings.ToLower(strings.TrimSpace(part[i+1:]))
		if name == "" {
			return nil, fmt.Errorf("criterion %q has no name", part)
		}
		if WeightOf(w) == 0 {
			return nil, fmt.Errorf("criterion %q: the weight %q is not high, medium or low", name, part[i+1:])
		}
		if seen[strings.ToLower(name)] {
			return nil, fmt.Errorf("criterion %q is named twice", name)
		}
		seen[strings.ToLower(name)] = true
		out = append(out, Criterion{Name: name, Weight: w})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no criteria in %q", s)
	}
	return out, nil
}

// Score is one option's score on one criterion, from one reading.
type Score struct {
	Criterion     string `json:"criterion"`
	Option        string `json:"option"`
	Score         int    `json:"score"`
	Justification string `json:"justification"`
	MoreConvinced string `json:"more_convincing,omitempty"`
}

// Scorecard is one reading's scores: option → criterion → score.
type Scorecard map[string]map[string]int

// Card builds a scorecard from a judge's scores.
func Card(scores []Score) Scorecard {
	c := Scorecard{}
	for _, s := range scores {
		if c[s.Option] == nil {
			c[s.Option] = map[string]int{}
		}
		c[s.Option][s.Criterion] = s.Score
	}
	return c
}

// Total is an option's weighted total on a scorecard: each score times
// its criterion's weight, summed. A missing score counts 0.
func Total(c Scorecard, option string, criteria []Criterion) int {
	t := 0
	for _, cr := range criteria {
		t += c[option][cr.Name] * WeightOf(cr.Weight)
	}
	return t
}

// Math shows how a total was reached: "4×3 + 3×3 + 5×2 = 31".
func Math(c Scorecard, option string, criteria []Criterion) string {
	var parts []string
	for _, cr := range criteria {
		parts = append(parts, fmt.Sprintf("%d×%d", c[option][cr.Name], WeightOf(cr.Weight)))
	}
	return strings.Join(parts, " + ") + fmt.Sprintf(" = %d", Total(c, option, criteria))
}

// Average is the mean of the readings' totals for an option.
func Average(cards []Scorecard, option string, criteria []Criterion) float64 {
	if len(cards) == 0 {
		return 0
	}
	sum := 0
	for _, c := range cards {
		sum += Total(c, option, criteria)
	}
	return float64(sum) / float64(len(cards))
}

// Leader is the option with the highest average total, and whether it
// leads alone (false on a tie for first).
func Leader(cards []Scorecard, options []string, criteria []Criterion) (string, bool) {
	best, alone := "", false
	bestAvg := -1.0
	for _, o := range options {
		avg := Average(cards, o, criteria)
		switch {
		case avg > bestAvg:
			best, bestAvg, alone = o, avg, true
		case avg == bestAvg:
			alone = false
		}
	}
	return best, alone
}

// Verdict is what the judge's readings in both orders add up to.
type Verdict struct {
	Recommendation string   // the option recommended in every order; "" when they differ
	Picks          []string // the recommendation of each reading, in reading order
	Flipped        bool     // the readings recommended different options
}

// Decide compares the recommendations of the readings (one per order).
func Decide(picks []string) Verdict {
	v := Verdict{Picks: picks}
	for _, p := range picks {
		if p != picks[0] {
			v.Flipped = true
		}
	}
	if !v.Flipped && len(picks) > 0 {
		v.Recommendation = picks[0]
	}
	return v
}

// hedges are the phrases an advocate must not use: it is an advocate,
// not a mediator.
var hedges = []string{
	"both are good options", "both options are good", "both are valid", "both options are valid",
	"both have merit", "both options have merit", "it depends", "either could work",
	"either option could work", "either would work", "either option would work",
	"there is no clear winner", "no one-size-fits-all",
}

// Hedge returns the first hedging phrase in text, or "".
func Hedge(text string) string {
	t := squash(text)
	for _, h := range hedges {
		if strings.Contains(t, h) {
			return h
		}
	}
	return ""
}

var quoteChars = strings.NewReplacer("“", `"`, "”", `"`, "‘", "'", "’", "'", "`", "'")

// squash lowercases text, unifies curly quotes and collapses whitespace,
// so that quoting and matching ignore what a model may change.
func squash(s string) string {
	s = quoteChars.Replace(strings.ToLower(s))
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}

var edgePunct = regexp.MustCompile(`^[\s"'.…]+|[\s"'.…]+$`)

// Quoted reports whether claim occurs in text, ignoring case, whitespace,
// curly quotes, and quotation marks or an ellipsis at its ends.
func Quoted(claim, text string) bool {
	c := squash(edgePunct.ReplaceAllString(claim, ""))
	if c == "" {
		return false
	}
	if strings.Contains(squash(text), c) {
		return true
	}
	// "first part … last part": every part must occur.
	if strings.Contains(c, "…") || strings.Contains(c, "...") {
		for _, part := range regexp.MustCompile(`\s*(…|\.\.\.)\s*`).Split(c, -1) {
			if part != "" && !strings.Contains(squash(text), part) {
				return false
			}
		}
		return true
	}
	return false
}

// MatchOption finds which option a model named, case-insensitively, also
// accepting an option named by its label ("Option A") or a name that
// contains or is contained in exactly one option.
func MatchOption(s string, options []string) (string, bool) {
	t := squash(s)
	for _, o := range options {
		if squash(o) == t {
			return o, true
		}
	}
	for i, o := range options {
		if t == squash(Label(i)) || t == strings.ToLower(string(rune('a'+i))) {
			return o, true
		}
	}
	match := ""
	for _, o := range options {
		so := squash(o)
		if t != "" && (strings.Contains(so, t) || strings.Contains(t, so)) {
			if match != "" {
				return "", false
			}
			match = o
		}
	}
	return match, match != ""
}

// MatchCriterion finds which criterion a model named.
func MatchCriterion(s string, criteria []Criterion) (string, bool) {
	names := make([]string, len(criteria))
	for i, c := range criteria {
		names[i] = c.Name
	}
	t := squash(s)
	for _, n := range names {
		if squash(n) == t {
			return n, true
		}
	}
	match := ""
	for _, n := range names {
		sn := squash(n)
		if t != "" && (strings.Contains(sn, t) || strings.Contains(t, sn)) {
			if match != "" {
				return "", false
			}
			match = n
		}
	}
	return match, match != ""
}

// Label is the neutral label of the i-th option as a reading presents it.
func Label(i int) string { return "Option " + string(rune('A'+i)) }

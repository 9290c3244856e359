package judge

import (
	"fmt"
	"math"
	"strings"

	"github.com/arenadebate/arena/engine"
)

// The rules arena applies to the judges' replies. A model's own
// arithmetic is never used: arena computes every overall score, spread
// and agreement from the parsed criterion scores.

// eps absorbs floating-point error in the thresholds: 3.85-3.35 must pass
// "within 0.5".
const eps = 1e-9

// Weighted is the weighted overall of one judge's criterion scores
// (scores[i] for criteria[i]), with the weights normalised by their sum.
func Weighted(cs []Criterion, scores []int) float64 {
	t := Total(cs)
	sum := 0.0
	for i, c := range cs {
		sum += c.Weight * float64(scores[i])
	}
	return sum / t
}

// ConsensusLimits are the consensus rule's thresholds.
const (
	MaxOverallSpread   = 0.5
	MaxCriterionSpread = 1.0
)

// Check is the consensus check over the live judges' scores.
type Check struct {
	Overall         []float64 // per judge
	OverallSpread   float64
	CriterionSpread []int // per criterion: highest minus lowest score
	// Apart names the criteria more than MaxCriterionSpread apart.
	Apart []string
	// NotAccepting names the judges that did not accept (after a debate
	// round only).
	NotAccepting []string
	Fails        []string // each failed condition, in words
	OK           bool
}

// CheckConsensus applies the rule: every overall within 0.5 of every
// other, no criterion more than 1.0 apart between any two judges, and,
// when accepts is not nil (after a debate round), every judge accepting.
// scores[j][i] is judge j's score for criterion i; names[j] names judge j.
func CheckConsensus(cs []Criterion, names []string, scores [][]int, accepts []bool) Check {
	var c Check
	for _, s := range scores {
		c.Overall = append(c.Overall, Weighted(cs, s))
	}
	c.OverallSpread = spread(c.Overall)
	if c.OverallSpread > MaxOverallSpread+eps {
		c.Fails = append(c.Fails, fmt.Sprintf("overall scores %s apart (more than %.1f)", fmt2(c.OverallSpread), MaxOverallSpread))
	}
	for i, cr := range cs {
		lo, hi := 5, 1
		for _, s := range scores {
			lo, hi = min(lo, s[i]), max(hi, s[i])
		}
		d := max(hi-lo, 0)
		c.CriterionSpread = append(c.CriterionSpread, d)
		if float64(d) > MaxCriterionSpread+eps {
			c.Apart = append(c.Apart, cr.Name)
		}
	}
	if len(c.Apart) > 0 {
		c.Fails = append(c.Fails, fmt.Sprintf("%s more than %.0f point apart", strings.Join(c.Apart, ", "), MaxCriterionSpread))
	}
	if accepts != nil {
		for j, ok := range accepts {
			if !ok {
				c.NotAccepting = append(c.NotAccepting, names[j])
			}
		}
		if len(c.NotAccepting) > 0 {
			c.Fails = append(c.Fails, strings.Join(c.NotAccepting, ", ")+" did not accept the consensus")
		}
	}
	c.OK = len(c.Fails) == 0 && len(scores) > 0
	return c
}

func spread(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	lo, hi := v[0], v[0]
	for _, x := range v {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return hi - lo
}

func fmt2(v float64) string { return fmt.Sprintf("%.2f", v) }

// squash drops every white-space rune (engine.Squash).
func squash(s string) string { return engine.Squash(s) }

// Corpus is the solution's text as the quote check reads it.
type Corpus struct{ squashed string }

// NewCorpus prepares text for QuoteFound.
func NewCorpus(text string) Corpus { return Corpus{squashed: squash(text)} }

// QuoteFound reports whether a quote occurs in the solution, ignoring
// white space. A quote elided with "..." or "…" is found when each of its
// parts is, in order. Surrounding quotation marks and backticks a model
// adds around a quote are not part of it.
func (c Corpus) QuoteFound(q string) bool {
	q = strings.TrimSpace(q)
	q = strings.Trim(q, "\"'`“”‘’")
	q = strings.ReplaceAll(q, "…", "...")
	rest := c.squashed
	found := false
	for _, part := range strings.Split(q, "...") {
		p := squash(part)
		if p == "" {
			continue
		}
		i := strings.Index(rest, p)
		if i < 0 {
			return false
		}
		rest = rest[i+len(p):]
		found = true
	}
	return found
}

// Change is a judge's changed score, with the reason and evidence it gave
// (empty when it gave none).
type Change struct {
	Criterion string   `json:"criterion"`
	From      int      `json:"from"`
	To        int      `json:"to"`
	Reason    string   `json:"reason"`
	Evidence  []string `json:"evidence"`
}

// Unexplained returns, for the sycophancy guard, the criteria whose score
// changed from prev to cur without a stated change that gives both a
// reason and evidence, in words: "security 3 → 4 with no evidence".
func Unexplained(cs []Criterion, prev, cur []int, changes []Change) []string {
	var out []string
	for i, c := range cs {
		if prev[i] == cur[i] {
			continue
		}
		var ch *Change
		for k := range changes {
			if j, ok := matchCriterion(cs, changes[k].Criterion); ok && j == i {
				ch = &changes[k]
				break
			}
		}
		what := ""
		switch {
		case ch == nil:
			what = "with no stated reason or evidence"
		case strings.TrimSpace(ch.Reason) == "" && len(ch.Evidence) == 0:
			what = "with no stated reason or evidence"
		case strings.TrimSpace(ch.Reason) == "":
			what = "with no stated reason"
		case len(ch.Evidence) == 0:
			what = "with no evidence"
		default:
			continue
		}
		out = append(out, fmt.Sprintf("%s %d → %d %s", c.Name, prev[i], cur[i], what))
	}
	return out
}

// Alpha is Krippendorff's alpha, interval metric, over the judges'
// criterion scores: units are criteria, coders are judges
// (scores[j][i]). ok is false when it is undefined: fewer than two judges,
// or every score the same (no variation to agree or disagree about).
func Alpha(scores [][]int) (alpha float64, ok bool) {
	if len(scores) < 2 || len(scores[0]) == 0 {
		return 0, false
	}
	m, units := len(scores), len(scores[0])
	var all []float64
	do := 0.0
	for i := 0; i < units; i++ {
		for a := 0; a < m; a++ {
			all = append(all, float64(scores[a][i]))
			for b := 0; b < m; b++ {
				if a != b {
					d := float64(scores[a][i] - scores[b][i])
					do += d * d / float64(m-1)
				}
			}
		}
	}
	n := float64(len(all))
	do /= n
	de := 0.0
	for a := range all {
		for b := range all {
			if a != b {
				d := all[a] - all[b]
				de += d * d
			}
		}
	}
	de /= n * (n - 1)
	if de == 0 {
		return 0, false
	}
	return 1 - do/de, true
}

// Recommendation is arena's recommendation from the consensus overall:
// pass at or above the pass mark (the --min-score, else 3.5, "good" on
// the rubric), fail below 2.5, needs revision between.
func Recommendation(overall, passMark float64) string {
	switch {
	case overall+eps >= passMark:
		return "pass"
	case overall < 2.5-eps:
		return "fail"
	}
	return "needs_revision"
}

// RecommendationWords reads a recommendation.
func RecommendationWords(r string) string {
	switch r {
	case "pass":
		return "Pass"
	case "fail":
		return "Fail"
	case "needs_revision":
		return "Needs revision"
	}
	return r
}

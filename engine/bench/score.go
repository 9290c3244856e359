package bench

import (
	"fmt"
	"slices"
	"strings"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine/doc"
	"github.com/arenadebate/arena/engine/stats"
)

// Inconsistent is a judge's verdict on a pair whose two orders picked
// opposite answers: JudgeBench counts it wrong.
const Inconsistent = "inconsistent"

// Judge is one judge's figures on the file, each with its count and its
// 95% interval (engine/stats' rules: Wilson for rates, a bootstrap over
// the pairs for κ; "too few" below stats.MinCases).
type Judge struct {
	Name string `json:"name"`
	// Accuracy: of the labels, the share the judge's verdict (both
	// orders' first askings, JudgeBench's rule: the same pick, or one
	// pick and a tie, else inconsistent) matches.
	Accuracy stats.Figure `json:"accuracy"`
	// Consistency: of the pairs read in both orders, the share that got
	// the same pick in both, ties included (MT-Bench's, Zheng et al.
	// 2023, Table 2).
	Consistency stats.Figure `json:"consistency"`
	// FirstPosition: of those pairs, the share whose answer shown first
	// was picked in both orders (MT-Bench's "biased toward first").
	FirstPosition stats.Figure `json:"first_position"`
	// RepeatStability: of the (pair, order) asked twice or more, the
	// share in which every asking gave the same pick.
	RepeatStability stats.Figure `json:"repeat_stability"`
}

// Agreement is Cohen's κ between two judges' verdicts on the pairs both
// read.
type Agreement struct {
	A     string       `json:"a"`
	B     string       `json:"b"`
	Kappa stats.Figure `json:"kappa"`
}

// Published is a figure a paper reports on a layout's file, for a reader
// to hold arena's against: the paper's, not measured here.
type Published struct {
	Figure string `json:"figure"`
	Judge  string `json:"judge"`
	Value  string `json:"value"`
	Source string `json:"source"`
}

// Report is a benchmark run's figures.
type Report struct {
	Layout     string      `json:"layout"`
	Pairs      int         `json:"pairs"`
	Calls      int         `json:"calls"`
	Answered   int         `json:"answered"`
	Judges     []Judge     `json:"judges"`
	Agreements []Agreement `json:"agreements,omitempty"`
	Published  []Published `json:"published"`
	Failed     []string    `json:"failed,omitempty"`
}

// PublishedFigures are what the papers report on each layout's file.
var PublishedFigures = map[string][]Published{
	LayoutJudgeBench: {
		{Figure: "accuracy", Judge: "GPT-4o (vanilla prompt)", Value: "near chance (50%)", Source: "Tan et al., JudgeBench, ICLR 2025"},
		{Figure: "accuracy", Judge: "o1-preview", Value: "75.4%", Source: "Tan et al., JudgeBench, ICLR 2025"},
	},
	LayoutMTBench: {
		{Figure: "consistency", Judge: "GPT-4", Value: "65%", Source: "Zheng et al. 2023, Table 2"},
		{Figure: "first position", Judge: "GPT-4", Value: "30%", Source: "Zheng et al. 2023, Table 2"},
	},
}

// reading keys a judge's first asking of a pair in one order.
type reading struct {
	judge, pair string
	swapped     bool
}

// Score is the panel's figures on set from the results, of a run that
// asked repeats times each order.
func Score(set Set, results []Result, judges []challengers.Agent, repeats int) Report {
	rep := Report{Layout: set.Layout, Pairs: len(set.Pairs), Answered: len(results), Published: PublishedFigures[set.Layout]}
	rep.Calls = len(Config{Set: set, Judges: judges, Repeats: repeats}.Calls())
	first := map[reading]Result{}
	asked := map[reading][]string{}
	for _, r := range results {
		k := reading{r.Judge, r.Pair, r.Swapped}
		if r.Repeat == 0 {
			first[k] = r
		}
		asked[k] = append(asked[k], r.Pick)
	}
	verdicts := map[string][]string{} // judge → its verdict on each pair ("" unread)
	for _, j := range judges {
		jf, vs := judgeFigures(set, j.Name, first)
		jf.RepeatStability = repeatStability(j.Name, asked)
		verdicts[j.Name] = vs
		rep.Judges = append(rep.Judges, jf)
	}
	for x := range judges {
		for y := x + 1; y < len(judges); y++ {
			a, b := judges[x].Name, judges[y].Name
			rep.Agreements = append(rep.Agreements, Agreement{A: a, B: b, Kappa: kappa(a, b, verdicts[a], verdicts[b])})
		}
	}
	return rep
}

// judgeFigures are a judge's accuracy, consistency and first-position
// rate from its first askings, and its verdict on each pair ("" where it
// has not read both orders).
func judgeFigures(set Set, judge string, first map[reading]Result) (Judge, []string) {
	jf := Judge{Name: judge}
	var correct, labels, consistent, firstBoth, both int
	pairs := map[int]bool{}
	vs := make([]string, len(set.Pairs))
	for i, p := range set.Pairs {
		o1, ok1 := first[reading{judge, p.ID, false}]
		o2, ok2 := first[reading{judge, p.ID, true}]
		if !ok1 || !ok2 {
			continue
		}
		both++
		if o1.Pick == o2.Pick {
			consistent++
		}
		if o1.Shown == string(PickFirst) && o2.Shown == string(PickFirst) {
			firstBoth++
		}
		vs[i] = combine(o1.Pick, o2.Pick)
		for _, l := range p.Labels {
			labels++
			pairs[i] = true
			if vs[i] == l {
				correct++
			}
		}
	}
	jf.Accuracy = stats.Rate(correct, labels, len(pairs))
	jf.Consistency = stats.Rate(consistent, both, both)
	jf.FirstPosition = stats.Rate(firstBoth, both, both)
	return jf, vs
}

// repeatStability is the share of a judge's (pair, order) asked twice or
// more in which every asking picked the same.
func repeatStability(judge string, asked map[reading][]string) stats.Figure {
	var stable, repeated int
	for k, picks := range asked {
		if k.judge != judge || len(picks) < 2 {
			continue
		}
		repeated++
		if !slices.ContainsFunc(picks, func(p string) bool { return p != picks[0] }) {
			stable++
		}
	}
	if repeated == 0 {
		// Not too few: never asked. Say how to ask.
		return stats.Figure{Note: "not measured: --repeats 2 asks each order again"}
	}
	return stats.Rate(stable, repeated, repeated)
}

// kappa is Cohen's κ of two judges' verdicts on the pairs both read, with
// its bootstrap interval over those pairs.
func kappa(nameA, nameB string, a, b []string) stats.Figure {
	var groups []int
	for i := range a {
		if a[i] != "" && b[i] != "" {
			groups = append(groups, i)
		}
	}
	return stats.Resampled(groups, "bench κ "+nameA+" "+nameB, func(cases []int) (float64, bool) {
		var va, vb []string
		for _, c := range cases {
			va, vb = append(va, a[groups[c]]), append(vb, b[groups[c]])
		}
		k, _, ok := stats.Kappa(va, vb)
		return k, ok
	}, "undefined: both judges gave one verdict throughout")
}

// combine is a verdict from a pair's two orders, JudgeBench's way: the
// same pick, or the decisive one beside a tie, else inconsistent.
func combine(a, b string) string {
	switch {
	case a == b:
		return a
	case a == LabelTie:
		return b
	case b == LabelTie:
		return a
	}
	return Inconsistent
}

// Summary is the report in one line.
func (r Report) Summary() string {
	var parts []string
	for _, j := range r.Judges {
		parts = append(parts, j.Name+" "+figureWords(j.Accuracy))
	}
	return fmt.Sprintf("Accuracy on %d %s pairs: %s", r.Pairs, r.Layout, strings.Join(parts, ", "))
}

// figureWords is a figure as a person reads it: "62% [48–75%] (n=40)",
// or why it is not shown.
func figureWords(f stats.Figure) string {
	if !f.Shown {
		if f.Note == "" {
			return "—"
		}
		return "— (" + f.Note + ")"
	}
	if f.Interval == "" {
		return fmt.Sprintf("%.0f%% (n=%d)", 100*f.Value, f.N)
	}
	return fmt.Sprintf("%.0f%% [%.0f–%.0f%%] (n=%d)", 100*f.Value, 100*f.Low, 100*f.High, f.N)
}

func kappaWords(f stats.Figure) string {
	if !f.Shown {
		return "— (" + f.Note + ")"
	}
	if f.Interval == "" {
		return fmt.Sprintf("%.2f (n=%d)", f.Value, f.N)
	}
	return fmt.Sprintf("%.2f [%.2f, %.2f] (n=%d)", f.Value, f.Low, f.High, f.N)
}

// Document is the report as an outcome document.
func (r Report) Document() doc.Document {
	d := doc.Document{Title: "Benchmark", Result: r.Layout, Facts: []doc.Fact{
		{Name: "Pairs", Value: fmt.Sprint(r.Pairs)},
		{Name: "Calls answered", Value: fmt.Sprintf("%d of %d", r.Answered, r.Calls)},
	}}
	var rows [][]string
	for _, j := range r.Judges {
		rows = append(rows, []string{j.Name, figureWords(j.Accuracy), figureWords(j.Consistency), figureWords(j.FirstPosition), figureWords(j.RepeatStability)})
	}
	d.Sections = append(d.Sections, doc.Section{ID: "figures", Heading: "Figures", Blocks: []doc.Block{
		doc.TableOf([]string{"judge", "accuracy", "consistency (MT-Bench)", "first position", "repeat stability"}, rows),
		doc.Para("Each figure has its 95% Wilson interval and its count; arena computes them from the parsed picks."),
		doc.Bullets("",
			"Accuracy: the judge's verdict against the file's labels; both orders' picks agreeing, or one pick beside a tie, else inconsistent and wrong (JudgeBench's rule).",
			"Consistency: pairs with the same pick in both orders, ties included (MT-Bench's definition).",
			"First position: pairs whose answer shown first was picked in both orders.",
			"Repeat stability: orders asked again (--repeats) in which every asking picked the same."),
	}})
	if len(r.Agreements) > 0 {
		var ag []string
		for _, a := range r.Agreements {
			ag = append(ag, fmt.Sprintf("%s and %s: κ %s", a.A, a.B, kappaWords(a.Kappa)))
		}
		d.Sections = append(d.Sections, doc.Section{ID: "agreement", Heading: "Agreement between judges", Blocks: []doc.Block{
			doc.Bullets("Cohen's κ of the verdicts, with a 95% bootstrap interval over the pairs:", ag...),
		}})
	}
	if len(r.Published) > 0 {
		var rows [][]string
		for _, p := range r.Published {
			rows = append(rows, []string{p.Figure, p.Judge, p.Value, p.Source})
		}
		d.Sections = append(d.Sections, doc.Section{ID: "published", Heading: "The papers' figures", Blocks: []doc.Block{
			doc.Para("These are the papers' figures on the published file, not measured here: hold yours against them."),
			doc.TableOf([]string{"figure", "judge", "value", "source"}, rows),
		}})
	}
	if len(r.Failed) > 0 {
		d.Sections = append(d.Sections, doc.Section{ID: "failed", Heading: "Calls that failed", Blocks: []doc.Block{
			doc.Bullets("Run arena bench again to ask them again:", r.Failed...),
		}})
	}
	return d
}

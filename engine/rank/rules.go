package rank

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/arenadebate/arena/engine/rank/facts"
)

// The rules of a ranking, as pure functions: weights, totals, places,
// the letters each judge sees, and the checking of reported facts against
// measured ones. arena does the arithmetic; models only score.

// Dimension is one thing the judges score.
type Dimension string

const (
	DimFunctionality   Dimension = "functionality"
	DimSecurity        Dimension = "security"
	DimTests           Dimension = "tests"
	DimOverengineering Dimension = "overengineering"
	DimDeadCode        Dimension = "dead_code"
)

// Dimensions are the five, in the order reports list them.
var Dimensions = []Dimension{DimFunctionality, DimSecurity, DimTests, DimOverengineering, DimDeadCode}

// Title is the dimension as a person reads it.
func (d Dimension) Title() string {
	switch d {
	case DimDeadCode:
		return "Dead code"
	case DimOverengineering:
		return "Overengineering"
	}
	s := string(d)
	return strings.ToUpper(s[:1]) + s[1:]
}

// Weights are the dimensions' weights (a weight of 0 leaves the dimension
// out: its judge is not asked).
type Weights map[Dimension]int

// DefaultWeights are the seed's.
func DefaultWeights() Weights {
	return Weights{DimFunctionality: 30, DimSecurity: 25, DimTests: 20, DimOverengineering: 15, DimDeadCode: 10}
}

// ParseWeights reads "functionality:40,security:30": the named
// dimensions take the given weights, the rest keep the defaults.
func ParseWeights(s string) (Weights, error) {
	w := DefaultWeights()
	if strings.TrimSpace(s) == "" {
		return w, nil
	}
	seen := map[Dimension]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, val, ok := strings.Cut(part, ":")
		if !ok {
			name, val, ok = strings.Cut(part, "=")
		}
		if !ok {
			return nil, fmt.Errorf("%q is not dimension:weight (e.g. functionality:40)", part)
		}
		d := Dimension(strings.NewReplacer("-", "_", " ", "_").Replace(strings.ToLower(strings.TrimSpace(name))))
		if d == "deadcode" {
			d = DimDeadCode
		}
		if !slices.Contains(Dimensions, d) {
			return nil, fmt.Errorf("unknown dimension %q (the dimensions are %s)", strings.TrimSpace(name), dimList())
		}
		if seen[d] {
			return nil, fmt.Errorf("%s is weighted twice", d)
		}
		seen[d] = true
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(val), "%"))
		if err != nil || n < 0 || n > 1000 {
			return nil, fmt.Errorf("the weight of %s must be a whole number from 0 to 1000, got %q", d, strings.TrimSpace(val))
		}
		w[d] = n
	}
	if w.Sum(Dimensions) == 0 {
		return nil, fmt.Errorf("every weight is 0: nothing would be scored")
	}
	return w, nil
}

func dimList() string {
	s := make([]string, len(Dimensions))
	for i, d := range Dimensions {
		s[i] = string(d)
	}
	return strings.Join(s, ", ")
}

// Sum is the weights of dims added up.
func (w Weights) Sum(dims []Dimension) int {
	n := 0
	for _, d := range dims {
		n += w[d]
	}
	return n
}

// Active are the dimensions with a weight, in order.
func (w Weights) Active() []Dimension {
	var out []Dimension
	for _, d := range Dimensions {
		if w[d] > 0 {
			out = append(out, d)
		}
	}
	return out
}

// String is "functionality:30, security:25, ...".
func (w Weights) String() string {
	var parts []string
	for _, d := range Dimensions {
		parts = append(parts, fmt.Sprintf("%s:%d", d, w[d]))
	}
	return strings.Join(parts, ", ")
}

// Total is the weighted mean of one repository's scores over the judged
// dimensions: Σ score × weight ÷ Σ weight. A dimension whose judge failed
// is not in judged, and so is in neither sum.
func Total[N int | float64](scores map[Dimension]N, w Weights, judged []Dimension) float64 {
	num, den := 0.0, 0
	for _, d := range judged {
		s, ok := scores[d]
		if !ok || w[d] == 0 {
			continue
		}
		num += float64(s) * float64(w[d])
		den += w[d]
	}
	if den == 0 {
		return 0
	}
	return num / float64(den)
}

// Place is one repository's place in the ranking.
type Place struct {
	Index int     // the repository
	Label string  `json:"label"`
	Total float64 `json:"weighted_total"`
	Place int     `json:"place"` // 1 for the first; tied repositories share a place
	Tied  bool    `json:"tied,omitempty"`
}

// Rank orders the judged repositories by total, highest first. Totals
// equal to the last cent of a point are ties, and share a place; the
// order within a tie is the input order, and says nothing.
func Rank(labels []string, totals map[int]float64) []Place {
	var ps []Place
	for i, t := range totals {
		ps = append(ps, Place{Index: i, Label: labels[i], Total: t})
	}
	sort.SliceStable(ps, func(a, b int) bool {
		if !same(ps[a].Total, ps[b].Total) {
			return ps[a].Total > ps[b].Total
		}
		return ps[a].Index < ps[b].Index
	})
	for i := range ps {
		ps[i].Place = i + 1
		if i > 0 && same(ps[i].Total, ps[i-1].Total) {
			ps[i].Place = ps[i-1].Place
			ps[i].Tied, ps[i-1].Tied = true, true
		}
	}
	return ps
}

// same compares totals as they are shown: to two decimals.
func same(a, b float64) bool { return math.Round(a*100) == math.Round(b*100) }

// Winners are the labels in first place (several when tied).
func Winners(ps []Place) []string {
	var out []string
	for _, p := range ps {
		if p.Place == 1 {
			out = append(out, p.Label)
		}
	}
	return out
}

// Letters are the neutral names candidates go by: A, B, C, ...
func Letters(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = string(rune('A' + i))
	}
	return out
}

// Order is the order one judge sees the repositories in: a permutation of
// idx drawn from the run's seed and the judge's number, so each judge
// sees its own order (against position bias) and a run can be replayed
// with the same orders. The i-th repository shown goes by the i-th
// letter.
func Order(idx []int, seed uint64, judge int) []int {
	out := slices.Clone(idx)
	r := rand.New(rand.NewPCG(seed, uint64(judge)+1))
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// Anonymize removes from a fact seat's text what would tell a judge whose
// repository it is: its label, path, directory name and branch, each
// replaced by the candidate's neutral name.
func Anonymize(text, neutral string, names ...string) string {
	var olds []string
	for _, n := range names {
		if len(strings.TrimSpace(n)) >= 2 {
			olds = append(olds, n)
		}
	}
	// Longest first, so a path goes before its last element.
	sort.Slice(olds, func(i, j int) bool { return len(olds[i]) > len(olds[j]) })
	for _, o := range olds {
		text = replaceWord(text, o, neutral)
	}
	return text
}

// replaceWord replaces, ignoring case, each occurrence of old in text
// that is not part of a longer word: a branch named "impl" goes, the key
// "implemented" of a fact stays whole (it did not: the judges read
// "Candidate Aemented", a different text under each letter). An
// underscore or a dash is not part of a word here, so "claude_style"
// still loses the author's name.
func replaceWord(text, old, neutral string) string {
	re := regexp.MustCompile(`(?i)` + regexp.QuoteMeta(old))
	var b strings.Builder
	last := 0
	for _, m := range re.FindAllStringIndex(text, -1) {
		before, _ := utf8.DecodeLastRuneInString(text[:m[0]])
		after, _ := utf8.DecodeRuneInString(text[m[1]:])
		if m[0] > 0 && wordRune(before) || m[1] < len(text) && wordRune(after) {
			continue
		}
		b.WriteString(text[last:m[0]])
		b.WriteString(neutral)
		last = m[1]
	}
	b.WriteString(text[last:])
	return b.String()
}

func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// IdentifyingNames are what Anonymize removes for a repository.
func IdentifyingNames(label, path, branch string) []string {
	out := []string{label, path, filepath.Base(path)}
	if branch != "" && branch != "main" && branch != "master" {
		out = append(out, branch)
	}
	return out
}

// LineCounter says how many lines a file of the branch has, and whether
// it exists there (facts.Lines bound to a repository and revision).
type LineCounter func(path string) (int, bool)

// Check holds reported facts to what can be verified: every finding must
// name a file of the branch and, where it names a line, a line within the
// file; one that does not is dropped. A test count, test results or git
// figures that differ from arena's measurement are replaced by it. It
// returns what it changed, one sentence each.
func Check(f *Facts, lines LineCounter, g facts.Git, tr *facts.TestRun) []string {
	var notes []string
	keep := func(what string, fd Finding) bool {
		if fd.File == "" {
			return true
		}
		file, line := splitPlace(fd.File, fd.Line)
		n, ok := lines(file)
		switch {
		case !ok:
			notes = append(notes, fmt.Sprintf("dropped a %s in %s: no such file on the branch", what, file))
			return false
		case line > n:
			notes = append(notes, fmt.Sprintf("dropped a %s at %s:%d: the file has %d lines", what, file, line, n))
			return false
		}
		return true
	}
	filter := func(what string, fs []Finding) []Finding {
		var out []Finding
		for _, fd := range fs {
			if keep(what, fd) {
				out = append(out, fd)
			}
		}
		return out
	}
	f.Security.Findings = filter("security finding", f.Security.Findings)
	f.Overengineering.Abstractions = filter("abstraction finding", f.Overengineering.Abstractions)
	f.Overengineering.DefensiveCode = filter("defensive-code finding", f.Overengineering.DefensiveCode)
	var dry []DryViolation
	for _, d := range f.Tests.DryViolations {
		if keep("DRY violation", Finding{File: d.File}) {
			dry = append(dry, d)
		}
	}
	f.Tests.DryViolations = dry
	var imports []string
	for _, u := range f.DeadCode.UnusedImports {
		if !placeLike.MatchString(u) || keep("unused import", Finding{File: u}) {
			imports = append(imports, u)
		}
	}
	f.DeadCode.UnusedImports = imports

	if c := f.claimedGit; c != nil {
		for _, x := range []struct {
			what        string
			said, truth int
		}{{"files changed", c.files, g.FilesChanged}, {"additions", c.additions, g.Additions}, {"deletions", c.deletions, g.Deletions}} {
			if x.said >= 0 && x.said != x.truth {
				notes = append(notes, fmt.Sprintf("reported %d %s; git measures %d", x.said, x.what, x.truth))
			}
		}
	}
	if tr != nil && tr.Ran && tr.Counted {
		if f.Tests.TestCount != tr.Total() {
			notes = append(notes, fmt.Sprintf("reported %d tests; running them counted %d (replaced)", f.Tests.TestCount, tr.Total()))
			f.Tests.TestCount = tr.Total()
		}
		if c := f.claimedTests; c != nil && (c.Passed >= 0 && c.Passed != tr.Passed || c.Failed >= 0 && c.Failed != tr.Failed || c.Skipped >= 0 && c.Skipped != tr.Skipped) {
			notes = append(notes, fmt.Sprintf("reported test results %s; the run gave %d passed, %d failed, %d skipped (replaced)", claimWords(c), tr.Passed, tr.Failed, tr.Skipped))
		}
	}
	if tr != nil {
		f.Functionality.TestResults = tr
	}
	return notes
}

func claimWords(c *facts.TestRun) string {
	n := func(v int) string {
		if v < 0 {
			return "?"
		}
		return strconv.Itoa(v)
	}
	return fmt.Sprintf("%s passed, %s failed, %s skipped", n(c.Passed), n(c.Failed), n(c.Skipped))
}

// placeLike is "path:line", as the seed writes unused imports.
var placeLike = regexp.MustCompile(`^[^\s:]+:\d+$`)

// splitPlace reads "src/a.py:42" into its file and line (line from the
// text when the finding did not give one).
func splitPlace(file string, line int) (string, int) {
	if m := regexp.MustCompile(`^(.*?):(\d+)(?::\d+)?$`).FindStringSubmatch(file); m != nil {
		n, _ := strconv.Atoi(m[2])
		if line == 0 {
			line = n
		}
		file = m[1]
	}
	return file, line
}

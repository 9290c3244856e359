package rank

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/arenadebate/arena/engine/rank/facts"
)

func TestParseWeights(t *testing.T) {
	w, err := ParseWeights("functionality:40, security:30")
	if err != nil {
		t.Fatal(err)
	}
	want := Weights{DimFunctionality: 40, DimSecurity: 30, DimTests: 20, DimOverengineering: 15, DimDeadCode: 10}
	for _, d := range Dimensions {
		if w[d] != want[d] {
			t.Errorf("%s = %d, want %d", d, w[d], want[d])
		}
	}
	if w, err := ParseWeights(""); err != nil || w.Sum(Dimensions) != 100 {
		t.Fatalf("defaults: %v %v", w, err)
	}
	if w, err := ParseWeights("dead-code:0,Overengineering=5"); err != nil || w[DimDeadCode] != 0 || w[DimOverengineering] != 5 || slices.Contains(w.Active(), DimDeadCode) {
		t.Fatalf("aliases: %v %v", w, err)
	}
	for in, msg := range map[string]string{
		"style:10":        `unknown dimension "style"`,
		"functionality":   "is not dimension:weight",
		"security:-1":     "whole number from 0 to 1000",
		"tests:x":         "whole number",
		"tests:1,tests:2": "weighted twice",
		"functionality:0,security:0,tests:0,overengineering:0,dead_code:0": "every weight is 0",
	} {
		if _, err := ParseWeights(in); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: %v, want %q", in, err, msg)
		}
	}
}

func TestTotalIsTheWeightedMeanOfTheJudgedDimensions(t *testing.T) {
	w := DefaultWeights()
	scores := map[Dimension]int{DimFunctionality: 4, DimSecurity: 3, DimTests: 4, DimOverengineering: 5, DimDeadCode: 4}
	// The seed's example prints Claude 3.95 and GPT-4 3.90, and crowns
	// Claude; the arithmetic gives Claude 3.90 and GPT-4 3.95. Which is why
	// arena, not a model, adds up.
	if got := Total(scores, w, Dimensions); math.Abs(got-3.90) > 1e-9 {
		t.Fatalf("Claude's total %v, want 3.90", got)
	}
	gpt := map[Dimension]int{DimFunctionality: 5, DimSecurity: 4, DimTests: 3, DimOverengineering: 3, DimDeadCode: 4}
	if got := Total(gpt, w, Dimensions); math.Abs(got-3.95) > 1e-9 {
		t.Fatalf("GPT-4's total %v, want 3.95", got)
	}
	// Security's judge failed: out of both sums, (4*30+4*20+5*15+4*10)/75.
	judged := []Dimension{DimFunctionality, DimTests, DimOverengineering, DimDeadCode}
	if got, want := Total(scores, w, judged), float64(4*30+4*20+5*15+4*10)/75; math.Abs(got-want) > 1e-9 {
		t.Fatalf("total without security %v, want %v", got, want)
	}
	if Total(scores, w, nil) != 0 {
		t.Fatal("no judged dimension has a total")
	}
}

func TestRankNamesTies(t *testing.T) {
	labels := []string{"a", "b", "c", "d"}
	ps := Rank(labels, map[int]float64{0: 3.5, 1: 4.0, 2: 3.5, 3: 3.499999})
	got := []string{}
	for _, p := range ps {
		got = append(got, p.Label+":"+string(rune('0'+p.Place)))
	}
	// 3.499999 shows as 3.50: a tie with a and c, as the person reads it.
	if want := []string{"b:1", "a:2", "c:2", "d:2"}; !slices.Equal(got, want) {
		t.Fatalf("places %q, want %q", got, want)
	}
	if !ps[1].Tied || ps[0].Tied {
		t.Fatalf("ties %+v", ps)
	}
	if w := Winners(Rank(labels[:2], map[int]float64{0: 2, 1: 2})); !slices.Equal(w, []string{"a", "b"}) {
		t.Fatalf("winners %q", w)
	}
}

func TestOrderIsASeededPermutationPerJudge(t *testing.T) {
	idx := []int{0, 1, 2, 3, 4, 5}
	seen := map[string]bool{}
	for j := range 5 {
		o := Order(idx, 42, j)
		if !slices.Equal(o, Order(idx, 42, j)) {
			t.Fatal("the same seed and judge give another order")
		}
		s := slices.Clone(o)
		slices.Sort(s)
		if !slices.Equal(s, idx) {
			t.Fatalf("not a permutation: %v", o)
		}
		seen[fmt.Sprint(o)] = true
	}
	if len(seen) < 2 {
		t.Fatal("every judge sees the same order")
	}
	if slices.Equal(Order(idx, 1, 0), Order(idx, 2, 0)) && slices.Equal(Order(idx, 1, 1), Order(idx, 2, 1)) {
		t.Fatal("the seed does not change the orders")
	}
}

func TestAnonymizeRemovesWhatIdentifiesARepository(t *testing.T) {
	text := `impl written on branch claude/login in /tmp/x/claude-impl; see claude-impl/main.go. Label Claude-Impl.`
	got := Anonymize(text, "Candidate B", IdentifyingNames("Claude-Impl", "/tmp/x/claude-impl", "claude/login")...)
	for _, bad := range []string{"claude", "Claude", "/tmp/x"} {
		if strings.Contains(got, bad) {
			t.Fatalf("%q still names %q", got, bad)
		}
	}
	if !strings.Contains(got, "Candidate B/main.go") {
		t.Fatalf("got %q", got)
	}
	// A name inside a longer word is not one: a branch "impl" leaves the
	// facts' "implemented" whole; an author inside "claude_style" goes.
	got = Anonymize(`{"implemented": ["impl"], "style": "claude_style", "by": "Impl."}`, "Candidate A", "impl", "claude")
	if got != `{"implemented": ["Candidate A"], "style": "Candidate A_style", "by": "Candidate A."}` {
		t.Fatalf("got %q", got)
	}
}

func TestCheckHoldsFactsToMeasurements(t *testing.T) {
	files := map[string]int{"src/api.py": 50, "tests/test_api.py": 10, "src/utils.py": 5}
	lines := func(p string) (int, bool) { n, ok := files[p]; return n, ok }
	f := Facts{
		Security: Security{Findings: []Finding{
			{File: "src/api.py", Line: 42, Issue: "SQL concatenation"},
			{File: "src/api.py", Line: 420, Issue: "beyond the end"},
			{File: "src/ghost.py", Line: 1, Issue: "no such file"},
			{File: "src/api.py:7", Issue: "place in the name"},
			{Issue: "no place at all"},
		}},
		Tests:           TestFacts{TestCount: 48, DryViolations: []DryViolation{{File: "tests/test_api.py"}, {File: "tests/nope.py"}}},
		DeadCode:        DeadCode{UnusedImports: []string{"src/utils.py:3", "src/utils.py:9", "os"}},
		Overengineering: Overengineering{Abstractions: []Finding{{File: "src/factory.py", Issue: "factory"}}},
		claimedGit:      &gitClaim{files: 3, additions: 10, deletions: -1},
		claimedTests:    &facts.TestRun{Passed: 45, Failed: 2, Skipped: 1},
	}
	tr := &facts.TestRun{Ran: true, Counted: true, Passed: 3, Failed: 1, Skipped: 1}
	notes := Check(&f, lines, facts.Git{FilesChanged: 3, Additions: 12, Deletions: 4}, tr)
	var issues []string
	for _, fd := range f.Security.Findings {
		issues = append(issues, fd.Issue)
	}
	if want := []string{"SQL concatenation", "place in the name", "no place at all"}; !slices.Equal(issues, want) {
		t.Errorf("kept findings %q, want %q", issues, want)
	}
	if len(f.Tests.DryViolations) != 1 || len(f.Overengineering.Abstractions) != 0 {
		t.Errorf("dry %v abstractions %v", f.Tests.DryViolations, f.Overengineering.Abstractions)
	}
	if !slices.Equal(f.DeadCode.UnusedImports, []string{"src/utils.py:3", "os"}) {
		t.Errorf("unused imports %q", f.DeadCode.UnusedImports)
	}
	if f.Tests.TestCount != 5 || f.Functionality.TestResults != tr {
		t.Errorf("test count %d, results %v", f.Tests.TestCount, f.Functionality.TestResults)
	}
	all := strings.Join(notes, "\n")
	for _, want := range []string{
		"dropped a security finding at src/api.py:420: the file has 50 lines",
		"dropped a security finding in src/ghost.py: no such file on the branch",
		"dropped a DRY violation in tests/nope.py",
		"dropped a abstraction finding in src/factory.py",
		"dropped a unused import at src/utils.py:9",
		"reported 10 additions; git measures 12",
		"reported 48 tests; running them counted 5 (replaced)",
		"reported test results 45 passed, 2 failed, 1 skipped; the run gave 3 passed, 1 failed, 1 skipped (replaced)",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("notes lack %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "files changed") || strings.Contains(all, "deletions") {
		t.Errorf("a figure that agrees, or was not claimed, is noted:\n%s", all)
	}
}

func TestParseJudgementWantsEveryLetterOnce(t *testing.T) {
	ok := `{"dimension":"tests","scores":{"A":{"score":4,"justification":"good","evidence":["x"]},"candidate b":{"score":"2","justification":"weak"}},"ranking":["A","Candidate B"]}`
	j, err := ParseJudgement(ok, []string{"A", "B"})
	if err != nil || j.Scores["B"].Score != 2 || !slices.Equal(j.Ranking, []string{"A", "B"}) {
		t.Fatalf("%+v %v", j, err)
	}
	for in, msg := range map[string]string{
		`{"dimension":"tests","scores":{"A":{"score":4,"justification":"g"}},"ranking":["A","B"]}`:                                            "no score for candidate B",
		`{"dimension":"tests","scores":{"A":{"score":6,"justification":"g"},"B":{"score":1,"justification":"g"}},"ranking":["A","B"]}`:        "from 1 to 5",
		`{"dimension":"tests","scores":{"A":{"score":3,"justification":"g"},"B":{"score":1,"justification":"g"}},"ranking":["A","A"]}`:        "each of A, B once",
		`{"dimension":"tests","scores":{"A":{"score":3,"justification":"g"},"B":{"score":1,"justification":"g"},"C":{}},"ranking":["A","B"]}`: `"C", which is not one of`,
	} {
		if _, err := ParseJudgement(in, []string{"A", "B"}); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v, want %q", in, err, msg)
		}
	}
}

func TestParseSynthesisMustNameTheWinner(t *testing.T) {
	if _, err := ParseSynthesis(`{"verdict":"beta wins on security"}`, []string{"alpha"}); err == nil || !strings.Contains(err.Error(), "must name alpha") {
		t.Fatalf("%v", err)
	}
	if s, err := ParseSynthesis(`{"verdict":"Alpha and beta tie."}`, []string{"alpha", "beta"}); err != nil || s.Verdict == "" {
		t.Fatalf("%v", err)
	}
}

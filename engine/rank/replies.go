package rank

import (
	"fmt"
	"slices"
	"strings"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/rank/facts"
)

// The reply shapes, as prompts name them (package shape).
const (
	ShapeFacts     = "rank.facts"
	ShapeJudge     = "rank.judge"
	ShapeSynthesis = "rank.synthesis"
)

// Facts is what a fact seat reports about one repository: the seed's fact
// schema without git_info, which arena measures itself. It gathers facts
// and gives no scores.
type Facts struct {
	Functionality   Functionality   `json:"functionality"`
	Security        Security        `json:"security"`
	Tests           TestFacts       `json:"tests"`
	Overengineering Overengineering `json:"overengineering"`
	DeadCode        DeadCode        `json:"dead_code"`

	// What the model claimed about what arena measures, to compare.
	claimedGit   *gitClaim
	claimedTests *facts.TestRun
}

type gitClaim struct{ files, additions, deletions int }

// Functionality is the spec's requirements and which are implemented.
type Functionality struct {
	SpecRequirements []string `json:"spec_requirements"`
	Implemented      []string `json:"implemented"`
	Missing          []string `json:"missing"`
	// TestResults are arena's, when it ran the tests.
	TestResults *facts.TestRun `json:"test_results,omitempty"`
}

// Finding is something found at a place in a file.
type Finding struct {
	File  string `json:"file"`
	Line  int    `json:"line,omitempty"`
	Issue string `json:"issue"`
}

// Security is what the fact seat saw of security.
type Security struct {
	Findings         []Finding `json:"findings"`
	PatternsObserved []string  `json:"patterns_observed"`
}

// DryViolation is repeated code in a test file.
type DryViolation struct {
	File        string `json:"file"`
	Description string `json:"description"`
}

// TestFacts is what the fact seat saw of the tests.
type TestFacts struct {
	CoverageEstimate string         `json:"coverage_estimate"`
	DryViolations    []DryViolation `json:"dry_violations"`
	TestCount        int            `json:"test_count"`
	MockingApproach  string         `json:"mocking_approach"`
}

// Overengineering is abstraction and defence beyond what the spec needs.
type Overengineering struct {
	Abstractions     []Finding `json:"abstractions"`
	DefensiveCode    []Finding `json:"defensive_code"`
	ConfigComplexity string    `json:"config_complexity"`
}

// DeadCode is code that does nothing.
type DeadCode struct {
	UnusedImports       []string `json:"unused_imports"`
	UnusedFunctions     []string `json:"unused_functions"`
	TodoComments        int      `json:"todo_comments"`
	CommentedCodeBlocks int      `json:"commented_code_blocks"`
}

// Judgement is one dimension judge's scores, keyed by the neutral letters
// the judge saw.
type Judgement struct {
	Dimension string                 `json:"dimension"`
	Scores    map[string]LetterScore `json:"scores"`
	Ranking   []string               `json:"ranking"`
}

// LetterScore is one candidate's score on one dimension.
type LetterScore struct {
	Score         int      `json:"score"`
	Justification string   `json:"justification"`
	Evidence      []string `json:"evidence"`
}

// Synthesis is the verdict sentence written from arena's ranking.
type Synthesis struct {
	Verdict string `json:"verdict"`
}

var (
	factsKeys     = engine.ShapeKeys("functionality", "security", "tests", "overengineering", "dead_code")
	judgeKeys     = engine.ShapeKeys("dimension", "scores", "ranking")
	synthesisKeys = engine.ShapeKeys("verdict")
)

// sub reads a nested object as Fields, its keys normalised.
func sub(f engine.Fields, key string) (engine.Fields, error) {
	v, ok := f[key]
	if !ok {
		return nil, engine.FieldError(key, "is missing")
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, engine.FieldError(key, "must be an object")
	}
	out := make(engine.Fields, len(m))
	for k, v := range m {
		out[engine.NormKey(k)] = v
	}
	return out, nil
}

// optList reads a list of strings that may be absent.
func optList(f engine.Fields, key string) ([]string, error) {
	if _, ok := f[key]; !ok || f[key] == nil {
		return nil, nil
	}
	return f.List(key)
}

// optInt reads a count that may be absent (0).
func optInt(f engine.Fields, key string) (int, error) {
	if _, ok := f[key]; !ok || f[key] == nil {
		return 0, nil
	}
	return f.Int(key, 0, 1_000_000)
}

// findings reads a list of {file, line, issue} objects (the text may be
// under "issue" or "description"); a bare string is an issue without a
// place.
func findings(f engine.Fields, key string) ([]Finding, error) {
	v, ok := f[key]
	if !ok || v == nil {
		return nil, nil
	}
	arr, ok := v.([]any)
	if !ok {
		return nil, engine.FieldError(key, "must be a list of objects")
	}
	var out []Finding
	for i, x := range arr {
		if s, ok := x.(string); ok {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, Finding{Issue: s})
			}
			continue
		}
		m, ok := x.(map[string]any)
		if !ok {
			return nil, engine.FieldError(fmt.Sprintf("%s[%d]", key, i), "must be an object")
		}
		o := engine.Fields{}
		for k, v := range m {
			o[engine.NormKey(k)] = v
		}
		fd := Finding{File: o.Opt("file"), Issue: o.Opt("issue")}
		if fd.Issue == "" {
			fd.Issue = o.Opt("description")
		}
		if _, ok := o["line"]; ok && o["line"] != nil {
			n, err := o.Int("line", 0, 10_000_000)
			if err != nil {
				return nil, fmt.Errorf("%s[%d]: %w", key, i, err)
			}
			fd.Line = n
		}
		if fd.Issue == "" && fd.File == "" {
			return nil, engine.FieldError(fmt.Sprintf("%s[%d]", key, i), "names neither a file nor an issue")
		}
		out = append(out, fd)
	}
	return out, nil
}

// ParseFacts parses a fact seat's reply.
func ParseFacts(text string) (Facts, error) {
	return engine.ParseObject(text, factsKeys, func(f engine.Fields) (r Facts, err error) {
		var fn, sec, ts, ov, dc engine.Fields
		err = engine.Collect(
			func() (e error) { fn, e = sub(f, "functionality"); return },
			func() (e error) { sec, e = sub(f, "security"); return },
			func() (e error) { ts, e = sub(f, "tests"); return },
			func() (e error) { ov, e = sub(f, "overengineering"); return },
			func() (e error) { dc, e = sub(f, "dead_code"); return },
			func() (e error) { r.Functionality.SpecRequirements, e = fn.List("spec_requirements"); return },
			func() (e error) { r.Functionality.Implemented, e = fn.List("implemented"); return },
			func() (e error) { r.Functionality.Missing, e = fn.List("missing"); return },
			func() (e error) { r.Security.Findings, e = findings(sec, "findings"); return },
			func() (e error) { r.Security.PatternsObserved, e = optList(sec, "patterns_observed"); return },
			func() (e error) { r.Tests.TestCount, e = ts.Int("test_count", 0, 1_000_000); return },
			func() (e error) { r.Overengineering.Abstractions, e = findings(ov, "abstractions"); return },
			func() (e error) { r.Overengineering.DefensiveCode, e = findings(ov, "defensive_code"); return },
			func() (e error) { r.DeadCode.UnusedImports, e = optList(dc, "unused_imports"); return },
			func() (e error) { r.DeadCode.UnusedFunctions, e = optList(dc, "unused_functions"); return },
			func() (e error) { r.DeadCode.TodoComments, e = optInt(dc, "todo_comments"); return },
			func() (e error) { r.DeadCode.CommentedCodeBlocks, e = optInt(dc, "commented_code_blocks"); return },
		)
		if err != nil {
			return r, err
		}
		r.Tests.CoverageEstimate = ts.Opt("coverage_estimate")
		r.Tests.MockingApproach = ts.Opt("mocking_approach")
		r.Overengineering.ConfigComplexity = ov.Opt("config_complexity")
		dry, err := findings(ts, "dry_violations")
		if err != nil {
			return r, err
		}
		for _, d := range dry {
			r.Tests.DryViolations = append(r.Tests.DryViolations, DryViolation{File: d.File, Description: d.Issue})
		}
		r.claimedGit = claimedGit(f)
		r.claimedTests = claimedTests(fn)
		return r, nil
	})
}

// claimedGit reads a git_info the model filled in although arena
// measures it, to compare.
func claimedGit(f engine.Fields) *gitClaim {
	g, err := sub(f, "git_info")
	if err != nil {
		return nil
	}
	c := &gitClaim{files: -1, additions: -1, deletions: -1}
	if n, err := g.Int("files_changed", 0, 1<<30); err == nil {
		c.files = n
	}
	if n, err := g.Int("additions", 0, 1<<30); err == nil {
		c.additions = n
	}
	if n, err := g.Int("deletions", 0, 1<<30); err == nil {
		c.deletions = n
	}
	return c
}

func claimedTests(fn engine.Fields) *facts.TestRun {
	t, err := sub(fn, "test_results")
	if err != nil {
		return nil
	}
	c := &facts.TestRun{Passed: -1, Failed: -1, Skipped: -1}
	if n, err := t.Int("passed", 0, 1<<30); err == nil {
		c.Passed = n
	}
	if n, err := t.Int("failed", 0, 1<<30); err == nil {
		c.Failed = n
	}
	if n, err := t.Int("skipped", 0, 1<<30); err == nil {
		c.Skipped = n
	}
	return c
}

// ParseJudgement parses a judge's reply: a score from 1 to 5 for each of
// the letters it was shown, none other, and a ranking of them all.
func ParseJudgement(text string, letters []string) (Judgement, error) {
	return engine.ParseObject(text, judgeKeys, func(f engine.Fields) (j Judgement, err error) {
		var scores engine.Fields
		err = engine.Collect(
			func() (e error) { j.Dimension, e = f.Str("dimension", true); return },
			func() (e error) { scores, e = sub(f, "scores"); return },
			func() (e error) { j.Ranking, e = f.List("ranking"); return },
		)
		if err != nil {
			return j, err
		}
		byLetter := map[string]engine.Fields{}
		for k := range scores {
			l := letterOf(k)
			if !slices.Contains(letters, l) {
				return j, engine.FieldError("scores", fmt.Sprintf("has %q, which is not one of the candidates %s", l, strings.Join(letters, ", ")))
			}
			o, err := sub(scores, k)
			if err != nil {
				return j, err
			}
			byLetter[l] = o
		}
		j.Scores = map[string]LetterScore{}
		for _, l := range letters {
			o, ok := byLetter[l]
			if !ok {
				return j, engine.FieldError("scores", "has no score for candidate "+l)
			}
			var s LetterScore
			err := engine.Collect(
				func() (e error) { s.Score, e = o.Int("score", 1, 5); return },
				func() (e error) { s.Justification, e = o.Str("justification", false); return },
				func() (e error) { s.Evidence, e = optList(o, "evidence"); return },
			)
			if err != nil {
				return j, fmt.Errorf("scores.%s: %w", l, err)
			}
			j.Scores[l] = s
		}
		var rk []string
		for _, r := range j.Ranking {
			l := letterOf(r)
			if !slices.Contains(letters, l) || slices.Contains(rk, l) {
				return j, engine.FieldError("ranking", fmt.Sprintf("must list each of %s once, got %q", strings.Join(letters, ", "), j.Ranking))
			}
			rk = append(rk, l)
		}
		if len(rk) != len(letters) {
			return j, engine.FieldError("ranking", fmt.Sprintf("must list each of %s once, got %q", strings.Join(letters, ", "), j.Ranking))
		}
		j.Ranking = rk
		return j, nil
	})
}

// letterOf reads "A", "a", "Candidate A" as "A".
func letterOf(s string) string {
	s = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s)), "candidate")
	return strings.ToUpper(strings.Trim(s, " _-:"))
}

// ParseSynthesis parses the verdict; it must name every label that ranks
// first, so the sentence cannot crown another.
func ParseSynthesis(text string, winners []string) (Synthesis, error) {
	return engine.ParseObject(text, synthesisKeys, func(f engine.Fields) (s Synthesis, err error) {
		if s.Verdict, err = f.Str("verdict", false); err != nil {
			return s, err
		}
		low := strings.ToLower(s.Verdict)
		for _, w := range winners {
			if !strings.Contains(low, strings.ToLower(w)) {
				return s, engine.FieldError("verdict", fmt.Sprintf("must name %s, which ranks first", w))
			}
		}
		return s, nil
	})
}

package main

import (
	"fmt"
	"hash/fnv"
	"regexp"
	"strings"
)

// The canned replies of arena rank's shapes. Like a real model they
// follow what the prompt shows: a fact seat names a file from the diff it
// was given and the test count arena measured; a judge scores each
// candidate from its facts (so a repository gets the same score under
// whichever letter it is shown); the verdict names the winner the prompt
// states.
var rankReplies = replySet{
	"rank.facts":     rankFacts,
	"rank.judge":     rankJudge,
	"rank.synthesis": rankSynthesis,
}

var (
	diffFileRe    = regexp.MustCompile(`(?m)^\+\+\+ b/(\S+)`)
	measuredRe    = regexp.MustCompile(`tests \([^)]*\): (\d+) passed, (\d+) failed, (\d+) skipped`)
	candidateRe   = regexp.MustCompile(`(?m)^CANDIDATE ([A-Z])$`)
	neutralNameRe = regexp.MustCompile(`(?i)candidate [A-Z]\b`)
	// fenceLineRe is a fence's opening or closing line, whose nonce is
	// drawn from what it holds.
	fenceLineRe = regexp.MustCompile(`(?m)^<<<(END )?ARENA-INPUT [^\n]*>>>$`)
	dimensionRe = regexp.MustCompile(`"dimension": "(\w+)"`)
	winnerRe    = regexp.MustCompile(`Do not change it: (.+?), and the verdict must say so\.`)
)

func rankFacts(v voice, prompt string) obj {
	var files []string
	for _, m := range diffFileRe.FindAllStringSubmatch(prompt, -1) {
		files = append(files, m[1])
	}
	findings := []any{}
	if len(files) > 0 {
		findings = append(findings, obj{{"file", files[0]}, {"line", 1}, {"issue", "input is used without validation"}})
	}
	tests := strings.Count(prompt, "+func Test")
	if m := measuredRe.FindStringSubmatch(prompt); m != nil {
		var p, f, s int
		fmt.Sscan(m[1]+" "+m[2]+" "+m[3], &p, &f, &s)
		tests = p + f + s
	}
	reqs := []string{"parse the input", "report errors clearly", "handle empty input"}
	return obj{
		{"functionality", obj{{"spec_requirements", reqs}, {"implemented", reqs[:2+v.n%2]}, {"missing", reqs[2+v.n%2:]}}},
		{"security", obj{{"findings", findings}, {"patterns_observed", []string{"no secrets in code"}}}},
		{"tests", obj{{"coverage_estimate", "moderate"}, {"dry_violations", []any{}}, {"test_count", tests}, {"mocking_approach", "no mocks; real inputs"}}},
		{"overengineering", obj{{"abstractions", []any{}}, {"defensive_code", []any{}}, {"config_complexity", "low"}}},
		{"dead_code", obj{{"unused_imports", []string{}}, {"unused_functions", []string{}}, {"todo_comments", v.n % 3}, {"commented_code_blocks", 0}}},
	}
}

func rankJudge(v voice, prompt string) obj {
	dim := "functionality"
	if m := dimensionRe.FindStringSubmatch(prompt); m != nil {
		dim = m[1]
	}
	locs := candidateRe.FindAllStringSubmatchIndex(prompt, -1)
	end := strings.Index(prompt, "\nYOUR TASK")
	scores := obj{}
	var ranking []string
	best := map[string]int{}
	for i, loc := range locs {
		letter := prompt[loc[2]:loc[3]]
		stop := end
		if i+1 < len(locs) {
			stop = locs[i+1][0]
		}
		if stop < loc[1] {
			stop = len(prompt)
		}
		// The score follows the facts, not the letter they are shown
		// under: the neutral name, and the fence around the facts (its
		// nonce is drawn from them, letter included) and the blank
		// lines around it, are left out of what is hashed.
		facts := strings.TrimSpace(neutralNameRe.ReplaceAllString(fenceLineRe.ReplaceAllString(prompt[loc[1]:stop], ""), ""))
		h := fnv.New32a()
		h.Write([]byte(dim + facts))
		score := 2 + int(h.Sum32()%4)
		if q, ok := v.quality(facts); ok {
			score = q
		}
		if v.firstShown() {
			score = map[bool]int{true: 5, false: 2}[i == 0]
		}
		score = v.judged(score, facts)
		best[letter] = score
		scores = append(scores, kv{letter, obj{
			{"score", score},
			{"justification", fmt.Sprintf("%s reads candidate %s's facts on %s as %s.", v.name, letter, dim, []string{"", "poor", "weak", "adequate", "good", "excellent"}[score])},
			{"evidence", []string{dim + " facts"}},
		}})
		ranking = append(ranking, letter)
	}
	for i := 1; i < len(ranking); i++ {
		for j := i; j > 0 && best[ranking[j]] > best[ranking[j-1]]; j-- {
			ranking[j], ranking[j-1] = ranking[j-1], ranking[j]
		}
	}
	return obj{{"dimension", dim}, {"scores", scores}, {"ranking", ranking}}
}

func rankSynthesis(v voice, prompt string) obj {
	w := "The first-ranked implementation"
	if m := winnerRe.FindStringSubmatch(prompt); m != nil {
		w = m[1]
	}
	return obj{{"verdict", w + " on the weighted scores, as " + v.name + " reads the table."}}
}

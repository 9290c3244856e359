package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Canned replies of arena judge's shapes (engine/judge), derived from
// what the prompt says: scores for the criteria it lists, evidence quoted
// from the solution it shows. Left to themselves, fake judges agree within
// a point and accept, so a judging on fakes alone reaches consensus.

var judgeReplies = replySet{
	"judge.analysis":  func(v voice, prompt string) obj { return v.judgeAnalysis(prompt) },
	"judge.debate":    func(v voice, prompt string) obj { return v.judgeDebate(prompt) },
	"judge.synthesis": func(v voice, prompt string) obj { return v.judgeSynthesis(prompt) },
}

// criterionLine is "- correctness (weight 30%)" in the criteria section.
var criterionLine = regexp.MustCompile(`(?m)^- (.+) \(weight ([0-9.]+)%\)$`)

// judgeCriteria lists the criteria a judge prompt names.
func judgeCriteria(prompt string) []string {
	var out []string
	for _, m := range criterionLine.FindAllStringSubmatch(prompt, -1) {
		out = append(out, m[1])
	}
	return out
}

// judgeOverall is the weighted overall a careful model would report,
// from the weights the prompt gives.
func judgeOverall(prompt string, score func(i int) int) float64 {
	sum, total := 0.0, 0.0
	for i, m := range criterionLine.FindAllStringSubmatch(prompt, -1) {
		w, _ := strconv.ParseFloat(m[2], 64)
		sum += w * float64(score(i))
		total += w
	}
	if total == 0 {
		return 0
	}
	return float64(int(sum/total*100+0.5)) / 100
}

// solutionQuote is the first non-empty line of the first file of the
// solution the prompt shows: evidence that is really there.
func solutionQuote(prompt string) string {
	block, _ := fenced(prompt, "")
	for _, line := range strings.Split(block, "\n") {
		if t := strings.TrimSpace(line); t != "" {
			return t
		}
	}
	return ""
}

func (v voice) judgeScores(criteria []string, quote string, score func(i int) int) []obj {
	out := make([]obj, 0, len(criteria))
	for i, c := range criteria {
		out = append(out, obj{
			{"criterion", c}, {"score", score(i)}, {"evidence", []string{quote}},
			{"justification", fmt.Sprintf("%s finds %s sound where it matters, with room to improve.", v.name, c)},
		})
	}
	return out
}

func (v voice) judgeAnalysis(prompt string) obj {
	cs := judgeCriteria(prompt)
	// Every judge gives 4, except one criterion (chosen by the voice) it
	// gives 3: within a point of every other judge.
	low := 0
	if len(cs) > 0 {
		low = v.n % len(cs)
	}
	score := func(i int) int {
		if i == low {
			return 3
		}
		return 4
	}
	solution, _ := fenced(prompt, "")
	if q, ok := v.quality(solution); ok {
		score = func(int) int { return q }
	}
	if v.isOwn(solution) {
		score = func(int) int { return 5 }
	}
	return obj{
		{"scores", v.judgeScores(cs, solutionQuote(prompt), score)},
		{"overall", judgeOverall(prompt, score)},
		{"strengths", []string{"The code does what the task asks.", v.name + " likes the clear naming."}},
		{"weaknesses", []string{"Edge cases are not tested.", v.name + " misses input validation."}},
		{"verification", []obj{
			{{"question", "Am I rewarding length rather than substance?"}, {"answer", "No: the scores rest on the quoted lines."}, {"changed", false}},
			{{"question", "Is there counter-evidence I overlooked?"}, {"answer", "None that changes a score."}, {"changed", false}},
		}},
	}
}

// currentScore is "- correctness: 4" under YOUR CURRENT SCORES.
var currentScore = regexp.MustCompile(`(?m)^- (.+): ([1-5])$`)

func (v voice) judgeDebate(prompt string) obj {
	cs := judgeCriteria(prompt)
	mine := map[string]int{}
	if i := strings.Index(prompt, "YOUR CURRENT SCORES"); i >= 0 {
		sec := prompt[i:]
		if j := strings.Index(sec, "\n\n"); j >= 0 {
			sec = sec[:j]
		}
		for _, m := range currentScore.FindAllStringSubmatch(sec, -1) {
			mine[m[1]], _ = strconv.Atoi(m[2])
		}
	}
	quote := solutionQuote(prompt)
	// Every fake settles on 4 everywhere, giving its reason and evidence
	// for each score it moves.
	changes := []obj{}
	for _, c := range cs {
		if from := mine[c]; from != 0 && from != 4 {
			changes = append(changes, obj{{"criterion", c}, {"from", from}, {"to", 4},
				{"reason", v.name + " is convinced by the other judges' evidence."}, {"evidence", []string{quote}}})
		}
	}
	return obj{
		{"disagreements", []obj{}},
		{"scores", v.judgeScores(cs, quote, func(int) int { return 4 })},
		{"overall", 4},
		{"changes", changes},
		{"accepts_consensus", true},
		{"agrees_with", []string{"Judge 1", "Judge 2", "Judge 3"}},
	}
}

func (v voice) judgeSynthesis(prompt string) obj {
	var res []obj
	for _, c := range judgeCriteria(prompt) {
		res = append(res, obj{{"criterion", c}, {"how_resolved", "The judges compared the quoted lines and settled within a point."}})
	}
	if res == nil {
		res = []obj{}
	}
	return obj{
		{"strengths", []string{"The code does what the task asks."}},
		{"weaknesses", []string{"Edge cases are not tested."}},
		{"recommendation", "pass"},
		{"justification", v.name + ": solid on every criterion, with tests to add."},
		{"resolutions", res},
	}
}

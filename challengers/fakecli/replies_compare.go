package main

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Canned replies of the comparative debate (arena compare), read off the
// prompt: the options it lists, the criteria, the opening to rebut.

// FavourFirstListed, anywhere in a judge's prompt (a context file carries
// it), makes the fake judge favour whichever option is listed first: a
// judge with a position bias, whose pick flips with the order.
const FavourFirstListed = "fake-judge: favour the first option listed"

var compareReplies = replySet{
	"compare.criteria": func(v voice, _ string) obj { return v.compareCriteria() },
	"compare.opening":  func(v voice, p string) obj { return v.compareOpening(p) },
	"compare.rebuttal": func(v voice, p string) obj { return v.compareRebuttal(p) },
	"compare.judge":    func(v voice, p string) obj { return v.compareJudge(p) },
}

func (v voice) compareCriteria() obj {
	return obj{{"criteria", []obj{
		{{"name", "throughput"}, {"weight", "high"}, {"why", "order events peak at launch time"}},
		{{"name", "operational cost"}, {"weight", "high"}, {"why", v.name + " counts the on-call load"}},
		{{"name", "latency"}, {"weight", "medium"}, {"why", "consumers react to each order"}},
		{{"name", "team skills"}, {"weight", "low"}, {"why", "the team can learn"}},
	}}}
}

var (
	forOption   = regexp.MustCompile(`(?m)^Your role: argue convincingly FOR (.+?)\. You spent`)
	againstWhat = regexp.MustCompile(`(?m)^You are evaluating .+? against (.+?) for this decision\.`)
	criterionRE = regexp.MustCompile(`(?m)^- (.+?): (high|medium|low)\b`)
	optionLine  = regexp.MustCompile(`^\d+\. (.+)$`)
)

// listAfter returns the numbered lines right after the heading line that
// starts with heading.
func listAfter(prompt, heading string) []string {
	i := strings.Index(prompt, "\n"+heading)
	if i < 0 {
		return nil
	}
	var out []string
	lines := strings.Split(prompt[i+1:], "\n")
	for _, l := range lines[1:] {
		m := optionLine.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil {
			break
		}
		out = append(out, m[1])
	}
	return out
}

func criteriaOf(prompt string) []string {
	i := strings.Index(prompt, "\nCRITERIA")
	if i < 0 {
		return nil
	}
	var out []string
	for _, m := range criterionRE.FindAllStringSubmatch(prompt[i:], -1) {
		out = append(out, m[1])
	}
	return out
}

func (v voice) compareOpening(prompt string) obj {
	option, other := "the option", "the other option"
	if m := forOption.FindStringSubmatch(prompt); m != nil {
		option = m[1]
	}
	if m := againstWhat.FindStringSubmatch(prompt); m != nil {
		other = m[1]
	}
	var args []obj
	for i, c := range criteriaOf(prompt) {
		args = append(args, obj{
			{"criterion", c},
			{"for_this", fmt.Sprintf("%s handles %s with room to spare, measured %d times in production", option, c, 3+i)},
			{"against_other", fmt.Sprintf("%s needs extra work to match it on %s", other, c)},
		})
	}
	return obj{
		{"option", option},
		{"arguments", args},
		{"risks_of_other", []string{
			other + " adds a migration nobody has budgeted",
			other + " has failure modes the team has not seen yet",
			other + " locks the team into a path that is costly to undo",
		}},
		{"stakeholders", "The platform team worries about operations; " + option + " keeps their load flat."},
		{"closing_argument", fmt.Sprintf("%s wins on the criteria that weigh most. It is proven here. %s argues this with conviction.", option, v.name)},
	}
}

// quotable picks claims of an opening to attack: the text of its
// argument lines, cut before " — ", which occur in it word for word.
func quotable(opening string) []string {
	var out []string
	for _, l := range strings.Split(opening, "\n") {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "- **") {
			continue
		}
		if j := strings.Index(l, ":** "); j >= 0 {
			l = l[j+4:]
		}
		if j := strings.Index(l, " — "); j >= 0 {
			l = l[:j]
		}
		if len(l) > 20 {
			out = append(out, l)
		}
	}
	return out
}

func (v voice) compareRebuttal(prompt string) obj {
	block := prompt
	if b, ok := fenced(prompt, "the opening for "); ok {
		block = b
	}
	claims := quotable(block)
	for len(claims) < 3 {
		claims = append(claims, fmt.Sprintf("a claim %d the opening never made", len(claims)+1))
	}
	var attacks []obj
	for _, c := range claims[:3] {
		attacks = append(attacks, obj{
			{"claim", c},
			{"why_it_fails", v.name + " finds the measurement was taken at a tenth of our load"},
			{"counter_evidence", "the vendor's own benchmark shows a knee at twice the load"},
		})
	}
	return obj{{"attacks", attacks}, {"conceded", []string{"the risks it names are real"}}}
}

func (v voice) compareJudge(prompt string) obj {
	options := listAfter(prompt, "OPTIONS, in the order")
	criteria := criteriaOf(prompt)
	if len(options) == 0 {
		return obj{{"recommendation", "none"}}
	}
	favour := append([]string(nil), options...)
	sort.Strings(favour)
	pick := favour[0]
	if strings.Contains(prompt, FavourFirstListed) || v.firstShown() {
		pick = options[0]
	}
	// A biased judge scores each option by what it reads of it: its true
	// quality, a bonus for its own model's work.
	score := map[string]int{}
	for _, o := range options {
		opening, _ := fenced(prompt, "opening for "+o)
		s := 3
		if q, ok := v.quality(opening); ok {
			s = q
		} else if o == pick {
			s = 4
		}
		score[o] = v.judged(s, opening)
	}
	if v.bias != nil && !v.firstShown() {
		for _, o := range favour {
			if score[o] > score[pick] {
				pick = o
			}
		}
	}
	var scores, conds, rebs []obj
	for _, o := range options {
		s := score[o]
		for _, c := range criteria {
			scores = append(scores, obj{
				{"criterion", c}, {"option", o}, {"score", s},
				{"justification", fmt.Sprintf("%s reads the case for %s on %s as %s", v.name, o, c, map[bool]string{true: "stronger", false: "adequate"}[o == pick])},
				{"more_convincing", pick},
			})
		}
		conds = append(conds, obj{{"option", o}, {"choose_if", []string{"the team already runs " + o, o + " fits the budget"}}})
		if strings.Contains(prompt, "REBUTTAL ANALYSIS") {
			rebs = append(rebs, obj{{"option", o}, {"effectiveness", s}, {"survived", []string{"the cost claim"}}, {"collapsed", []string{"the latency claim"}}})
		}
	}
	if rebs == nil {
		rebs = []obj{}
	}
	return obj{
		{"scores", scores},
		{"audit", []obj{{{"option", options[len(options)-1]}, {"kind", "unsupported"}, {"claim", "measured in production"}, {"detail", "no numbers were given"}}}},
		{"rebuttals", rebs},
		{"recommendation", pick},
		{"conditions", conds},
		{"open_questions", []string{"What is the real peak rate of order events?"}},
	}
}

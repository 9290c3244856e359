package judge

// The data of the prompt templates (prompts/).

type critLine struct{ Name, Share string }

// base is what every prompt knows.
type base struct {
	Task      string
	Solution  Solution
	Criteria  []critLine
	Rubric    []string
	N         int // the judge asked
	Judges    int
	Round     int
	MaxRounds int
}

func (r *run) base(n int) base {
	cs := make([]critLine, len(r.cfg.Criteria))
	for i, c := range r.cfg.Criteria {
		cs[i] = critLine{Name: c.Name, Share: trimFloat(Share(r.cfg.Criteria, i))}
	}
	return base{
		Task: r.cfg.Task, Solution: r.cfg.Solution, Criteria: cs, Rubric: Rubric,
		N: n, Judges: len(r.live()), Round: r.round, MaxRounds: r.cfg.MaxRounds,
	}
}

func (r *run) analysisPrompt(s *seat) base {
	b := r.base(s.n)
	b.Judges = len(r.seats)
	return b
}

type myScore struct {
	Name  string
	Score int
}

type otherReport struct{ Name, Report string }

type debatePrompt struct {
	base
	Mine     string
	MyScores []myScore
	Others   []otherReport
	Standing string
}

func (r *run) debatePrompt(s *seat, live []*seat, standing string) debatePrompt {
	p := debatePrompt{base: r.base(s.n), Mine: s.body(), Standing: standing}
	for i, v := range s.ints(r.cfg.Criteria) {
		p.MyScores = append(p.MyScores, myScore{Name: r.cfg.Criteria[i].Name, Score: v})
	}
	for _, o := range live {
		if o != s {
			p.Others = append(p.Others, otherReport{Name: o.name, Report: o.body()})
		}
	}
	return p
}

type judgeLists struct {
	Name                  string
	Strengths, Weaknesses []string
}

type synthesisPrompt struct {
	base
	Standing      string
	Reports       []judgeLists
	Disagreements []string
}

func (r *run) synthesisPrompt(live []*seat) synthesisPrompt {
	p := synthesisPrompt{base: r.base(live[0].n), Standing: r.standing(live), Disagreements: r.initialDisagreements()}
	for _, s := range live {
		p.Reports = append(p.Reports, judgeLists{Name: s.name, Strengths: s.analysis.Strengths, Weaknesses: s.analysis.Weaknesses})
	}
	return p
}

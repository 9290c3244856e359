package judge

import (
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/seating"
	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/inputs"
)

// Request is a judging as it is asked for (engine.Request): the
// solution (its files and directories, "-" for stdin, or its text), the
// task, the criteria, the judges. A mistake in one matches
// inputs.ErrInput.
type Request struct {
	Paths    []string `json:"paths,omitempty" arg:"all" about:"the solution's files or directories (directories are walked, honouring .gitignore)"`
	Solution string   `json:"solution,omitempty" about:"the solution as text (a diff, a document), instead of paths"`
	Task     string   `json:"task,omitempty" flag:"task" mcp:"required" help:"what the solution was supposed to accomplish (required)"`
	Criteria string   `json:"criteria,omitempty" flag:"criteria" help:"weighted criteria, e.g. \"correctness:30,design:25,security:20\""`
	Preset   string   `json:"preset,omitempty" flag:"preset" enum:"code,design,docs" help:"criteria preset: code (default), design or docs"`
	// Judges are the agents named for the judges' seats (nil for none).
	Judges []string `json:"judges,omitempty" flag:"judges" help:"judge agents, comma-separated (default: the usable challengers)" about:"judge agents (default: three usable ones other than the author)"`
	// Author is the agent that wrote the solution ("" when not said).
	Author string `json:"author,omitempty" flag:"author" help:"the agent that wrote the solution: it gets no judge seat by default" about:"the agent that wrote the solution: it gets no judge seat unless judges names it (default: the calling agent, when it is one of arena's agents)"`
	// ReportsDir is where each judge's report goes ("" for nowhere).
	ReportsDir string `json:"reports_dir,omitempty" flag:"reports-dir" help:"write each judge's report and a copy of the outcome here"`
	// MinScore is the lowest overall score that passes (nil: any).
	MinScore *float64 `json:"min_score,omitempty" flag:"min-score" help:"exit 5 when the consensus overall score is below this (1-5)"`
	MaxBytes int      `json:"max_bytes,omitempty" flag:"max-bytes" help:"bytes of the solution per prompt; the rest is cut, and said so"`
}

func newRequest() engine.Request { return &Request{MaxBytes: DefaultBudget} }

// Prepare reads the solution, checks the request and seats the judges.
func (r *Request) Prepare(s engine.Setup) (*engine.Prepared, error) {
	paths, stdin := r.Paths, s.Stdin
	if r.Solution != "" {
		if len(paths) > 0 {
			return nil, inputs.Errorf("give the solution as text or as paths, not both")
		}
		paths, stdin = []string{"-"}, strings.NewReader(r.Solution)
	}
	cfg, err := r.Config(paths, stdin, s.IncludeSecrets)
	if err != nil {
		return nil, err
	}
	if r.ReportsDir != "" {
		// Checked before anything else: a reports directory that cannot
		// hold the reports would fail every one of them after the judges'
		// work was paid for.
		d, err := trust.OpenDir(r.ReportsDir, true)
		if err != nil {
			return nil, inputs.Cause(err, "--reports-dir %s cannot hold the reports: %v", r.ReportsDir, err)
		}
		d.Close()
	}
	cfg.Timeout, cfg.MaxRounds = s.Timeout, s.MaxRounds
	if cfg.Judges, err = r.seats(s); err != nil {
		return nil, err
	}
	if r.ReportsDir != "" {
		cfg.Reports = NewReportFiles(r.ReportsDir, cfg.Solution.Name+"-"+time.Now().Format("2006-01-02"), len(cfg.Judges))
	}
	return &engine.Prepared{Protocol: New(cfg), Name: "judge " + cfg.Solution.Name}, nil
}

// seats picks the judges: those named, else the config's judge.judges,
// else three of the usable agents, leaving out the author, and the
// defender when the challengers alone fill the seats (Exclude).
func (r *Request) seats(s engine.Setup) ([]challengers.Agent, error) {
	named := r.Judges
	if named == nil && s.Roster.Config != nil {
		named, _ = s.Roster.Config(Name, "judges")
	}
	exclude, err := r.Exclude(s.Roster.Agents, s.Defender, s.Challengers, named != nil)
	if err != nil {
		return nil, err
	}
	p := s.Picker(Seating, exclude...)
	got, err := p.Pick(seating.Want{Key: "judges", Named: r.Judges, N: -1})
	if err != nil {
		return nil, err
	}
	if len(got[0]) < 2 {
		return nil, seating.Errorf("a judging needs at least two judges, got %d", len(got[0]))
	}
	if err := s.Quorum("judges", got[0], r.Author); err != nil {
		return nil, err
	}
	s.Shared(p)
	return got[0], nil
}

// Config is the judging of the solution at paths ("-": read from stdin),
// once the request is checked: the task, the criteria, the solution; its
// judges, rounds and timeout are the caller's to set.
func (r Request) Config(paths []string, stdin io.Reader, includeSecrets bool) (Config, error) {
	var cfg Config
	switch {
	case len(paths) == 0:
		return cfg, inputs.Needs(Spec, "the solution to judge (its files or directories, or - for stdin)")
	case strings.TrimSpace(r.Task) == "":
		return cfg, inputs.Errorf("--task is required: say what the solution was supposed to accomplish")
	case r.Criteria != "" && r.Preset != "":
		return cfg, inputs.Errorf("give either --criteria or --preset, not both")
	}
	var err error
	if cfg.Criteria, cfg.Preset, err = r.criteria(); err != nil {
		return cfg, err
	}
	if err := r.check(paths); err != nil {
		return cfg, err
	}
	sol, err := Load(paths, stdin, LoadOptions{Budget: r.MaxBytes, IncludeSecrets: includeSecrets})
	if err != nil {
		return cfg, inputs.Cause(err, "%s", strings.TrimPrefix(err.Error(), ErrInput.Error()+": "))
	}
	// What was skipped is said once, by the run (a warning on its bus, and
	// a line of the document), or by the dry run's account: a warning here
	// too made three (issue 32, point 8).
	cfg.ID = engine.Slug("judge "+sol.Name, 40)
	cfg.Task, cfg.Solution, cfg.Author = trust.Text(r.Task), sol, r.Author
	if r.MinScore != nil {
		cfg.MinScore = *r.MinScore
	}
	return cfg, nil
}

// check checks the rest of the request's flags, and the paths, before
// anything is read.
func (r Request) check(paths []string) error {
	switch {
	case r.MinScore != nil && !(*r.MinScore >= 1 && *r.MinScore <= 5): // NaN too
		return inputs.Errorf("--min-score must be from 1 to 5, got %s", strconv.FormatFloat(*r.MinScore, 'g', -1, 64))
	case r.MaxBytes < 1024:
		return inputs.Errorf("--max-bytes must be at least 1024, got %d", r.MaxBytes)
	case slices.Contains(paths, "-") && len(paths) > 1:
		return inputs.Errorf("read the solution from stdin (-) or from paths, not both")
	}
	return nil
}

// criteria are the criteria asked for, and the preset they came from
// ("" for --criteria): code unless said.
func (r Request) criteria() ([]Criterion, string, error) {
	if r.Criteria != "" {
		cs, err := ParseCriteria(trust.Text(r.Criteria))
		if err != nil {
			return nil, "", inputs.Errorf("--criteria: %w", err)
		}
		return cs, "", nil
	}
	name := r.Preset
	if name == "" {
		name = "code"
	}
	cs, ok := Presets[name]
	if !ok {
		return nil, "", inputs.Errorf("--preset %q: not a preset (choose %s)", r.Preset, strings.Join(PresetNames(), ", "))
	}
	return cs, name, nil
}

// Exclude checks that the author is an agent, and returns the agents the
// judges' seats must not go to: the author, even when the judges are
// named (named: by --judges or the config), for the picker still names a
// judge of its family; and when none are named, the defender, if the
// challengers other than the author fill the seats alone.
func (r Request) Exclude(agents map[string]challengers.Agent, defender string, challengers []string, named bool) ([]string, error) {
	if _, ok := agents[r.Author]; r.Author != "" && !ok {
		return nil, inputs.Errorf("--author: unknown agent %q", r.Author)
	}
	exclude := []string{r.Author}
	if named {
		return exclude, nil
	}
	others := 0
	for _, c := range challengers {
		if c != r.Author {
			others++
		}
	}
	if seat, _ := Seating.Seat("judges"); others >= seat.Default {
		exclude = append(exclude, defender)
	}
	return exclude, nil
}

package judge

import (
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/inputs"
)

// Request is a judging as the command line asks for it: its flags. A
// mistake in one matches inputs.ErrInput.
type Request struct {
	Task, Criteria, Preset string
	// Author is the agent that wrote the solution ("" when not said).
	Author string
	// Judges are the agents --judges names (nil for none).
	Judges []string
	// MinScore is the lowest overall score that passes, when
	// MinScoreGiven.
	MinScore      float64
	MinScoreGiven bool
	MaxBytes      int // bytes of the solution per prompt
	// IncludeSecrets sends files that look like secrets.
	IncludeSecrets bool
}

// Config is the judging of the solution at paths ("-": read from stdin),
// once the request is checked: the task, the criteria, the solution; its
// judges, rounds and timeout are the caller's to set.
func (r Request) Config(paths []string, stdin io.Reader) (Config, error) {
	var cfg Config
	switch {
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
	sol, err := Load(paths, stdin, LoadOptions{Budget: r.MaxBytes, IncludeSecrets: r.IncludeSecrets})
	if err != nil {
		return cfg, inputs.Cause(err, "%s", strings.TrimPrefix(err.Error(), ErrInput.Error()+": "))
	}
	// What was skipped is said once, by the run (a warning on its bus, and
	// a line of the document), or by the dry run's account: a warning here
	// too made three (issue 32, point 8).
	cfg.ID = engine.Slug("judge "+sol.Name, 40)
	cfg.Task, cfg.Solution, cfg.MinScore, cfg.Author = trust.Text(r.Task), sol, r.MinScore, r.Author
	return cfg, nil
}

// check checks the rest of the request's flags, and the paths, before
// anything is read.
func (r Request) check(paths []string) error {
	switch {
	case r.MinScoreGiven && !(r.MinScore >= 1 && r.MinScore <= 5): // NaN too
		return inputs.Errorf("--min-score must be from 1 to 5, got %s", strconv.FormatFloat(r.MinScore, 'g', -1, 64))
	case r.MaxBytes < 1024:
		return inputs.Errorf("--max-bytes must be at least 1024, got %d", r.MaxBytes)
	case len(paths) == 0:
		return inputs.Errorf("no solution given: name its files or directories, or - for stdin (see arena judge --help)")
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

package verdict

import (
	"os"
	"strings"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/seating"
	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/inputs"
)

// Request is a verdict as it is asked for (engine.Request): the work (its
// files, "-" for stdin, or its text), what it was for, and how to judge
// it.
type Request struct {
	Files     []string `json:"files,omitempty" arg:"all" about:"the files of the work to judge"`
	Work      string   `json:"work,omitempty" about:"the work as text (a diff, a report), instead of files"`
	TaskID    string   `json:"task_id,omitempty" flag:"task-id" mcp:"required" help:"what the work is for, as the log records it (an issue, a branch)"`
	Task      string   `json:"task,omitempty" flag:"task" help:"what the work had to do, for the judges"`
	Thorough  bool     `json:"thorough,omitempty" flag:"thorough" help:"ask the quick and deep judges in parallel, and the tiebreaker when they differ"`
	Sensitive bool     `json:"sensitive,omitempty" flag:"sensitive" help:"security- or compliance-critical work: always escalate to a human"`
	// Log is the verdict log to append to ("": the default).
	Log string `json:"log,omitempty" flag:"log" mcp:"-" help:"the verdict log to append to (default verdicts/verdicts.jsonl in the log directory)"`
	// QuickJudge, DeepJudge and Tiebreaker are the agents named for the
	// seats ("" for none).
	QuickJudge string `json:"quick_judge,omitempty" flag:"quick-judge" help:"agent for the quick judge's seat"`
	DeepJudge  string `json:"deep_judge,omitempty" flag:"deep-judge" help:"agent for the deep judge's seat"`
	Tiebreaker string `json:"tiebreaker,omitempty" flag:"tiebreaker" help:"agent for the tiebreaker judge's seat"`
	// The seats' timeouts as given ("" for the default, Timeouts').
	QuickTimeout      string `json:"quick_timeout,omitempty" flag:"quick-timeout" help:"the quick judge's timeout per call (default 30s)"`
	DeepTimeout       string `json:"deep_timeout,omitempty" flag:"deep-timeout" help:"the deep judge's timeout per call (default 1m0s)"`
	TiebreakerTimeout string `json:"tiebreaker_timeout,omitempty" flag:"tiebreaker-timeout" mcp:"-" help:"the tiebreaker judge's timeout per call (default 45s)"`
	// Author is the agent that wrote the work ("" when not known).
	Author string `json:"author,omitempty" flag:"author" help:"the agent that wrote the work: kept out of every seat it would hold" about:"the agent that wrote the work: kept out of every seat it would hold (default: the calling agent, when it is one of arena's agents)"`
}

func newRequest() engine.Request { return &Request{} }

// named is the agent named for m's seat, and timeout its timeout as given.
func (r Request) named(m Mode) string {
	return map[Mode]string{Quick: r.QuickJudge, Deep: r.DeepJudge, Tiebreaker: r.Tiebreaker}[m]
}

func (r Request) timeout(m Mode) string {
	return map[Mode]string{Quick: r.QuickTimeout, Deep: r.DeepTimeout, Tiebreaker: r.TiebreakerTimeout}[m]
}

// Prepare reads the work, seats the judges and checks the verdict log;
// once the run's log is known the run is the verdict of that log, its
// records appended to the verdict log.
func (r *Request) Prepare(s engine.Setup) (*engine.Prepared, error) {
	r.TaskID, r.Task = trust.Text(r.TaskID), trust.Text(r.Task) // shown and saved: no escapes of an argument
	if strings.TrimSpace(r.TaskID) == "" {
		return nil, inputs.Errorf("--task-id is required: name what the work is for (an issue, a branch), e.g. --task-id issue-18")
	}
	files, stdin := r.Files, s.Stdin
	if r.Work != "" {
		if len(files) > 0 {
			return nil, inputs.Errorf("give the work as text or as files, not both")
		}
		files, stdin = []string{"-"}, strings.NewReader(r.Work)
	}
	if len(files) == 0 {
		return nil, inputs.Needs(Spec, "the work to judge (its files, or - for a diff on stdin)")
	}
	work, err := inputs.Work(files, inputs.Options{Stdin: stdin, IncludeSecrets: s.IncludeSecrets})
	if err != nil {
		return nil, err
	}
	cfg, notes, err := Configure(s.Roster, *r, s.Warn)
	s.NoteSeats(notes...)
	if err != nil {
		return nil, err
	}
	if err := s.Quorum("judges", cfg.Seated(), strings.TrimSpace(r.Author)); err != nil {
		return nil, err
	}
	cfg.Work = work
	for _, n := range cfg.Notes {
		s.Warn(n)
	}
	prep := &engine.Prepared{Protocol: New(cfg), Name: "verdict " + r.TaskID}
	if s.DryRun {
		return prep, nil
	}
	vlog, err := LogPath(r.Log, s.LogDir, s.SaveLogs)
	if err != nil {
		return nil, inputs.Cause(err, "cannot append to the verdict log %v (choose another with --log PATH)", err)
	}
	prep.Logged = func(logPath string) engine.Protocol {
		cfg.ID = RunID(logPath, r.TaskID)
		p := New(cfg)
		sink := NewLogSink(vlog, p)
		if s.Resuming {
			sink.Resuming(s.Resumes)
		}
		prep.Record = func() any { return sink.Final() }
		prep.Warnings = func() []string {
			if err := sink.Err(); err != nil {
				return []string{err.Error()}
			}
			return nil
		}
		return WithLog(p, sink)
	}
	return prep, nil
}

// Configure is the verdict run req asks for, its judges seated from r
// (Seat) with their timeouts; warn is told what the person should know of
// the request, as it is found. notes are what the seating said, returned
// with an error too. The tiebreaker's note (TiebreakerNote) is in the
// config's Notes. A mistake in req matches inputs.ErrInput, a seat that
// cannot be filled seating.ErrSeat.
func Configure(r seating.Roster, req Request, warn func(string)) (cfg Config, notes []string, err error) {
	cfg = Config{
		TaskID: strings.TrimSpace(req.TaskID), Task: strings.TrimSpace(req.Task),
		Judges: map[Mode]challengers.Agent{}, Thorough: req.Thorough, Sensitive: req.Sensitive,
	}
	author := strings.TrimSpace(req.Author)
	if _, ok := r.Agents[author]; author != "" && !ok {
		return cfg, nil, inputs.Errorf("--author: unknown agent %q (known: %s)", author, strings.Join(known(r.Agents), ", "))
	}
	modes := []Mode{Quick, Deep}
	if req.Thorough {
		modes = append(modes, Tiebreaker)
	} else if req.Tiebreaker != "" {
		warn("--tiebreaker is used with --thorough only; without it no tiebreaker is asked")
	}
	named := map[Mode]string{}
	for _, m := range modes {
		named[m] = req.named(m)
	}
	judges, notes, err := Seat(r, Seats{Modes: modes, Named: named, Author: author})
	if err != nil {
		return cfg, notes, err
	}
	for i, m := range modes {
		ag := judges[i]
		ag.Timeout = Timeouts[m]
		if v := req.timeout(m); v != "" {
			if ag.Timeout, err = ParseSeatTimeout(v); err != nil {
				return cfg, notes, inputs.Errorf("--%s-timeout: %w", m, err)
			}
		}
		cfg.Judges[m] = ag
	}
	if msg := TiebreakerNote(cfg.Judges); msg != "" {
		cfg.Notes = append(cfg.Notes, msg)
	}
	return cfg, notes, nil
}

// CheckModes refuses flags of arena verdict that do not go together:
// modes are the other modes given (--schema, --stats, --install-hook,
// --uninstall-hook), files the work's (a run's own checks are its
// request's, Prepare). A refusal matches inputs.ErrInput.
func CheckModes(modes, files []string, force, installHook bool) error {
	if len(modes) > 1 {
		return inputs.Errorf("%s cannot be used together", strings.Join(modes, " and "))
	}
	if len(modes) == 1 {
		if len(files) > 0 {
			return inputs.Errorf("%s takes no files (got %s)", modes[0], strings.Join(files, " "))
		}
		if force && !installHook {
			return inputs.Errorf("--force goes with --install-hook only")
		}
		return nil
	}
	if force {
		return inputs.Errorf("--force goes with --install-hook only")
	}
	return nil
}

// StatsOf reads the verdict log at path (arena verdict --stats); a file
// that cannot be read as one is the person's mistake, matching
// inputs.ErrInput.
func StatsOf(path string) (Stats, error) {
	f, err := os.Open(path)
	if err != nil {
		return Stats{}, inputs.Errorf("--stats: %w", err)
	}
	defer f.Close()
	st, err := ReadStats(f)
	if err != nil {
		return st, inputs.Errorf("--stats %s: %w", path, err)
	}
	return st, nil
}

package verdict

import (
	"os"
	"strings"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/seating"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/inputs"
)

// Request is a verdict as the command line asks for it.
type Request struct {
	TaskID, Task        string
	Work                []engine.Doc
	Thorough, Sensitive bool
	// Author is the agent that wrote the work ("" when not known).
	Author string
	// Named are the agents the modes' flags name, and Timeouts the modes'
	// timeouts as given ("" for none, and the default).
	Named, Timeouts map[Mode]string
	// TiebreakerGiven says --tiebreaker was given, which without
	// Thorough asks no one.
	TiebreakerGiven bool
}

// Configure is the verdict run req asks for, its judges seated from r
// (Seat) with their timeouts; warn is told what the person should know of
// the request, as it is found. notes are what the seating said, returned
// with an error too. The tiebreaker's note (TiebreakerNote) is in the
// config's Notes. A mistake in req matches inputs.ErrInput, a seat that
// cannot be filled seating.ErrSeat.
func Configure(r seating.Roster, req Request, warn func(string)) (cfg Config, notes []string, err error) {
	cfg = Config{
		TaskID: strings.TrimSpace(req.TaskID), Task: strings.TrimSpace(req.Task), Work: req.Work,
		Judges: map[Mode]challengers.Agent{}, Thorough: req.Thorough, Sensitive: req.Sensitive,
	}
	author := strings.TrimSpace(req.Author)
	if _, ok := r.Agents[author]; author != "" && !ok {
		return cfg, nil, inputs.Errorf("--author: unknown agent %q (known: %s)", author, strings.Join(known(r.Agents), ", "))
	}
	modes := []Mode{Quick, Deep}
	if req.Thorough {
		modes = append(modes, Tiebreaker)
	} else if req.TiebreakerGiven {
		warn("--tiebreaker is used with --thorough only; without it no tiebreaker is asked")
	}
	judges, notes, err := Seat(r, Seats{Modes: modes, Named: req.Named, Author: author})
	if err != nil {
		return cfg, notes, err
	}
	for i, m := range modes {
		ag := judges[i]
		ag.Timeout = Timeouts[m]
		if v := req.Timeouts[m]; v != "" {
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
// --uninstall-hook), files the work's, taskID --task-id's. A refusal
// matches inputs.ErrInput.
func CheckModes(modes, files []string, force, installHook bool, taskID string) error {
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
	if strings.TrimSpace(taskID) == "" {
		return inputs.Errorf("--task-id is required: name what the work is for (an issue, a branch), e.g. --task-id issue-18")
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

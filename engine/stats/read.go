// Package stats reads arena's logs, across runs, for how each model judges:
// as a judge (its agreement with the rest of the panel, how often its
// preferences flip when the order changes, how often it picks the
// candidate shown first, how much it favours its own model's work, how
// its scores follow the length of what it read, how often it moves in a
// debate without new evidence, how it agrees with a person's own verdict),
// as a seat (calls, failures, repairs, latency, tokens, cost) and as an
// author (a Bradley–Terry rating from the results of the runs whose
// candidates' authors are known).
//
// Logs are hostile data: they are read only through the engine's log
// reader (runlog.ScanFile, as a stream), which cleans every string of
// them; a directory's logs are opened beneath it (trust.OpenRoot). Every figure carries the count it rests on, and none is shown from
// fewer than MinCases cases.
package stats

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/inputs"
	"github.com/arenadebate/arena/engine/runlog"
	"github.com/arenadebate/arena/engine/verdict"
)

// Run is what stats takes from one log.
type Run struct {
	Path     string
	Started  time.Time
	Protocol string
	Scored   []engine.Scored
	Placed   *engine.Placed
	Ledgers  []engine.DebateLedger
	// Label is the person's word on the run: the latest arena label, or
	// the moderator's explicit override during it (nil: none).
	Label *engine.Label
	Calls []Call
	// Result is how the run ended, as its last outcome says ("" when it
	// has none).
	Result engine.OutcomeKind
	// Verdicts are a verdict run's judges' parsed judgements, by seat
	// (quick, deep, tiebreaker), in the order they replied.
	Verdicts []VerdictReading
	// Families are the vendor families of the agents, by name, as the
	// log's start says them (nil in older logs).
	Families map[string]string
	// Problem says where a damaged log ends ("" when whole).
	Problem string
	// Contradiction names the events that contradict the run, which were
	// left out ("" when none: runlog.Contents.Contradiction).
	Contradiction string
}

// Call is one agent call of a run.
type Call struct {
	Agent       string
	Duration    time.Duration
	Failed      challengers.Reason // "" when the agent replied
	Unparseable bool               // it replied, but the reply did not parse
	Repair      bool               // the call was a repair request
	Usage       *challengers.Usage
}

// Filter selects runs.
type Filter struct {
	Since     time.Time // runs started before it are left out (zero: none)
	Protocols []string  // only these protocols (nil: every one)
}

// Skipped is a file that was not read as a log, and why.
type Skipped struct {
	Path string `json:"path"`
	Why  string `json:"why"`
}

// ErrNoSuchPath is returned for a path that does not exist.
var ErrNoSuchPath = errors.New("no such file or directory")

// Read reads the runs of the logs at paths: files, or directories whose
// *.jsonl files are read (not their subdirectories). A file that is not an
// arena log, or cannot be read, is skipped and named; a run the filter
// leaves out is not returned. Runs come in the order they started.
func Read(paths []string, f Filter) (runs []Run, logs int, skipped []Skipped, err error) {
	var files []logFile
	named := map[string]bool{} // logs named on their own, not found in a directory
	for _, p := range paths {
		st, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, 0, nil, fmt.Errorf("%s: %w", p, ErrNoSuchPath)
		}
		if err != nil {
			return nil, 0, nil, err
		}
		if !st.IsDir() {
			files, named[p] = append(files, logFile{path: p}), true
			continue
		}
		// A directory's logs are read beneath it: a link among them (to
		// a file elsewhere) is named, not followed.
		root, err := trust.OpenRoot(p)
		if err != nil {
			return nil, 0, nil, err
		}
		defer root.Close()
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, 0, nil, err
		}
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".jsonl") {
				files = append(files, logFile{path: filepath.Join(p, e.Name()), root: root, name: e.Name()})
			}
		}
	}
	for _, lf := range files {
		path := lf.path
		c := newCollector(path)
		lc, err := lf.scan(c.add) // as a stream: a log's size costs no memory
		if err != nil && named[path] {
			// A log named on its own must be one; only what a directory
			// holds besides logs is skipped.
			if !strings.HasPrefix(err.Error(), path) {
				err = fmt.Errorf("%s: %w", path, err)
			}
			return nil, 0, nil, err
		}
		if err != nil {
			skipped = append(skipped, Skipped{Path: path, Why: err.Error()})
			continue
		}
		logs++
		r := c.done(lc)
		if !f.Since.IsZero() && r.Started.Before(f.Since) {
			continue
		}
		if f.Protocols != nil && !slices.Contains(f.Protocols, r.Protocol) {
			continue
		}
		runs = append(runs, r)
	}
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].Started.Before(runs[j].Started) })
	return runs, logs, skipped, nil
}

// logFile is a log to read: one a person named (path), or one of a
// directory's (name, beneath root).
type logFile struct {
	path string
	root *trust.Dir
	name string
}

// scan reads the log as a stream, each event handed to fn.
func (lf logFile) scan(fn func(engine.Event)) (runlog.Contents, error) {
	if lf.root == nil {
		return runlog.ScanFile(lf.path, fn)
	}
	f, err := lf.root.Open(lf.name)
	if err != nil {
		return runlog.Contents{}, err
	}
	defer f.Close()
	return runlog.Scan(f, fn)
}

// RunOf collects what stats needs of a log's events.
func RunOf(path string, lc runlog.Contents) Run {
	c := newCollector(path)
	for _, e := range lc.Events {
		c.add(e)
	}
	return c.done(lc)
}

// collector gathers what stats needs of a log's events, one at a time.
type collector struct {
	r        Run
	last     map[string]reply // per seat: its last reply, to tell a repair request
	inFlight map[string]bool  // per seat: whether its call in flight is a repair request
}

// reply is what a repair request is told by.
type reply struct {
	unparseable bool
	phase       engine.Phase
	round       int
	task        engine.Task
	attempt     int
}

func newCollector(path string) *collector {
	return &collector{r: Run{Path: path}, last: map[string]reply{}, inFlight: map[string]bool{}}
}

// done is the run, once every event was added.
func (c *collector) done(lc runlog.Contents) Run {
	c.r.Problem, c.r.Contradiction = lc.Problem, lc.Contradiction()
	return c.r
}

func (c *collector) add(e engine.Event) {
	r := &c.r
	switch p := e.Payload.(type) {
	case engine.DebateStarted:
		r.Started, r.Protocol, r.Families = e.Time, p.Protocol, p.Families
	case engine.AgentStarted:
		prev, ok := c.last[p.Seat]
		c.inFlight[p.Seat] = ok && prev.unparseable && prev.task == p.Task && prev.phase == p.Phase &&
			prev.round == p.Round && p.Attempt == prev.attempt+1
	case engine.AgentFinished:
		c.last[p.Seat] = reply{unparseable: p.Unparseable, phase: p.Phase, round: p.Round, task: p.Task, attempt: p.Attempt}
		if r.Protocol == verdict.Name && p.Task == verdict.TaskJudge {
			c.verdictReading(p)
		}
		if p.Reused {
			return // a resumed run's copy of a reply the log holds
		}
		r.Calls = append(r.Calls, Call{Agent: p.Agent, Duration: p.Duration.D(), Unparseable: p.Unparseable,
			Repair: c.inFlight[p.Seat], Usage: p.Usage})
	case engine.AgentFailed:
		delete(c.last, p.Seat)
		r.Calls = append(r.Calls, Call{Agent: p.Agent, Duration: p.Duration.D(), Failed: p.Reason, Repair: c.inFlight[p.Seat]})
	case engine.Scored:
		r.Scored = append(r.Scored, p)
	case engine.Outcome:
		r.Result = p.Result
	case engine.Placed:
		r.Placed = &p
	case engine.DebateLedger:
		r.Ledgers = append(r.Ledgers, p)
	case engine.Label:
		r.Label = &p
	case engine.ModeratorNote:
		if l, ok := ModeratorLabel(p.Text); ok {
			r.Label = &l
		}
	}
}

// Candidates are the IDs of the candidates of a run, sorted.
func (r Run) Candidates() []string {
	var out []string
	add := func(id string) {
		if id != "" && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	if r.Placed != nil {
		for _, c := range r.Placed.Candidates {
			add(c.ID)
		}
	}
	for _, s := range r.Scored {
		for _, c := range s.Candidates {
			add(c.ID)
		}
	}
	sort.Strings(out)
	return out
}

// ParseSince reads --since: a date, an RFC 3339 time, or an age in days
// or any Go duration ("7d", "36h") before now. One that does not read is
// the person's mistake, matching inputs.ErrInput.
func ParseSince(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.ParseInLocation(time.DateOnly, s, time.Local); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if d, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.Atoi(d); err == nil && n >= 0 {
			return now.AddDate(0, 0, -n), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, inputs.Errorf("--since %q: give a date (2026-01-31), a time (2026-01-31T15:00:00Z) or an age (7d, 36h)", trust.Text(s))
}

// VerdictReading is one judge's judgement in a verdict run, as arena
// parsed it.
type VerdictReading struct {
	Seat, Agent string
	Judgement   verdict.Judgement
}

// verdictReading keeps a verdict judge's parsed reply, the latest of its
// seat; one whose scores are not each 1 to 5 (a hand-edited log) is left
// out.
func (c *collector) verdictReading(p engine.AgentFinished) {
	var j verdict.Judgement
	if len(p.Reply) == 0 || json.Unmarshal(p.Reply, &j) != nil {
		return
	}
	for _, v := range []int{j.Scores.Semantic, j.Scores.Pragmatic, j.Scores.Syntactic} {
		if v < 1 || v > 5 {
			return
		}
	}
	r := &c.r
	r.Verdicts = slices.DeleteFunc(r.Verdicts, func(v VerdictReading) bool { return v.Seat == p.Seat })
	r.Verdicts = append(r.Verdicts, VerdictReading{Seat: p.Seat, Agent: p.Agent, Judgement: j})
}

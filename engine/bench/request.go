package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/arenadebate/arena/challengers/seating"
	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/doc"
	"github.com/arenadebate/arena/engine/inputs"
	"github.com/arenadebate/arena/engine/judge"
)

// Request is what arena bench is asked: a file of labelled pairs, the
// panel, how many times each order is asked, and where the results go.
type Request struct {
	File    string
	Judges  []string // nil: arena judge's panel (the config's, else the pool's)
	Repeats int
	// Results is the results file ("": in the setup's ResultsDir, named
	// after the benchmark file and its content): each answered call is appended as
	// it comes, and a run with the same file carries on from it.
	Results string
}

// Setup is what a benchmark run is prepared with: the person's settings.
type Setup struct {
	Roster      seating.Roster
	MinFamilies int
	Timeout     time.Duration
	// ResultsDir is where a results file nobody named goes.
	ResultsDir string
	Budget     engine.Budget
	Env        []string
	Run        engine.RunFunc
	// Progress is told how many calls are done of how many, as they are.
	Progress func(done, total int)
}

// resultsHeader opens a results file, naming what it holds results of.
type resultsHeader struct {
	Bench  int    `json:"arena_bench"`
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
	Layout string `json:"layout"`
}

// Outcome is what a benchmark run came to: its figures, how it ended,
// and where its results are.
type Outcome struct {
	Report  Report
	Run     engine.Outcome
	Results string
}

// Run reads the file, seats the panel, and asks every call its results
// file does not hold yet, within the budget. A mistake in the request
// matches inputs.ErrInput, a panel that cannot be seated seating.ErrSeat,
// one of too few vendor families seating.ErrFamilies.
func (r Request) Run(ctx context.Context, s Setup) (Outcome, error) {
	if r.Repeats < 0 || r.Repeats > MaxRepeats {
		return Outcome{}, inputs.Errorf("--repeats %d: each order can be asked 1 to %d times", r.Repeats, MaxRepeats)
	}
	set, err := Read(r.File)
	if err != nil {
		return Outcome{}, err
	}
	got, err := seating.New(judge.Seating, s.Roster).Pick(seating.Want{Key: "judges", Named: r.Judges, N: -1})
	if err != nil {
		return Outcome{}, err
	}
	judges := got[0]
	for i := range judges {
		judges[i].Timeout = s.Timeout
	}
	if err := seating.Quorum(s.MinFamilies, "judges", judges, nil); err != nil {
		return Outcome{}, err
	}
	head := resultsHeader{Bench: 1, File: filepath.Base(r.File), SHA256: set.SHA256, Layout: set.Layout}
	path := r.Results
	if path == "" {
		path = filepath.Join(s.ResultsDir, fmt.Sprintf("bench-%s-%s.jsonl", engine.Slug(strings.TrimSuffix(head.File, filepath.Ext(head.File)), 30), head.SHA256[:12]))
	}
	done, f, err := openResults(path, head)
	if err != nil {
		return Outcome{}, err
	}
	defer f.Close()
	cfg := Config{
		File: head.File, Set: set, Judges: judges, Repeats: r.Repeats, Timeout: s.Timeout, Done: done, Progress: s.Progress,
		Answered: func(res Result) error {
			b, err := json.Marshal(res)
			if err != nil {
				return err
			}
			_, err = f.Write(append(b, '\n'))
			return err
		},
	}
	p := New(cfg)
	out := engine.Run(ctx, p, engine.NewBus(), engine.Options{Env: s.Env, Run: s.Run, Budget: s.Budget, Agents: s.Roster.Agents})
	rep := Score(set, p.Results(), judges, cfg.repeats())
	return Outcome{Report: rep, Run: out, Results: path}, nil
}

// openResults opens the results file at path for appending, and returns
// the results it holds: a new file starts with head; an existing one
// must be arena bench's, of the same benchmark file's content.
func openResults(path string, head resultsHeader) ([]Result, *os.File, error) {
	data, err := trust.ReadFile(path, 1<<30)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		f, err := trust.OpenAppend(path, true)
		if err != nil {
			return nil, nil, inputs.Cause(err, "results file %v", err)
		}
		b, _ := json.Marshal(head)
		if _, err := f.Write(append(b, '\n')); err != nil {
			f.Close()
			return nil, nil, err
		}
		return nil, f, nil
	case err != nil:
		return nil, nil, inputs.Cause(err, "results file %v", err)
	}
	lines := bytes.Split(data, []byte("\n"))
	var got resultsHeader
	if json.Unmarshal(lines[0], &got) != nil || got.Bench != 1 {
		return nil, nil, inputs.Errorf("results file %s: not arena bench's results; name another with --results", trust.Text(path))
	}
	if got.SHA256 != head.SHA256 {
		return nil, nil, inputs.Errorf("results file %s: holds the results of another benchmark file's content (%s); name another with --results", trust.Text(path), trust.Text(got.File))
	}
	var done []Result
	for _, l := range lines[1:] {
		var r Result
		if len(bytes.TrimSpace(l)) == 0 || json.Unmarshal(l, &r) != nil {
			continue // a line cut off by a kill: asked again
		}
		done = append(done, r)
	}
	f, err := trust.OpenAppend(path, false)
	if err != nil {
		return nil, nil, inputs.Cause(err, "results file %v", err)
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		f.Write([]byte("\n")) // after a line cut off
	}
	return done, f, nil
}

// Document is the benchmark run's outcome document: its figures, what
// stopped it and how to carry on, and what each agent cost.
func (o Outcome) Document() doc.Document {
	d := o.Report.Document()
	d.Result, d.Summary = engine.ResultWords(o.Run.Result), o.Report.Summary()
	d.Facts = append(d.Facts, doc.Fact{Name: "Results file", Value: trust.Text(o.Results)})
	again := "run the same command again to ask only the calls left; the answers so far are in " + trust.Text(o.Results)
	switch o.Run.Result {
	case engine.OutcomeOverBudget:
		d.Notices = append(d.Notices, doc.Notice{Label: "Over budget", Text: o.Run.Summary + ". With a higher --max-cost, " + again + "."})
	case engine.OutcomeInterrupted:
		d.Notices = append(d.Notices, doc.Notice{Label: "Interrupted", Text: "Calls already answered are kept: " + again + "."})
	case engine.OutcomeAborted:
		d.Notices = append(d.Notices, doc.Notice{Label: "Calls failed", Text: "Some calls failed: " + again + "."})
	}
	if rd := o.Run.Document; rd != nil {
		for _, s := range rd.Sections {
			if s.ID == doc.SectionCosts {
				d.Sections = append(d.Sections, s)
			}
		}
	}
	return d
}

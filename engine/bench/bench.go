package bench

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/shape"
	"github.com/arenadebate/arena/engine"
)

// ShapeJudge is the reply shape of a bench judge's pick.
const ShapeJudge = "bench.judge"

// PhaseJudge is the one phase of a benchmark run.
const PhaseJudge engine.Phase = "judge"

// OutcomeScored ends a benchmark run that asked every call.
const OutcomeScored engine.OutcomeKind = "scored"

// MaxRepeats bounds --repeats.
const MaxRepeats = 10

// Workers is how many calls a benchmark run has in flight at once.
const Workers = 4

// Call is one judge's reading of one pair in one order, one asking of it.
type Call struct {
	Pair  string `json:"pair"`
	Judge string `json:"judge"`
	// Swapped: the file's answer B was shown first, under the label A.
	Swapped bool `json:"swapped"`
	Repeat  int  `json:"repeat"`
}

// Result is a call answered: the pick in the file's terms (LabelA, LabelB,
// LabelTie) and in the order shown ("first", "second", "tie").
type Result struct {
	Call
	Pick  string `json:"pick"`
	Shown string `json:"shown"`
}

// Config is one benchmark run.
type Config struct {
	// File names the benchmark file, for the start event and the report.
	File    string
	Set     Set
	Judges  []challengers.Agent
	Repeats int
	Timeout time.Duration
	// Done are the calls an earlier run answered (the results file's):
	// not asked again.
	Done []Result
	// Answered is told each call answered, as it is (the results file
	// appends it); Progress how many calls are done of how many.
	Answered func(Result) error
	Progress func(done, total int)
}

func (c Config) repeats() int { return max(c.Repeats, 1) }

// Calls are every call the run asks, in order: pair by pair, judge by
// judge, the file's order then the swapped one, each asking.
func (c Config) Calls() []Call {
	var out []Call
	for _, p := range c.Set.Pairs {
		for _, j := range c.Judges {
			for _, swapped := range []bool{false, true} {
				for rep := range c.repeats() {
					out = append(out, Call{Pair: p.ID, Judge: j.Name, Swapped: swapped, Repeat: rep})
				}
			}
		}
	}
	return out
}

// Protocol is a benchmark run, for engine.Run.
type Protocol struct {
	cfg     Config
	mu      sync.Mutex
	results []Result
}

// New is the benchmark run of cfg.
func New(cfg Config) *Protocol {
	return &Protocol{cfg: cfg, results: append([]Result(nil), cfg.Done...)}
}

// Results are the calls answered so far, the earlier run's first.
func (p *Protocol) Results() []Result {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Result(nil), p.results...)
}

// Start is the run's first event.
func (p *Protocol) Start() engine.DebateStarted {
	st := engine.DebateStarted{
		ID: engine.Slug("bench "+p.cfg.File, 40), Protocol: "bench", Title: "Benchmark", Noun: "benchmark",
		Topic:    fmt.Sprintf("%s (%s, %d pairs)", p.cfg.File, p.cfg.Set.Layout, len(p.cfg.Set.Pairs)),
		Timeout:  engine.Duration(p.cfg.Timeout),
		Phases:   []engine.PhaseInfo{{Phase: PhaseJudge, Title: "Judges"}, {Phase: engine.PhaseOutcome, Title: "Outcome"}},
		Settings: []engine.Setting{{Name: "layout", Value: p.cfg.Set.Layout}, {Name: "repeats", Value: fmt.Sprint(p.cfg.repeats())}},
	}
	for _, j := range p.cfg.Judges {
		st.Seats = append(st.Seats, engine.Seat{Name: j.Name, Agent: j.Name, Role: "judge"})
		st.Agents = append(st.Agents, engine.InfoOf(j))
	}
	return st
}

// Run asks every call not yet answered, Workers at a time, and scores the
// panel on every answer.
func (p *Protocol) Run(ctx context.Context, rt *engine.Runtime) engine.Outcome {
	done := map[Call]bool{}
	for _, r := range p.cfg.Done {
		done[r.Call] = true
	}
	pairs := map[string]Pair{}
	for _, pr := range p.cfg.Set.Pairs {
		pairs[pr.ID] = pr
	}
	judges := map[string]challengers.Agent{}
	for _, j := range p.cfg.Judges {
		judges[j.Name] = j
	}
	all := p.cfg.Calls()
	var todo []Call
	for _, c := range all {
		if !done[c] {
			todo = append(todo, c)
		}
	}
	total, n := len(all), len(all)-len(todo)
	p.progress(n, total)
	queue := make(chan Call)
	var wg sync.WaitGroup
	var failed []string
	for range min(Workers, max(len(todo), 1)) {
		wg.Go(func() {
			for c := range queue {
				a := rt.Ask(ctx, p.question(c, pairs[c.Pair], judges[c.Judge]))
				if !a.OK() {
					if !a.Cancelled {
						p.mu.Lock()
						failed = append(failed, fmt.Sprintf("%s on %s", c.Judge, c.Pair))
						p.mu.Unlock()
					}
					continue
				}
				r := result(c, a.Reply.(Pick))
				p.mu.Lock()
				p.results = append(p.results, r)
				n++
				err := p.answered(r)
				p.progress(n, total)
				p.mu.Unlock()
				if err != nil {
					rt.Note(engine.NoteError, "a result was not saved: %v", err)
				}
			}
		})
	}
feed:
	for _, c := range todo {
		select {
		case queue <- c:
		case <-ctx.Done():
			break feed
		}
	}
	close(queue)
	wg.Wait()
	out := engine.Outcome{Result: OutcomeScored}
	switch {
	case ctx.Err() != nil:
		out.Result = engine.OutcomeInterrupted
	case len(failed) > 0:
		out.Result = engine.OutcomeAborted
	}
	rep := Score(p.cfg.Set, p.Results(), p.cfg.Judges, p.cfg.repeats())
	rep.Failed = failed
	d := rep.Document()
	out.Document, out.Summary = &d, rep.Summary()
	return out
}

func (p *Protocol) progress(done, total int) {
	if p.cfg.Progress != nil {
		p.cfg.Progress(done, total)
	}
}

func (p *Protocol) answered(r Result) error {
	if p.cfg.Answered == nil {
		return nil
	}
	return p.cfg.Answered(r)
}

// result is a call's pick in the file's terms.
func result(c Call, pk Pick) Result {
	r := Result{Call: c, Shown: string(pk)}
	switch {
	case pk == PickTie:
		r.Pick = LabelTie
	case (pk == PickFirst) != c.Swapped:
		r.Pick = LabelA
	default:
		r.Pick = LabelB
	}
	return r
}

// question is a call as the judge reads it: the answers under the neutral
// labels A and B, the file's B first when swapped.
func (p *Protocol) question(c Call, pr Pair, judge challengers.Agent) engine.Question {
	first, second := pr.A, pr.B
	if c.Swapped {
		first, second = second, first
	}
	seat := judge.Name + ", " + pr.ID
	if c.Swapped {
		seat += ", swapped"
	}
	if c.Repeat > 0 {
		seat += fmt.Sprintf(", repeat %d", c.Repeat+1)
	}
	var b strings.Builder
	b.WriteString("You are judging which of two answers to a question is better: the one that is correct, and, if both are or neither is, the one that answers the question better. Judge the content only: not the order, not the length.\n\n")
	fmt.Fprintf(&b, "=== QUESTION ===\n%s\n\n=== ANSWER A ===\n%s\n\n=== ANSWER B ===\n%s\n\n", pr.Question, first, second)
	b.WriteString("REQUIRED RESPONSE FORMAT\n" + shape.Tag(ShapeJudge) + "\n")
	b.WriteString("Reply with one JSON object and nothing else: {\"reasoning\": \"a few sentences\", \"winner\": \"A\" | \"B\" | \"tie\"}\n")
	return engine.Question{
		Seat: seat, Agent: judge, Role: "judge", Phase: PhaseJudge, Round: 1,
		Shape: ShapeJudge, Prompt: b.String(), Retries: 1, Parse: ParsePick,
	}
}

// Pick is a judge's pick in the order shown.
type Pick string

// The picks.
const (
	PickFirst  Pick = "first"
	PickSecond Pick = "second"
	PickTie    Pick = "tie"
)

// Display is the pick as a reply reads.
func (p Pick) Display() string {
	switch p {
	case PickFirst:
		return "**Winner:** A (shown first)"
	case PickSecond:
		return "**Winner:** B (shown second)"
	}
	return "**Winner:** tie"
}

// Badge is the pick's badge.
func (p Pick) Badge() (string, engine.Stance) { return string(p), engine.StanceNeutral }

// ParsePick reads a bench judge's reply.
func ParsePick(text string) (engine.Reply, error) {
	return engine.ParseObject(text, []string{"winner"}, func(f engine.Fields) (engine.Reply, error) {
		w, err := f.Enum("winner", "A", "B", "tie", "a", "b", "TIE", "Tie")
		if err != nil {
			return nil, err
		}
		switch strings.ToLower(w) {
		case "a":
			return PickFirst, nil
		case "b":
			return PickSecond, nil
		}
		return PickTie, nil
	})
}

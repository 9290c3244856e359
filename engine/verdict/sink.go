package verdict

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine"
)

// LogSink appends each judge's verdict, then the final record, to the
// verdict log as they pass on the run's bus.
type LogSink struct {
	path   string // "" writes nothing; Final is still kept
	cfg    Config
	p      *Protocol
	models map[string]string
	mu     sync.Mutex
	err    error
	final  Final
	// resumes is the run id of the run this one resumes ("": none).
	resumes string
}

// NewLogSink is the verdict log at path ("" for none) of run p.
func NewLogSink(path string, p *Protocol) *LogSink {
	return &LogSink{path: path, cfg: p.cfg, p: p, models: modelNames(p.cfg.Judges)}
}

// Resuming makes the sink write a resumed run's records: the earlier
// part's, its final one among them when it was interrupted or aborted,
// are in the verdict log under the run's id, so the resumed part writes
// its own under an id of its own (the earlier id, "-resumed", and its
// number from the second resume on), and no run id has two final records.
func (v *LogSink) Resuming(earlier []engine.Event) {
	n := 1
	for _, e := range earlier {
		if e.Kind() == engine.KindResumed {
			n++
		}
	}
	v.resumes = v.cfg.ID
	v.cfg.ID += "-resumed"
	if n > 1 {
		v.cfg.ID += fmt.Sprintf("-%d", n)
	}
}

// WithLog is p with sink on its bus from before the first judge is asked.
func WithLog(p *Protocol, sink *LogSink) engine.Protocol { return logged{p, sink} }

type logged struct {
	*Protocol
	log *LogSink
}

func (l logged) Run(ctx context.Context, rt *engine.Runtime) engine.Outcome {
	rt.Bus.Subscribe(l.log)
	return l.Protocol.Run(ctx, rt)
}

// Handle takes one event of the run.
func (v *LogSink) Handle(e engine.Event) {
	switch p := e.Payload.(type) {
	case engine.AgentFinished:
		v.judged(p, e)
	case engine.Outcome:
		v.finished(p, e)
	}
}

// judged appends a judge's verdict.
func (v *LogSink) judged(p engine.AgentFinished, e engine.Event) {
	m := Mode(p.Seat)
	if p.Reply == nil || !slices.Contains([]Mode{Quick, Deep, Tiebreaker}, m) {
		return
	}
	var j Judgement
	if err := json.Unmarshal(p.Reply, &j); err != nil {
		v.fail(fmt.Errorf("verdict log: reading the %s judge's reply: %w", m, err))
		return
	}
	model := v.models[p.Agent]
	if p.Usage != nil && p.Usage.Model != "" { // the stream said which model ran
		model = p.Agent + "/" + p.Usage.Model
	}
	v.append(NewRecord(v.cfg.TaskID, v.cfg.ID, model, m, j, e.Time))
}

// finished appends the final record.
func (v *LogSink) finished(p engine.Outcome, e engine.Event) {
	res := v.p.Result()
	reached := res.Reason
	if reached == "" {
		reached = p.Summary
	}
	if v.resumes != "" {
		reached += " (resumed from run " + v.resumes + ")"
	}
	fin := Final{
		TaskID: v.cfg.TaskID, RunID: v.cfg.ID, Mode: ModeFinal, Verdict: string(p.Result),
		Reached: reached, Calls: res.Calls, Sensitive: v.cfg.Sensitive, Failures: p.Failures,
		DebateLog: p.LogPath, Timestamp: Timestamp(e.Time),
	}
	v.mu.Lock()
	v.final = fin
	v.mu.Unlock()
	if res.Calls == 0 && p.LogPath == "" {
		return // no judge was asked (a CLI is missing): no gate ran, and nothing is written
	}
	v.append(fin)
}

func (v *LogSink) append(rec any) {
	if v.path == "" {
		return
	}
	if err := Append(v.path, rec); err != nil {
		v.fail(err)
	}
}

func (v *LogSink) fail(err error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.err = errors.Join(v.err, err)
}

// Err is what went wrong writing the log; read it after the run.
func (v *LogSink) Err() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.err
}

// Final is the run's final record, once its outcome has passed.
func (v *LogSink) Final() Final {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.final
}

// modelNames are the log's "model" for each agent: the agent, and the
// model its command line chooses where it names one (--model X, -m X),
// or an API agent's model.
func modelNames(judges map[Mode]challengers.Agent) map[string]string {
	out := map[string]string{}
	for _, a := range judges {
		name := a.Name
		if a.IsAPI() {
			name += "/" + a.Model
		}
		argv := append(slices.Clone(a.Command), a.Args...)
		for i, arg := range argv {
			if v, ok := strings.CutPrefix(arg, "--model="); ok {
				name = a.Name + "/" + v
			} else if (arg == "--model" || arg == "-m") && i+1 < len(argv) && !strings.HasPrefix(argv[i+1], "{") {
				name = a.Name + "/" + argv[i+1]
			}
		}
		out[a.Name] = name
	}
	return out
}

// TiebreakerNote says, when the tiebreaker of a thorough run is a model of
// the same vendor family as the quick or the deep judge's (however it is
// reached: a CLI, an API), that its view is not independent ("" when it
// is, or when there is no tiebreaker).
func TiebreakerNote(judges map[Mode]challengers.Agent) string {
	tb, ok := judges[Tiebreaker]
	if !ok {
		return ""
	}
	tie := challengers.Family(tb)
	for _, m := range []Mode{Quick, Deep} {
		if j, ok := judges[m]; ok && challengers.Family(j) == tie {
			return fmt.Sprintf("the tiebreaker %s is from the same family (%s) as the %s judge %s: name one from a different family with --tiebreaker for an independent view",
				tb.Name, tie, m, j.Name)
		}
	}
	return ""
}

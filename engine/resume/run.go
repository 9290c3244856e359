package resume

import (
	"fmt"
	"slices"
	"strings"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
)

// Latest is the latest run of a listing of n logs (newest first, log(i)
// the glance of the i-th) that can be resumed: interrupted, aborted or
// over budget, and not being written. Only the logs up to it are read.
func Latest(n int, log func(int) runlog.Summary) (runlog.Summary, bool) {
	for i := range n {
		l := log(i)
		if l.Started.IsZero() || l.Writing {
			continue // unreadable, or a run going on
		}
		if l.Result == "" || l.Result.Resumable() {
			return l, true
		}
	}
	return runlog.Summary{}, false
}

// Swap reads --seat SEAT=AGENT specs: SEAT names a seat of the run, or an
// agent holding seats; AGENT one of agents. It returns the new agent of
// each seat or agent named, and the settings the resumed run changes.
func Swap(start engine.DebateStarted, specs []string, agents map[string]challengers.Agent) (map[string]challengers.Agent, []engine.Setting, error) {
	var swap map[string]challengers.Agent
	var changed []engine.Setting
	for _, spec := range specs {
		seat, agent, ok := strings.Cut(spec, "=")
		seat, agent = strings.TrimSpace(seat), strings.TrimSpace(agent)
		if !ok || seat == "" || agent == "" {
			return nil, nil, fmt.Errorf("--seat %q: want SEAT=AGENT, e.g. --seat codex=qwen", spec)
		}
		if !slices.ContainsFunc(start.Seats, func(st engine.Seat) bool { return st.Name == seat || st.Agent == seat }) {
			var names []string
			for _, st := range start.Seats {
				names = append(names, st.Name)
			}
			return nil, nil, fmt.Errorf("--seat %q: the run has no seat or agent %q (its seats: %s)", spec, seat, strings.Join(names, ", "))
		}
		ag, ok := agents[agent]
		if !ok {
			return nil, nil, fmt.Errorf("--seat %q: unknown agent %q", spec, agent)
		}
		if swap == nil {
			swap = map[string]challengers.Agent{}
		}
		swap[seat] = ag
		changed = append(changed, engine.Setting{Name: "seat " + seat, Value: agent})
	}
	return swap, changed, nil
}

// ByAgent is swap (Swap's) as the quorum counts it, keyed by the agent
// each seat held: a seat named whose agent holds no other seat, or all of
// whose seats are named, is that agent replaced; a seat named whose
// agent keeps another seat stays keyed by the seat, the new agent
// counted beside the old. (Counted beside it always, a run of claude,
// gemini and codex with codex's only seat given to an Anthropic model
// still spanned three families.)
func ByAgent(start engine.DebateStarted, swap map[string]challengers.Agent) map[string]challengers.Agent {
	if len(swap) == 0 {
		return swap
	}
	held := map[string][]string{} // an agent's seats
	for _, st := range start.Seats {
		held[st.Agent] = append(held[st.Agent], st.Name)
	}
	out := make(map[string]challengers.Agent, len(swap))
	for key, ag := range swap {
		out[key] = ag
	}
	for agent, seats := range held {
		if _, ok := swap[agent]; ok || !slices.ContainsFunc(seats, func(n string) bool { _, ok := swap[n]; return ok }) {
			continue
		}
		if !slices.ContainsFunc(seats, func(n string) bool { _, ok := swap[n]; return !ok }) {
			// Every seat of it given: it is gone. Its first seat's agent
			// takes its place; the others' stay keyed by seat, added.
			out[agent] = swap[seats[0]]
			delete(out, seats[0])
		}
	}
	return out
}

// Changed compares a rebuilt protocol's start with the log's: a context
// file that changed since or is gone, another topic. The replies in the
// log answered the earlier version.
func Changed(was, now engine.DebateStarted) []string {
	var changed []string
	for _, old := range was.Context {
		i := slices.IndexFunc(now.Context, func(c engine.ContextFile) bool { return c.Name == old.Name })
		switch {
		case i < 0:
			changed = append(changed, old.Name+" is no longer attached")
		case old.SHA256 != "" && now.Context[i].SHA256 != old.SHA256:
			changed = append(changed, old.Name+" changed since the run")
		}
	}
	if now.Topic != was.Topic {
		changed = append(changed, "the topic is not the same")
	}
	return changed
}

// Refusal says why the run of the log at path cannot be resumed, if it
// cannot: it is finished, this arena does not know its protocol (known
// says which it does), or its log does not record how it was started.
func (h *History) Refusal(path string, known func(protocol string) bool) error {
	start := h.Start()
	switch o := h.Outcome; {
	case o != nil && !o.Result.Resumable():
		return fmt.Errorf("cannot resume %s: the run is finished (%s): %s; watch it again with arena replay %s", path, o.Result, o.Summary, path)
	case !known(start.Protocol):
		return fmt.Errorf("cannot resume %s: this arena cannot resume a %s run", path, start.Protocol)
	case start.Invocation == nil:
		return fmt.Errorf("cannot resume %s: the log does not record how the run was started (it was written by an older arena); start it again", path)
	}
	return nil
}

// CheckStart compares the rebuilt protocol's start (now) with the log's
// (was): another protocol stops the resume, and so does a context file
// that changed since, or is gone (Changed), unless forced.
func CheckStart(path string, was, now engine.DebateStarted, force bool) error {
	if now.Protocol != was.Protocol {
		return fmt.Errorf("cannot resume %s: it is a %s run, and its command now starts a %s run", path, was.Protocol, now.Protocol)
	}
	changed := Changed(was, now)
	if len(changed) == 0 || force {
		return nil
	}
	return fmt.Errorf("cannot resume %s: %s; the replies in the log answered the earlier version (resume with --force to go on anyway)", path, strings.Join(changed, "; "))
}

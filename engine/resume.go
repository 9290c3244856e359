package engine

import (
	"strconv"
	"strings"
	"sync"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/shape"
	"github.com/arenadebate/arena/engine/doc"
)

// A resumed run (arena resume) runs its protocol again from the start,
// with the replies of the earlier run at hand. Protocols are
// deterministic given the same replies, so the run walks the same path:
// every question the earlier run got an answer to is answered from the
// log, without running the agent, and the first question it did not
// answer (a call cut off, a call that failed) is where the run goes live.
// Until then the events the protocol emits are the ones the log already
// holds, and they are not published again.

// callKey is what makes two questions the same: the seat, where in the
// protocol, what for, and the very prompt.
type callKey struct {
	seat  string
	phase Phase
	round int
	task  Task
	hash  string
}

// ReplayCache holds the completed replies of an earlier run, to be
// reused in the order they were given.
type ReplayCache struct {
	mu    sync.Mutex
	byKey map[callKey][]cachedReply
	n     int
	asked map[string]string // seat → the prompt hash of its call in progress, while the cache is filled
}

// cachedReply is a reply of the log: the event, or how to read it back
// from the log when it is reused, so that a long log's replies are not all
// held at once (issue 29).
type cachedReply struct {
	f    AgentFinished
	load func() (AgentFinished, error)
}

// NewReplayCache collects the replies of a log's events: every call that
// finished (a reply that did not parse included: the same text fails the
// same way and leads to the same repair request). Calls that failed or
// were cut off are not in it, so they are asked again.
func NewReplayCache(events []Event) *ReplayCache {
	c := EmptyReplayCache()
	for _, e := range events {
		c.Add(e, nil)
	}
	return c
}

// EmptyReplayCache is a cache to fill with Add.
func EmptyReplayCache() *ReplayCache {
	return &ReplayCache{byKey: map[callKey][]cachedReply{}, asked: map[string]string{}}
}

// Add takes the log's next event into the cache, as NewReplayCache does.
// A reply is read back with load when it is reused, when load is given:
// then the cache holds where it is, not the reply.
func (c *ReplayCache) Add(e Event, load func() (AgentFinished, error)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch p := e.Payload.(type) {
	case AgentStarted:
		c.asked[p.Seat] = p.PromptHash
	case AgentFinished:
		if p.Reused { // a copy: the reply itself is earlier in the log
			delete(c.asked, p.Seat)
			return
		}
		k := callKey{p.Seat, p.Phase, p.Round, p.Task, c.asked[p.Seat]}
		r := cachedReply{f: p, load: load}
		if load != nil {
			r.f = AgentFinished{}
		}
		c.byKey[k] = append(c.byKey[k], r)
		c.n++
		delete(c.asked, p.Seat)
	case AgentFailed:
		delete(c.asked, p.Seat)
	}
}

// Len is how many replies are left to reuse.
func (c *ReplayCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// take returns the earliest unused reply to the question, if the log has
// one. A log written before prompts were hashed matches without the hash.
// A reply that cannot be read back from the log counts as none: the
// question is asked again.
func (c *ReplayCache) take(k callKey) (AgentFinished, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, key := range []callKey{k, {k.seat, k.phase, k.round, k.task, ""}} {
		if q := c.byKey[key]; len(q) > 0 {
			c.byKey[key] = q[1:]
			c.n--
			if q[0].load == nil {
				return q[0].f, true
			}
			f, err := q[0].load()
			return f, err == nil
		}
	}
	return AgentFinished{}, false
}

// Resume is what a resumed run starts from.
type Resume struct {
	// Events are the earlier run's events (the log up to its last
	// complete one); their replies are reused. With Cache, they need be
	// only the start, the calls without their text, and the moderator's
	// notes: the replies are Cache's.
	Events []Event
	// Cache, when set, holds the replies to reuse (else they are taken
	// from Events).
	Cache *ReplayCache
	// Event is the Resumed event to emit in place of the start.
	Event Resumed
	// Swap gives a seat another agent: keyed by seat name or agent name.
	Swap map[string]challengers.Agent
}

// Words say where a run was resumed, in one line.
func (r Resumed) Words() string {
	s := "↻ resumed from " + r.From + ": " + replies(r.Reusable) + " in the log reused, not asked again"
	for _, st := range r.Settings {
		s += " · " + st.Name + ": " + st.Value
	}
	if r.Problem != "" {
		s += " · the log is damaged (" + r.Problem + "): every byte of it is kept, the resumed run is written after it"
	}
	return s
}

// resumeState is a resumed run's progress.
type resumeState struct {
	cache *ReplayCache
	swap  map[string]challengers.Agent
	live  bool // a call was made: the run has left the log's path

	reused Usage // of the replies taken from the log
}

// published says whether an event of a resumed run is published: until
// the run goes live, what the protocol emits is already in the log. What
// comes from outside the protocol (the moderator, the budget, the outcome
// and what its consumers save) always is.
func (rt *Runtime) published(p Payload) bool {
	if rt.isLive() {
		return true
	}
	switch p.(type) {
	case Resumed, ModeratorNote, Outcome, Saved, BudgetUsed:
		return true
	}
	return false
}

// goLive marks the resumed run as making calls again.
func (rt *Runtime) goLive() {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.resume != nil {
		rt.resume.live = true
	}
}

func (rt *Runtime) isLive() bool {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.resume == nil || rt.resume.live
}

// reuse answers a question from the earlier run's log, if it holds the
// answer.
func (rt *Runtime) reuse(q Question, prompt string) (AgentFinished, bool) {
	if rt.resume == nil {
		return AgentFinished{}, false
	}
	f, ok := rt.resume.cache.take(callKey{q.seat(), q.Phase, q.Round, q.Task, Hash(prompt)})
	if ok {
		rt.mu.Lock()
		rt.resume.reused.Add(f.Usage)
		rt.mu.Unlock()
	}
	return f, ok
}

// swapped gives the question the agent that took over its seat.
func (rt *Runtime) swapped(q Question) Question {
	if rt.resume == nil || len(rt.resume.swap) == 0 {
		return q
	}
	q.Seat = q.seat()
	if a, ok := rt.resume.swap[q.Seat]; ok {
		q.Agent = a
	} else if a, ok := rt.resume.swap[q.Agent.Name]; ok {
		q.Agent = a
	}
	return q
}

// resumeSection says how much of a resumed run was reused from its log
// (ok false for a run that was not resumed).
func (rt *Runtime) resumeSection() (doc.Section, bool) {
	if rt.resume == nil {
		return doc.Section{}, false
	}
	rt.mu.Lock()
	u := rt.resume.reused
	rt.mu.Unlock()
	line := "This run was resumed from its log: no reply was reused; every call was asked again."
	if u.Replies > 0 {
		line = "This run was resumed from its log: " + replies(u.Replies) +
			" given before the interruption " + were(u.Replies) + " reused, not asked again. They had cost: tokens " +
			u.Tokens() + ", cost " + u.Cost() + " (counted in the table of what each agent cost)."
	}
	return doc.Section{ID: doc.SectionResume, Heading: "Resumed", Blocks: []doc.Block{doc.Para(line)}}, true
}

func replies(n int) string {
	if n == 1 {
		return "1 reply"
	}
	return strconv.Itoa(n) + " replies"
}

func were(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

// ReusedCalls is how many replies a resumed run took from its log.
func (rt *Runtime) ReusedCalls() int {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.resume == nil {
		return 0
	}
	return rt.resume.reused.Replies
}

// moderatorHeading heads the notes added to every prompt.
const moderatorHeading = "MODERATOR NOTES (from the person running arena, not a model; take them into account):"

// AddModeratorNote records a note of the moderator: it is published, and
// every prompt sent from now on carries it.
func (rt *Runtime) AddModeratorNote(text string) {
	text = strings.TrimSpace(strings.ReplaceAll(text, shape.Tag(""), ""))
	if text == "" {
		return
	}
	rt.mu.Lock()
	n := ModeratorNote{Text: text, Phase: rt.lastPhase, Round: rt.lastRound}
	rt.mu.Unlock()
	rt.notesMu.Lock()
	defer rt.notesMu.Unlock()
	rt.notes = append(rt.notes, n)
	rt.Bus.Emit(n)
}

// ModeratorNotes are the notes given so far.
func (rt *Runtime) ModeratorNotes() []ModeratorNote {
	rt.notesMu.Lock()
	defer rt.notesMu.Unlock()
	return append([]ModeratorNote(nil), rt.notes...)
}

// withNotes is the prompt as sent: the protocol's, then the moderator's
// notes so far. The caller holds notesMu.
func (rt *Runtime) withNotes(prompt string) string {
	notes := rt.notes
	if len(notes) == 0 {
		return prompt
	}
	var b strings.Builder
	b.WriteString(strings.TrimRight(prompt, "\n"))
	b.WriteString("\n\n" + moderatorHeading + "\n")
	for _, n := range notes {
		b.WriteString("- " + strings.Join(strings.Fields(n.Text), " ") + "\n")
	}
	return b.String()
}

// moderatorSection lists the moderator's notes where they fell, for
// the outcome document (ok false when there were none).
func (rt *Runtime) moderatorSection() (doc.Section, bool) {
	notes := rt.ModeratorNotes()
	if len(notes) == 0 {
		return doc.Section{}, false
	}
	var items []string
	for _, n := range notes {
		where := "at the start"
		if n.Phase != "" {
			where = "during " + string(n.Phase)
			if n.Round > 0 {
				where += " (round " + strconv.Itoa(n.Round) + ")"
			}
		}
		items = append(items, where+": "+strings.Join(strings.Fields(n.Text), " "))
	}
	return doc.Section{ID: doc.SectionModerator, Heading: "The moderator's notes", Blocks: []doc.Block{
		doc.Bullets("What the person running arena told every seat, and where in the run (each prompt sent after a note carried it):", items...),
	}}, true
}

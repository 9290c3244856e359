// Package page renders a run as a web page, beside the terminal's screen
// (package tui) and the printers (tui/plain): the question, the seats,
// each phase with every seat's reply, the tables (order receipts, the
// scorecards, the ledger), the notes, the outcome, the costs, and where
// the run was interrupted or resumed. A Builder reads the run's events
// one at a time into a Run, saying which part of the page each event
// changed (for a page that follows a run live); Write renders a Run whole
// as one self-contained HTML file: inline CSS under a strict
// Content-Security-Policy, no script, nothing fetched.
//
// Everything a Run holds came from a log or a model: hostile text.
// Templates escape it (html/template), and replies are Markdown rendered
// without raw HTML (Markdown).
package page

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/stats"
)

// Run is a run as the page shows it, and as arena export --json writes it.
type Run struct {
	Log      string `json:"log"` // the log's file name
	ID       string `json:"id"`
	Protocol string `json:"protocol"`
	Title    string `json:"title"`
	Noun     string `json:"noun"`
	Topic    string `json:"topic"`
	// Started and Last are the times of the first and the last event.
	Started  time.Time            `json:"started"`
	Last     time.Time            `json:"last"`
	Seats    []Seat               `json:"seats"`
	Context  []engine.ContextFile `json:"context,omitempty"`
	Settings []engine.Setting     `json:"settings,omitempty"`
	// Phases are the run's steps in the order they came, each with what
	// happened in it.
	Phases  []*Phase        `json:"phases"`
	Outcome *engine.Outcome `json:"outcome,omitempty"`
	// Ledger is what a debate changed of a plain vote (nil: none).
	Ledger *engine.DebateLedger `json:"ledger,omitempty"`
	// Costs are what each agent's calls cost, Total all of them.
	Costs  []engine.Account   `json:"costs,omitempty"`
	Total  engine.Account     `json:"total"`
	Budget *engine.BudgetUsed `json:"budget,omitempty"`
	// Resumed counts the times the run was taken up again.
	Resumed int `json:"resumed,omitempty"`
	// Label is the person's own verdict, in words ("" when none).
	Label string `json:"label,omitempty"`
	// Saved are the files arena wrote for the run (the outcome
	// document), by name.
	Saved []engine.Saved `json:"saved,omitempty"`
	// Problem says what is wrong with the log ("" when nothing is).
	Problem string `json:"problem,omitempty"`
	// Live says an arena is writing the log now.
	Live bool `json:"live,omitempty"`
}

// Seat is a place in the run and the agent that held it.
type Seat struct {
	Name   string `json:"name"`
	Role   string `json:"role"`
	Agent  string `json:"agent"`
	Family string `json:"family,omitempty"`
	// Runs is how the agent is reached: an API endpoint and model, or
	// the CLI it runs.
	Runs string `json:"runs,omitempty"`
}

// Phase is one step of the run (of a round, where rounds apply).
type Phase struct {
	ID    string       `json:"-"`
	Phase engine.Phase `json:"phase,omitempty"`
	Round int          `json:"round,omitempty"`
	Title string       `json:"title"`
	// Resumed, on a pseudo-phase, says where the run was taken up again.
	Resumed *engine.Resumed `json:"resumed,omitempty"`
	Items   []*Item         `json:"items"`
}

// Item is one thing that happened in a phase: exactly one field is set.
type Item struct {
	ID        string                  `json:"-"`
	Call      *Call                   `json:"call,omitempty"`
	Table     *engine.Table           `json:"table,omitempty"`
	Note      *engine.Note            `json:"note,omitempty"`
	Position  *engine.PositionUpdated `json:"position,omitempty"`
	Moderator *engine.ModeratorNote   `json:"moderator,omitempty"`
	FollowUp  *engine.FollowUp        `json:"follow_up,omitempty"`
	// More is how many bytes of a position's text the page left out (it
	// keeps maxMarkdown): the log holds them.
	More int `json:"more,omitempty"`
}

// Call is one question to a seat's agent and how it ended.
type Call struct {
	engine.CallInfo
	Started time.Time `json:"started"`
	// Reply is set once it replied, Failure once it failed; neither
	// while it runs.
	Reply   *engine.AgentFinished `json:"reply,omitempty"`
	Failure *engine.AgentFailed   `json:"failure,omitempty"`
	// More is how many bytes of the reply's text the page left out (it
	// keeps maxMarkdown): the log holds them.
	More int `json:"more,omitempty"`
}

// Running says the call has not ended yet.
func (c *Call) Running() bool { return c.Reply == nil && c.Failure == nil }

// Part names a part of the page an event changed.
type Part int

const (
	PartHeader Part = iota
	PartPhase
	PartItem
	PartOutcome
	PartLedger
	PartCosts
)

// Change is what an event did to the page: a part added at the end of
// Target, or put in place of the element Target.
type Change struct {
	Replace bool
	Target  string
	Part    Part
	Phase   *Phase
	Item    *Item
}

// Builder reads a run's events into a Run.
type Builder struct {
	// Whole keeps every reply whole, with its text and its parsed
	// object (arena export --json); a page keeps of each only what it
	// shows, its readable text up to maxMarkdown: memory follows what
	// is shown, not the log (a flooding model's reply of 100 MB).
	Whole  bool
	run    *Run
	ledger engine.Ledger
	open   map[string]*Item // the running call of each seat
	follow *Phase           // the follow-up questions' phase
}

// NewBuilder starts a Run read from the log named log.
func NewBuilder(log string) *Builder {
	return &Builder{run: &Run{Log: filepath.Base(log)}, open: map[string]*Item{}}
}

// Run is the run as read so far.
func (b *Builder) Run() *Run { return b.run }

// Add reads one event, and says which parts of the page it changed.
func (b *Builder) Add(e engine.Event) []Change {
	r := b.run
	if r.Started.IsZero() {
		r.Started = e.Time
	}
	r.Last = e.Time
	switch p := e.Payload.(type) {
	case engine.DebateStarted:
		b.start(p)
		return []Change{{Replace: true, Target: "head", Part: PartHeader}}
	case engine.PhaseStarted:
		return b.phase(&Phase{ID: fmt.Sprintf("p%d", e.Seq), Phase: p.Phase, Round: p.Round, Title: p.Title})
	case engine.Resumed:
		// The resumed run has no outcome yet: the earlier one's stays
		// in the phases before this one.
		r.Resumed++
		r.Outcome = nil
		b.open = map[string]*Item{}
		ch := b.phase(&Phase{ID: fmt.Sprintf("p%d", e.Seq), Title: "Resumed from " + p.From, Resumed: &p})
		return append(ch, Change{Replace: true, Target: "head", Part: PartHeader}, Change{Replace: true, Target: "outcome", Part: PartOutcome})
	case engine.AgentStarted:
		it := &Item{ID: fmt.Sprintf("c%d", e.Seq), Call: &Call{CallInfo: p.CallInfo, Started: e.Time}}
		b.open[p.Seat] = it
		return b.item(it)
	case engine.AgentFinished:
		more := 0
		if !b.Whole {
			p, more = trimmed(p)
		}
		return b.ended(e, p.CallInfo, func(c *Call) { c.Reply, c.More = &p, more }, !p.Reused)
	case engine.AgentFailed:
		return b.ended(e, p.CallInfo, func(c *Call) { c.Failure = &p }, true)
	case engine.Table:
		return b.item(&Item{ID: fmt.Sprintf("t%d", e.Seq), Table: &p})
	case engine.Note:
		return b.item(&Item{ID: fmt.Sprintf("n%d", e.Seq), Note: &p})
	case engine.PositionUpdated:
		more := 0
		if !b.Whole {
			p.Position, more = cut(p.Position)
		}
		return b.item(&Item{ID: fmt.Sprintf("v%d", e.Seq), Position: &p, More: more})
	case engine.ModeratorNote:
		return b.item(&Item{ID: fmt.Sprintf("m%d", e.Seq), Moderator: &p})
	case engine.FollowUp:
		var ch []Change
		if b.follow == nil {
			b.follow = &Phase{ID: fmt.Sprintf("p%d", e.Seq), Phase: engine.PhaseFollowUp, Title: "Follow-up questions"}
			ch = b.phase(b.follow)
		}
		return append(ch, b.item(&Item{ID: fmt.Sprintf("f%d", e.Seq), FollowUp: &p})...)
	}
	return b.other(e)
}

// other reads the events that are not a phase's items.
func (b *Builder) other(e engine.Event) []Change {
	r := b.run
	switch p := e.Payload.(type) {
	case engine.Outcome:
		r.Outcome = &p
		b.open = map[string]*Item{}
		return []Change{{Replace: true, Target: "head", Part: PartHeader}, {Replace: true, Target: "outcome", Part: PartOutcome}}
	case engine.DebateLedger:
		r.Ledger = &p
		return []Change{{Replace: true, Target: "ledger", Part: PartLedger}}
	case engine.BudgetUsed:
		r.Budget = &p
		return []Change{{Replace: true, Target: "costs", Part: PartCosts}}
	case engine.Label:
		r.Label = stats.LabelWords(p)
		if p.By != "" {
			r.Label = p.By + ": " + r.Label
		}
		return []Change{{Replace: true, Target: "head", Part: PartHeader}}
	case engine.Saved:
		r.Saved = append(r.Saved, p)
	}
	return nil
}

func (b *Builder) start(p engine.DebateStarted) {
	r := b.run
	r.ID, r.Protocol, r.Title, r.Noun, r.Topic = p.ID, p.Protocol, p.Title, p.RunNoun(), p.Topic
	r.Context, r.Settings = p.Context, p.Settings
	agents := map[string]engine.AgentInfo{}
	for _, a := range p.Agents {
		agents[a.Name] = a
	}
	for _, s := range p.Seats {
		a := agents[s.Agent]
		family := a.Family
		if family == "" {
			family = p.Families[s.Agent]
		}
		r.Seats = append(r.Seats, Seat{Name: s.Name, Role: string(s.Role), Agent: s.Agent, Family: family, Runs: runsOn(a)})
	}
}

// runsOn says how an agent is reached: its endpoint, or its command line
// (the prompt shown as {prompt}).
func runsOn(a engine.AgentInfo) string {
	if a.Endpoint != "" {
		return a.Endpoint
	}
	words := make([]string, len(a.Command))
	for i, w := range a.Command {
		words[i] = engine.ShellWord(w)
	}
	return strings.Join(words, " ")
}

// phase adds a phase at the end of the run.
func (b *Builder) phase(p *Phase) []Change {
	b.run.Phases = append(b.run.Phases, p)
	return []Change{{Target: "phases", Part: PartPhase, Phase: p}}
}

// item adds an item at the end of the current phase (a first one, of no
// name, when the run has none yet).
func (b *Builder) item(it *Item) []Change {
	var ch []Change
	r := b.run
	if len(r.Phases) == 0 {
		ch = b.phase(&Phase{ID: "p0", Title: "Start"})
	}
	p := r.Phases[len(r.Phases)-1]
	if it.Call != nil && it.Call.Phase == engine.PhaseFollowUp && b.follow != nil {
		p = b.follow
	}
	p.Items = append(p.Items, it)
	return append(ch, Change{Target: p.ID, Part: PartItem, Phase: p, Item: it})
}

// ended closes the call of the seat the event is about (or adds one that
// ends at once: a reply a resumed run took from its log), and counts its
// cost.
func (b *Builder) ended(e engine.Event, info engine.CallInfo, set func(*Call), count bool) []Change {
	if count {
		b.ledger.Record(e.Payload)
		b.run.Costs, b.run.Total = b.ledger.Accounts(), b.ledger.Total()
	}
	costs := Change{Replace: true, Target: "costs", Part: PartCosts}
	if it := b.open[info.Seat]; it != nil {
		delete(b.open, info.Seat)
		set(it.Call)
		return []Change{{Replace: true, Target: it.ID, Part: PartItem, Item: it}, costs}
	}
	it := &Item{ID: fmt.Sprintf("c%d", e.Seq), Call: &Call{CallInfo: info, Started: e.Time}}
	set(it.Call)
	return append(b.item(it), costs)
}

// Result is how the run ended, in words: its outcome's kind, "running",
// or "unfinished".
func (r *Run) Result() string {
	switch {
	case r.Outcome != nil:
		return strings.ReplaceAll(string(r.Outcome.Result), "_", " ")
	case r.Live:
		return "running"
	}
	return "unfinished"
}

// JSON is the run as arena export --json writes it.
func (r *Run) JSON() ([]byte, error) { return json.MarshalIndent(r, "", "  ") }

// trimmed is a reply as the page shows it: its readable text (its display,
// else its text) up to maxMarkdown, cut at a line where one is near, and
// how many bytes were left out.
func trimmed(p engine.AgentFinished) (engine.AgentFinished, int) {
	text := p.Display
	if strings.TrimSpace(text) == "" {
		text = p.Text
	}
	p.Text, p.Reply = "", nil
	var more int
	p.Display, more = cut(text)
	return p, more
}

// cut is text up to maxMarkdown, cut at a line where one is near, and how
// many bytes it left out.
func cut(text string) (string, int) {
	if len(text) <= maxMarkdown {
		return text, 0
	}
	at := strings.LastIndexByte(text[:maxMarkdown], '\n')
	if at < maxMarkdown/2 {
		at = maxMarkdown
	}
	return strings.ToValidUTF8(text[:at], ""), len(text) - at
}

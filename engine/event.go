// Package engine runs debate protocols over the agents of package
// challengers. A debate is a stream of typed events: the engine emits them,
// and the log writer, the terminal UI, the headless printer and the tests
// all consume the same stream. Replay is reading a log back into the same
// consumers.
package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine/doc"
	"github.com/arenadebate/arena/engine/layout"
)

// LogVersion is the version of the event log format. A reader refuses logs
// with a newer version rather than misreading them, and upgrades older
// ones as it reads them (upgrade.go).
//
// Version 2 made the events protocol-neutral: seats instead of a defender
// and challengers, a generic table instead of the verdict table, the
// calls' common fields in one embedded CallInfo, and the outcome document's
// path in a Saved event written by the consumer that saved it.
const LogVersion = 2

// Kind names an event type, as written in the log's "type" field.
type Kind string

const (
	KindDebateStarted   Kind = "debate_started"
	KindPhaseStarted    Kind = "phase_started"
	KindAgentStarted    Kind = "agent_started"
	KindChunk           Kind = "chunk"
	KindAgentFinished   Kind = "agent_finished"
	KindAgentFailed     Kind = "agent_failed"
	KindTable           Kind = "table"
	KindPositionUpdated Kind = "position_updated"
	KindNote            Kind = "note"
	KindOutcome         Kind = "outcome"
	KindSaved           Kind = "saved"
	// Added without a version bump: older readers skip unknown kinds.
	KindResumed       Kind = "resumed"
	KindModeratorNote Kind = "moderator_note"
)

// Payload is the typed body of an event.
type Payload interface{ Kind() Kind }

// Event is one step of a debate.
type Event struct {
	Seq     int64     `json:"seq"`
	Time    time.Time `json:"t"`
	Payload Payload   `json:"-"`
}

// Kind is the payload's kind.
func (e Event) Kind() Kind {
	if e.Payload == nil {
		return ""
	}
	return e.Payload.Kind()
}

// Phase is a step of a protocol, named by the protocol.
type Phase string

// PhaseOutcome is the last phase of every protocol.
const PhaseOutcome Phase = "outcome"

// PhaseInfo is a phase as the start event lists it: its name and how a
// person reads it ("Confrontation").
type PhaseInfo struct {
	Phase Phase  `json:"phase"`
	Title string `json:"title"`
}

// Role is what a seat does, as a person reads it: "defender",
// "advocate for Kafka", "judge".
type Role string

// Task is what an agent is asked for in one call, named by the protocol.
type Task string

// Stance is how a reply or a table row leans, for a front end to colour a
// badge without knowing the protocol's vocabulary.
type Stance string

const (
	StanceAgree    Stance = "agree"
	StancePartial  Stance = "partial"
	StanceDisagree Stance = "disagree"
	StanceNeutral  Stance = "neutral"
)

// OutcomeKind is how a debate ended. Protocols name their own results;
// these two are shared, and so is OutcomeOverBudget (budget.go).
type OutcomeKind string

const (
	OutcomeAborted     OutcomeKind = "aborted"
	OutcomeInterrupted OutcomeKind = "interrupted"
)

// Duration is a time.Duration written as text ("1.5s") in the log.
type Duration time.Duration

func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("duration: %w", err)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// D is the value as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// AgentInfo describes an agent taking part, as the debate saw it.
type AgentInfo struct {
	Name    string   `json:"name"`
	Command []string `json:"command"` // the prompt shown as {prompt}
	Format  string   `json:"format"`
	Timeout Duration `json:"timeout"`
	// Family is the vendor whose model it runs ("anthropic"); Endpoint,
	// for an API agent, where it is asked and for which model (never a
	// key). Older logs have neither.
	Family   string `json:"family,omitempty"`
	Endpoint string `json:"endpoint,omitempty"`
}

// InfoOf is what a start event says of an agent.
func InfoOf(a challengers.Agent) AgentInfo {
	info := AgentInfo{Name: a.Name, Command: a.Command, Format: string(a.Format), Timeout: Duration(a.Timeout), Family: challengers.Family(a)}
	if a.IsAPI() {
		info.Format, info.Endpoint = "api:"+string(a.API), a.Endpoint()
	}
	return info
}

// Seat is a place in a protocol, held by an agent. Name is unique in a
// run and is what panes are keyed by; one agent may hold several seats.
type Seat struct {
	Name  string `json:"name"`
	Agent string `json:"agent"`
	Role  Role   `json:"role"`
}

// ContextFile is a file attached to the debate (its name and size; the
// content goes to the models, not to the log).
type ContextFile struct {
	Name  string `json:"name"`
	Bytes int    `json:"bytes"`
	// SHA256 is the content's hash (hex), so a resumed run can tell that
	// the file changed since; absent in older logs.
	SHA256 string `json:"sha256,omitempty"`
}

// ContextOf describes a document attached to a run, its hash included.
func ContextOf(name, content string) ContextFile {
	return ContextFile{Name: name, Bytes: len(content), SHA256: Hash(content)}
}

// Hash is the hex SHA-256 of s.
func Hash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// Invocation is how the run was started: its protocol's typed request
// and the settings it was asked with, the working directory, and what was
// read from stdin (a topic or a diff given as "-"). arena resume starts
// the run again from it, with the settings of the person who resumes it:
// it names no configuration file, no log directory, no agent.
type Invocation struct {
	// Request is the protocol's request (engine.Request), as JSON.
	Request json.RawMessage `json:"request,omitempty"`
	// Settings are the settings the run was asked with beside it.
	Settings *RunSettings `json:"settings,omitempty"`
	// Args is how an older arena recorded the run: the arguments after
	// "arena". arena resume reads it through its compatibility reader.
	Args  []string `json:"args,omitempty"`
	Dir   string   `json:"dir"`
	Stdin string   `json:"stdin,omitempty"`
	// MAC signs the rest with a key of the user's that arena keeps, so
	// that arena resume can tell a log it wrote on this machine from one
	// that came from elsewhere (cmd/arena/logkey.go).
	MAC string `json:"mac,omitempty"`
}

// RunSettings are the settings a run was asked with beside its request
// (the command's flags, an MCP call's inputs), recorded with it: which
// agents seat the defaults, the rounds, the timeout, the budget. Never a
// configuration file, a log directory or an agent's definition: those
// are the settings of whoever runs it. Empty or nil: not given.
type RunSettings struct {
	Defender    string   `json:"defender,omitempty"`
	Challengers []string `json:"challengers,omitempty"`
	MaxRounds   *int     `json:"max_rounds,omitempty"`
	Timeout     string   `json:"timeout,omitempty"`
	MaxCost     string   `json:"max_cost,omitempty"`
	MaxCalls    *int     `json:"max_calls,omitempty"`
	MaxTokens   string   `json:"max_tokens,omitempty"`
	// MinFamilies is --min-families: a resumed run holds the same quorum.
	MinFamilies *int `json:"min_families,omitempty"`
}

// Setting is one of a protocol's own parameters, for the record and for a
// front end to show as it is ("options": "Kafka · Postgres").
type Setting struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// DebateStarted opens every log.
type DebateStarted struct {
	Version int    `json:"version"`
	ID      string `json:"id"`
	// Protocol is the protocol's name ("adversarial", "compare"); Title
	// is how a person reads it.
	Protocol string `json:"protocol"`
	Title    string `json:"title"`
	// Noun is what a person calls one run of the protocol ("debate",
	// "comparison", "verdict"), for a front end's words: "Stop the
	// comparison?". Older logs have none (Words says "run").
	Noun string `json:"noun,omitempty"`
	// Words are what its banner calls the topic and the files (the
	// protocol's Spec.Words). Older logs have none.
	Words Words  `json:"words,omitzero"`
	Topic string `json:"topic"`
	Seats []Seat `json:"seats"`
	// FollowUpSeat names the seat a follow-up question goes to unless
	// another is named: the one the protocol makes answer for the run
	// (the defender, the judge). Older logs have none (the first seat).
	FollowUpSeat string        `json:"follow_up_seat,omitempty"`
	Agents       []AgentInfo   `json:"agents"`
	MaxRounds    int           `json:"max_rounds,omitempty"`
	Timeout      Duration      `json:"timeout_per_cli"`
	Context      []ContextFile `json:"context,omitempty"`
	Settings     []Setting     `json:"settings,omitempty"`
	// Phases is the protocol's phase order, so a front end can draw a
	// timeline without knowing the protocol.
	Phases []PhaseInfo `json:"phases"`
	// Layouts say how each reply shape reads (by shape name), so a front
	// end can show a reply as readable text while it streams.
	Layouts map[string]layout.Layout `json:"layouts,omitempty"`
	// Invocation is how the run was started, for arena resume (absent
	// when the run was not started from the command line).
	Invocation *Invocation `json:"invocation,omitempty"`
	// Families are the vendor families of the agents arena knew, by name
	// (the seats' and those that may have written what is judged), for
	// arena stats' self-preference by family. Older logs have none.
	Families map[string]string `json:"families,omitempty"`
}

// RunNoun is what a person calls the run: its protocol's Noun, or "run"
// in a log that names none.
func (d DebateStarted) RunNoun() string {
	if d.Noun == "" {
		return "run"
	}
	return d.Noun
}

// PhaseStarted marks the start of a phase (of a round, where rounds apply).
type PhaseStarted struct {
	Phase Phase `json:"phase"`
	Round int   `json:"round"`
	// Title is the phase as a person reads it, round included where
	// rounds apply: "Confrontation (round 2)".
	Title string `json:"title"`
}

// CallInfo is what every event about one agent call says: which seat and
// agent, in which phase and round, asked for what, which attempt.
type CallInfo struct {
	Seat    string `json:"seat"`
	Agent   string `json:"agent"`
	Role    Role   `json:"role"`
	Phase   Phase  `json:"phase"`
	Round   int    `json:"round"`
	Task    Task   `json:"task"`
	Attempt int    `json:"attempt"` // 1, then 2 for a retry or a repair request
}

// AgentStarted: an agent was asked something.
type AgentStarted struct {
	CallInfo
	// Shape is the reply shape the prompt asks for (package shape).
	Shape   string   `json:"shape,omitempty"`
	Timeout Duration `json:"timeout"`
	// PromptHash is the SHA-256 of the prompt the protocol asked (before
	// the moderator's notes were added), so a resumed run reuses a reply
	// only for the very same question.
	PromptHash string `json:"prompt_sha256,omitempty"`
}

// Chunk is text a seat's agent streamed. A seat runs one call at a time,
// and every chunk of a call comes before that call's AgentFinished or
// AgentFailed: the runner delivers all of its output before it returns.
type Chunk struct {
	Seat string `json:"seat"`
	Text string `json:"text"`
}

// AgentFinished: an agent replied.
type AgentFinished struct {
	CallInfo
	// Reply is the validated reply object; absent when it could not be
	// parsed (Unparseable), in which case Text is all there is.
	Reply       json.RawMessage    `json:"reply,omitempty"`
	Unparseable bool               `json:"unparseable,omitempty"`
	ParseError  string             `json:"parse_error,omitempty"`
	Text        string             `json:"text"`
	Display     string             `json:"display"` // the reply as readable Markdown
	Badge       string             `json:"badge,omitempty"`
	Stance      Stance             `json:"stance,omitempty"`
	Usage       *challengers.Usage `json:"usage,omitempty"`
	Duration    Duration           `json:"duration"`
	// Reused: the reply was not asked again but taken from the run this
	// one resumed (arena resume).
	Reused bool `json:"reused,omitempty"`
}

// AgentFailed: a call failed (timeout, crash, error in the stream...).
type AgentFailed struct {
	CallInfo
	Reason    challengers.Reason `json:"reason"`
	Message   string             `json:"message"` // "timed out after 2m0s"
	ExitCode  int                `json:"exit_code"`
	Stderr    string             `json:"stderr,omitempty"`
	WillRetry bool               `json:"will_retry,omitempty"`
	Duration  Duration           `json:"duration"`
}

// Row is one row of a table, with the stance its front end colours it by.
type Row struct {
	Cells  []string `json:"cells"`
	Stance Stance   `json:"stance,omitempty"`
}

// Table is a protocol's standing at some point (the challengers'
// verdicts, a scorecard), drawn by front ends as it comes, and what the
// protocol decided from it.
type Table struct {
	Phase    Phase    `json:"phase"`
	Round    int      `json:"round"`
	Title    string   `json:"title"`
	Columns  []string `json:"columns"`
	Rows     []Row    `json:"rows"`
	Decision string   `json:"decision"` // what the rule decided, in words
}

// PositionUpdated: a seat's standing position, version N (the defender's
// position in the adversarial debate).
type PositionUpdated struct {
	Seat     string `json:"seat"`
	Version  int    `json:"version"`
	Round    int    `json:"round"`
	Position string `json:"position"`
	Changed  bool   `json:"changed"`
}

// Note is a message for the person watching: a warning, a skipped step.
type Note struct {
	Level   string `json:"level"` // NoteInfo | NoteWarn | NoteError
	Message string `json:"message"`
}

// Note levels.
const (
	NoteInfo  = "info"
	NoteWarn  = "warn"
	NoteError = "error"
)

// Outcome closes a debate.
type Outcome struct {
	Result OutcomeKind `json:"result"`
	// Stance colours the result: agree for a clean result, partial for
	// one with a caveat, disagree for an abort.
	Stance  Stance `json:"stance,omitempty"`
	Rounds  int    `json:"rounds"`
	Summary string `json:"summary"` // one line
	// Document is the outcome document as data (package doc): the
	// protocol's, with the sections arena adds. A log written before
	// documents were data has none, only Markdown.
	Document *doc.Document `json:"document,omitempty"`
	// Markdown is the document rendered as Markdown, as arena saves it:
	// engine.Run renders it, and the log's reader from the Document. A
	// log holds it only where it has no Document (MarshalJSON).
	Markdown string   `json:"markdown,omitempty"`
	Failures []string `json:"failures,omitempty"`
	// LogPath is where the log is saved ("" when not saved).
	LogPath string `json:"log_path,omitempty"`
	// InternalError says what panicked when a bug in arena ended the run
	// (the result is then aborted, and arena exits 1).
	InternalError string `json:"internal_error,omitempty"`
	// Where is where a stopped run stopped ("during the judgement"), as
	// the protocol says it: a summary arena words again (over budget) is
	// made from it. Not in the log: the summary says it.
	Where string `json:"-"`
}

// MarshalJSON writes the outcome with its document as data; the
// document's Markdown, a rendering of it, is left out (a log written
// before documents were data keeps its Markdown).
func (o Outcome) MarshalJSON() ([]byte, error) {
	type plain Outcome
	if o.Document != nil {
		o.Markdown = ""
	}
	return json.Marshal(plain(o))
}

// rendered fills in the Markdown of an outcome read from a log.
func (o *Outcome) rendered() {
	if o.Document != nil {
		o.Markdown = doc.Markdown(*o.Document)
	}
}

// Saved: a consumer of the stream wrote a file (the outcome document).
type Saved struct {
	What string `json:"what"`
	Path string `json:"path"`
	// SHA256 is the file's hash as it was written, for a file written
	// whole that arena reads back (rank's JSON report): what reads it
	// checks the hash, as a log can name any file.
	SHA256 string `json:"sha256,omitempty"`
}

// Resumed marks where a run was taken up again (arena resume) in the
// same log: what follows it is the resumed run. The protocol walks its
// path again from the start; the replies the log holds are reused, so the
// events it would repeat are not written twice.
type Resumed struct {
	// After is the sequence number of the last event of the earlier run
	// that the resumed one builds on.
	After int64 `json:"after"`
	// From says where the earlier run stopped, as a person reads it:
	// "Confrontation (round 4)".
	From string `json:"from"`
	// Phase and Round are where the earlier run was when it stopped.
	Phase Phase `json:"phase,omitempty"`
	Round int   `json:"round,omitempty"`
	// Reusable is how many completed replies the log holds.
	Reusable int `json:"reusable"`
	// Settings are what changed for the resumed run (--timeout, a seat's
	// agent), as a person reads them.
	Settings []Setting `json:"settings,omitempty"`
	// Problem says what was wrong with the log, if anything ("line 41 is
	// cut short"): the damaged lines are kept, and the run resumes from
	// the events that can be read.
	Problem string `json:"problem,omitempty"`
}

// ModeratorNote is what the person running arena told the seats. Every
// prompt sent after it carries it, marked as from the moderator.
type ModeratorNote struct {
	Text  string `json:"text"`
	Phase Phase  `json:"phase,omitempty"`
	Round int    `json:"round,omitempty"`
}

func (DebateStarted) Kind() Kind   { return KindDebateStarted }
func (Resumed) Kind() Kind         { return KindResumed }
func (ModeratorNote) Kind() Kind   { return KindModeratorNote }
func (PhaseStarted) Kind() Kind    { return KindPhaseStarted }
func (AgentStarted) Kind() Kind    { return KindAgentStarted }
func (Chunk) Kind() Kind           { return KindChunk }
func (AgentFinished) Kind() Kind   { return KindAgentFinished }
func (AgentFailed) Kind() Kind     { return KindAgentFailed }
func (Table) Kind() Kind           { return KindTable }
func (PositionUpdated) Kind() Kind { return KindPositionUpdated }
func (Note) Kind() Kind            { return KindNote }
func (Outcome) Kind() Kind         { return KindOutcome }
func (Saved) Kind() Kind           { return KindSaved }

// Unknown is an event of a kind this version does not know (written by a
// newer arena with the same log version). Readers skip it.
type Unknown struct {
	Type string          `json:"-"`
	Raw  json.RawMessage `json:"-"`
}

func (u Unknown) Kind() Kind { return Kind(u.Type) }

// SeatOf returns the seat an event is about, or "".
func (e Event) SeatOf() string {
	switch p := e.Payload.(type) {
	case AgentStarted:
		return p.Seat
	case Chunk:
		return p.Seat
	case AgentFinished:
		return p.Seat
	case AgentFailed:
		return p.Seat
	}
	return ""
}

var payloadTypes = map[Kind]func() Payload{
	KindDebateStarted:   func() Payload { return &DebateStarted{} },
	KindPhaseStarted:    func() Payload { return &PhaseStarted{} },
	KindAgentStarted:    func() Payload { return &AgentStarted{} },
	KindChunk:           func() Payload { return &Chunk{} },
	KindAgentFinished:   func() Payload { return &AgentFinished{} },
	KindAgentFailed:     func() Payload { return &AgentFailed{} },
	KindTable:           func() Payload { return &Table{} },
	KindPositionUpdated: func() Payload { return &PositionUpdated{} },
	KindNote:            func() Payload { return &Note{} },
	KindOutcome:         func() Payload { return &Outcome{} },
	KindSaved:           func() Payload { return &Saved{} },
	KindResumed:         func() Payload { return &Resumed{} },
	KindModeratorNote:   func() Payload { return &ModeratorNote{} },
}

type WireEvent struct {
	Seq  int64           `json:"seq"`
	Time time.Time       `json:"t"`
	Type Kind            `json:"type"`
	Data json.RawMessage `json:"data"`
}

// MarshalJSON writes {"seq":N,"t":TIME,"type":KIND,"data":{...}}.
func (e Event) MarshalJSON() ([]byte, error) {
	if e.Payload == nil {
		return nil, fmt.Errorf("event %d has no payload", e.Seq)
	}
	var data []byte
	var err error
	if u, ok := e.Payload.(Unknown); ok {
		data = u.Raw
	} else if data, err = json.Marshal(e.Payload); err != nil {
		return nil, err
	}
	return json.Marshal(WireEvent{Seq: e.Seq, Time: e.Time, Type: e.Payload.Kind(), Data: data})
}

// UnmarshalJSON reads what MarshalJSON writes, in the current format. An
// unknown type becomes Unknown rather than an error.
func (e *Event) UnmarshalJSON(b []byte) error {
	var w WireEvent
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	if w.Type == "" {
		return fmt.Errorf("event has no \"type\"")
	}
	p, err := DecodePayload(w)
	if err != nil {
		return err
	}
	e.Seq, e.Time, e.Payload = w.Seq, w.Time, p
	return nil
}

// DecodePayload decodes an event's data as the current format's payload
// of its type.
func DecodePayload(w WireEvent) (Payload, error) {
	mk, ok := payloadTypes[w.Type]
	if !ok {
		return Unknown{Type: string(w.Type), Raw: w.Data}, nil
	}
	p := mk()
	if len(w.Data) == 0 || string(w.Data) == "null" {
		return nil, fmt.Errorf("%s event has no \"data\"", w.Type)
	}
	if err := json.Unmarshal(w.Data, p); err != nil {
		return nil, fmt.Errorf("%s event: %w", w.Type, err)
	}
	// A log is a file anyone can hand to arena replay: JSON escapes
	// ("\u001b") can carry terminal escape sequences that the runner's
	// cleaning never saw. Clean every string the way agent output is.
	ScrubStrings(reflect.ValueOf(p))
	lineNames(p) // a name is one line (names.go)
	if o, ok := p.(*Outcome); ok {
		o.rendered()
	}
	return deref(p), nil
}

// ScrubStrings cleans, in place, every string reachable from v (through
// pointers, struct fields and slices; payloads hold no maps) of escape
// sequences and of control characters other than newline and tab, with
// the invisible characters shown (trust.Text).
func ScrubStrings(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			ScrubStrings(v.Elem())
		}
	case reflect.String:
		// Text hands clean text back as it is: only what it changed is set.
		if s := v.String(); v.CanSet() {
			if c := trust.Text(s); c != s {
				v.SetString(c)
			}
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				ScrubStrings(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			// Raw JSON (a reply): its strings are cleaned in place.
			if v.Kind() == reflect.Slice && v.CanSet() {
				if b := v.Bytes(); len(b) > 0 {
					v.SetBytes(trust.CleanJSON(b))
				}
			}
			return
		}
		for i := 0; i < v.Len(); i++ {
			ScrubStrings(v.Index(i))
		}
	}
}

// deref turns the pointer the decoder filled back into a value, so that
// consumers switch on value types only (every payload type, wherever it
// is registered).
func deref(p Payload) Payload {
	v := reflect.ValueOf(p)
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		if d, ok := v.Elem().Interface().(Payload); ok {
			return d
		}
	}
	return p
}

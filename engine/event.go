// Package engine runs debate protocols over the agents of package
// challengers. A debate is a stream of typed events: the engine emits them,
// and the log writer, the terminal UI, the headless printer and the tests
// all consume the same stream. Replay is reading a log back into the same
// consumers.
package engine

import (
	"encoding/json"
	"fmt"
	"reflect"
	"time"
	"unicode/utf8"

	"github.com/arenadebate/arena/challengers"
)

// LogVersion is the version of the event log format. A reader refuses logs
// with a newer version rather than misreading them.
const LogVersion = 1

// Kind names an event type, as written in the log's "type" field.
type Kind string

const (
	KindDebateStarted   Kind = "debate_started"
	KindPhaseStarted    Kind = "phase_started"
	KindAgentStarted    Kind = "agent_started"
	KindChunk           Kind = "chunk"
	KindAgentFinished   Kind = "agent_finished"
	KindAgentFailed     Kind = "agent_failed"
	KindVerdictTable    Kind = "verdict_table"
	KindPositionUpdated Kind = "position_updated"
	KindNote            Kind = "note"
	KindOutcome         Kind = "outcome"
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

// Phase is a step of a protocol.
type Phase string

// The phases of the adversarial protocol, named as in the protocol text.
const (
	PhasePreflight            Phase = "preflight"
	PhaseOpening              Phase = "opening"
	PhaseChallenge            Phase = "challenge"
	PhaseConsensusCheck       Phase = "consensus_check"
	PhaseConfront             Phase = "confront"
	PhaseRebuttal             Phase = "rebuttal"
	PhaseIterationCheck       Phase = "iteration_check"
	PhaseAssumptionExtraction Phase = "assumption_extraction"
	PhaseOutcome              Phase = "outcome"
)

// Role is what an agent does in a debate.
type Role string

const (
	RoleDefender   Role = "defender"
	RoleChallenger Role = "challenger"
)

// Task is what an agent is asked for in one call.
type Task string

const (
	TaskOpening   Task = "opening"
	TaskCritique  Task = "critique"
	TaskAnswer    Task = "answer"  // the defender answers critiques
	TaskAddress   Task = "address" // the defender briefly addresses minor objections
	TaskRebuttal  Task = "rebuttal"
	TaskFinal     Task = "final" // the final questions of assumption extraction
	TaskSynthesis Task = "synthesis"
)

// Stance is how an agent's reply leans, for a front end to colour a badge
// without knowing the protocol's vocabulary.
type Stance string

const (
	StanceAgree    Stance = "agree"
	StancePartial  Stance = "partial"
	StanceDisagree Stance = "disagree"
	StanceNeutral  Stance = "neutral"
)

// OutcomeKind is how a debate ended.
type OutcomeKind string

const (
	OutcomeConsensus   OutcomeKind = "consensus"
	OutcomeTradeoff    OutcomeKind = "tradeoff"
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

// AgentInfo describes a participant, as the debate saw it.
type AgentInfo struct {
	Name    string   `json:"name"`
	Role    Role     `json:"role"`
	Command []string `json:"command"` // the prompt shown as {prompt}
	Format  string   `json:"format"`
	Timeout Duration `json:"timeout"`
}

// ContextFile is a file attached to the debate (its name and size; the
// content goes to the models, not to the log).
type ContextFile struct {
	Name  string `json:"name"`
	Bytes int    `json:"bytes"`
}

// DebateStarted opens every log.
type DebateStarted struct {
	Version     int           `json:"version"`
	ID          string        `json:"id"`
	Protocol    string        `json:"protocol"`
	Topic       string        `json:"topic"`
	Defender    string        `json:"defender"`
	Challengers []string      `json:"challengers"`
	Agents      []AgentInfo   `json:"agents"`
	MaxRounds   int           `json:"max_rounds"`
	Timeout     Duration      `json:"timeout_per_cli"`
	Skeptical   bool          `json:"skeptical_of_early_agreement"`
	Context     []ContextFile `json:"context,omitempty"`
	// Phases is the protocol's phase order, so a front end can draw a
	// timeline without knowing the protocol.
	Phases []Phase `json:"phases"`
}

// PhaseStarted marks the start of a phase (of a round, where rounds apply).
type PhaseStarted struct {
	Phase Phase `json:"phase"`
	Round int   `json:"round"`
	// Title is the phase as a person reads it, round included where
	// rounds apply: "Confrontation (round 2)".
	Title string `json:"title"`
}

// AgentStarted: an agent was asked something.
type AgentStarted struct {
	Agent   string   `json:"agent"`
	Role    Role     `json:"role"`
	Phase   Phase    `json:"phase"`
	Round   int      `json:"round"`
	Task    Task     `json:"task"`
	Attempt int      `json:"attempt"` // 1, then 2 for a retry or a repair request
	Timeout Duration `json:"timeout"`
}

// Chunk is text an agent streamed. An agent runs one call at a time, and
// every chunk of a call comes before that call's AgentFinished or
// AgentFailed: the runner delivers all of its output before it returns.
type Chunk struct {
	Agent string `json:"agent"`
	Text  string `json:"text"`
}

// AgentFinished: an agent replied.
type AgentFinished struct {
	Agent   string `json:"agent"`
	Role    Role   `json:"role"`
	Phase   Phase  `json:"phase"`
	Round   int    `json:"round"`
	Task    Task   `json:"task"`
	Attempt int    `json:"attempt"`
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
}

// AgentFailed: a call failed (timeout, crash, error in the stream...).
type AgentFailed struct {
	Agent     string             `json:"agent"`
	Role      Role               `json:"role"`
	Phase     Phase              `json:"phase"`
	Round     int                `json:"round"`
	Task      Task               `json:"task"`
	Attempt   int                `json:"attempt"`
	Reason    challengers.Reason `json:"reason"`
	Message   string             `json:"message"` // "timed out after 2m0s"
	ExitCode  int                `json:"exit_code"`
	Stderr    string             `json:"stderr,omitempty"`
	WillRetry bool               `json:"will_retry,omitempty"`
	Duration  Duration           `json:"duration"`
}

// VerdictRow is one challenger's standing in a verdict table.
type VerdictRow struct {
	Challenger string `json:"challenger"`
	Verdict    string `json:"verdict"`
	Strength   string `json:"strength"`
	Confidence string `json:"confidence"`
	Blocking   bool   `json:"blocking"`
	Status     string `json:"status"` // e.g. "resolved", "maintains", "failed"
}

// VerdictTable summarises where challengers stand and what happens next.
type VerdictTable struct {
	Phase    Phase        `json:"phase"`
	Round    int          `json:"round"`
	Rows     []VerdictRow `json:"rows"`
	Decision string       `json:"decision"` // what the rule decided, in words
}

// PositionUpdated: the defender's position, version N.
type PositionUpdated struct {
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
	Result   OutcomeKind `json:"result"`
	Rounds   int         `json:"rounds"`
	Summary  string      `json:"summary"`  // one line
	Markdown string      `json:"markdown"` // the consensus report or tradeoff document
	Failures []string    `json:"failures,omitempty"`
	// ReportPath and LogPath are where the Markdown and the log were
	// saved ("" when not saved).
	ReportPath string `json:"report_path,omitempty"`
	LogPath    string `json:"log_path,omitempty"`
}

func (DebateStarted) Kind() Kind   { return KindDebateStarted }
func (PhaseStarted) Kind() Kind    { return KindPhaseStarted }
func (AgentStarted) Kind() Kind    { return KindAgentStarted }
func (Chunk) Kind() Kind           { return KindChunk }
func (AgentFinished) Kind() Kind   { return KindAgentFinished }
func (AgentFailed) Kind() Kind     { return KindAgentFailed }
func (VerdictTable) Kind() Kind    { return KindVerdictTable }
func (PositionUpdated) Kind() Kind { return KindPositionUpdated }
func (Note) Kind() Kind            { return KindNote }
func (Outcome) Kind() Kind         { return KindOutcome }

// Unknown is an event of a kind this version does not know (written by a
// newer arena with the same log version). Readers skip it.
type Unknown struct {
	Type string          `json:"-"`
	Raw  json.RawMessage `json:"-"`
}

func (u Unknown) Kind() Kind { return Kind(u.Type) }

// AgentOf returns the agent an event is about, or "".
func (e Event) AgentOf() string {
	switch p := e.Payload.(type) {
	case AgentStarted:
		return p.Agent
	case Chunk:
		return p.Agent
	case AgentFinished:
		return p.Agent
	case AgentFailed:
		return p.Agent
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
	KindVerdictTable:    func() Payload { return &VerdictTable{} },
	KindPositionUpdated: func() Payload { return &PositionUpdated{} },
	KindNote:            func() Payload { return &Note{} },
	KindOutcome:         func() Payload { return &Outcome{} },
}

type wireEvent struct {
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
	return json.Marshal(wireEvent{Seq: e.Seq, Time: e.Time, Type: e.Payload.Kind(), Data: data})
}

// UnmarshalJSON reads what MarshalJSON writes. An unknown type becomes
// Unknown rather than an error.
func (e *Event) UnmarshalJSON(b []byte) error {
	var w wireEvent
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	if w.Type == "" {
		return fmt.Errorf("event has no \"type\"")
	}
	e.Seq, e.Time = w.Seq, w.Time
	mk, ok := payloadTypes[w.Type]
	if !ok {
		e.Payload = Unknown{Type: string(w.Type), Raw: w.Data}
		return nil
	}
	p := mk()
	if len(w.Data) == 0 || string(w.Data) == "null" {
		return fmt.Errorf("%s event has no \"data\"", w.Type)
	}
	if err := json.Unmarshal(w.Data, p); err != nil {
		return fmt.Errorf("%s event: %w", w.Type, err)
	}
	// A log is a file anyone can hand to arena replay: JSON escapes
	// ("\u001b") can carry terminal escape sequences that the runner's
	// cleaning never saw. Clean every string the way agent output is.
	scrubStrings(reflect.ValueOf(p))
	e.Payload = deref(p)
	return nil
}

// scrubStrings cleans, in place, every string reachable from v (through
// pointers, struct fields and slices; payloads hold no maps) of escape
// sequences and of control characters other than newline and tab.
func scrubStrings(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			scrubStrings(v.Elem())
		}
	case reflect.String:
		if s := v.String(); v.CanSet() && needsScrub(s) {
			v.SetString(challengers.CleanText(s))
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				scrubStrings(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return // raw JSON (a reply), never shown as it is
		}
		for i := 0; i < v.Len(); i++ {
			scrubStrings(v.Index(i))
		}
	}
}

// needsScrub reports whether s holds anything CleanText would change:
// a control character other than newline and tab (C0, DEL or C1), or
// invalid UTF-8.
func needsScrub(s string) bool {
	for _, r := range s {
		if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r < 0xa0 || r == utf8.RuneError {
			return true
		}
	}
	return false
}

// deref turns the pointer the decoder filled back into a value, so that
// consumers switch on value types only.
func deref(p Payload) Payload {
	switch v := p.(type) {
	case *DebateStarted:
		return *v
	case *PhaseStarted:
		return *v
	case *AgentStarted:
		return *v
	case *Chunk:
		return *v
	case *AgentFinished:
		return *v
	case *AgentFailed:
		return *v
	case *VerdictTable:
		return *v
	case *PositionUpdated:
		return *v
	case *Note:
		return *v
	case *Outcome:
		return *v
	}
	return p
}

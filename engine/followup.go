package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/shape"
	"github.com/arenadebate/arena/engine/doc"
)

// A follow-up question is asked of one seat after a run's outcome, with
// the whole run as its context (arena ask, f on the screen). It is not
// part of any protocol: the question and the call are appended to the
// run's log after the outcome, and the answer to its outcome document.

// PhaseFollowUp is the phase a follow-up call is asked in.
const PhaseFollowUp Phase = "follow-up"

// ShapeFollowUp is the reply shape of a follow-up: prose.
const ShapeFollowUp = "followup"

// FollowUp is a question the person running arena asked one seat after
// the outcome. The seat's call follows it.
type FollowUp struct {
	Seat     string `json:"seat"`
	Agent    string `json:"agent"`
	Question string `json:"question"`
}

func (FollowUp) Kind() Kind { return KindFollowUp }

// KindFollowUp is a FollowUp's kind (no version bump: older readers skip
// unknown kinds).
const KindFollowUp Kind = "follow_up"

func init() {
	payloadTypes[KindFollowUp] = func() Payload { return &FollowUp{} }
}

// proseReply is a reply in plain prose.
type proseReply string

func (r proseReply) Display() string         { return string(r) }
func (r proseReply) Badge() (string, Stance) { return "answered", StanceNeutral }

// FollowUpSeat is the seat a follow-up goes to by default: the one the
// protocol marked in the run's start event, else (a log written before
// protocols marked one) the first seat.
func FollowUpSeat(st DebateStarted) (Seat, bool) {
	for _, s := range st.Seats {
		if s.Name == st.FollowUpSeat {
			return s, true
		}
	}
	if len(st.Seats) > 0 {
		return st.Seats[0], true
	}
	return Seat{}, false
}

// ErrFollowUpSeat marks a follow-up asked of a seat the run does not
// have, or whose agent the settings no longer define: the person's to
// fix. The error's text is the whole sentence.
var ErrFollowUpSeat = errors.New("follow-up seat")

type seatError struct{ msg string }

func (e seatError) Error() string        { return e.msg }
func (e seatError) Is(target error) bool { return target == ErrFollowUpSeat }

// FollowUpTo is the seat a follow-up goes to, named by the seat's or its
// agent's name ("" for the default one, FollowUpSeat), with the agent
// agents (the settings now) define for it.
func FollowUpTo(start DebateStarted, name string, agents map[string]challengers.Agent) (Seat, challengers.Agent, error) {
	seat, found := FollowUpSeat(start)
	if name != "" {
		i := slices.IndexFunc(start.Seats, func(s Seat) bool { return s.Name == name || s.Agent == name })
		if found = i >= 0; found {
			seat = start.Seats[i]
		}
	}
	if !found {
		var names []string
		for _, st := range start.Seats {
			names = append(names, st.Name)
		}
		return seat, challengers.Agent{}, seatError{fmt.Sprintf("--seat %q: the run has no such seat (its seats: %s)", name, strings.Join(names, ", "))}
	}
	agent, ok := agents[seat.Agent]
	if !ok {
		return seat, agent, seatError{fmt.Sprintf("the agent of %s, %q, is not defined in the settings now", TheSeat(seat.Name), seat.Agent)}
	}
	return seat, agent, nil
}

// LastOutcome is the outcome of a log's latest run (the part after its
// last Resumed event), if it reached one: a follow-up comes after it.
func LastOutcome(events []Event) (Outcome, bool) {
	for i := len(events) - 1; i >= 0; i-- {
		switch p := events[i].Payload.(type) {
		case Outcome:
			return p, true
		case Resumed:
			return Outcome{}, false
		}
	}
	return Outcome{}, false
}

// maxTranscriptReply bounds each reply quoted in a follow-up's context;
// the outcome document is quoted whole.
const maxTranscriptReply = 6000

// ForFollowUp is what a follow-up needs of a log's event, as the log is
// read (arena ask): the start, the replies cut to what the prompt quotes
// of them, the moderator's notes, the outcome, the documents saved and
// the resumed runs; false for the rest (chunks, the calls' starts,
// tables). A follow-up on a long log then holds a transcript, not the log
// (issue 29). FollowUpPrompt, FollowUpTo, LastOutcome and DocumentBeside
// say of the events kept what they say of the whole log.
func ForFollowUp(e Event) (Event, bool) {
	switch p := e.Payload.(type) {
	case DebateStarted, ModeratorNote, Outcome, Saved, Resumed:
		return e, true
	case AgentFinished:
		if p.Reused || p.Phase == PhaseFollowUp {
			return e, false // the prompt quotes neither
		}
		d := strings.TrimSpace(p.Display)
		if len(d) > maxTranscriptReply {
			// Past the bytes the prompt quotes, and not white space: the
			// prompt's own cut (Truncate) gives what it gives of the
			// whole, and the rest is not held.
			cut := maxTranscriptReply + 1
			for cut < len(d) && !utf8.RuneStart(d[cut]) {
				cut++
			}
			d = d[:cut] + "…"
		}
		e.Payload = AgentFinished{CallInfo: p.CallInfo, Display: d}
		return e, true
	}
	return e, false
}

// FollowUpPrompt is the prompt of a follow-up: the run as it happened
// (every reply, the moderator's notes, the outcome document), then the
// question.
func FollowUpPrompt(events []Event, seat Seat, question string) string {
	var b strings.Builder
	var outcome string
	for _, e := range events {
		switch p := e.Payload.(type) {
		case DebateStarted:
			fmt.Fprintf(&b, "You took part in the run below (%s) as %s (%s). The person who ran it has a follow-up question for you. Answer it directly, in prose (Markdown is fine), from what the run established; say so where the run does not settle it.\n\nTOPIC:\n%s\n", p.Title, seat.Name, seat.Role, p.Topic)
			for _, c := range p.Context {
				fmt.Fprintf(&b, "(context file attached to the run: %s)\n", c.Name)
			}
			b.WriteString("\nTHE RUN, REPLY BY REPLY:\n")
		case AgentFinished:
			if p.Reused || p.Phase == PhaseFollowUp {
				continue
			}
			where := string(p.Phase)
			if p.Round > 0 {
				where += fmt.Sprintf(", round %d", p.Round)
			}
			fmt.Fprintf(&b, "\n--- %s (%s), %s ---\n%s\n", p.Seat, p.Role, where, Truncate(strings.TrimSpace(p.Display), maxTranscriptReply))
		case ModeratorNote:
			fmt.Fprintf(&b, "\n--- MODERATOR'S NOTE (from the person running arena) ---\n%s\n", p.Text)
		case Outcome:
			outcome = p.Markdown
		}
	}
	if outcome != "" {
		b.WriteString("\nTHE OUTCOME DOCUMENT:\n" + strings.TrimSpace(outcome) + "\n")
	}
	b.WriteString("\nFOLLOW-UP QUESTION (from the person running arena, not a model):\n" + strings.TrimSpace(question) + "\n\n")
	b.WriteString(shape.Tag(ShapeFollowUp) + "\n")
	return b.String()
}

// AskFollowUp asks seat (held by agent) a follow-up question about the
// run of events, emitting the question and the call on bus.
func AskFollowUp(ctx context.Context, bus *Bus, opts Options, events []Event, seat Seat, agent challengers.Agent, question string) Answer {
	bus.Emit(FollowUp{Seat: seat.Name, Agent: agent.Name, Question: question})
	rt := &Runtime{Bus: bus, Run: opts.Run, Env: opts.Env}
	return rt.Ask(ctx, Question{
		Seat: seat.Name, Agent: agent, Role: seat.Role, Phase: PhaseFollowUp, Task: "follow-up",
		Shape: ShapeFollowUp, Prompt: FollowUpPrompt(events, seat, question), Retries: 1,
		Parse: func(text string) (Reply, error) {
			if strings.TrimSpace(text) == "" {
				return nil, errors.New("the reply is empty")
			}
			return proseReply(strings.TrimSpace(text)), nil
		},
	})
}

// AnswerFollowUp asks the follow-up as AskFollowUp does, and appends the
// question and the answer to the run's outcome document beside its log
// at logPath ("" for none): arena wrote it, so adding to it is arena's to
// do. Where that document is not the one arena saved for the run, they go
// to a new one beside the log, and a note says so (saveFollowUp).
func AnswerFollowUp(ctx context.Context, bus *Bus, opts Options, events []Event, seat Seat, agent challengers.Agent, question, logPath string) Answer {
	ans := AskFollowUp(ctx, bus, opts, events, seat, agent, question)
	if logPath != "" {
		saveFollowUp(bus, logPath, events, FollowUpMarkdown(seat, agent.Name, question, ans))
	}
	return ans
}

// FollowUpMarkdown is how a follow-up is appended to the outcome document.
func FollowUpMarkdown(seat Seat, agent, question string, a Answer) string {
	answer := strings.TrimSpace(a.Text)
	switch {
	case a.Cancelled:
		answer = interruptedAnswer
	case a.Failed != nil:
		answer = "_(" + FailureWords(agent, a.Failed, 0) + ")_"
	}
	return "\n\n" + doc.Sections([]doc.Section{FollowUpSection(seat, agent, question, answer)}, 2)
}

package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/shape"
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

// maxTranscriptReply bounds each reply quoted in a follow-up's context;
// the outcome document is quoted whole.
const maxTranscriptReply = 6000

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

// FollowUpMarkdown is how a follow-up is appended to the outcome document.
func FollowUpMarkdown(seat Seat, agent, question string, a Answer) string {
	answer := strings.TrimSpace(a.Text)
	switch {
	case a.Cancelled:
		answer = "_(interrupted before an answer came)_"
	case a.Failed != nil:
		answer = "_(" + FailureWords(agent, a.Failed, 0) + ")_"
	}
	return fmt.Sprintf("\n\n## Follow-up: %s\n\nAsked of %s (%s, %s) after the outcome.\n\n%s\n", OneLine(question, 0), seat.Name, seat.Role, agent, answer)
}

package engine

import "strings"

// A name read from outside (a log's seat, agent, role, phase, file name)
// is data, and it goes into places where a line means something: a
// Markdown heading or list item of the outcome document, a line of a
// prompt ("--- claude (defender), critique ---"), a printed line. A name
// holding a newline starts a line of its own there, written by whoever
// wrote the log (issue 36, item 1: a seat named "claude\n$(touch X)"
// put a line of its choosing into the document a follow-up appended to).
// So every name a decoded event holds is made one line, in one place:
// DecodePayload, which every log, replay, resume, follow-up and arena
// mcp's event pipe goes through. Text that is prose (a topic, a reply, a
// document, a question) keeps its lines.

// lineBreaks are the characters that end or break a line: the line
// breaks, the tabs and feeds, NEL and Unicode's line and paragraph
// separators.
const lineBreaks = "\r\n\t\v\f\u0085\u2028\u2029"

// OneLineName is a name as one line: where it holds a line break or a
// tab, its words joined by single spaces. A name without one is returned
// as it is (so that a seat's name still matches the same name elsewhere).
func OneLineName(s string) string {
	if !strings.ContainsAny(s, lineBreaks) {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// oneLine makes each of names one line, in place.
func oneLine[T ~string](names ...*T) {
	for _, n := range names {
		*n = T(OneLineName(string(*n)))
	}
}

// lineNames makes the names a decoded payload p (a pointer to it, as
// DecodePayload fills it) holds one line each.
func lineNames(p Payload) {
	switch v := p.(type) {
	case *DebateStarted:
		startNames(v)
	case *PhaseStarted:
		oneLine(&v.Phase)
		oneLine(&v.Title)
	case *AgentStarted:
		callNames(&v.CallInfo)
		oneLine(&v.Shape)
	case *AgentFinished:
		callNames(&v.CallInfo)
		oneLine(&v.Badge)
	case *AgentFailed:
		callNames(&v.CallInfo)
	case *Chunk:
		oneLine(&v.Seat)
	case *PositionUpdated:
		oneLine(&v.Seat)
	case *Table:
		oneLine(&v.Phase)
		oneLine(&v.Title)
		for i := range v.Columns {
			oneLine(&v.Columns[i])
		}
	case *Note:
		oneLine(&v.Level)
	case *Outcome:
		oneLine(&v.LogPath)
	case *Saved:
		oneLine(&v.What, &v.Path, &v.SHA256)
	case *Resumed:
		oneLine(&v.From)
		oneLine(&v.Phase)
		settingNames(v.Settings)
	case *ModeratorNote:
		oneLine(&v.Phase)
	case *FollowUp:
		oneLine(&v.Seat, &v.Agent)
	}
}

// startNames makes a start event's names one line: the protocol's, the
// seats', the agents', the phases', the attached files'.
func startNames(v *DebateStarted) {
	oneLine(&v.Protocol, &v.Title, &v.Noun, &v.FollowUpSeat)
	for i := range v.Seats {
		s := &v.Seats[i]
		oneLine(&s.Name, &s.Agent)
		oneLine(&s.Role)
	}
	for i := range v.Agents {
		a := &v.Agents[i]
		oneLine(&a.Name, &a.Format, &a.Family, &a.Endpoint)
	}
	for i := range v.Context {
		oneLine(&v.Context[i].Name)
	}
	for i := range v.Phases {
		oneLine(&v.Phases[i].Phase)
		oneLine(&v.Phases[i].Title)
	}
	settingNames(v.Settings)
}

func settingNames(settings []Setting) {
	for i := range settings {
		oneLine(&settings[i].Name)
	}
}

// callNames makes the names of a call one line: its seat, agent, role,
// phase and task.
func callNames(c *CallInfo) {
	oneLine(&c.Seat, &c.Agent)
	oneLine(&c.Role)
	oneLine(&c.Phase)
	oneLine(&c.Task)
}

// TheSeat is a seat's name as a noun phrase, for a sentence about the
// seat (issue 40, item 14: "qwen takes the for Postgres LISTEN/NOTIFY
// seat"). Seats are named in three shapes, and each reads as words:
//   - an advocate's seat is named "for" its option: "the seat for
//     Postgres LISTEN/NOTIFY";
//   - a seat a qualifier names after a comma or a colon ("judge,
//     reversed", "facts: Claude"): "the judge seat (reversed)", "the
//     facts seat (Claude)";
//   - any other name, a role's or an agent's ("judge", "Judge 1",
//     "quick", "qwen"): "the judge seat", "the qwen seat".
func TheSeat(name string) string {
	if strings.HasPrefix(name, "for ") {
		return "the seat " + name
	}
	for _, sep := range []string{", ", ": "} {
		if head, qual, ok := strings.Cut(name, sep); ok && head != "" && qual != "" {
			return "the " + head + " seat (" + qual + ")"
		}
	}
	if name == "" {
		return "a seat"
	}
	return "the " + name + " seat"
}

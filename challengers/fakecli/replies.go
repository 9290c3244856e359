package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"strings"

	"github.com/arenadebate/arena/challengers/fakecli/fakeapi"
)

// replyText is the text the fake model answers with: the step's reply, or
// the canned one for the kind, dressed as the step asks (fence, prose).
func replyText(st fakeapi.Step, agent string, bias *fakeapi.Bias, kind fakeapi.Kind, prompt string) (string, error) {
	body, isJSON, err := stepReply(st.Reply)
	if err != nil {
		return "", err
	}
	if st.Reply == nil {
		body, isJSON = canned(agent, bias, kind, prompt), kind != fakeapi.KindOther
	}
	if isJSON && st.Fence {
		body = "```json\n" + body + "\n```"
	}
	if st.Prose != "" {
		body = st.Prose + "\n\n" + body
	}
	return body, nil
}

// stepReply turns a scripted reply into text: a JSON string is used
// verbatim, any other value is pretty-printed JSON (keys in the order the
// test wrote them).
func stepReply(r any) (text string, isJSON bool, err error) {
	raw, ok := r.(json.RawMessage)
	if !ok {
		if r == nil {
			return "", false, nil
		}
		if s, ok := r.(string); ok {
			return s, false, nil
		}
		raw = encode(r)
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, false, nil
	}
	return indent(raw), true, nil
}

func indent(raw []byte) string {
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}

// voice gives each agent its own wording, so the panes of a debate run on
// fakes look different.
type voice struct {
	name string // "Gemini"
	n    int    // a number derived from the agent name
	// bias is how it judges (nil: as the canned replies do).
	bias *fakeapi.Bias
}

func voiceOf(agent string) voice {
	h := fnv.New32a()
	h.Write([]byte(agent))
	name := agent
	if name != "" {
		name = strings.ToUpper(name[:1]) + name[1:]
	}
	return voice{name: name, n: int(h.Sum32() % 1024)}
}

// pick returns k items of list starting at an offset chosen by the voice.
func (v voice) pick(list []string, k int) []string {
	out := make([]string, k)
	for i := range out {
		out[i] = list[(v.n+i)%len(list)]
	}
	return out
}

var (
	stances = []string{
		"start with the simplest design that can work, measure it, and only then optimise",
		"roll the change out in stages behind a feature flag so it can be reverted in minutes",
		"keep the current system and fix its single worst bottleneck first",
		"build a small prototype to settle the open questions before committing to a design",
		"pick the boring technology the team already knows how to operate",
	}
	reasons = []string{
		"it keeps the cost of being wrong low",
		"it produces real measurements instead of guesses",
		"the team can ship it within the current quarter",
		"it leaves the more ambitious options open for later",
		"it has the fewest moving parts to operate at night",
		"it is easy to explain to the people who will maintain it",
	}
	assumptions = []string{
		"the load will grow gradually rather than all at once",
		"the team has no more than two engineers for this",
		"a short outage during migration is acceptable",
		"the requirements will not change much this year",
		"operational simplicity matters more than peak performance",
	}
)

// replySet are canned replies by reply shape: each protocol's file
// (replies_<protocol>.go) holds its own.
type replySet map[fakeapi.Kind]func(v voice, prompt string) obj

// protocolReplies are the canned replies of every protocol's shapes, one
// set per protocol: the shapes its spec lists (engine.Spec.Layouts),
// which `fakecli shapes` prints and TestEveryProtocolHasEveryPart holds
// the list to. A shape the fakes do not know is answered "OK".
var protocolReplies = joinReplies(debateReplies, compareReplies, judgeReplies, verdictReplies, rankReplies, benchReplies)

func joinReplies(sets ...replySet) replySet {
	out := replySet{}
	for _, set := range sets {
		maps.Copy(out, set)
	}
	return out
}

// debateReplies are the adversarial debate's.
var debateReplies = replySet{
	fakeapi.KindOpening:   func(v voice, _ string) obj { return v.opening() },
	fakeapi.KindCritique:  func(v voice, _ string) obj { return v.critique() },
	fakeapi.KindAnswer:    func(v voice, prompt string) obj { return v.answer(challengers(prompt)) },
	fakeapi.KindRebuttal:  func(v voice, _ string) obj { return v.rebuttal() },
	fakeapi.KindFinal:     func(v voice, _ string) obj { return v.final() },
	fakeapi.KindSynthesis: func(v voice, _ string) obj { return v.synthesis() },
}

// shapes are the reply shapes the fakes answer, sorted.
func shapes() []string {
	var out []string
	for k := range protocolReplies {
		out = append(out, string(k))
	}
	for k := range proseReplies {
		out = append(out, string(k))
	}
	slices.Sort(out)
	return out
}

// canned is the default reply for a kind: valid JSON of the shape arena
// asks for, so a whole debate can run on fakes alone.
func canned(agent string, bias *fakeapi.Bias, kind fakeapi.Kind, prompt string) string {
	v := voiceOf(agent)
	v.bias = bias
	if f, ok := proseReplies[kind]; ok {
		return f(v, prompt)
	}
	if f, ok := protocolReplies[kind]; ok {
		return indent(encode(f(v, prompt)))
	}
	return "OK"
}

func (v voice) rebuttal() obj {
	return obj{{"choice", "accept"}, {"explanation", v.name + " accepts the critique: the risk it names is real and cheap to address."}}
}

func (v voice) stance(offset int) string {
	return stances[(v.n+offset)%len(stances)]
}

func (v voice) opening() obj {
	return obj{
		{"position", fmt.Sprintf("%s's position: %s.", v.name, v.stance(0))},
		{"reasoning", v.pick(reasons, 3)},
		{"confidence", "medium"},
		{"weaknesses", []string{
			"it may need a second iteration once real traffic arrives",
			"it postpones some of the harder design questions",
		}},
		{"assumptions", v.pick(assumptions, 2)},
	}
}

func (v voice) critique() obj {
	return obj{
		{"verdict", "partial"},
		{"critique", v.name + " agrees with the goal but thinks the plan underestimates the cost of migrating existing data."},
		{"evidence", "Migrations of this size usually take longer than the build itself, and the plan gives them no time."},
		{"alternative", v.stance(1) + "."},
		{"confidence", "medium"},
		{"objection_strength", "minor"},
		{"assumptions_challenged", v.pick(assumptions, 1)},
	}
}

func (v voice) answer(names []string) obj {
	responses := make([]obj, 0, len(names))
	for _, n := range names {
		responses = append(responses, obj{
			{"challenger", n},
			{"decision", "accept"},
			{"explanation", fmt.Sprintf("%s accepts the point from %s and adds a migration step to the plan.", v.name, n)},
		})
	}
	return obj{
		{"responses", responses},
		{"updated_position", fmt.Sprintf("%s's updated position: %s, with an explicit data-migration phase.", v.name, v.stance(0))},
	}
}

func (v voice) final() obj {
	return obj{
		{"why_disagree", v.name + " weighs the cost of a wrong first step higher than the cost of a slower start."},
		{"what_would_make_other_right", "Evidence that the load will arrive all at once, before a staged design could adapt."},
		{"my_assumption", v.pick(assumptions, 1)[0]},
	}
}

func (v voice) synthesis() obj {
	return obj{
		{"options", []obj{
			{{"name", "Incremental"}, {"summary", "Ship the simplest version now and improve it with measurements."}, {"choose_if", []string{"load grows gradually", "the team is small"}}},
			{{"name", "Prototype first"}, {"summary", "Spend two weeks on a prototype that answers the open questions."}, {"choose_if", []string{"the requirements are unclear", "a wrong choice is expensive to undo"}}},
		}},
		{"recommendation", fmt.Sprintf("%s recommends: %s.", v.name, v.stance(0))},
		{"open_questions", []string{"How fast will the load really grow?", "Who will operate the system at night?"}},
	}
}

// withEscapes writes escape sequences, JSON-escaped, at the start and end
// of every string value of the JSON object in reply (keys are left alone,
// and so is any text around the object), and invisible characters after
// the first word of every sentence (withInvisible).
func withEscapes(reply string) string {
	const before = `\u001b]0;` + fakeapi.EscapesMarker + `\u0007\u001b[2J`
	const after = `\u001b[31m`
	start, end := strings.IndexByte(reply, '{'), strings.LastIndexByte(reply, '}')
	if start < 0 || end < start {
		return reply
	}
	var b strings.Builder
	b.WriteString(reply[:start])
	s := reply[start : end+1]
	for i := 0; i < len(s); i++ {
		if s[i] != '"' {
			b.WriteByte(s[i])
			continue
		}
		j := i + 1
		for j < len(s) && s[j] != '"' {
			if s[j] == '\\' {
				j++
			}
			j++
		}
		body := s[i+1 : min(j, len(s))]
		rest := strings.TrimLeft(s[min(j+1, len(s)):], " \t\r\n")
		if strings.HasPrefix(rest, ":") { // a key
			b.WriteString(`"` + body + `"`)
		} else {
			b.WriteString(`"` + before + withInvisible(body) + after + `"`)
		}
		i = j
	}
	b.WriteString(reply[end+1:])
	return b.String()
}

// Invisible is what withInvisible writes: a right-to-left override and
// a zero-width space as JSON escapes, a left-to-right isolate and its end
// as they are (Trojan Source hides code in a review this way), then the
// characters of issue 36 (item 10) a person cannot see either: a soft
// hyphen and a line separator escaped, U+034F, U+180E, the Hangul fillers
// and a paragraph separator as they are, and Unicode tag characters (text
// a model reads and a person does not), the first escaped as JSON writes
// it (a surrogate pair).
const Invisible = `\u202e\u200b` + "\u2066\u2069" + `\u00ad\u2028` + "\u034f\u180e\u115f\u3164\u2029" + `\udb40\udc41` + "\U000E0042\U000E0043"

// withInvisible puts Invisible after the first word of body when it is a
// sentence (four words or more): not in a name, a verdict or a number,
// whose meaning it would change.
func withInvisible(body string) string {
	if strings.Count(body, " ") < 3 {
		return body
	}
	first, rest, _ := strings.Cut(body, " ")
	return first + " " + Invisible + rest
}

// fenced is the content of the first block of material in prompt whose
// name starts with prefix, as arena fences it (trust.Fence): between
// "<<<ARENA-INPUT id name>>>" and "<<<END ARENA-INPUT id>>>".
func fenced(prompt, prefix string) (string, bool) {
	const open, closing = "<<<ARENA-INPUT ", "<<<END ARENA-INPUT "
	for rest := prompt; ; {
		i := strings.Index(rest, open)
		if i < 0 {
			return "", false
		}
		rest = rest[i+len(open):]
		line, _, _ := strings.Cut(rest, "\n")
		head, ok := strings.CutSuffix(line, ">>>")
		if !ok {
			continue // the marker quoted in prose (the rule that explains fences)
		}
		if len(line) == len(rest) {
			return "", false
		}
		body := rest[len(line)+1:]
		id, name, _ := strings.Cut(head, " ")
		end := strings.Index(body, "\n"+closing+id+">>>")
		if end < 0 {
			continue
		}
		if strings.HasPrefix(name, prefix) {
			return body[:end], true
		}
		rest = body[end:]
	}
}

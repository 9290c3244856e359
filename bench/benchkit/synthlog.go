package benchkit

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/adversarial"
	"github.com/arenadebate/arena/engine/runlog"
)

// WriteLog writes, in dir, the log of a five-round debate that ends in a
// tradeoff and is about size bytes long, and returns its path. It has the
// shape of a real one (arena's own types and log writer; every phase and
// event kind; three challengers streaming at once in the challenge) but
// long replies, streamed as models stream them: deltas of a few bytes to a
// few dozen, each a chunk event. Most of the file is chunk events, as in a
// real log. The content is the same for the same size.
func WriteLog(dir string, size int64) (string, error) {
	reply := int(size / 160) // a first guess: the log is about 160 replies long
	for try := 0; ; try++ {
		path := filepath.Join(dir, fmt.Sprintf("synthetic-%d.jsonl", try))
		if err := writeSynthetic(path, reply); err != nil {
			return "", err
		}
		st, err := os.Stat(path)
		if err != nil {
			return "", err
		}
		off := float64(st.Size()) / float64(size)
		if (off > 0.98 && off < 1.02) || try == 4 {
			return path, nil
		}
		os.Remove(path)
		reply = int(float64(reply) / off)
	}
}

// synth writes one synthetic debate through a runlog.Writer.
type synth struct {
	w     *runlog.Writer
	seq   int64
	now   time.Time
	rng   *rand.Rand
	reply int // bytes of text per reply
}

func writeSynthetic(path string, reply int) error {
	w, err := runlog.Create(filepath.Dir(path), filepath.Base(path))
	if err != nil {
		return err
	}
	s := &synth{w: w, now: time.Date(2026, 11, 21, 15, 30, 0, 0, time.UTC), rng: rand.New(rand.NewPCG(1, 2)), reply: reply}
	s.debate()
	return w.Close()
}

func (s *synth) emit(p engine.Payload, gap time.Duration) {
	s.seq++
	s.now = s.now.Add(gap)
	s.w.Handle(engine.Event{Seq: s.seq, Time: s.now, Payload: p})
}

const synthTopic = "Should we move user sessions from Redis to Postgres, given a write-heavy login path?"

var synthChallengers = []string{"gemini", "codex", "qwen"}

func (s *synth) debate() {
	var agents []engine.AgentInfo
	var seats []engine.Seat
	for _, n := range append([]string{"claude"}, synthChallengers...) {
		a, _ := challengers.Builtin(n)
		agents = append(agents, engine.AgentInfo{Name: n, Command: a.Command, Format: string(a.Format), Timeout: engine.Duration(2 * time.Minute)})
		seats = append(seats, engine.Seat{Name: n, Agent: n, Role: roleOf(n)})
	}
	s.emit(engine.DebateStarted{
		Version: engine.LogVersion, ID: engine.Slug(synthTopic, 40), Protocol: adversarial.Name, Title: adversarial.Title, Topic: synthTopic,
		Seats: seats, Agents: agents, MaxRounds: 5,
		Timeout: engine.Duration(2 * time.Minute), Phases: adversarial.Phases,
		Settings: []engine.Setting{{Name: "skeptical of early agreement", Value: "true"}},
	}, 0)
	s.phase(adversarial.PhasePreflight, 1, "Preflight")
	s.phase(adversarial.PhaseOpening, 1, "Opening position")
	s.calls(adversarial.PhaseOpening, 1, adversarial.TaskOpening, "claude")
	s.emit(engine.PositionUpdated{Seat: "claude", Version: 1, Round: 1, Position: s.sentence(300), Changed: true}, 0)
	s.phase(adversarial.PhaseChallenge, 1, "Parallel challenge (round 1)")
	s.calls(adversarial.PhaseChallenge, 1, adversarial.TaskCritique, synthChallengers...)
	s.phase(adversarial.PhaseConsensusCheck, 1, "Consensus check")
	s.verdicts(adversarial.PhaseConsensusCheck, 1, "Disagreement or mixed verdicts: on to confrontation")
	for round := 1; round <= 5; round++ {
		s.phase(adversarial.PhaseConfront, round, fmt.Sprintf("Confrontation (round %d)", round))
		s.calls(adversarial.PhaseConfront, round, adversarial.TaskAnswer, "claude")
		s.emit(engine.PositionUpdated{Seat: "claude", Version: round + 1, Round: round, Position: s.sentence(300), Changed: true}, 0)
		s.phase(adversarial.PhaseRebuttal, round, fmt.Sprintf("Challenger rebuttal (round %d)", round))
		s.calls(adversarial.PhaseRebuttal, round, adversarial.TaskRebuttal, "gemini")
		s.phase(adversarial.PhaseIterationCheck, round, fmt.Sprintf("Iteration check (round %d)", round))
		s.verdicts(adversarial.PhaseIterationCheck, round, fmt.Sprintf("Round %d of 5: 1 unresolved (gemini): next round", round))
	}
	s.phase(adversarial.PhaseAssumptionExtraction, 5, "Assumption extraction")
	s.calls(adversarial.PhaseAssumptionExtraction, 5, adversarial.TaskFinal, "claude", "gemini")
	s.calls(adversarial.PhaseAssumptionExtraction, 5, adversarial.TaskSynthesis, "claude")
	s.emit(engine.Note{Level: engine.NoteInfo, Message: "gemini maintains its objection after 5 rounds"}, 0)
	s.phase(engine.PhaseOutcome, 5, "Outcome")
	s.emit(engine.Outcome{
		Result: adversarial.OutcomeTradeoff, Stance: engine.StancePartial, Rounds: 5, Summary: "No consensus after 5 rounds: tradeoff identified",
		Markdown: "# Debate outcome: tradeoff identified\n\n" + s.paragraphs(4*s.reply),
		LogPath:  "debate-logs/synthetic.jsonl",
	}, 40*time.Millisecond)
	s.emit(engine.Saved{What: engine.WhatOutcomeDocument, Path: "debate-logs/synthetic.md"}, time.Millisecond)
}

func (s *synth) phase(p engine.Phase, round int, title string) {
	s.emit(engine.PhaseStarted{Phase: p, Round: round, Title: title}, 2*time.Millisecond)
}

// calls has the agents answer at once: they start together, their deltas
// interleave, and each finishes with its whole reply.
func (s *synth) calls(p engine.Phase, round int, task engine.Task, agents ...string) {
	type stream struct {
		agent  string
		text   string
		deltas []string
	}
	var streams []*stream
	for _, a := range agents {
		s.emit(engine.AgentStarted{CallInfo: callInfo(a, p, round, task), Shape: shapeOf(task), Timeout: engine.Duration(2 * time.Minute)}, time.Millisecond)
		text := s.replyText(task)
		streams = append(streams, &stream{agent: a, text: text, deltas: s.deltas(text)})
	}
	start := s.now
	for live := len(streams); live > 0; {
		live = 0
		for _, st := range streams {
			if len(st.deltas) == 0 {
				continue
			}
			live++
			s.emit(engine.Chunk{Seat: st.agent, Text: st.deltas[0]}, time.Duration(5+s.rng.IntN(20))*time.Millisecond)
			st.deltas = st.deltas[1:]
		}
	}
	for _, st := range streams {
		badge, stance := "disagree · strong", engine.StanceDisagree
		if roleOf(st.agent) == adversarial.RoleDefender {
			badge, stance = "", engine.StanceNeutral
		}
		s.emit(engine.AgentFinished{
			CallInfo: callInfo(st.agent, p, round, task),
			Reply:    compactJSON(st.text), Text: st.text, Display: s.display(st.text), Badge: badge, Stance: stance,
			Usage:    &challengers.Usage{InputTokens: int64(4000 + s.rng.IntN(4000)), OutputTokens: int64(len(st.text) / 4)},
			Duration: engine.Duration(s.now.Sub(start)),
		}, 3*time.Millisecond)
	}
}

// replyText is a reply as a model writes it: indented JSON with long
// prose values.
func (s *synth) replyText(task engine.Task) string {
	var v any
	n := s.reply
	switch task {
	case adversarial.TaskCritique:
		v = map[string]any{
			"verdict": "disagree", "critique": s.paragraphs(n / 2), "evidence": s.paragraphs(n / 4),
			"alternative": s.sentence(n / 8), "confidence": "high", "objection_strength": "strong",
			"assumptions_challenged": []string{s.sentence(n / 16), s.sentence(n / 16)},
		}
	case adversarial.TaskAnswer:
		v = map[string]any{
			"responses":        []map[string]string{{"challenger": "gemini", "decision": "reject", "explanation": s.paragraphs(n / 2)}},
			"updated_position": s.paragraphs(n / 2),
		}
	case adversarial.TaskRebuttal:
		v = map[string]any{"choice": "maintain", "explanation": s.paragraphs(n)}
	case adversarial.TaskFinal:
		v = map[string]any{"why_disagree": s.paragraphs(n / 2), "what_would_make_other_right": s.paragraphs(n / 4), "my_assumption": s.sentence(n / 4)}
	case adversarial.TaskSynthesis:
		v = map[string]any{
			"options":        []map[string]any{{"name": "Postgres", "summary": s.paragraphs(n / 3), "choose_if": []string{s.sentence(80), s.sentence(80)}}, {"name": "Redis", "summary": s.paragraphs(n / 3), "choose_if": []string{s.sentence(80)}}},
			"recommendation": s.paragraphs(n / 3), "open_questions": []string{s.sentence(100), s.sentence(100)},
		}
	default:
		v = map[string]any{"position": s.paragraphs(n / 2), "reasoning": []string{s.paragraphs(n / 4), s.paragraphs(n / 4)}, "confidence": "medium"}
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err)
	}
	return string(b)
}

func compactJSON(text string) json.RawMessage {
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		panic(err)
	}
	b, _ := json.Marshal(v)
	return b
}

// display is a readable rendering of a reply, as the engine shows one.
func (s *synth) display(text string) string {
	var m map[string]any
	_ = json.Unmarshal([]byte(text), &m)
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(m)) {
		fmt.Fprintf(&b, "**%s:** %v\n\n", strings.ReplaceAll(k, "_", " "), m[k])
	}
	return b.String()
}

// deltas cuts text into pieces of 2 to 40 bytes at rune boundaries.
func (s *synth) deltas(text string) []string {
	var out []string
	for len(text) > 0 {
		n := min(2+s.rng.IntN(39), len(text))
		for n < len(text) && text[n]&0xC0 == 0x80 {
			n++
		}
		out = append(out, text[:n])
		text = text[n:]
	}
	return out
}

var synthWords = strings.Fields(`the session table takes a write on every request and Postgres
will have to vacuum it constantly; Redis keeps them in memory with a TTL — the
expiry is free. A login storm after an outage doubles the write rate, and the
primary's WAL volume grows with it. Moving them buys one fewer system to run at
night, transactional invalidation on password change, and backups that already
exist. Measure p99 latency under the real write mix before deciding; the
numbers from staging are optimistic. Partitioning by day keeps deletes cheap,
unlogged tables cut the WAL cost but lose the data on a crash — café naïve résumé`)

func (s *synth) sentence(n int) string {
	var b strings.Builder
	for b.Len() < n {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(synthWords[s.rng.IntN(len(synthWords))])
	}
	b.WriteByte('.')
	return b.String()
}

func (s *synth) paragraphs(n int) string {
	var b strings.Builder
	for b.Len() < n {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(s.sentence(min(400, max(n-b.Len(), 20))))
	}
	return b.String()
}

func (s *synth) verdicts(p engine.Phase, round int, decision string) {
	rows := []engine.Row{
		{Cells: []string{"gemini", "disagree", "strong", "high", "yes", "maintains"}, Stance: engine.StanceDisagree},
		{Cells: []string{"codex", "partial", "moderate", "medium", "", "resolved"}, Stance: engine.StancePartial},
		{Cells: []string{"qwen", "partial", "minor", "medium", "", "resolved"}, Stance: engine.StancePartial},
	}
	s.emit(engine.Table{
		Phase: p, Round: round, Title: fmt.Sprintf("Verdicts, round %d", round),
		Columns: []string{"challenger", "verdict", "objection", "confidence", "blocking", "status"},
		Rows:    rows, Decision: decision,
	}, time.Millisecond)
}

func roleOf(agent string) engine.Role {
	if agent == "claude" {
		return adversarial.RoleDefender
	}
	return adversarial.RoleChallenger
}

func callInfo(agent string, p engine.Phase, round int, task engine.Task) engine.CallInfo {
	return engine.CallInfo{Seat: agent, Agent: agent, Role: roleOf(agent), Phase: p, Round: round, Task: task, Attempt: 1}
}

// shapeOf is the reply shape the adversarial debate asks for a task.
func shapeOf(t engine.Task) string {
	if t == adversarial.TaskAddress {
		return adversarial.ShapeAnswer
	}
	return string(t)
}

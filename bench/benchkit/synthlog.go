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
	"unicode/utf8"

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
	return writeSized(dir, size, synthOptions{})
}

// WriteInterruptedLog is WriteLog's debate stopped in its fourth round, as
// an arena interrupted by Ctrl+C leaves it (an interrupted outcome), its
// start recording inv, the command that started it: a log arena resume
// carries on, reusing every reply it holds.
func WriteInterruptedLog(dir string, size int64, inv engine.Invocation) (string, error) {
	return writeSized(dir, size, synthOptions{cutInRound: 4, inv: &inv})
}

// WriteFloodedLog writes, in dir, the log of a debate interrupted in its
// first confrontation, about size bytes long because one challenger
// flooded its critique: its output streamed in deltas of 2 to 4 bytes, a
// chunk event each, until the runner stopped it at the output cap (8 MiB
// of text; the call failed with output-limit). The other replies are of a
// usual size, and the start records inv: arena resume carries it on,
// asking the flooded call again. A 500 MB log most likely comes about
// this way: a reply that long no model writes.
func WriteFloodedLog(dir string, size int64, inv engine.Invocation) (string, error) {
	path := filepath.Join(dir, "flooded.jsonl")
	w, err := runlog.Create(dir, filepath.Base(path))
	if err != nil {
		return "", err
	}
	s := &synth{w: w, now: time.Date(2026, 11, 21, 15, 30, 0, 0, time.UTC), rng: rand.New(rand.NewPCG(1, 2)), reply: 1500,
		synthOptions: synthOptions{inv: &inv}}
	s.start()
	s.phase(adversarial.PhasePreflight, 1, "Preflight")
	s.phase(adversarial.PhaseOpening, 1, "Opening position")
	s.calls(adversarial.PhaseOpening, 1, adversarial.TaskOpening, "claude")
	s.emit(engine.PositionUpdated{Seat: "claude", Version: 1, Round: 1, Position: s.sentence(300), Changed: true}, 0)
	s.phase(adversarial.PhaseChallenge, 1, "Parallel challenge (round 1)")
	s.calls(adversarial.PhaseChallenge, 1, adversarial.TaskCritique, "gemini", "qwen")
	s.flood("codex", size)
	s.phase(adversarial.PhaseConsensusCheck, 1, "Consensus check")
	s.verdicts(adversarial.PhaseConsensusCheck, 1, "Disagreement or mixed verdicts: on to confrontation")
	s.phase(adversarial.PhaseConfront, 1, "Confrontation (round 1)")
	s.interrupted(1)
	return w.Path(), w.Close()
}

// flood has agent stream tiny deltas until the log is about size bytes
// long, then fail at the output cap.
func (s *synth) flood(agent string, size int64) {
	call := callInfo(agent, adversarial.PhaseChallenge, 1, adversarial.TaskCritique)
	s.emit(engine.AgentStarted{CallInfo: call, Shape: shapeOf(adversarial.TaskCritique), Timeout: engine.Duration(2 * time.Minute)}, time.Millisecond)
	start := s.now
	for written := int64(0); written < size; {
		d := s.token()
		s.emit(engine.Chunk{Seat: agent, Text: d}, time.Millisecond/10)
		written += int64(len(d)) + 110 // about a chunk event's line
	}
	s.emit(engine.AgentFailed{CallInfo: call, Reason: "output-limit", Message: "printed too much output: stopped after 8 MiB (output_cap)",
		ExitCode: -1, Duration: engine.Duration(s.now.Sub(start))}, time.Millisecond)
}

// token is a delta of 2 to 4 bytes (a whole rune at its end), as a model
// streams a token.
func (s *synth) token() string {
	w := synthWords[s.rng.IntN(len(synthWords))] + " "
	n := min(2+s.rng.IntN(3), len(w))
	for n < len(w) && !utf8.RuneStart(w[n]) {
		n++
	}
	return w[:n]
}

// synthOptions vary the synthetic debate.
type synthOptions struct {
	cutInRound int // interrupted in this round's confrontation (0: never)
	inv        *engine.Invocation
}

func writeSized(dir string, size int64, o synthOptions) (string, error) {
	reply := int(size / 160) // a first guess: the log is about 160 replies long
	for try := 0; ; try++ {
		path := filepath.Join(dir, fmt.Sprintf("synthetic-%d.jsonl", try))
		if err := writeSynthetic(path, reply, o); err != nil {
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
	synthOptions
}

func writeSynthetic(path string, reply int, o synthOptions) error {
	w, err := runlog.Create(filepath.Dir(path), filepath.Base(path))
	if err != nil {
		return err
	}
	s := &synth{w: w, now: time.Date(2026, 11, 21, 15, 30, 0, 0, time.UTC), rng: rand.New(rand.NewPCG(1, 2)), reply: reply, synthOptions: o}
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

func (s *synth) start() {
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
		Settings:   []engine.Setting{{Name: "skeptical of early agreement", Value: "true"}},
		Invocation: s.inv,
	}, 0)
}

func (s *synth) debate() {
	s.start()
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
		if round == s.cutInRound {
			s.interrupted(round)
			return
		}
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
		// At most 256 KiB (what the 10 MiB log's holds): a real outcome
		// document is tens of KiB, and arena ask quotes it whole.
		Markdown: "# Debate outcome: tradeoff identified\n\n" + s.paragraphs(min(4*s.reply, 256<<10)),
		LogPath:  "debate-logs/synthetic.jsonl",
	}, 40*time.Millisecond)
	s.emit(engine.Saved{What: engine.WhatOutcomeDocument, Path: "debate-logs/synthetic.md"}, time.Millisecond)
}

// interrupted ends the debate as Ctrl+C does in round.
func (s *synth) interrupted(round int) {
	s.phase(engine.PhaseOutcome, round, "Outcome")
	s.emit(engine.Outcome{
		Result: engine.OutcomeInterrupted, Stance: engine.StanceDisagree, Rounds: round, Summary: "Interrupted in round " + fmt.Sprint(round),
		Markdown: "# Debate outcome: interrupted\n", LogPath: "debate-logs/synthetic.jsonl",
	}, time.Millisecond)
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

// CopyLogs writes n logs into dir, each the log at template with its
// start a minute earlier than the one before and named as arena names a
// log: a directory of many runs, for what listing them costs.
func CopyLogs(template, dir string, n int) error {
	b, err := os.ReadFile(template)
	if err != nil {
		return err
	}
	first, rest, _ := strings.Cut(string(b), "\n")
	var e engine.Event
	if err := json.Unmarshal([]byte(first), &e); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	start := e.Time
	for i := range n {
		e.Time = start.Add(-time.Duration(i) * time.Minute)
		line, err := json.Marshal(e)
		if err != nil {
			return err
		}
		name := filepath.Join(dir, runlog.Name(e.Time, synthTopic))
		if err := os.WriteFile(name, []byte(string(line)+"\n"+rest), 0o600); err != nil {
			return err
		}
	}
	return nil
}

// Package tuitest builds realistic synthetic debates as event streams, for
// the tests of the screen and of the programs that drive it.
package tuitest

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine"
)

// Start is when the synthetic debate begins.
var Start = time.Date(2025, 3, 14, 9, 30, 0, 0, time.UTC)

// Topic is the synthetic debate's topic.
const Topic = "Should we replace our Postgres job queue with Kafka?"

// Timeout is the debate's default per-call timeout, codex's. The others
// are configured with LongTimeout.
const (
	Timeout     = 2 * time.Minute
	LongTimeout = 3 * time.Minute
)

func timeoutOf(agent string) time.Duration {
	if agent == "codex" {
		return Timeout
	}
	return LongTimeout
}

// Debate is a two-round adversarial debate: claude defends; gemini, codex
// and qwen challenge. In round 1 qwen's first attempt fails and is
// retried; in round 2 codex times out ("timed out after 2m0s") while the
// others stream on. It ends in a tradeoff document with a table. Events
// are in time order with consecutive Seq numbers, as the bus stamps them.
func Debate() []engine.Event {
	b := &builder{now: Start}
	b.add(0, engine.DebateStarted{
		Version: engine.LogVersion, ID: "deb-20250314-0930", Protocol: "adversarial",
		Topic: Topic, Defender: "claude", Challengers: []string{"gemini", "codex", "qwen"},
		Agents: []engine.AgentInfo{
			agent("claude", engine.RoleDefender), agent("gemini", engine.RoleChallenger),
			agent("codex", engine.RoleChallenger), agent("qwen", engine.RoleChallenger),
		},
		MaxRounds: 2, Timeout: engine.Duration(Timeout), Skeptical: true,
		Phases: []engine.Phase{
			engine.PhaseOpening, engine.PhaseChallenge, engine.PhaseConsensusCheck,
			engine.PhaseConfront, engine.PhaseRebuttal, engine.PhaseIterationCheck,
			engine.PhaseAssumptionExtraction, engine.PhaseOutcome,
		},
	})
	opening(b)
	round1(b)
	round2(b)
	ending(b)
	return b.events()
}

// Until returns the events up to and including the first for which stop
// is true (all of them if none is).
func Until(events []engine.Event, stop func(engine.Event) bool) []engine.Event {
	for i, e := range events {
		if stop(e) {
			return events[:i+1]
		}
	}
	return events
}

// Index is the position of the first event for which match is true, or -1.
func Index(events []engine.Event, match func(engine.Event) bool) int {
	for i, e := range events {
		if match(e) {
			return i
		}
	}
	return -1
}

func opening(b *builder) {
	b.phase(engine.PhaseOpening, 0, "Opening position")
	b.calls(engine.PhaseOpening, 0, defend(engine.TaskOpening, 4*time.Second, "position v1", engine.StanceNeutral,
		"Keep Postgres; add a transactional outbox and SKIP LOCKED workers",
		[2]string{"Transactions", "Jobs are enqueued in the same transaction as the row that caused them; Kafka would need an outbox anyway."},
		[2]string{"Load", "Peak is 1,800 jobs/s; Postgres with SKIP LOCKED handles 10k/s on the current instance."},
		[2]string{"Operations", "One less distributed system to run, monitor and upgrade."}))
	b.add(10*time.Millisecond, engine.PositionUpdated{Version: 1, Position: "Keep Postgres with an outbox and SKIP LOCKED workers."})
}

func round1(b *builder) {
	b.phase(engine.PhaseChallenge, 1, "Round 1: challenge")
	b.calls(engine.PhaseChallenge, 1,
		critique("gemini", 9*time.Second, "disagree", "strong", engine.StanceDisagree,
			[2]string{"Replay", "Consumers that fall behind or ship a bug cannot re-read history from a queue table once rows are deleted."},
			[2]string{"Fan-out", "Three teams want the same events; a table queue makes each one poll and track its own cursor."}),
		critique("codex", 12*time.Second, "partial", "moderate", engine.StancePartial,
			[2]string{"Vacuum", "High-churn queue tables bloat; autovacuum tuning becomes a standing chore."}),
		call{agent: "qwen", role: engine.RoleChallenger, task: engine.TaskCritique, think: 3 * time.Second,
			reply: `{"verdict": "disagree", "strength": "we`, fail: "stream error: unexpected end of JSON",
			reason: challengers.ReasonStreamError, failAfter: 8 * time.Second, retry: true},
	)
	b.calls(engine.PhaseChallenge, 1, withAttempt(critique("qwen", 6*time.Second, "disagree", "weak", engine.StanceDisagree,
		[2]string{"Hiring", "The team already runs Kafka for analytics; the skills exist."}), 2))
	b.phase(engine.PhaseConsensusCheck, 1, "Round 1: consensus check")
	b.add(200*time.Millisecond, engine.VerdictTable{Phase: engine.PhaseConsensusCheck, Round: 1,
		Rows: []engine.VerdictRow{
			{Challenger: "gemini", Verdict: "disagree", Strength: "strong", Confidence: "high", Blocking: true, Status: "open"},
			{Challenger: "codex", Verdict: "partial", Strength: "moderate", Confidence: "medium", Status: "open"},
			{Challenger: "qwen", Verdict: "disagree", Strength: "weak", Confidence: "low", Status: "open"},
		},
		Decision: "1 blocking objection (gemini): the defender must answer"})
	b.phase(engine.PhaseConfront, 1, "Round 1: confront")
	b.calls(engine.PhaseConfront, 1, defend(engine.TaskAnswer, 6*time.Second, "revised", engine.StancePartial,
		"Keep Postgres for work queues; publish domain events to Kafka through the outbox",
		[2]string{"Replay", "Conceded for domain events: the outbox relays them to a Kafka topic with 7-day retention."},
		[2]string{"Vacuum", "Partition the queue table by day and drop partitions instead of deleting rows."}))
	b.add(10*time.Millisecond, engine.PositionUpdated{Version: 2, Round: 1, Changed: true,
		Position: "Postgres for work queues; domain events relayed to Kafka through the outbox."})
	b.phase(engine.PhaseRebuttal, 1, "Round 1: rebuttal")
	b.calls(engine.PhaseRebuttal, 1,
		rebuttal("gemini", 5*time.Second, "maintain", engine.StanceDisagree, "Two systems now carry events; the outbox relay is a new single point of failure."),
		rebuttal("codex", 4*time.Second, "accept", engine.StanceAgree, "Daily partitions answer the bloat concern."),
		rebuttal("qwen", 3*time.Second, "accept", engine.StanceAgree, "Fine by me."),
	)
	b.phase(engine.PhaseIterationCheck, 1, "Round 1: iteration check")
	b.add(100*time.Millisecond, engine.VerdictTable{Phase: engine.PhaseIterationCheck, Round: 1,
		Rows: []engine.VerdictRow{
			{Challenger: "gemini", Verdict: "disagree", Strength: "strong", Blocking: true, Status: "maintains"},
			{Challenger: "codex", Verdict: "agree", Status: "resolved"},
			{Challenger: "qwen", Verdict: "agree", Status: "resolved"},
		},
		Decision: "gemini maintains a blocking objection: another round"})
}

func round2(b *builder) {
	b.phase(engine.PhaseChallenge, 2, "Round 2: challenge")
	b.calls(engine.PhaseChallenge, 2,
		slow(critique("gemini", 115*time.Second, "disagree", "strong", engine.StanceDisagree,
			[2]string{"Relay", "The outbox relay must be exactly-once into Kafka or consumers see duplicates; that is the hard part you skipped."},
			[2]string{"Latency", "Relay polling adds 1-2 s to every event; the fraud team needs under 500 ms."}), 200*time.Millisecond),
		call{agent: "codex", role: engine.RoleChallenger, task: engine.TaskCritique, think: 20 * time.Second,
			reply: `{"verdict": "agree", "strength": "moderate", "objections": [{"title": "Partition drops", "detail": "Dropping a day partition while a worker`,
			fail:  "timed out after 2m0s", reason: challengers.ReasonTimeout, failAfter: Timeout,
			after: []engine.Payload{engine.Note{Level: "warn", Message: "codex timed out after 2m0s; round 2 continues with gemini and qwen"}}},
		slow(critique("qwen", 117*time.Second, "partial", "weak", engine.StancePartial,
			[2]string{"Ops", "Two systems is more on-call surface, but the team runs both already."}), 250*time.Millisecond),
	)
	b.phase(engine.PhaseConsensusCheck, 2, "Round 2: consensus check")
	b.add(200*time.Millisecond, engine.VerdictTable{Phase: engine.PhaseConsensusCheck, Round: 2,
		Rows: []engine.VerdictRow{
			{Challenger: "gemini", Verdict: "disagree", Strength: "strong", Confidence: "high", Blocking: true, Status: "open"},
			{Challenger: "codex", Status: "failed"},
			{Challenger: "qwen", Verdict: "partial", Strength: "weak", Status: "open"},
		},
		Decision: "1 blocking objection (gemini): the defender must answer"})
	b.phase(engine.PhaseConfront, 2, "Round 2: confront")
	b.calls(engine.PhaseConfront, 2, defend(engine.TaskAnswer, 7*time.Second, "maintained", engine.StanceDisagree,
		"Unchanged: the relay is idempotent by event id; consumers dedupe",
		[2]string{"Relay", "Exactly-once is not needed: events carry ids and consumers keep a dedupe window."},
		[2]string{"Latency", "LISTEN/NOTIFY wakes the relay; measured p99 is 180 ms."}))
	b.phase(engine.PhaseRebuttal, 2, "Round 2: rebuttal")
	b.calls(engine.PhaseRebuttal, 2,
		rebuttal("gemini", 6*time.Second, "maintain", engine.StanceDisagree, "Dedupe windows leak into every consumer; Kafka-native would not need them."),
		rebuttal("qwen", 4*time.Second, "accept", engine.StanceAgree, "LISTEN/NOTIFY answers the latency point."),
	)
	b.phase(engine.PhaseIterationCheck, 2, "Round 2: iteration check")
	b.add(100*time.Millisecond, engine.VerdictTable{Phase: engine.PhaseIterationCheck, Round: 2,
		Rows: []engine.VerdictRow{
			{Challenger: "gemini", Verdict: "disagree", Strength: "strong", Blocking: true, Status: "maintains"},
			{Challenger: "codex", Status: "failed"},
			{Challenger: "qwen", Verdict: "agree", Status: "resolved"},
		},
		Decision: "max rounds reached with gemini still objecting: no consensus"})
}

func ending(b *builder) {
	b.phase(engine.PhaseAssumptionExtraction, 2, "Assumption extraction")
	b.calls(engine.PhaseAssumptionExtraction, 2, defend(engine.TaskSynthesis, 5*time.Second, "synthesis", engine.StanceNeutral,
		"The disagreement rests on two assumptions",
		[2]string{"Consumers", "How many independent consumers will read domain events within a year."},
		[2]string{"Duplicates", "Whether every consumer can tolerate at-least-once delivery."}))
	b.phase(engine.PhaseOutcome, 2, "Outcome")
	b.add(300*time.Millisecond, engine.Outcome{
		Result: engine.OutcomeTradeoff, Rounds: 2,
		Summary:    "No consensus: Postgres simplicity against Kafka's replay and fan-out",
		Markdown:   TradeoffMarkdown,
		Failures:   []string{"codex: timed out after 2m0s (round 2, challenge)"},
		ReportPath: "arena-20250314-0930-tradeoff.md",
		LogPath:    "arena-20250314-0930.jsonl",
	})
}

// TradeoffMarkdown is the synthetic debate's outcome document.
const TradeoffMarkdown = `# Tradeoff: Postgres job queue vs Kafka

The challengers did not reach consensus after 2 rounds. The positions below
are the strongest version of each side.

## Options

| | Postgres + outbox | Kafka |
|---|---|---|
| Transactions | enqueue in the same transaction | needs an outbox anyway |
| Replay | only while rows are kept | 7-day retention, any consumer |
| Fan-out | each consumer polls | consumer groups |
| Operations | nothing new to run | a cluster to run and upgrade |

## What decides it

1. **Consumers.** More than two independent consumers of domain events
   within a year favour Kafka.
2. **Duplicates.** If every consumer can dedupe by event id, the outbox
   relay is enough.

> gemini maintained its objection: "Dedupe windows leak into every consumer."

## Failures

- codex timed out after 2m0s in round 2 and did not take part afterwards.
`

// builder collects events at simulated times and stamps them in order.
type builder struct {
	now time.Time
	evs []timed
}

type timed struct {
	at time.Time
	p  engine.Payload
}

// add emits p d after the latest event.
func (b *builder) add(d time.Duration, p engine.Payload) {
	b.at(b.now.Add(d), p)
}

func (b *builder) at(t time.Time, p engine.Payload) {
	b.evs = append(b.evs, timed{t, p})
	if t.After(b.now) {
		b.now = t
	}
}

func (b *builder) phase(p engine.Phase, round int, title string) {
	b.add(50*time.Millisecond, engine.PhaseStarted{Phase: p, Round: round, Title: title})
}

// events sorts by time (stably: same-time events keep their order) and
// stamps sequence numbers.
func (b *builder) events() []engine.Event {
	sort.SliceStable(b.evs, func(i, j int) bool { return b.evs[i].at.Before(b.evs[j].at) })
	out := make([]engine.Event, len(b.evs))
	for i, e := range b.evs {
		out[i] = engine.Event{Seq: int64(i + 1), Time: e.at, Payload: e.p}
	}
	return out
}

// call is one request to an agent, as the script wants it to go.
type call struct {
	agent   string
	role    engine.Role
	task    engine.Task
	attempt int
	think   time.Duration // before the first chunk
	reply   string        // the JSON the agent streams
	display string        // the readable reply (Markdown)
	badge   string
	stance  engine.Stance
	// A failure: after failAfter, with what it streamed so far.
	fail      string
	reason    challengers.Reason
	failAfter time.Duration
	retry     bool
	after     []engine.Payload // what the engine says after this call ends
	every     time.Duration    // the pace of the pieces; 0: chunkEvery
}

// chunkSizes vary the streamed pieces like a model's tokens do.
var chunkSizes = []int{9, 17, 12, 23, 7, 14, 19, 11}

const chunkEvery = 70 * time.Millisecond

// calls runs cs in parallel: all start together, their chunks interleave
// by time, and the phase ends when the last one has.
func (b *builder) calls(phase engine.Phase, round int, cs ...call) {
	start := b.now.Add(20 * time.Millisecond)
	end := start
	for i, c := range cs {
		st := start.Add(time.Duration(i) * 15 * time.Millisecond)
		attempt := max(c.attempt, 1)
		b.at(st, engine.AgentStarted{Agent: c.agent, Role: c.role, Phase: phase, Round: round,
			Task: c.task, Attempt: attempt, Timeout: engine.Duration(timeoutOf(c.agent))})
		every := chunkEvery
		if c.every > 0 {
			every = c.every
		}
		t := st.Add(c.think)
		for k, piece := range pieces(c.reply) {
			t = st.Add(c.think + time.Duration(k)*every)
			if c.fail != "" && t.Sub(st) >= c.failAfter {
				break
			}
			b.evs = append(b.evs, timed{t, engine.Chunk{Agent: c.agent, Text: piece}})
		}
		var last time.Time
		if c.fail != "" {
			last = st.Add(c.failAfter)
			b.evs = append(b.evs, timed{last, engine.AgentFailed{Agent: c.agent, Role: c.role, Phase: phase,
				Round: round, Task: c.task, Attempt: attempt, Reason: c.reason, Message: c.fail,
				ExitCode: -1, WillRetry: c.retry, Duration: engine.Duration(c.failAfter)}})
		} else {
			last = t.Add(250 * time.Millisecond)
			b.evs = append(b.evs, timed{last, engine.AgentFinished{Agent: c.agent, Role: c.role, Phase: phase,
				Round: round, Task: c.task, Attempt: attempt, Reply: json.RawMessage(c.reply), Text: c.reply,
				Display: c.display, Badge: c.badge, Stance: c.stance,
				Usage:    &challengers.Usage{InputTokens: 2400, OutputTokens: int64(len(c.reply) / 4)},
				Duration: engine.Duration(last.Sub(st))}})
		}
		for j, p := range c.after {
			b.evs = append(b.evs, timed{last.Add(time.Duration(j+1) * time.Millisecond), p})
		}
		if last.After(end) {
			end = last
		}
	}
	b.now = end.Add(time.Duration(len(cs)) * time.Millisecond)
}

// pieces cuts s as a model streams it.
func pieces(s string) []string {
	var out []string
	for i := 0; len(s) > 0; i++ {
		n := min(chunkSizes[i%len(chunkSizes)], len(s))
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

func agent(name string, role engine.Role) engine.AgentInfo {
	return engine.AgentInfo{Name: name, Role: role, Command: []string{name, "-p", "{prompt}"},
		Format: "stream-json", Timeout: engine.Duration(timeoutOf(name))}
}

func withAttempt(c call, n int) call { c.attempt = n; return c }

// slow streams c's reply at one piece every d.
func slow(c call, d time.Duration) call { c.every = d; return c }

// critique is a challenger's critique with its JSON and its display.
func critique(agent string, think time.Duration, verdict, strength string, st engine.Stance, points ...[2]string) call {
	type objection struct {
		Title  string `json:"title"`
		Detail string `json:"detail"`
	}
	obj := make([]objection, len(points))
	var md strings.Builder
	fmt.Fprintf(&md, "**Verdict:** %s (%s)\n\n### Objections\n", verdict, strength)
	for i, p := range points {
		obj[i] = objection{p[0], p[1]}
		fmt.Fprintf(&md, "%d. **%s.** %s\n", i+1, p[0], p[1])
	}
	j, _ := json.MarshalIndent(map[string]any{
		"verdict": verdict, "strength": strength, "confidence": "high", "objections": obj,
		"blocking": strength == "strong",
	}, "", "  ")
	return call{agent: agent, role: engine.RoleChallenger, task: engine.TaskCritique, think: think,
		reply: string(j), display: md.String(), badge: verdict + " · " + strength, stance: st}
}

// rebuttal is a challenger's answer to the defender.
func rebuttal(agent string, think time.Duration, verdict string, st engine.Stance, why string) call {
	j, _ := json.MarshalIndent(map[string]any{"verdict": verdict, "reason": why}, "", "  ")
	return call{agent: agent, role: engine.RoleChallenger, task: engine.TaskRebuttal, think: think,
		reply: string(j), display: fmt.Sprintf("**%s**: %s\n", verdict, why), badge: verdict, stance: st}
}

// defend is a call of the defender: its position and arguments.
func defend(task engine.Task, think time.Duration, badge string, st engine.Stance, summary string, points ...[2]string) call {
	type arg struct {
		Point string `json:"point"`
		Why   string `json:"why"`
	}
	args := make([]arg, len(points))
	var md strings.Builder
	fmt.Fprintf(&md, "## Position\n%s\n\n### Arguments\n", summary)
	for i, p := range points {
		args[i] = arg{p[0], p[1]}
		fmt.Fprintf(&md, "- **%s:** %s\n", p[0], p[1])
	}
	j, _ := json.MarshalIndent(map[string]any{"position": summary, "arguments": args}, "", "  ")
	return call{agent: "claude", role: engine.RoleDefender, task: task, think: think,
		reply: string(j), display: md.String(), badge: badge, stance: st}
}

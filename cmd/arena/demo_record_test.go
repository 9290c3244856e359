package main

import (
	"encoding/json"
	"flag"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/adversarial"
	"github.com/arenadebate/arena/engine/demo"
	"github.com/arenadebate/arena/engine/enginetest"
)

var recordDemo = flag.Bool("record-demo", false, "re-record engine/demo/*.jsonl from the fake CLIs")

const demoTopic = "Should we move user sessions from Redis to Postgres?"

// demoScript is the recorded demo debate: every phase, a challenger that
// escalates and then times out, and a tradeoff after three rounds. The
// replies are written as a model would write them, keys in model order.
func demoScript() *clitest.Script {
	raw := func(s string) clitest.Step {
		return clitest.Step{Reply: json.RawMessage(s), Fence: true}
	}
	slow := clitest.AgentScript{DelayMS: 70, Chunks: 36}
	claude, gemini, codex, qwen := slow, slow, slow, slow
	claude.Steps = map[string][]clitest.Step{
		"opening": {raw(`{"position": "Move sessions into Postgres, in a plain table keyed by session id with an expires_at index, and retire the Redis cluster.",
 "reasoning": ["Sessions are the only thing left in Redis; one fewer stateful system to patch, back up and page on.",
  "Postgres already holds the users the sessions point to, so revocation becomes a transaction instead of a cross-store race.",
  "Our peak is 1,800 requests/s; reading a row by primary key is well within what the primary does today."],
 "confidence": "medium",
 "weaknesses": ["Every authenticated request becomes a database read.", "Expired rows must be swept."],
 "assumptions": ["Read latency of a primary-key lookup stays under 2 ms at peak.", "We can throttle last_seen updates."]}`)},
		"answer": {
			raw(`{"responses": [
  {"challenger": "gemini", "decision": "reject", "explanation": "last_seen is written at most once every five minutes per session, so 1,800 requests/s becomes about 60 writes/s, not 1,800. Autovacuum handles that comfortably."},
  {"challenger": "codex", "decision": "partial", "explanation": "Agreed that an UNLOGGED table would log everyone out after a crash, so the table stays logged. I do not accept that fillfactor tuning is required up front; we can measure first."},
  {"challenger": "qwen", "decision": "accept", "explanation": "A load test at twice today's peak becomes a gate before we switch reads over."}],
 "updated_position": "Move sessions into a logged Postgres table with throttled last_seen writes, gated on a load test at 2x peak; retire Redis after two weeks of dual reads."}`),
			raw(`{"responses": [
  {"challenger": "gemini", "decision": "reject", "explanation": "Deploy storms re-create at most the sessions that expired during the deploy window; with 14-day sessions that is under 1% of them."},
  {"challenger": "codex", "decision": "partial", "explanation": "Right for a fresh login: a session's first minute is read from the primary. After that an async standby is fine; our replication lag is under a second."}],
 "updated_position": "Move sessions into a logged Postgres table, read from the primary for a session's first minute, with throttled last_seen writes, gated on a 2x load test; retire Redis after two weeks of dual reads."}`),
			raw(`{"responses": [
  {"challenger": "gemini", "decision": "reject", "explanation": "The connection pool is sized for 400 concurrent queries and session reads take 0.4 ms; the pool is not the bottleneck at 2x peak."}],
 "updated_position": "Move sessions into a logged Postgres table, read from the primary for a session's first minute, with throttled last_seen writes, gated on a 2x load test; retire Redis after two weeks of dual reads."}`),
		},
		"final": {raw(`{"why_disagree": "Gemini weighs the worst minute of the year; I weigh the cost of running a second stateful system every day.",
 "what_would_make_other_right": "If the load test shows p99 session reads above 5 ms, or pool saturation at 2x peak, gemini is right.",
 "my_assumption": "Session traffic grows with users, slowly, and stays well inside one primary's read capacity."}`)},
		"synthesis": {raw(`{"options": [
  {"name": "Sessions in Postgres", "summary": "A logged table read from the primary, throttled last_seen writes, Redis retired.", "choose_if": ["the 2x load test keeps p99 under 5 ms", "operating fewer systems matters more than absorbing rare spikes"]},
  {"name": "Keep Redis for sessions", "summary": "Leave sessions where they are; move only durable user preferences to Postgres.", "choose_if": ["login storms after incidents are a real, recurring risk", "the team already runs Redis well"]},
  {"name": "Postgres with a small cache", "summary": "Postgres is the source of truth; a short-TTL in-process cache absorbs read spikes.", "choose_if": ["you want one source of truth but fear the worst minute"]}],
 "recommendation": "Run the 2x load test first. If it passes, move sessions to Postgres with a 30-second in-process cache; if not, keep Redis and revisit in a year.",
 "open_questions": ["What is session read p99 on the primary at 2x peak?", "How many sessions are created in the first minute after a full deploy?"]}`)},
	}
	gemini.Steps = map[string][]clitest.Step{
		"critique": {raw(`{"verdict": "disagree",
 "critique": "You are moving the hottest read path in the product onto the database you least want to overload. Every request now costs a Postgres round trip, and every login a write.",
 "evidence": "After a deploy that resets sessions, 1,800 logins/s hit the primary at once: inserts, index updates and WAL, exactly when the app is cold.",
 "alternative": "Keep sessions in Redis; move only durable user preferences into Postgres.",
 "confidence": "high", "objection_strength": "strong",
 "assumptions_challenged": ["Read latency stays under 2 ms at peak", "Peak load is what matters, not storms"]}`)},
		"rebuttal": {
			raw(`{"choice": "maintain", "explanation": "Throttling last_seen fixes steady-state writes, not login storms after a deploy or an incident."}`),
			raw(`{"choice": "maintain", "explanation": "Under 1% on a normal deploy; an incident that forces re-login is 100%, and that is when you can least afford it."}`),
			raw(`{"choice": "maintain", "explanation": "Pool headroom at a steady 2x is not the same as headroom during a thundering herd."}`),
		},
		"final": {raw(`{"why_disagree": "The plan is sized for the average day; sessions must survive the worst one.",
 "what_would_make_other_right": "A load test that replays a full forced re-login at peak without p99 reads above 5 ms.",
 "my_assumption": "Forced re-logins happen a few times a year and are when reliability matters most."}`)},
	}
	codex.Steps = map[string][]clitest.Step{
		"critique": {raw(`{"verdict": "disagree",
 "critique": "An UNLOGGED table, the usual trick for session tables, is truncated on crash recovery: every user is logged out after a failover.",
 "evidence": "Postgres docs: unlogged tables are not crash-safe and are not replicated to standbys.",
 "alternative": "A logged table with fillfactor 70 so last_seen updates stay HOT.",
 "confidence": "high", "objection_strength": "moderate",
 "assumptions_challenged": ["Sessions can be stored like a cache"]}`)},
		"rebuttal": {
			raw(`{"choice": "escalate", "explanation": "You missed the replica problem: reads from an async standby will not see a session created a moment ago on the primary, so users appear logged out right after logging in."}`),
			{Mode: clitest.ModeHang},
		},
	}
	qwen.Steps = map[string][]clitest.Step{
		"critique": {raw(`{"verdict": "agree",
 "critique": "Sound for our scale. The risk is untested latency at peak, not the design.",
 "evidence": "1,800 requests/s of primary-key reads is modest for one Postgres primary.",
 "alternative": "Gate the switch on a load test at twice today's peak.",
 "confidence": "high", "objection_strength": "minor",
 "assumptions_challenged": []}`)},
	}
	return &clitest.Script{Agents: map[string]clitest.AgentScript{"claude": claude, "gemini": gemini, "codex": codex, "qwen": qwen}}
}

// demoRuns are the recorded demos, one per shipped protocol: each sets
// the fakes' script and returns arena's arguments and the exit code the
// recording must end with.
var demoRuns = map[string]func(s *sandbox) (args []string, exit int){
	"adversarial": func(s *sandbox) ([]string, int) {
		s.fakes.SetScript(demoScript())
		return []string{"--no-tui", "--max-rounds", "3", "--timeout", "8s", demoTopic}, exitTradeoff
	},
}

// TestRecordDemo re-records the bundled demos when run with -record-demo:
//
//	go test ./cmd/arena -run TestRecordDemo -record-demo
func TestRecordDemo(t *testing.T) {
	if !*recordDemo {
		t.Skip("run with -record-demo to re-record engine/demo/*.jsonl")
	}
	root, err := clitest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	for name, setup := range demoRuns {
		t.Run(name, func(t *testing.T) {
			s := newSandbox(t)
			args, exit := setup(s)
			// The host's build cache: rank's demo runs the repositories'
			// go test, which would otherwise build the standard library
			// from nothing in the sandbox's empty cache.
			gocache, err := exec.Command("go", "env", "GOCACHE").Output()
			if err != nil {
				t.Fatal(err)
			}
			r := s.runWithEnv([]string{"GOCACHE=" + strings.TrimSpace(string(gocache))}, args...)
			if r.code != exit {
				t.Fatalf("exit %d, want %d\n%s\n%s", r.code, exit, r.stdout, r.stderr)
			}
			data, err := os.ReadFile(s.logs()[0])
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, "engine", "demo", name+".jsonl"), data, 0o644); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// Every shipped protocol has a demo, and each demo enters every phase its
// protocol lists, has a seat fail, and reaches an outcome.
func TestDemosCoverEveryPhase(t *testing.T) {
	if got, want := demo.Protocols(), slices.Sorted(maps.Keys(demoRuns)); !slices.Equal(got, want) {
		t.Fatalf("demos %q, recorded by %q", got, want)
	}
	for _, name := range demo.Protocols() {
		lc, err := demo.Read(name)
		if err != nil || !lc.Complete || lc.Problem != "" {
			t.Fatalf("%s: %v %q", name, err, lc.Problem)
		}
		start := lc.Events[0].Payload.(engine.DebateStarted)
		if start.Protocol != name || start.Version != engine.LogVersion {
			t.Errorf("%s: the demo is of %q, version %d", name, start.Protocol, start.Version)
		}
		// What the screen calls the run, and the seat a follow-up goes to,
		// come from the protocol, not from words the screen knows.
		if start.Noun == "" {
			t.Errorf("%s: the start event does not say what the run is called", name)
		}
		if seat, ok := engine.FollowUpSeat(start); !ok || start.FollowUpSeat == "" || seat.Name != start.FollowUpSeat {
			t.Errorf("%s: the follow-up seat %q is not one of the seats %v", name, start.FollowUpSeat, start.Seats)
		}
		seen := map[engine.Phase]bool{}
		failed := false
		for _, e := range lc.Events {
			switch p := e.Payload.(type) {
			case engine.PhaseStarted:
				seen[p.Phase] = true
			case engine.AgentFailed:
				failed = true
			}
		}
		for _, p := range start.Phases {
			if !seen[p.Phase] {
				t.Errorf("%s: the demo never enters %s", name, p.Phase)
			}
		}
		if !failed {
			t.Errorf("%s: no seat fails in the demo", name)
		}
	}
}

func TestAdversarialDemo(t *testing.T) {
	lc, err := demo.Read("adversarial")
	if err != nil {
		t.Fatal(err)
	}
	o := enginetest.Outcome(t, lc)
	if o.Result != adversarial.OutcomeTradeoff || !slices.Contains(o.Failures, "codex timed out in round 2") {
		t.Fatalf("outcome %s %q", o.Result, o.Failures)
	}
}

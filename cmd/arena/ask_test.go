package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/engine"
)

const followUpQuestion = "what would change your mind?"

// checkFollowUp checks a follow-up to seat (held by agent) after the
// outcome: in the log after it, in the outcome document, and the prompt
// carried the run.
func checkFollowUp(t *testing.T, s *sandbox, seat, agent string) {
	t.Helper()
	lc := s.onlyLog()
	if lc.Problem != "" || !lc.Complete {
		t.Fatalf("log problem %q", lc.Problem)
	}
	o := outcomeOf(t, lc) // still found, with the follow-up after it
	var asked *engine.FollowUp
	answered := false
	for _, e := range lc.Events {
		switch p := e.Payload.(type) {
		case engine.FollowUp:
			asked = &p
		case engine.AgentFinished:
			if asked != nil && p.Phase == engine.PhaseFollowUp && p.Seat == seat && p.Agent == agent {
				answered = true
			}
		}
	}
	if asked == nil || asked.Question != followUpQuestion || asked.Seat != seat || !answered {
		t.Fatalf("follow-up in the log: %+v, answered %v", asked, answered)
	}
	var prompt string
	for _, c := range s.fakes.CallsTo(agent) {
		if c.Kind == "followup" {
			prompt = c.Prompt
		}
	}
	if !strings.Contains(prompt, "THE OUTCOME DOCUMENT:") || !strings.Contains(prompt, strings.SplitN(o.Markdown, "\n", 2)[0]) || !strings.Contains(prompt, followUpQuestion) {
		t.Fatalf("the follow-up's prompt does not carry the run:\n%s", prompt)
	}
	doc, err := os.ReadFile(filepath.Join(s.dir, latestDocument(lc)))
	if err != nil || !strings.Contains(string(doc), "## Follow-up: "+followUpQuestion) || !strings.Contains(string(doc), `answers the follow-up "`+followUpQuestion) {
		t.Fatalf("the outcome document lacks the follow-up (%v):\n%s", err, doc)
	}
	if !strings.HasPrefix(string(doc), o.Markdown) {
		t.Fatal("the outcome document was not appended to")
	}
}

func TestAskAFollowUpQuestion(t *testing.T) {
	s := newSandbox(t)
	if r := s.run("--no-tui", "should we move sessions to Postgres?"); r.code != exitConsensus {
		t.Fatalf("exit %d", r.code)
	}
	log := s.logs()[0]
	r := s.run("ask", log, followUpQuestion)
	if r.code != 0 || !strings.Contains(r.stdout, "Follow-up to claude") || !strings.Contains(r.stdout, `Claude answers the follow-up "`+followUpQuestion) {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// The answer once, as it streamed, and where it was saved (issue 40,
	// item 11: it was printed again, and the document went unsaid).
	doc := strings.TrimSuffix(log, ".jsonl") + ".md"
	if n := strings.Count(r.stdout, "the outcome stands"); n != 1 || !strings.Contains(r.stdout, "Follow-up appended to the outcome document: "+doc) {
		t.Errorf("the answer printed %d times, or the document it was appended to not named:\n%s", n, r.stdout)
	}
	checkFollowUp(t, s, "claude", "claude")
	// The log with its follow-up replays and lists as one run.
	if rr := s.run("replay", "--no-tui", log); rr.code != 0 || !strings.Contains(rr.stdout, "Follow-up to claude") {
		t.Fatalf("replay: exit %d\n%s\n%s", rr.code, rr.stdout, rr.stderr)
	}
	if l := s.run("logs"); !strings.Contains(l.stdout, "consensus") {
		t.Fatalf("logs:\n%s", l.stdout)
	}
	if r := s.run("ask", log, "and then?", "--seat", "gemini"); r.code != 0 || !strings.Contains(r.stdout, "Gemini answers") {
		t.Fatalf("--seat gemini: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if r := s.run("ask", log, "x", "--seat", "nobody"); r.code != exitUsage || !strings.Contains(r.stderr, "no such seat") {
		t.Fatalf("--seat nobody: exit %d\n%s", r.code, r.stderr)
	}
}

func TestAskRefusesARunWithoutAnOutcome(t *testing.T) {
	_, log := interruptedDebate(t)
	s := newSandbox(t)
	r := s.run("ask", log, followUpQuestion)
	if r.code != exitUsage || !strings.Contains(r.stderr, "arena resume") {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
}

func TestFollowUpOnTheLiveScreenInTmux(t *testing.T) {
	s := newSandbox(t)
	ts := s.startTmux(120, 40, nil, "should we move sessions to Postgres?")
	ts.waitText("Debate outcome: consensus", 60*time.Second)
	ts.waitText("f follow-up", 20*time.Second) // once the document is saved
	ts.keys("f")
	ts.waitText("? follow-up question to claude:", 10*time.Second) // the seat the protocol marked
	ts.keys(followUpQuestion)
	ts.waitText(followUpQuestion+"▏", 10*time.Second)
	ts.keys("Enter")
	// The answer streams in the defender's pane, which the screen shows.
	ts.waitText("answered the follow-up", 30*time.Second)
	ts.waitFor("the answer in claude's pane", 10*time.Second, func(sc string) bool {
		return strings.Contains(sc, "Claude answers the follow-up") && strings.Contains(sc, "? follow-up: "+followUpQuestion)
	})
	ts.keys("q")
	if code := ts.exitCode(10 * time.Second); code != "0" {
		t.Fatalf("exit %s\n%s", code, ts.scrollback())
	}
	checkFollowUp(t, s, "claude", "claude")
}

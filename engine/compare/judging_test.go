package compare

import (
	"context"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/enginetest"
)

// criteriaAsked are the criteria a judge's prompt lists, in order.
func criteriaAsked(prompt string) []string {
	i := strings.Index(prompt, "\nCRITERIA")
	var out []string
	for _, l := range strings.Split(prompt[i+1:], "\n")[1:] {
		name, _, ok := strings.Cut(strings.TrimPrefix(l, "- "), ":")
		if !ok || !strings.HasPrefix(l, "- ") {
			break
		}
		out = append(out, name)
	}
	return out
}

// The judge reads the criteria in a counterbalanced order too: reversed
// when the options are, and the receipts say what each order showed.
func TestTheCriteriaRotateWithTheOptions(t *testing.T) {
	s := script()
	out, events := enginetest.Run(t, context.Background(), New(config()), s)
	if out.Result != OutcomeRecommendation {
		t.Fatalf("%s: %s", out.Result, out.Summary)
	}
	var asked [][]string
	for _, c := range s.Calls() {
		if c.Shape == ShapeJudge {
			asked = append(asked, criteriaAsked(c.Prompt))
		}
	}
	given := []string{"throughput", "ops cost", "team skills"}
	reversed := slices.Clone(given)
	slices.Reverse(reversed)
	if len(asked) != 2 || !slices.ContainsFunc(asked, func(a []string) bool { return slices.Equal(a, given) }) ||
		!slices.ContainsFunc(asked, func(a []string) bool { return slices.Equal(a, reversed) }) {
		t.Fatalf("the judge read the criteria in %q", asked)
	}
	rc := enginetest.Payloads[engine.Table](events)[0]
	want := engine.Row{Cells: []string{"shown reversed", "options Postgres LISTEN/NOTIFY, Kafka; criteria team skills, ops cost, throughput"}, Stance: engine.StanceNeutral}
	if !slices.ContainsFunc(rc.Rows, func(r engine.Row) bool { return slices.Equal(r.Cells, want.Cells) }) {
		t.Fatalf("the receipts do not say what the reversed order showed: %+v", rc.Rows)
	}
	if !strings.Contains(out.Markdown, "- as given: options Kafka, Postgres LISTEN/NOTIFY; criteria throughput, ops cost, team skills") ||
		!strings.Contains(out.Markdown, "the criteria rotated with the options") {
		t.Fatalf("the document does not record the orders:\n%s", out.Markdown)
	}
}

// flipsOnAskingAgain answers a prompt it has seen before the other way:
// a judge with noise, whatever the order.
func flipsOnAskingAgain() func(string) any {
	var mu sync.Mutex
	seen := map[string]int{}
	return func(prompt string) any {
		mu.Lock()
		n := seen[prompt]
		seen[prompt]++
		mu.Unlock()
		if n%2 == 0 {
			return judgement("Kafka")
		}
		return judgement("Postgres LISTEN/NOTIFY")
	}
}

// --repeats 2 asks each order twice, each asking a seat and a call of its
// own; every reading is recorded with its order and repeat for arena
// stats, a preference a repeat did not keep counts as a tie, and the
// receipts count the repeats apart from the orders.
func TestRepeatsAskEachOrderAgain(t *testing.T) {
	cfg := config()
	cfg.Repeats = 2
	s := script("claude/"+ShapeJudge).On("claude", ShapeJudge, enginetest.Step{Reply: flipsOnAskingAgain()})
	out, events := enginetest.Run(t, context.Background(), New(cfg), s)
	if s.Count("claude", ShapeJudge) != 4 {
		t.Fatalf("%d judge calls", s.Count("claude", ShapeJudge))
	}
	if out.Result != OutcomeOrderDependent {
		t.Fatalf("a pick a repeat did not keep held: %s: %s", out.Result, out.Summary)
	}
	st := events[0].Payload.(engine.DebateStarted)
	var judges []string
	for _, seat := range st.Seats {
		if strings.HasPrefix(seat.Name, "judge") {
			judges = append(judges, seat.Name)
		}
	}
	if !slices.Equal(judges, []string{"judge", "judge, repeat 2", "judge, reversed", "judge, reversed, repeat 2"}) ||
		!slices.Contains(st.Settings, engine.Setting{Name: "repeats", Value: "2"}) {
		t.Fatalf("seats %q, settings %+v", judges, st.Settings)
	}
	type asking struct{ order, repeat int }
	got := map[asking]string{}
	for _, sc := range enginetest.Payloads[engine.Scored](events) {
		if sc.Judgement == recommendation {
			if sc.Orders != 2 {
				t.Fatalf("a reading of %d orders: %+v", sc.Orders, sc)
			}
			got[asking{sc.Order, sc.Repeat}] = sc.Seat
		}
	}
	want := map[asking]string{{0, 0}: "judge", {0, 1}: "judge, repeat 2", {1, 0}: "judge, reversed", {1, 1}: "judge, reversed, repeat 2"}
	if !maps.Equal(got, want) {
		t.Fatalf("readings %v, want %v", got, want)
	}
	for _, w := range []string{
		"The judge was asked in 2 orders, each asked twice",
		"- recommendation: the pick flipped (",
		"in 2 of 4 readings",
		"asked again in the same order, 0 of 8 pairs kept the same preference",
	} {
		if !strings.Contains(out.Markdown, w) {
			t.Errorf("the document lacks %q", w)
		}
	}
	if !strings.Contains(out.Markdown, "| Kafka (as given, repeat 2) |") && !strings.Contains(out.Markdown, "Kafka (as given, repeat 2)") {
		t.Errorf("no column for the repeat:\n%s", out.Markdown)
	}
}

// A resumed comparison reuses each repeat's own reply: a repeat is a call
// of its own, never answered from another asking of the same prompt.
func TestAResumeReusesEachRepeatsOwnReply(t *testing.T) {
	cfg := config()
	cfg.Repeats = 2
	s := script("claude/"+ShapeJudge).On("claude", ShapeJudge, enginetest.Step{Reply: flipsOnAskingAgain()})
	first, events := enginetest.Run(t, context.Background(), New(cfg), s)
	// Every reply is in the log: the resumed run asks nobody.
	again := enginetest.NewScript()
	out, resumed := enginetest.RunWith(t, context.Background(), New(cfg), again, engine.Options{Resume: &engine.Resume{Events: events, Event: engine.Resumed{After: int64(len(events))}}})
	if len(again.Calls()) != 0 {
		t.Fatalf("the resumed run asked %d calls", len(again.Calls()))
	}
	if out.Result != first.Result {
		t.Fatalf("resumed to %s, first %s", out.Result, first.Result)
	}
	// The summary says what each asking picked: each repeat's own reply.
	if !strings.HasPrefix(out.Summary, first.Summary) || len(enginetest.Payloads[engine.Resumed](resumed)) != 1 {
		t.Fatalf("resumed: %s\nfirst: %s", out.Summary, first.Summary)
	}
}

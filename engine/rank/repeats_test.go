package rank

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/enginetest"
)

// --repeats 2 asks every dimension judge each order twice, each asking a
// seat of its own: the readings carry their order and repeat for arena
// stats, a preference a repeat did not keep counts as a tie, and the
// receipts count the repeats apart from the orders.
func TestRankRepeatsAskEachOrderAgain(t *testing.T) {
	cfg := config("alpha", "beta")
	cfg.Repeats = 2
	s := enginetest.NewScript()
	s.On("claude", ShapeFacts, enginetest.Step{Reply: factsReply("req-one", 3)})
	s.On("gemini", ShapeFacts, enginetest.Step{Reply: factsReply("req-two", 3)})
	for _, a := range []string{"codex", "qwen", "claude"} {
		s.On(a, ShapeJudge, enginetest.Step{Reply: byMarker(map[string]int{"req-one": 4, "req-two": 3})})
	}
	// gemini (the security judge) answers a prompt it has seen before the
	// other way round: noise, whatever the order.
	var mu sync.Mutex
	seen := map[string]int{}
	s.On("gemini", ShapeJudge, enginetest.Step{Reply: func(prompt string) any {
		mu.Lock()
		n := seen[prompt]
		seen[prompt]++
		mu.Unlock()
		if n == 0 {
			return byMarker(map[string]int{"req-one": 4, "req-two": 3})(prompt)
		}
		return byMarker(map[string]int{"req-one": 3, "req-two": 4})(prompt)
	}})
	s.On("claude", ShapeSynthesis, enginetest.Step{Reply: map[string]any{"verdict": "alpha ranks first."}})
	p := New(cfg)
	out, events := enginetest.Run(t, context.Background(), p, s)
	if out.Result != OutcomeRanked {
		t.Fatalf("%+v", out)
	}
	if n := s.Count("gemini", ShapeJudge); n != 4 {
		t.Fatalf("the security judge was asked %d times", n)
	}
	st := events[0].Payload.(engine.DebateStarted)
	if !slices.ContainsFunc(st.Seats, func(s engine.Seat) bool { return s.Name == "security judge, reversed, repeat 2" }) {
		t.Fatalf("seats %+v", st.Seats)
	}
	type asking struct{ order, repeat int }
	got := map[asking]bool{}
	for _, sc := range enginetest.Payloads[engine.Scored](events) {
		if sc.Judgement == string(DimSecurity) {
			if sc.Orders != 2 {
				t.Fatalf("a reading of %d orders: %+v", sc.Orders, sc)
			}
			got[asking{sc.Order, sc.Repeat}] = true
		}
	}
	if len(got) != 4 || !got[asking{1, 1}] {
		t.Fatalf("security readings %v", got)
	}
	rep := p.Report()
	if rep.Repeats != 2 || !slices.ContainsFunc(rep.Receipts, func(r string) bool {
		return strings.HasPrefix(r, "Security: alpha and beta flipped") && strings.Contains(r, "of 4 readings")
	}) || !strings.Contains(rep.ReceiptTally, "asked again in the same order, 8 of 10 pairs kept the same preference") {
		t.Fatalf("receipts %q, tally %q", rep.Receipts, rep.ReceiptTally)
	}
	if sec := rep.Scores["alpha"].Dims[DimSecurity]; !sec.Levelled || len(sec.ByOrder) != 4 {
		t.Fatalf("the security scores %+v", sec)
	}
	if !strings.Contains(out.Markdown, "Each judge was asked in 2 orders of the repositories, each asked twice") {
		t.Fatalf("document:\n%s", out.Markdown)
	}
}

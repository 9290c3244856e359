package ledger

import (
	"reflect"
	"strings"
	"testing"

	"github.com/arenadebate/arena/engine/doc"

	"github.com/arenadebate/arena/engine"
)

func TestQuotesAndFigures(t *testing.T) {
	text := "Per `pool_size = 400` and \"reads take 0.4 ms\", round 2 of v2 needs 1,800 requests/s at 2x peak; \"short\" and 99% and 3 items."
	if got := Quotes(text); !reflect.DeepEqual(got, []string{"pool_size = 400", "reads take 0.4 ms"}) {
		t.Fatalf("quotes %q", got)
	}
	if got := Figures(text); !reflect.DeepEqual(got, []string{"400", "0.4 ms", "1,800", "2x", "99%"}) {
		t.Fatalf("figures %q", got)
	}
}

func TestNewEvidence(t *testing.T) {
	material := []string{"func main() {\n\tpool_size = 400\n}"}
	var cited, said Seen
	said.Add("Our peak is 1,800 requests/s.")
	cited.Add("an earlier quote")
	// A quote of the material not cited before, a figure nobody gave: new.
	got := NewEvidence("Look at `pool_size = 400`: at 1800 rps and 0.4 ms a read", material, &cited, &said)
	if !reflect.DeepEqual(got, []string{"“pool_size = 400”", "figure 0.4 ms"}) {
		t.Fatalf("%q", got)
	}
	// The same quote once cited, a figure already said, a quote not in
	// the material: nothing new.
	cited.Add("pool_size = 400")
	said.Add("0.4 ms")
	if got := NewEvidence("as I said, \"pool_size = 400\" and `an invented line of code`, 0.4ms", material, &cited, &said); len(got) != 0 {
		t.Fatalf("%q", got)
	}
	if got := NewEvidence("I now agree with the others.", material, &cited, &said); got != nil {
		t.Fatalf("%q", got)
	}
}

func TestTableAndMarkdown(t *testing.T) {
	l := engine.DebateLedger{
		Positions: []engine.Stand{{Seat: "Judge 1", Agent: "gemini", Position: "overall 2.00 — fail"}, {Seat: "Judge 2", Agent: "codex", Position: "overall 4.00 — pass"}},
		VoteRule:  "mean of the round-one overalls", Vote: "needs revision (3.00)", Result: "pass (consensus 4.00)", Changed: true,
		Moves: []engine.Move{
			{Seat: "Judge 1", Agent: "gemini", Round: 1, On: "security", From: "2", To: "4", Toward: "Judge 2", Conformity: true},
		},
	}
	tb := Table(l, "check", 1)
	if tb.Rows[0].Stance != engine.StanceDisagree || tb.Rows[0].Cells[2] != "security 2 → 4 (round 1), toward Judge 2" || tb.Rows[0].Cells[3] != "none (conformity)" || tb.Rows[1].Cells[2] != "stayed" {
		t.Fatalf("%+v", tb.Rows)
	}
	if tb.Decision != "a plain vote (mean of the round-one overalls) said needs revision (3.00); the debate concluded pass (consensus 4.00): the debate changed the result; 1 move, 1 without new evidence (conformity)" {
		t.Fatal(tb.Decision)
	}
	md := doc.Markdown(doc.Document{Title: "t", Sections: []doc.Section{Section(l)}})
	for _, w := range []string{"## Debate ledger", "**The debate changed the result.**", "- Judge 1 (gemini): security 2 → 4 (round 1), toward Judge 2 — ⚠ **no new evidence (conformity)**"} {
		if !strings.Contains(md, w) {
			t.Errorf("markdown lacks %q:\n%s", w, md)
		}
	}
}

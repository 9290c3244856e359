package bench

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/doc"
)

func TestReadTheLayouts(t *testing.T) {
	jb, err := Read(filepath.Join("samples", "judgebench-sample.jsonl"))
	if err != nil || jb.Layout != LayoutJudgeBench || len(jb.Pairs) != 6 {
		t.Fatalf("JudgeBench sample: %v, %s, %d pairs", err, jb.Layout, len(jb.Pairs))
	}
	if p := jb.Pairs[1]; p.ID != "sample-2" || !slices.Equal(p.Labels, []string{LabelB}) || !strings.HasPrefix(p.B, "Mercury") {
		t.Fatalf("pair %+v", p)
	}
	mt, err := Read(filepath.Join("samples", "mt-bench-human-sample.jsonl"))
	if err != nil || mt.Layout != LayoutMTBench || len(mt.Pairs) != 6 {
		t.Fatalf("MT-Bench sample: %v, %s, %d pairs", err, mt.Layout, len(mt.Pairs))
	}
	// Two humans judged the first pair: one pair, two labels.
	if p := mt.Pairs[0]; !slices.Equal(p.Labels, []string{LabelA, LabelA}) || p.Question != "Write a haiku about autumn." || !strings.HasPrefix(p.A, "Leaves fall") {
		t.Fatalf("pair %+v", p)
	}
	if !slices.Equal(mt.Pairs[2].Labels, []string{LabelTie}) {
		t.Fatalf("a tie: %+v", mt.Pairs[2])
	}
	// The content's hash is of the bytes read, once.
	raw, _ := os.ReadFile(filepath.Join("samples", "judgebench-sample.jsonl"))
	if jb.SHA256 != engine.Hash(string(raw)) {
		t.Fatalf("hash %q", jb.SHA256)
	}
}

func TestReadRefusesWhatItCannotRead(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct{ text, want string }{
		"other layout": {`{"prompt": "x"}` + "\n", "f.jsonl:1: neither JudgeBench's layout"},
		"bad label":    {`{"question": "q", "response_A": "a", "response_B": "b", "label": "A=B"}` + "\n", `f.jsonl:1: label "A=B"`},
		"not JSON":     {`{"question": "q", "response_A": "a", "response_B": "b", "label": "A>B"}` + "\nnope\n", "f.jsonl:2: not a JSON object"},
		"empty":        {"\n", "no labelled pair"},
	} {
		path := filepath.Join(dir, "f.jsonl")
		os.WriteFile(path, []byte(c.text), 0o600)
		if _, err := Read(path); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
}

func TestParsePick(t *testing.T) {
	for text, want := range map[string]Pick{`{"winner": "A"}`: PickFirst, "```json\n{\"reasoning\": \"x\", \"winner\": \"B\"}\n```": PickSecond, `{"winner": "tie"}`: PickTie} {
		if r, err := ParsePick(text); err != nil || r.(Pick) != want {
			t.Errorf("%s: %v %v", text, r, err)
		}
	}
	if _, err := ParsePick(`{"winner": "C"}`); err == nil {
		t.Error("winner C parsed")
	}
}

// A judge that sees the truth, and one that always picks what it is shown
// first: their figures as the definitions give them.
func TestScore(t *testing.T) {
	set, err := Read(filepath.Join("samples", "judgebench-sample.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	judges := []challengers.Agent{{Name: "true"}, {Name: "first"}}
	var results []Result
	for _, p := range set.Pairs {
		for _, swapped := range []bool{false, true} {
			for rep := range 2 {
				c := Call{Pair: p.ID, Judge: "true", Swapped: swapped, Repeat: rep}
				pk := PickFirst
				if (p.Labels[0] == LabelB) != swapped {
					pk = PickSecond
				}
				results = append(results, result(c, pk))
				results = append(results, result(Call{Pair: p.ID, Judge: "first", Swapped: swapped, Repeat: rep}, PickFirst))
			}
		}
	}
	rep := Score(set, results, judges, 2)
	tr, fs := rep.Judges[0], rep.Judges[1]
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"true accuracy", tr.Accuracy.Value, 1}, {"true consistency", tr.Consistency.Value, 1}, {"true first", tr.FirstPosition.Value, 0},
		{"first accuracy", fs.Accuracy.Value, 0}, {"first consistency", fs.Consistency.Value, 0}, {"first first", fs.FirstPosition.Value, 1},
		{"true repeats", tr.RepeatStability.Value, 1},
	} {
		if c.got != c.want {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
	if tr.Accuracy.N != 6 || !tr.Accuracy.Shown || tr.Accuracy.Low <= 0.5 || tr.RepeatStability.N != 12 || rep.Calls != 48 || rep.Answered != 48 {
		t.Errorf("counts: %+v %+v calls %d answered %d", tr.Accuracy, tr.RepeatStability, rep.Calls, rep.Answered)
	}
	// "first" gives one verdict throughout (inconsistent): κ is 0, no
	// agreement beyond chance.
	if len(rep.Agreements) != 1 || !rep.Agreements[0].Kappa.Shown || rep.Agreements[0].Kappa.Value != 0 {
		t.Errorf("agreement %+v", rep.Agreements)
	}
	md := rep.Document()
	if len(md.Sections) < 3 || md.Sections[2].ID != "published" {
		t.Errorf("sections %+v", md.Sections)
	}
}

func TestCombine(t *testing.T) {
	for _, c := range [][3]string{{LabelA, LabelA, LabelA}, {LabelA, LabelTie, LabelA}, {LabelTie, LabelB, LabelB}, {LabelA, LabelB, Inconsistent}, {LabelTie, LabelTie, LabelTie}} {
		if got := combine(c[0], c[1]); got != c[2] {
			t.Errorf("combine(%s, %s) = %s, want %s", c[0], c[1], got, c[2])
		}
	}
}

// A stopped run's document says how to carry on: the same command again.
func TestOutcomeDocumentSaysHowToCarryOn(t *testing.T) {
	for kind, want := range map[engine.OutcomeKind]string{
		engine.OutcomeOverBudget:  "With a higher --max-cost, run the same command again to ask only the calls left; the answers so far are in r.jsonl.",
		engine.OutcomeInterrupted: "Calls already answered are kept: run the same command again",
	} {
		o := Outcome{Run: engine.Outcome{Result: kind, Summary: "$0.01 spent of a $0.01 budget"}, Results: "r.jsonl"}
		md := doc.Markdown(o.Document())
		if !strings.Contains(md, want) || strings.Contains(md, "arena resume") {
			t.Errorf("%s:\n%s", kind, md)
		}
	}
}

// Repeat stability with each order asked once is not a figure that has
// too few cases: it was not measured, and the note says how to measure it.
func TestRepeatStabilityUnaskedSaysHow(t *testing.T) {
	t.Parallel()
	once := map[reading][]string{{"claude", "p1", false}: {"A"}, {"claude", "p1", true}: {"B"}}
	if f := repeatStability("claude", once); f.Shown || !strings.Contains(f.Note, "--repeats 2") {
		t.Fatalf("asked once: %+v", f)
	}
	twice := map[reading][]string{{"claude", "p1", false}: {"A", "A"}}
	if f := repeatStability("claude", twice); f.N != 1 {
		t.Fatalf("asked twice: %+v", f)
	}
}

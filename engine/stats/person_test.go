package stats

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/inputs"
	"github.com/arenadebate/arena/engine/runlog"
)

// ranked is a finished ranking of alpha and beta, as a label reads it.
func ranked(result engine.OutcomeKind) runlog.Contents {
	var lc runlog.Contents
	for i, p := range []engine.Payload{
		engine.DebateStarted{Version: engine.LogVersion, Protocol: "rank"},
		engine.Note{Message: "not needed"},
		engine.Placed{Candidates: []engine.Standing{{ID: "alpha", Place: 1}, {ID: "beta", Place: 2}}},
		engine.Outcome{Result: result},
	} {
		e := engine.Event{Seq: int64(i + 1), Payload: p}
		if LabelNeeds(e) {
			lc.Events = append(lc.Events, e)
		}
	}
	lc.LastSeq = 4
	return lc
}

// The words and the flags say one verdict together; the winner is one of
// the run's candidates, as the run names it.
func TestLabellingReadsWordsAndFlags(t *testing.T) {
	lc := ranked("ranked")
	if len(lc.Events) != 3 {
		t.Fatalf("a label needs %d events", len(lc.Events))
	}
	l, err := Labelling{Words: " accept ", Winner: "ALPHA", Score: "4", Note: " \x1b[1mclear "}.Label("r.jsonl", lc)
	if err != nil || l.Winner != "alpha" || l.Verdict != "accept" || *l.Score != 4 || l.By != "person" || l.Note != "clear" {
		t.Fatalf("%+v %v", l, err)
	}
	if got := LabelWords(l); got != "winner alpha, accept, score 4 (clear)" {
		t.Fatal(got)
	}
}

func TestLabellingRefusesWhatCannotBeLabelled(t *testing.T) {
	damaged := ranked("ranked")
	damaged.Problem = "line 3 is not JSON"
	for want, c := range map[string]struct {
		lc runlog.Contents
		g  Labelling
	}{
		"label r.jsonl: the log is damaged (line 3 is not JSON)":                          {damaged, Labelling{Words: "accept"}},
		"label r.jsonl: the run has not finished; resume it first (arena resume r.jsonl)": {ranked(engine.OutcomeInterrupted), Labelling{Words: "accept"}},
		`label: winner "gamma" is not one of the run's candidates (alpha, beta)`:          {ranked("ranked"), Labelling{Winner: "gamma"}},
		"label: no verdict given: write winner NAME, accept, improve, reject or score N":  {ranked("ranked"), Labelling{}},
	} {
		if _, err := c.g.Label("r.jsonl", c.lc); !errors.Is(err, inputs.ErrInput) || err.Error() != want {
			t.Errorf("%s: got %v", want, err)
		}
	}
	lc := ranked("ranked")
	lc.Events = lc.Events[:2] // no outcome
	if _, err := (Labelling{Words: "accept"}).Label("r.jsonl", lc); err == nil {
		t.Error("a run without an outcome was labelled")
	}
}

// The label and its note follow the log's last event; the latest label
// of the person's is the one that counts.
func TestRecordAppendsTheLabelAndItsNote(t *testing.T) {
	w, err := runlog.Create(filepath.Join(t.TempDir(), "logs"), "run")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ranked("ranked").Events {
		w.Handle(e)
	}
	v := 2.0
	first, second := engine.Label{By: "person", Verdict: "reject"}, engine.Label{By: "person", Score: &v}
	if err := Record(w, 4, first, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := Record(w, 6, second, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	lc, err := runlog.ReadFile(w.Path())
	if err != nil || len(lc.Events) != 7 || lc.Events[6].Seq != 8 {
		t.Fatalf("%d events, %v", len(lc.Events), err)
	}
	if n, ok := lc.Events[4].Payload.(engine.Note); !ok || n.Message != "the person's own verdict (arena label): reject" {
		t.Fatalf("%+v", lc.Events[4].Payload)
	}
	if l, ok := LastLabel(lc.Events); !ok || LabelWords(l) != "score 2" {
		t.Fatalf("%+v %v", l, ok)
	}
	if _, ok := LastLabel(lc.Events[:3]); ok {
		t.Fatal("a label where there is none")
	}
}

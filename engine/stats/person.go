package stats

import (
	"fmt"
	"strings"
	"time"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/inputs"
	"github.com/arenadebate/arena/engine/runlog"
)

// What arena label records: a person's own verdict on a finished run,
// appended to its log as a typed event (and a note, so replay shows it).

// Labelling is a person's verdict as arena label is given it: the words
// after the log, and its flags. Every part is optional; together they
// say at least one thing (ParseLabel).
type Labelling struct {
	Words, Winner, Verdict, Score string
	Note                          string // why, in a few words
}

// LabelNeeds says whether a label needs e of a run's events: its start,
// outcome and resumes, its candidates, an earlier label.
func LabelNeeds(e engine.Event) bool {
	switch e.Payload.(type) {
	case engine.DebateStarted, engine.Outcome, engine.Resumed, engine.Placed, engine.Scored, engine.Label:
		return true
	}
	return false
}

// Label is the person's label of the finished run of the log at path
// (lc: its events that LabelNeeds). A damaged log, a run without an
// outcome, or a label that does not read is the person's mistake,
// matching inputs.ErrInput.
func (g Labelling) Label(path string, lc runlog.Contents) (engine.Label, error) {
	if lc.Problem != "" {
		return engine.Label{}, inputs.Errorf("label %s: the log is damaged (%s)", path, lc.Problem)
	}
	if o, ok := engine.LastOutcome(lc.Events); !ok || o.Result == engine.OutcomeInterrupted {
		return engine.Label{}, inputs.Errorf("label %s: the run has not finished; resume it first (arena resume %s)", path, path)
	}
	var parts []string
	if w := strings.TrimSpace(g.Words); w != "" {
		parts = append(parts, w)
	}
	for _, p := range []struct{ prefix, v string }{{"winner ", g.Winner}, {"", g.Verdict}, {"score ", g.Score}} {
		if p.v != "" {
			parts = append(parts, p.prefix+p.v)
		}
	}
	l, err := ParseLabel(trust.Text(strings.Join(parts, ", ")), RunOf(path, lc).Candidates())
	if err != nil {
		return l, inputs.Errorf("label: %w", err)
	}
	l.By, l.Note = "person", strings.TrimSpace(trust.Text(g.Note))
	return l, nil
}

// Record appends the label to the log w, after its last event (lastSeq),
// with a note that replay shows. The two are one write: both, or (a full
// disk) neither, the log as it was, byte for byte.
func Record(w *runlog.Writer, lastSeq int64, l engine.Label, now time.Time) error {
	return w.Write(engine.Event{Seq: lastSeq + 1, Time: now, Payload: l},
		engine.Event{Seq: lastSeq + 2, Time: now, Payload: engine.Note{Level: engine.NoteInfo, Message: "the person's own verdict (arena label): " + LabelWords(l)}})
}

// LastLabel is the latest label a person gave the run, if any.
func LastLabel(events []engine.Event) (engine.Label, bool) {
	for i := len(events) - 1; i >= 0; i-- {
		if l, ok := events[i].Payload.(engine.Label); ok && l.By == "person" {
			return l, true
		}
	}
	return engine.Label{}, false
}

// LabelWords is a label in words: "winner Kafka, score 4 (misses the
// migration)".
func LabelWords(l engine.Label) string {
	var parts []string
	if l.Winner != "" {
		parts = append(parts, "winner "+l.Winner)
	}
	if l.Verdict != "" {
		parts = append(parts, l.Verdict)
	}
	if l.Score != nil {
		parts = append(parts, fmt.Sprintf("score %g", *l.Score))
	}
	s := strings.Join(parts, ", ")
	if l.Note != "" {
		s += " (" + l.Note + ")"
	}
	return s
}

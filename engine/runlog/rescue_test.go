package runlog

import (
	"path/filepath"
	"testing"

	"github.com/arenadebate/arena/engine"
)

// The rescue file holds the events the log did not hold whole, after the
// run's first event, so that it replays on its own: the two together hold
// every event once.
func TestRescueSavesWhatTheLogCouldNotHold(t *testing.T) {
	events := sampleEvents()
	path := writeLog(t, events[:4])
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	// The writer kept event 4 (written whole before the failure) and the
	// rest.
	w := &Writer{path: path, kept: events[3:]}
	rescued, n, err := w.Rescue()
	if err != nil || n != len(events)-4 || filepath.Dir(rescued) != tmp {
		t.Fatalf("rescued %d events to %s: %v", n, rescued, err)
	}
	lc, err := ReadFile(rescued)
	if err != nil || lc.Problem != "" || !lc.Complete {
		t.Fatalf("the rescue file does not replay: %v %q", err, lc.Problem)
	}
	if len(lc.Events) != n+1 || lc.Events[0].Kind() != engine.KindDebateStarted || lc.Events[1].Seq != 5 {
		t.Fatalf("rescued %d events, the first two %s and %d", len(lc.Events), lc.Events[0].Kind(), lc.Events[1].Seq)
	}
	// Nothing kept beyond what the file holds: no rescue file.
	w = &Writer{path: path, kept: events[2:4]}
	if p, n, err := w.Rescue(); p != "" || n != 0 || err != nil {
		t.Fatalf("nothing to rescue, yet %q %d %v", p, n, err)
	}
}

func TestRescueSaysWhenItCannotSave(t *testing.T) {
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "gone"))
	w := &Writer{path: filepath.Join(t.TempDir(), "x.jsonl"), kept: sampleEvents()}
	if _, n, err := w.Rescue(); n != len(sampleEvents()) || err == nil {
		t.Fatalf("%d events, error %v", n, err)
	}
}

package runlog

import (
	"encoding/json"
	"errors"
	"os"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
)

// Rescue saves, once Close has failed, the events the log could not hold
// to a file of their own in the temporary directory, so that the run is
// not lost: it returns the file's path and how many events were saved
// there (none when the file holds them all). The writer keeps every event
// that may not have reached the file; those the file does hold whole are
// left out, and the rescue file starts with the run's first event, so that
// it replays on its own.
func (l *Writer) Rescue() (path string, n int, err error) {
	written, _ := ReadFile(l.Path())
	var last int64
	if n := len(written.Events); n > 0 {
		last = written.Events[n-1].Seq
	}
	var kept []engine.Event
	for _, e := range l.Kept() {
		if e.Seq > last {
			kept = append(kept, e)
		}
	}
	if len(kept) == 0 {
		return "", 0, nil
	}
	events := kept
	if kept[0].Kind() != engine.KindDebateStarted && len(written.Events) > 0 {
		events = append([]engine.Event{written.Events[0]}, kept...)
	}
	path, err = writeRescue(events)
	return path, len(kept), err
}

// writeRescue writes events to a new file, as JSON Lines as arena
// --json prints them.
func writeRescue(events []engine.Event) (string, error) {
	f, err := os.CreateTemp("", "arena-rescued-*.jsonl")
	if err != nil {
		return "", err
	}
	enc := json.NewEncoder(trust.JSONWriter{W: f})
	enc.SetEscapeHTML(false)
	for _, e := range events {
		if err = enc.Encode(e); err != nil {
			break
		}
	}
	return f.Name(), errors.Join(err, f.Close())
}

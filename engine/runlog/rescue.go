package runlog

import (
	"encoding/json"
	"errors"
	"io"
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
// it replays on its own. A log that vanished from its path and could not
// be written again there is saved whole: its events first, then the rest.
func (l *Writer) Rescue() (path string, n int, err error) {
	l.mu.Lock()
	orphan := l.orphan
	l.orphan = nil
	l.mu.Unlock()
	if orphan != nil {
		defer orphan.Close()
		return l.rescueWhole(orphan)
	}
	written, _ := ScanFile(l.Path(), func(engine.Event) {})
	kept := l.unwritten(written.LastSeq)
	if len(kept) == 0 {
		return "", 0, nil
	}
	events := kept
	if kept[0].Kind() != engine.KindDebateStarted && written.Count > 0 {
		events = append([]engine.Event{written.Start}, kept...)
	}
	path, err = writeRescue(nil, events)
	return path, len(kept), err
}

// rescueWhole saves what the vanished log holds, then the events it does
// not.
func (l *Writer) rescueWhole(orphan *os.File) (string, int, error) {
	written, err := Scan(orphan, func(engine.Event) {})
	if err != nil {
		return "", 0, err
	}
	kept := l.unwritten(written.LastSeq)
	if _, err := orphan.Seek(0, io.SeekStart); err != nil {
		return "", 0, err
	}
	path, err := writeRescue(io.LimitReader(orphan, l.size), kept)
	return path, written.Count + len(kept), err
}

// unwritten are the kept events after the last one the file holds.
func (l *Writer) unwritten(last int64) []engine.Event {
	var out []engine.Event
	for _, e := range l.Kept() {
		if e.Seq > last {
			out = append(out, e)
		}
	}
	return out
}

// writeRescue writes a new file: what head holds (nil: nothing), then
// events, as JSON Lines as arena --json prints them.
func writeRescue(head io.Reader, events []engine.Event) (string, error) {
	f, err := os.CreateTemp("", "arena-rescued-*.jsonl")
	if err != nil {
		return "", err
	}
	if head != nil {
		_, err = io.Copy(f, head)
	}
	enc := json.NewEncoder(trust.JSONWriter{W: f})
	enc.SetEscapeHTML(false)
	for _, e := range events {
		if err != nil {
			break
		}
		err = enc.Encode(e)
	}
	return f.Name(), errors.Join(err, f.Close())
}

package runlog

import (
	"encoding/json"
	"errors"
	"fmt"
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

// Finish closes the log and says, for the person, what became of it: a
// log deleted during the run was written again (where), and when writing
// failed, where the events it could not hold were saved, so the run is
// not lost.
func (l *Writer) Finish() (warnings []string) {
	err := l.Close()
	for _, p := range l.Rewritten() {
		warnings = append(warnings, fmt.Sprintf("the debate log was deleted during the run; arena wrote it again, with every event, at %s (arena replay %s)", p, p))
	}
	if err == nil {
		return warnings
	}
	warnings = append(warnings, fmt.Sprintf("the debate log %s could not be fully written: %v", l.Path(), Trouble(err)))
	path, n, err := l.Rescue()
	switch {
	case n == 0:
	case err == nil:
		warnings = append(warnings, fmt.Sprintf("the %d events not written there were saved to %s (arena replay %s)", n, path, path))
	default:
		warnings = append(warnings, fmt.Sprintf("they could not be saved elsewhere either (%v); the outcome above is all that remains", err))
	}
	return warnings
}

package engine

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/arenadebate/arena/challengers/trust"
)

// WhatOutcomeDocument is how a Saved event names the outcome document.
const WhatOutcomeDocument = "outcome document"

// DocumentWriter is a Sink that saves the outcome document when the
// Outcome event passes, and says where on the bus (a Saved event), so the
// log records it. Protocols write no files: their document is in the
// Outcome event, and this consumer puts it on disk, as the log writer
// does the events.
type DocumentWriter struct {
	Path string // where to save it; a taken name gets -2, -3, ... before the extension
	Bus  *Bus   // where to say so
	// Err is the error of a failed save, read after the bus closed.
	Err error
}

// Handle saves the document of an Outcome event.
func (d *DocumentWriter) Handle(e Event) {
	o, ok := e.Payload.(Outcome)
	// No log, no document beside it: a run that asked no model keeps
	// neither (Options.LogPath).
	if !ok || d.Path == "" || o.Markdown == "" || o.LogPath == "" {
		return
	}
	// A document is read in terminals and editors: whatever a model, a
	// file or an argument put in it is cleaned of escape sequences.
	path, err := trust.WriteNew(d.Path, []byte(trust.Text(o.Markdown)))
	if err != nil {
		d.Err = err
		d.Bus.Emit(Note{Level: NoteError, Message: "could not save the outcome document: " + err.Error()})
		return
	}
	d.Bus.Emit(Saved{What: WhatOutcomeDocument, Path: path})
}

// DocumentBeside is the outcome document saved beside the log at logPath
// ("" when none was): the latest one the run's events name, in the log's
// directory.
func DocumentBeside(logPath string, events []Event) string {
	var doc string
	for _, e := range events {
		if s, ok := e.Payload.(Saved); ok && s.What == WhatOutcomeDocument {
			doc = filepath.Join(filepath.Dir(logPath), filepath.Base(s.Path))
		}
	}
	return doc
}

// AppendToDocument appends text (a follow-up) to the outcome document at
// doc, cleaned of escape sequences as the document was, once the file has
// shown itself to be the one arena wrote for the run of events.
func AppendToDocument(doc string, events []Event, text string) error {
	f, err := openDocument(doc, events)
	if err != nil {
		return err
	}
	_, err = f.WriteString(trust.Text(text))
	return errors.Join(err, f.Close())
}

// openDocument opens the outcome document at doc for appending, once it
// has shown itself to be the one arena wrote for this run: a regular file
// of this user's (no link: its name comes from a log, which anyone can
// hand arena), beginning with the outcome the log records.
func openDocument(doc string, events []Event) (*os.File, error) {
	var outcome string
	for _, e := range events {
		if o, ok := e.Payload.(Outcome); ok {
			outcome = o.Markdown
		}
	}
	if outcome == "" {
		return nil, errors.New("the log holds no outcome document")
	}
	f, err := trust.OpenAppend(doc, false)
	if err != nil {
		return nil, err
	}
	content, err := trust.ReadFile(doc, 64<<20)
	same := err == nil && isFileAt(f, doc)
	if !same || !bytes.HasPrefix(content, []byte(trust.Text(outcome))) {
		f.Close()
		if err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%s is not the outcome document arena saved for this run (it does not begin with the run's outcome); it is left as it is", doc)
	}
	return f, nil
}

// isFileAt reports whether f is the file now at path.
func isFileAt(f *os.File, path string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Lstat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

package engine

import "github.com/arenadebate/arena/challengers/trust"

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
	if !ok || d.Path == "" || o.Markdown == "" {
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

package engine

import (
	"path/filepath"
	"strings"

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
	// Path is where to save it ("": DocumentPath of the log the Outcome
	// names); a taken name gets -2, -3, ... before the extension.
	Path string
	Bus  *Bus // where to say so
	// Earlier are a resumed run's events before the resume (nil: not a
	// resumed run). The document arena saved for them, at Path, is
	// replaced by the run's final one, which keeps it at its end as
	// history; a file arena did not write for that run is left alone.
	Earlier []Event
	// Err is the error of a failed save, read after the bus closed.
	Err error
}

// Handle saves the document of an Outcome event.
func (d *DocumentWriter) Handle(e Event) {
	o, ok := e.Payload.(Outcome)
	// No log, no document beside it: a run that asked no model keeps
	// neither (Options.LogPath).
	if !ok || o.Markdown == "" || o.LogPath == "" {
		return
	}
	at := d.Path
	if at == "" {
		at = DocumentPath(o.LogPath) // beside the log, where it is now
	}
	// A document is read in terminals and editors: whatever a model, a
	// file or an argument put in it is cleaned of escape sequences.
	md := trust.Text(o.Markdown)
	path, data, err := d.replaceEarlier(o.LogPath, md)
	if path == "" && err == nil {
		data = md
		path, err = trust.WriteNew(at, []byte(md))
	}
	if err != nil {
		d.Err = err
		d.Bus.Emit(Note{Level: NoteError, Message: "could not save the outcome document: " + err.Error()})
		return
	}
	// The hash of what was written: a follow-up or a resume writes to the
	// document only while it holds just that (docbeside.go).
	d.Bus.Emit(Saved{What: WhatOutcomeDocument, Path: path, SHA256: Hash(data)})
}

// replaceEarlier replaces the document saved before a resume with md,
// the earlier text kept below it, and returns its path and what it holds
// now ("" when there is none to replace). After a resume the document
// named after the log said "interrupted", and the real outcome sat
// unannounced in a -2.md beside it (issue 32, point 4).
func (d *DocumentWriter) replaceEarlier(logPath, md string) (string, string, error) {
	if len(d.Earlier) == 0 {
		return "", "", nil
	}
	doc := DocumentBeside(logPath, d.Earlier)
	if doc == "" {
		return "", "", nil
	}
	old, err := earlierDocument(doc, d.Earlier)
	if err != nil {
		return "", "", nil // not arena's for this run: a new file beside it
	}
	dir, err := trust.OpenDir(filepath.Dir(doc), false)
	if err != nil {
		return "", "", err
	}
	defer dir.Close()
	data := withHistory(md, old)
	return doc, data, dir.Replace(filepath.Base(doc), []byte(data), 0o600)
}

// historyHeading heads what a document said before its run was resumed.
const historyHeading = "## Before the resume"

// withHistory is md with the earlier document old after it, its headings
// two levels down so that they sit under historyHeading.
func withHistory(md, old string) string {
	var b strings.Builder
	b.WriteString(strings.TrimRight(md, "\n"))
	b.WriteString("\n\n---\n\n" + historyHeading + "\n\nWhat this document said before the run was resumed (the log holds every event of both parts).\n\n")
	fence := ""
	for _, ln := range strings.Split(strings.TrimRight(old, "\n"), "\n") {
		t := strings.TrimLeft(ln, " ")
		switch {
		case fence != "":
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
		case strings.HasPrefix(t, "```"), strings.HasPrefix(t, "~~~"):
			fence = t[:3]
		case atxLevel(ln) > 0 && atxLevel(ln) <= 4:
			ln = "##" + ln
		}
		b.WriteString(ln + "\n")
	}
	return b.String()
}

// atxLevel is the level of a Markdown heading line ("## x": 2), or 0.
func atxLevel(ln string) int {
	n := len(ln) - len(strings.TrimLeft(ln, "#"))
	if n == 0 || n > 6 || n < len(ln) && ln[n] != ' ' {
		return 0
	}
	return n
}

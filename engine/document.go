package engine

import (
	"bytes"
	"errors"
	"fmt"
	"os"
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
	Path string // where to save it; a taken name gets -2, -3, ... before the extension
	Bus  *Bus   // where to say so
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
	if !ok || d.Path == "" || o.Markdown == "" || o.LogPath == "" {
		return
	}
	// A document is read in terminals and editors: whatever a model, a
	// file or an argument put in it is cleaned of escape sequences.
	path, err := d.replaceEarlier(trust.Text(o.Markdown))
	if path == "" && err == nil {
		path, err = trust.WriteNew(d.Path, []byte(trust.Text(o.Markdown)))
	}
	if err != nil {
		d.Err = err
		d.Bus.Emit(Note{Level: NoteError, Message: "could not save the outcome document: " + err.Error()})
		return
	}
	d.Bus.Emit(Saved{What: WhatOutcomeDocument, Path: path})
}

// replaceEarlier replaces the document saved before a resume with md,
// the earlier text kept below it, and returns its path ("" when there is
// none to replace). After a resume the document named after the log said
// "interrupted", and the real outcome sat unannounced in a -2.md beside it
// (issue 32, point 4).
func (d *DocumentWriter) replaceEarlier(md string) (string, error) {
	if len(d.Earlier) == 0 {
		return "", nil
	}
	doc := DocumentBeside(d.Path, d.Earlier)
	if doc == "" {
		return "", nil
	}
	old, err := earlierDocument(doc, d.Earlier)
	if err != nil {
		return "", nil // not arena's for this run: a new file beside it
	}
	dir, err := trust.OpenDir(filepath.Dir(doc), false)
	if err != nil {
		return "", err
	}
	defer dir.Close()
	return doc, dir.Replace(filepath.Base(doc), []byte(withHistory(md, old)), 0o600)
}

// earlierDocument reads the document at doc, once it has shown itself to
// be the one arena saved for the run of events: a regular file beginning
// with the outcome they record.
func earlierDocument(doc string, events []Event) (string, error) {
	var outcome string
	for _, e := range events {
		if o, ok := e.Payload.(Outcome); ok {
			outcome = o.Markdown
		}
	}
	st, err := os.Lstat(doc)
	if err != nil || !st.Mode().IsRegular() || outcome == "" {
		return "", fmt.Errorf("%s is not the outcome document of this run", doc)
	}
	b, err := trust.ReadFile(doc, 64<<20)
	if err != nil || !bytes.HasPrefix(b, []byte(trust.Text(outcome))) {
		return "", fmt.Errorf("%s is not the outcome document of this run", doc)
	}
	return string(b), nil
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

package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
	if !ok || d.Path == "" || o.Markdown == "" {
		return
	}
	path, err := WriteNew(d.Path, []byte(o.Markdown))
	if err != nil {
		d.Err = err
		d.Bus.Emit(Note{Level: NoteError, Message: "could not save the outcome document: " + err.Error()})
		return
	}
	d.Bus.Emit(Saved{What: WhatOutcomeDocument, Path: path})
}

// WriteNew writes data to a new file (0600) at path, or, when path is
// taken, at the first free path-2, path-3, ... (before the extension). It
// never opens an existing file, so it never overwrites what it did not
// write. A failed write removes the partial file: a cut document must not
// pass for the whole one.
func WriteNew(path string, data []byte) (string, error) {
	f, path, err := CreateNew(path)
	if err != nil {
		return "", err
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(path)
		return "", werr
	}
	return path, nil
}

// CreateNew creates a new file (0600) at path or at the first free
// numbered variant of it, as WriteNew names them.
func CreateNew(path string) (*os.File, string, error) {
	ext := filepath.Ext(path)
	stem := strings.TrimSuffix(path, ext)
	for i := 1; ; i++ {
		p := path
		if i > 1 {
			p = stem + "-" + strconv.Itoa(i) + ext
		}
		f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if errors.Is(err, fs.ErrExist) && i < 1000 {
			continue
		}
		if err != nil {
			return nil, "", fmt.Errorf("create %s: %w", p, err)
		}
		return f, p, nil
	}
}

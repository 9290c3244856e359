package engine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/arenadebate/arena/challengers/trust"
)

// A log names the outcome document saved beside it (a Saved event), and
// a follow-up (arena ask, f on the screen) and a resume write to that
// document. A log comes from anyone, so what it names chooses no file:
// the document of a log is <log stem>.md beside it (or <stem>-N.md, the
// name arena gives when that one is taken), and arena writes to it only
// when its content has the SHA-256 the log last recorded for it, that of
// the bytes arena wrote. Anything else (a file the person edited, one
// another hand put there, a log that named .bashrc) is left alone, and
// the follow-up goes to a new file beside the log, which the person is
// told of (issue 36, item 1: a log saved in HOME whose document was
// .bashrc made arena ask append to ~/.bashrc; arena used to accept any
// file that began with the outcome the log itself supplied).

// WhatFollowUpAppended is how a Saved event names the outcome document a
// follow-up was appended to; its SHA256 is the document's hash after.
const WhatFollowUpAppended = "follow-up appended to the outcome document"

// maxDocument bounds the outcome document arena reads back.
const maxDocument = 64 << 20

// DocumentPath is where the outcome document of the log at logPath goes:
// beside it, named after it (debate-logs/X.jsonl: debate-logs/X.md).
func DocumentPath(logPath string) string {
	return strings.TrimSuffix(logPath, ".jsonl") + ".md"
}

// recordedDocument is the latest Saved event of events naming the
// outcome document, when there is one.
func recordedDocument(events []Event) (Saved, bool) {
	var last Saved
	found := false
	for _, e := range events {
		if s, ok := e.Payload.(Saved); ok && (s.What == WhatOutcomeDocument || s.What == WhatFollowUpAppended) {
			last, found = s, true
		}
	}
	return last, found
}

// DocumentBeside is the outcome document of the run whose log is at
// logPath ("" when its events record none): DocumentPath(logPath), or
// the numbered name beside it the events record (arena gives <stem>-2.md
// when <stem>.md is taken). Whatever other name the events hold is not
// taken: a log chooses no file to write.
func DocumentBeside(logPath string, events []Event) string {
	s, ok := recordedDocument(events)
	if !ok {
		return ""
	}
	doc := DocumentPath(logPath)
	if name := filepath.Base(s.Path); isNumberedName(name, filepath.Base(doc)) {
		return filepath.Join(filepath.Dir(doc), name)
	}
	return doc
}

// isNumberedName says whether name is base or one of the numbered names
// trust.CreateNew gives in its place (base-2.md ... before the extension).
func isNumberedName(name, base string) bool {
	if name == base {
		return true
	}
	ext := filepath.Ext(base)
	n, ok := strings.CutPrefix(name, strings.TrimSuffix(base, ext)+"-")
	if !ok {
		return false
	}
	n, ok = strings.CutSuffix(n, ext)
	i, err := strconv.Atoi(n)
	return ok && err == nil && i >= 2 && i <= trust.MaxNameTries && strconv.Itoa(i) == n
}

// ErrNotTheDocument says a file is not the outcome document arena saved
// for the run a log records.
var ErrNotTheDocument = errors.New("not the outcome document arena saved for this run")

// notTheDocument is ErrNotTheDocument for doc, saying why.
func notTheDocument(doc, why string) error {
	return fmt.Errorf("%s is %w (%s); it is left as it is", doc, ErrNotTheDocument, why)
}

// ownDocument opens doc to append to, once it has shown itself to be the
// document arena saved for the run of events: a regular file of this
// user's with one link (no link followed), under the name the events
// last recorded, whose content has the hash they recorded with it. It
// returns the file and its content.
func ownDocument(doc string, events []Event) (*os.File, []byte, error) {
	s, ok := recordedDocument(events)
	switch {
	case !ok:
		return nil, nil, notTheDocument(doc, "the log records no outcome document")
	case filepath.Base(s.Path) != filepath.Base(doc):
		return nil, nil, notTheDocument(doc, "the log records another name")
	case s.SHA256 == "":
		return nil, nil, notTheDocument(doc, "the log records no hash of it")
	}
	f, err := trust.OpenAppend(doc, false)
	if err != nil {
		return nil, nil, err
	}
	content, err := readSame(f, doc)
	if err == nil && Hash(string(content)) != s.SHA256 {
		err = notTheDocument(doc, "its content is not what arena wrote")
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, content, nil
}

// readSame reads the file f has open for appending, through a second
// descriptor that is shown to be the same file: what is read is what is
// appended to, whatever happens at doc meanwhile.
func readSame(f *os.File, doc string) ([]byte, error) {
	r, err := os.OpenFile(doc, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	a, err1 := f.Stat()
	b, err2 := r.Stat()
	if err := errors.Join(err1, err2); err != nil {
		return nil, err
	}
	if !os.SameFile(a, b) {
		return nil, notTheDocument(doc, "it changed while it was opened")
	}
	return trust.ReadAll(r, doc, maxDocument)
}

// AppendToDocument appends text (a follow-up) to the outcome document at
// doc, cleaned of escape sequences as the document was, once the file has
// shown itself to be the one arena wrote for the run of events
// (ownDocument); it returns the document's hash after, for the log to
// record.
func AppendToDocument(doc string, events []Event, text string) (string, error) {
	f, content, err := ownDocument(doc, events)
	if err != nil {
		return "", err
	}
	clean := trust.Text(text)
	_, err = f.WriteString(clean)
	if err = errors.Join(err, f.Close()); err != nil {
		return "", err
	}
	return Hash(string(content) + clean), nil
}

// earlierDocument reads the document at doc, once it has shown itself to
// be the one arena saved for the run of events (ownDocument): a resumed
// run's final document replaces it, keeping it below as history.
func earlierDocument(doc string, events []Event) (string, error) {
	f, content, err := ownDocument(doc, events)
	if err != nil {
		return "", err
	}
	return string(content), f.Close()
}

// saveFollowUp appends the follow-up md to the outcome document of the
// run whose log is at logPath, and says so on bus (a Saved event with the
// document's new hash). When that document is not the one arena saved
// for the run, the run's outcome and the follow-up go to a new document
// beside the log instead, and a note says why.
func saveFollowUp(bus *Bus, logPath string, events []Event, md string) {
	doc := DocumentBeside(logPath, events)
	if doc == "" {
		return // the run saved no document
	}
	sum, err := AppendToDocument(doc, events, md)
	if err == nil {
		bus.Emit(Saved{What: WhatFollowUpAppended, Path: doc, SHA256: sum})
		return
	}
	o, _ := LastOutcome(events)
	text := trust.Text(strings.TrimRight(o.Markdown, "\n") + "\n" + md)
	path, werr := trust.WriteNew(DocumentPath(logPath), []byte(text))
	if werr != nil {
		bus.Emit(Note{Level: NoteWarn, Message: "could not add the follow-up to the outcome document: " + errors.Join(err, werr).Error()})
		return
	}
	bus.Emit(Note{Level: NoteWarn, Message: fmt.Sprintf("could not add the follow-up to the outcome document: %v; the outcome and the follow-up are in a new document beside the log, %s", err, path)})
	bus.Emit(Saved{What: WhatOutcomeDocument, Path: path, SHA256: Hash(text)})
}

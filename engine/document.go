package engine

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine/doc"
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
// the earlier document kept below it as history, and returns its path and
// what it holds now ("" when there is none to replace). After a resume
// the document named after the log said "interrupted", and the real
// outcome sat unannounced in a -2.md beside it (issue 32, point 4).
func (d *DocumentWriter) replaceEarlier(logPath, md string) (string, string, error) {
	if len(d.Earlier) == 0 {
		return "", "", nil
	}
	path := DocumentBeside(logPath, d.Earlier)
	if path == "" {
		return "", "", nil
	}
	old, err := earlierDocument(path, d.Earlier)
	if err != nil {
		return "", "", nil // not arena's for this run: a new file beside it
	}
	dir, err := trust.OpenDir(filepath.Dir(path), false)
	if err != nil {
		return "", "", err
	}
	defer dir.Close()
	data := md + "\n" + trust.Text(doc.Sections(historySections(d.Earlier, old), 2))
	return path, data, dir.Replace(filepath.Base(path), []byte(data), 0o600)
}

// historySections are what a resumed run's document keeps of the earlier
// one, below the heading "Before the resume": its document, with the
// follow-ups asked after it, as the earlier run's events record them. A
// log written before documents were data has only the earlier file's
// text, kept as it is.
func historySections(events []Event, old string) []doc.Section {
	out := []doc.Section{{ID: doc.SectionHistory, Heading: "Before the resume", Blocks: []doc.Block{
		doc.Para("What this document said before the run was resumed (the log holds every event of both parts)."),
	}}}
	var earlier *doc.Document
	var start DebateStarted
	at := 0
	for i, e := range events {
		switch p := e.Payload.(type) {
		case DebateStarted:
			start = p
		case Outcome:
			earlier, at = p.Document, i
		}
	}
	if earlier == nil {
		return append(out, doc.Section{Heading: "The earlier document", Depth: 1, Blocks: []doc.Block{doc.Para(strings.TrimSpace(old))}})
	}
	out = append(out, earlierHead(*earlier))
	out = append(out, doc.Under(earlier.Sections, 2)...)
	return append(out, doc.Under(followUps(start, events[at:]), 2)...)
}

// earlierHead is the earlier document's title, summary, notices and
// facts, as the head of its part of the history.
func earlierHead(d doc.Document) doc.Section {
	head := doc.Section{Heading: d.Title, Depth: 1}
	if d.Result != "" {
		head.Heading += ": " + d.Result
	}
	if d.Summary != "" {
		head.Blocks = append(head.Blocks, doc.Para("**"+OneLine(d.Summary, 0)+"**"))
	}
	for _, n := range d.Notices {
		head.Blocks = append(head.Blocks, doc.Block{Notice: &n})
	}
	for _, f := range d.Facts {
		head.Blocks = append(head.Blocks, doc.Para("**"+f.Name+":** "+f.Value))
	}
	return head
}

// followUps are the follow-ups events record, each with its answer, as
// the document they were appended to keeps them.
func followUps(start DebateStarted, events []Event) []doc.Section {
	var out []doc.Section
	var asked *FollowUp
	answer := func(text string) {
		seat := Seat{Name: asked.Seat}
		for _, s := range start.Seats {
			if s.Name == asked.Seat {
				seat = s
			}
		}
		out = append(out, FollowUpSection(seat, asked.Agent, asked.Question, text))
		asked = nil
	}
	for _, e := range events {
		switch p := e.Payload.(type) {
		case FollowUp:
			if asked != nil {
				answer(interruptedAnswer)
			}
			asked = &p
		case AgentFinished:
			if asked != nil && p.Phase == PhaseFollowUp {
				answer(strings.TrimSpace(p.Text))
			}
		case AgentFailed:
			if asked != nil && p.Phase == PhaseFollowUp && !p.WillRetry {
				answer("_(" + p.Agent + " " + p.Message + ")_")
			}
		}
	}
	if asked != nil {
		answer(interruptedAnswer)
	}
	return out
}

// interruptedAnswer stands for the answer to a follow-up that never came.
const interruptedAnswer = "_(interrupted before an answer came)_"

// FollowUpSection is a follow-up as the outcome document keeps it: the
// question, who was asked, and the answer (or why none came).
func FollowUpSection(seat Seat, agent, question, answer string) doc.Section {
	return doc.Section{ID: "follow-up", Heading: "Follow-up: " + OneLine(question, 0), Blocks: []doc.Block{
		doc.Para(fmt.Sprintf("Asked of %s (%s, %s) after the outcome.", seat.Name, seat.Role, agent)),
		doc.Para(answer),
	}}
}

package page

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
	"github.com/arenadebate/arena/tui/plain"
)

// Format is what arena export writes.
type Format string

const (
	FormatHTML     Format = "html"
	FormatMarkdown Format = "md"
	FormatJSON     Format = "json"
)

// Read reads the log at path into a Run, as a stream: memory holds the
// replies, not the chunks they streamed in. Only a regular file is read
// (runlog.ScanFile).
func Read(path string) (*Run, runlog.Contents, error) {
	return read(path, false)
}

// read reads the log at path, every reply whole when whole is set.
func read(path string, whole bool) (*Run, runlog.Contents, error) {
	b := NewBuilder(path)
	b.Whole = whole
	lc, err := runlog.ScanFile(path, func(e engine.Event) { b.Add(e) })
	if err != nil {
		return nil, lc, err
	}
	r := b.Run()
	r.Live = lc.Writing
	r.Problem = plain.EndNote(lc)
	return r, lc, nil
}

// ErrNoOutcome says a run has no outcome document to export.
var ErrNoOutcome = errors.New("the log holds no outcome document: the run stopped before its end (arena resume carries it on)")

// Export writes run in format f.
func Export(w io.Writer, run *Run, f Format) error {
	switch f {
	case FormatMarkdown:
		md, err := OutcomeMarkdown(run)
		if err != nil {
			return err
		}
		_, err = io.WriteString(w, md)
		return err
	case FormatJSON:
		b, err := run.JSON()
		if err != nil {
			return err
		}
		_, err = w.Write(append(trust.CleanJSON(b), '\n'))
		return err
	}
	return Write(w, run)
}

// OutcomeMarkdown is the outcome document as arena saves it beside the
// log: the outcome, then each follow-up asked after it.
func OutcomeMarkdown(run *Run) (string, error) {
	if run.Outcome == nil || run.Outcome.Markdown == "" {
		return "", ErrNoOutcome
	}
	var b strings.Builder
	b.WriteString(strings.TrimRight(run.Outcome.Markdown, "\n") + "\n")
	seats := map[string]engine.Seat{}
	for _, s := range run.Seats {
		seats[s.Name] = engine.Seat{Name: s.Name, Agent: s.Agent, Role: engine.Role(s.Role)}
	}
	for _, p := range run.Phases {
		if p.Phase != engine.PhaseFollowUp {
			continue
		}
		var q *engine.FollowUp
		for _, it := range p.Items {
			switch {
			case it.FollowUp != nil:
				q = it.FollowUp
			case q != nil && it.Call != nil && !it.Call.Running() && (it.Call.Reply != nil || !it.Call.Failure.WillRetry):
				b.WriteString(engine.FollowUpMarkdown(seats[q.Seat], q.Agent, q.Question, answer(it.Call)))
				q = nil
			}
		}
	}
	return trust.Text(b.String()), nil
}

// answer is a follow-up call's answer as the document words it.
func answer(c *Call) engine.Answer {
	if c.Reply != nil {
		return engine.Answer{Text: c.Reply.Text}
	}
	return engine.Answer{Text: "_(" + c.Failure.Message + ")_"}
}

// ExportLog reads the log at logPath and writes it in format f: to out
// when outPath is "", else to a new file at outPath. An existing file is
// never written over, nor a symbolic link followed (trust's Dir.Create):
// arena writes only files it makes.
func ExportLog(logPath string, f Format, out io.Writer, outPath string) (*Run, error) {
	run, _, err := read(logPath, f != FormatHTML)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := Export(&b, run, f); err != nil {
		return run, err
	}
	if outPath == "" {
		_, err = out.Write(b.Bytes())
		return run, err
	}
	return run, writeNewFile(outPath, b.Bytes())
}

// writeNewFile writes data to a file it creates at path (0600), never
// over one there (trust.WriteExclusive).
func writeNewFile(path string, data []byte) error {
	err := trust.WriteExclusive(path, data)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s exists: arena export writes a new file only (remove it, or name another with -o)", path)
	}
	return err
}

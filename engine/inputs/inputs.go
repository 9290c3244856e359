// Package inputs reads what a person hands a run: a topic, context, the
// work to judge, a spec, stakeholders, from files or stdin, through the
// one bounded reader: regular files only, at most MaxBytes whatever Stat
// says, UTF-8 text, and nothing that looks like a secret unless the
// person says to send it (--include-secrets). The messages are the same
// for every command: "context file notes.md: is a FIFO (named pipe), not a
// regular file". (A solution to judge, with its directories and budget,
// is engine/judge's Load.)
package inputs

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
)

// MaxBytes bounds one input file or stdin: the whole of it goes into
// every prompt.
const MaxBytes = 4 << 20

// ErrInput marks a mistake in what the person handed the run (a file that
// is not text, a secret, an empty topic), theirs to fix: the command
// line's usage error. Match it with errors.Is; the error's text is the
// whole sentence.
var ErrInput = errors.New("run input")

type inputError struct {
	msg   string
	cause error // nil for none
}

func (e inputError) Error() string        { return e.msg }
func (e inputError) Unwrap() error        { return e.cause }
func (e inputError) Is(target error) bool { return target == ErrInput }

// Errorf is an input error worded by format; a cause wrapped with %w is
// kept for errors.Is and errors.As. Every protocol's mistakes in what a
// person handed it are these, so the command line knows them by one mark.
func Errorf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return inputError{msg: err.Error(), cause: errors.Unwrap(err)}
}

// Cause is an input error worded by format whose text does not end with
// the cause's; the cause is kept for errors.Is and errors.As.
func Cause(cause error, format string, args ...any) error {
	return inputError{msg: fmt.Sprintf(format, args...), cause: cause}
}

func inputf(format string, args ...any) error { return Errorf(format, args...) }

func inputCause(cause error, format string, args ...any) error { return Cause(cause, format, args...) }

// Needs is the error of a request that lacks an input its protocol
// needs: it names the command, what it needs and how it is given, from
// the protocol's spec, e.g. `arena compare needs the decision: arena
// compare "decision" --option A --option B [flags] (see arena compare
// --help)`. (Issue 40, item 14: a comparison without its decision was
// told to run arena "your question", the debate.)
func Needs(s engine.Spec, what string) error {
	return inputf("arena %s needs %s: arena %s (see arena %s --help)", s.Command, what, s.Help.Use, s.Command)
}

// Options say where stdin comes from and whether files that look like
// secrets may be sent.
type Options struct {
	Stdin          io.Reader
	IncludeSecrets bool
	// Missing is the error when no topic is given (Needs); nil: the
	// debate's, arena "your question or decision".
	Missing error
}

// File reads the text file at path, a `what` ("context file") of the run.
func File(what, path string, includeSecrets bool) (engine.Doc, error) {
	text, err := trust.ReadText(path, MaxBytes)
	if err != nil {
		return engine.Doc{}, inputCause(err, "%s %v", what, err)
	}
	name := trust.Text(path)
	if !includeSecrets {
		if why := trust.LooksSecret(path, []byte(text)); why != "" {
			return engine.Doc{}, inputf("%s %s looks like a secret: %s. arena sends its input to every seat's model vendor; if you mean to send it, add --include-secrets", what, name, why)
		}
	}
	return engine.Doc{Name: name, Content: text}, nil
}

// Stdin reads r whole as text, for `what` ("the topic").
func Stdin(r io.Reader, what string) (string, error) {
	text, err := trust.ReadAllText(r, "stdin", MaxBytes)
	if err != nil {
		return "", inputCause(err, "%s from %v", what, err)
	}
	return text, nil
}

// Topic takes the topic from the file topicFile, from stdin ("-"), or
// from the arguments (joined by spaces, for those who forget the quotes).
func Topic(topicFile string, args []string, o Options) (string, error) {
	topic, err := rawTopic(topicFile, args, o)
	if err != nil {
		return "", err
	}
	// The topic is shown on screens and in documents, and names the log:
	// no escape sequence of an argument's or a file's goes with it.
	topic = trust.Text(topic)
	if strings.TrimSpace(topic) == "" {
		if o.Missing != nil {
			return "", o.Missing
		}
		return "", inputf("no topic given: run arena \"your question or decision\" (see arena --help)")
	}
	return topic, nil
}

func rawTopic(topicFile string, args []string, o Options) (string, error) {
	switch {
	case topicFile != "" && len(args) > 0:
		return "", inputf("give the topic either as an argument or with -f, not both")
	case topicFile == "-" || (len(args) == 1 && args[0] == "-"):
		return Stdin(o.Stdin, "the topic")
	case topicFile != "":
		doc, err := File("topic file", topicFile, o.IncludeSecrets)
		return doc.Content, err
	}
	topic := strings.Join(args, " ")
	if len(topic) > MaxBytes {
		return "", inputf("the topic is larger than %s; attach big material with --context instead", trust.Size(MaxBytes))
	}
	return topic, nil
}

// Context reads the context files at paths.
func Context(paths []string, includeSecrets bool) ([]engine.Doc, error) {
	var docs []engine.Doc
	for _, p := range paths {
		doc, err := File("context file", p, includeSecrets)
		if err != nil {
			return nil, err
		}
		docs = append(docs, doc)
	}
	return docs, nil
}

// Stakeholders reads a comparison's stakeholders file ("" for none).
func Stakeholders(path string, includeSecrets bool) (string, error) {
	if path == "" {
		return "", nil
	}
	doc, err := File("stakeholders file", path, includeSecrets)
	return strings.TrimSpace(doc.Content), err
}

// Spec reads a ranking's spec, which must say something.
func Spec(path string, includeSecrets bool) (engine.Doc, error) {
	doc, err := File("spec file", path, includeSecrets)
	if err != nil {
		return doc, err
	}
	if strings.TrimSpace(doc.Content) == "" {
		return doc, inputf("spec file %s is empty (the first argument is the spec, then the repositories)", doc.Name)
	}
	return doc, nil
}

// Work reads the files of the work a verdict judges, with stdin for "-"
// (once).
func Work(paths []string, o Options) ([]engine.Doc, error) {
	if len(paths) == 0 {
		return nil, inputf("nothing to judge: name the files, or - to read the work (a diff) from stdin")
	}
	var docs []engine.Doc
	stdin := false
	for _, p := range paths {
		if p != "-" {
			doc, err := File("work file", p, o.IncludeSecrets)
			if err != nil {
				return nil, err
			}
			docs = append(docs, doc)
			continue
		}
		if stdin {
			return nil, inputf("- (stdin) is named twice")
		}
		stdin = true
		doc, err := stdinWork(o.Stdin)
		if err != nil {
			return nil, err
		}
		docs = append(docs, doc)
	}
	return docs, nil
}

func stdinWork(r io.Reader) (engine.Doc, error) {
	text, err := Stdin(r, "the work")
	if err != nil {
		return engine.Doc{}, err
	}
	if strings.TrimSpace(text) == "" {
		return engine.Doc{}, inputf("nothing to judge: stdin was empty")
	}
	return engine.Doc{Name: "stdin", Content: text}, nil
}

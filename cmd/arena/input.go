package main

import (
	"strings"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
)

// Every file a person hands a command (a topic, context, the work to
// judge, a spec, stakeholders) and stdin are read here, through the one
// bounded reader: regular files only, at most maxContextBytes whatever
// Stat says, UTF-8 text, and nothing that looks like a secret unless
// --include-secrets says so. The messages are the same in every command:
// "context file notes.md: is a FIFO (named pipe), not a regular file".

// maxContextBytes bounds one input file or stdin: the whole of it goes
// into every prompt.
const maxContextBytes = 4 << 20

// readInputFile reads the text file at path, a `what` ("context file")
// of the run.
func readInputFile(what, path string, includeSecrets bool) (engine.Doc, error) {
	text, err := trust.ReadText(path, maxContextBytes)
	if err != nil {
		return engine.Doc{}, usageCause(err, "%s %v", what, err)
	}
	name := trust.Text(path)
	if !includeSecrets {
		if why := trust.LooksSecret(path, []byte(text)); why != "" {
			return engine.Doc{}, usagef("%s %s looks like a secret: %s. arena sends its input to every seat's model vendor; if you mean to send it, add --include-secrets", what, name, why)
		}
	}
	return engine.Doc{Name: name, Content: text}, nil
}

// readStdinText reads stdin whole as text, for `what` ("the topic").
func (a *app) readStdinText(what string) (string, error) {
	text, err := trust.ReadAllText(a.stdin, "stdin", maxContextBytes)
	if err != nil {
		return "", usageCause(err, "%s from %v", what, err)
	}
	return text, nil
}

// readTopic takes the topic from -f FILE, from stdin ("-"), or from the
// arguments (joined by spaces, for those who forget the quotes).
func (a *app) readTopic(topicFile string, args []string, includeSecrets bool) (string, error) {
	var topic string
	switch {
	case topicFile != "" && len(args) > 0:
		return "", usagef("give the topic either as an argument or with -f, not both")
	case topicFile == "-" || (len(args) == 1 && args[0] == "-"):
		text, err := a.readStdinText("the topic")
		if err != nil {
			return "", err
		}
		topic = text
	case topicFile != "":
		doc, err := readInputFile("topic file", topicFile, includeSecrets)
		if err != nil {
			return "", err
		}
		topic = doc.Content
	default:
		topic = strings.Join(args, " ")
		if len(topic) > maxContextBytes {
			return "", usagef("the topic is larger than %s; attach big material with --context instead", trust.Size(maxContextBytes))
		}
	}
	// The topic is shown on screens and in documents, and names the log:
	// no escape sequence of an argument's or a file's goes with it.
	topic = trust.Text(topic)
	if strings.TrimSpace(topic) == "" {
		return "", usagef("no topic given: run arena \"your question or decision\" (see arena --help)")
	}
	return topic, nil
}

// readContext reads the --context files.
func readContext(paths []string, includeSecrets bool) ([]engine.Doc, error) {
	var docs []engine.Doc
	for _, p := range paths {
		doc, err := readInputFile("context file", p, includeSecrets)
		if err != nil {
			return nil, err
		}
		docs = append(docs, doc)
	}
	return docs, nil
}

// readStakeholders reads compare's --stakeholders file ("" for none).
func readStakeholders(path string, includeSecrets bool) (string, error) {
	if path == "" {
		return "", nil
	}
	doc, err := readInputFile("stakeholders file", path, includeSecrets)
	return strings.TrimSpace(doc.Content), err
}

// readSpec reads rank's spec.
func readSpec(path string, includeSecrets bool) (engine.Doc, error) {
	doc, err := readInputFile("spec file", path, includeSecrets)
	if err != nil {
		return doc, err
	}
	if strings.TrimSpace(doc.Content) == "" {
		return doc, usagef("spec file %s is empty (the first argument is the spec, then the repositories)", doc.Name)
	}
	return doc, nil
}

// readWork reads verdict's files to judge, or stdin for "-".
func (a *app) readWork(args []string, includeSecrets bool) ([]engine.Doc, error) {
	if len(args) == 0 {
		return nil, usagef("nothing to judge: name the files, or - to read the work (a diff) from stdin")
	}
	var docs []engine.Doc
	stdin := false
	for _, p := range args {
		if p != "-" {
			doc, err := readInputFile("work file", p, includeSecrets)
			if err != nil {
				return nil, err
			}
			docs = append(docs, doc)
			continue
		}
		if stdin {
			return nil, usagef("- (stdin) is named twice")
		}
		stdin = true
		text, err := a.readStdinText("the work")
		if err != nil {
			return nil, err
		}
		if strings.TrimSpace(text) == "" {
			return nil, usagef("nothing to judge: stdin was empty")
		}
		docs = append(docs, engine.Doc{Name: "stdin", Content: text})
	}
	return docs, nil
}

package main

import (
	"errors"

	"github.com/arenadebate/arena/challengers/seating"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/inputs"
)

// Every file a person hands a command and stdin are read by
// engine/inputs; a mistake in them is a usage error, in its words.

// usageOf makes a mistake in what the person handed the run or asked of
// it (inputs.ErrInput), or a seat that cannot be filled as asked
// (seating.ErrSeat), a usage error, in the words it has.
func usageOf(err error) error {
	if errors.Is(err, inputs.ErrInput) || errors.Is(err, seating.ErrSeat) {
		return usageCause(err, "%s", err)
	}
	return err
}

func (a *app) inputOptions(includeSecrets bool) inputs.Options {
	return inputs.Options{Stdin: a.stdin, IncludeSecrets: includeSecrets}
}

// readTopic takes the topic from -f FILE, from stdin ("-"), or from the
// arguments.
func (a *app) readTopic(topicFile string, args []string, includeSecrets bool) (string, error) {
	topic, err := inputs.Topic(topicFile, args, a.inputOptions(includeSecrets))
	return topic, usageOf(err)
}

// readContext reads the --context files.
func readContext(paths []string, includeSecrets bool) ([]engine.Doc, error) {
	docs, err := inputs.Context(paths, includeSecrets)
	return docs, usageOf(err)
}

// readStakeholders reads compare's --stakeholders file ("" for none).
func readStakeholders(path string, includeSecrets bool) (string, error) {
	text, err := inputs.Stakeholders(path, includeSecrets)
	return text, usageOf(err)
}

// readSpec reads rank's spec.
func readSpec(path string, includeSecrets bool) (engine.Doc, error) {
	doc, err := inputs.Spec(path, includeSecrets)
	return doc, usageOf(err)
}

// readWork reads verdict's files to judge, or stdin for "-".
func (a *app) readWork(args []string, includeSecrets bool) ([]engine.Doc, error) {
	docs, err := inputs.Work(args, a.inputOptions(includeSecrets))
	return docs, usageOf(err)
}

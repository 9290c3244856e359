package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// The moderator is the person running arena: a note they give reaches
// every seat's next prompt (engine.Runtime adds it). Notes come from the
// live screen's input line (m) and, headless, from --moderate FILE, read
// line by line as it is written, so scripts and other programs can steer
// a run.

// moderateFile is the --moderate flag: a file or fifo that must exist.
type moderateFile string

func (m *moderateFile) String() string { return string(*m) }
func (m *moderateFile) Type() string   { return "FILE" }
func (m *moderateFile) Set(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if st.IsDir() {
		return fmt.Errorf("%s is a directory", path)
	}
	*m = moderateFile(path)
	return nil
}

// pollEvery is how often a regular file is checked for new lines.
const pollEvery = 200 * time.Millisecond

// followNotes sends every line written to path (now or later) to notes
// until ctx ends. A fifo is opened for reading and writing, so that its
// open never waits for a writer and its end never comes when one writer
// leaves; a regular file is read to its end and then watched for more,
// as tail -f does.
func followNotes(ctx context.Context, path string, notes chan<- string, warn func(string, ...any)) {
	st, err := os.Stat(path)
	if err != nil {
		warn("--moderate: %v", err)
		return
	}
	fifo := st.Mode()&os.ModeNamedPipe != 0
	flag := os.O_RDONLY
	if fifo {
		flag = os.O_RDWR
	}
	f, err := os.OpenFile(path, flag, 0)
	if err != nil {
		warn("--moderate: %v", err)
		return
	}
	go func() { // a read waiting on a fifo ends when the file is closed
		<-ctx.Done()
		f.Close()
	}()
	r := bufio.NewReader(f)
	var partial string
	for ctx.Err() == nil {
		line, err := r.ReadString('\n')
		partial += line
		if err == nil {
			if note := strings.TrimSpace(partial); note != "" {
				select {
				case notes <- note:
				case <-ctx.Done():
					return
				}
			}
			partial = ""
			continue
		}
		if err != io.EOF || fifo {
			return // closed, or gone
		}
		select {
		case <-time.After(pollEvery):
		case <-ctx.Done():
			return
		}
	}
}

package engine

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"time"

	"github.com/arenadebate/arena/challengers"
)

// The moderator is the person running arena: a note they give reaches
// every seat's next prompt (Options.Moderator, Runtime.AddModeratorNote).
// Notes come from the live screen's input line and, headless, from a file
// (arena --moderate FILE) read line by line as it is written, so scripts
// and other programs can steer a run.

// pollEvery is how often a regular file of notes is checked for new
// lines.
const pollEvery = 200 * time.Millisecond

// FollowModerator hands the notes written to path to notes until ctx
// ends (FollowNotes); a panic while reading them ends the run on bus as an
// internal error rather than taking the terminal down. warn says why the
// file cannot be followed.
func FollowModerator(ctx context.Context, path string, notes chan<- string, bus *Bus, warn func(string, ...any)) {
	if pn := challengers.Catch(func() { FollowNotes(ctx, path, notes, warn) }); pn != nil {
		bus.Fail(&challengers.Panic{Value: pn.Value, Stack: pn.Stack, Where: "reading the moderator's notes"})
	}
}

// FollowNotes sends every line written to path (now or later) to notes
// until ctx ends. A fifo is opened for reading and writing, so that its
// open never waits for a writer and its end never comes when one writer
// leaves; a regular file is read to its end and then watched for more,
// as tail -f does. warn says why the file cannot be followed.
func FollowNotes(ctx context.Context, path string, notes chan<- string, warn func(string, ...any)) {
	f, fifo, err := openNotes(path)
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
			if !sendNote(ctx, notes, partial) {
				return
			}
			partial = ""
			continue
		}
		if !errors.Is(err, io.EOF) || fifo || !waitForMore(ctx) {
			return // closed, or gone
		}
	}
}

// openNotes opens the file of notes at path, saying whether it is a fifo.
func openNotes(path string) (*os.File, bool, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, false, err
	}
	fifo := st.Mode()&os.ModeNamedPipe != 0
	flag := os.O_RDONLY
	if fifo {
		flag = os.O_RDWR
	}
	f, err := os.OpenFile(path, flag, 0)
	return f, fifo, err
}

// sendNote sends a line that says something; it reports false when ctx
// ended first.
func sendNote(ctx context.Context, notes chan<- string, line string) bool {
	note := strings.TrimSpace(line)
	if note == "" {
		return true
	}
	select {
	case notes <- note:
		return true
	case <-ctx.Done():
		return false
	}
}

// waitForMore waits a moment for a regular file to grow; it reports false
// when ctx ended first.
func waitForMore(ctx context.Context) bool {
	select {
	case <-time.After(pollEvery):
		return true
	case <-ctx.Done():
		return false
	}
}

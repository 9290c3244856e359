package main

import (
	"encoding/json"
	"io"
	"os"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/mcpserver"
	"github.com/arenadebate/arena/engine/runlog"
	"github.com/arenadebate/arena/tui/plain"
)

// A run that arena mcp starts is a child arena process (cmd/arena/
// mcpserver). The server hands it a pipe and names the pipe's file
// descriptor in mcpserver.EnvEventsFD; the run writes a header line with
// its log's path there, then every event of its stream as JSON Lines,
// whatever its front end (verdict --json prints only its final record).
var runEvents = fileFromEnv(mcpserver.EnvEventsFD, "arena-events")

// serverGone is closed once the arena mcp that started this run is gone,
// however it went: its lifeline (mcpserver.EnvLifelineFD) reads end of
// file. nil when no server started this run.
var serverGone = lifeline(fileFromEnv(mcpserver.EnvLifelineFD, "arena-lifeline"))

// fileFromEnv is the file descriptor the variable key names, taken out of
// the environment and closed on exec, so neither reaches the agents.
func fileFromEnv(key, name string) *os.File {
	v, ok := os.LookupEnv(key)
	if !ok {
		return nil
	}
	os.Unsetenv(key)
	fd, err := strconv.Atoi(v)
	if err != nil || fd < 3 {
		return nil
	}
	unix.CloseOnExec(fd)
	return os.NewFile(uintptr(fd), name)
}

func lifeline(f *os.File) chan struct{} {
	if f == nil {
		return nil
	}
	gone := make(chan struct{})
	go func() {
		defer close(gone)
		_, _ = io.Copy(io.Discard, f) // the server writes nothing: this ends when it is gone
	}()
	return gone
}

// watchServer cancels the run once the server that started it is gone,
// as a broken stdout does (challengers.WatchStdout): the agents are
// stopped, the run reaches its interrupted outcome and closes its log,
// resumable. It returns the function that stops watching.
func watchServer(cancel func()) func() {
	if serverGone == nil {
		return func() {}
	}
	quit := make(chan struct{})
	go func() {
		select {
		case <-serverGone:
			cancel()
		case <-quit:
		}
	}()
	return func() { close(quit) }
}

// streamEvents subscribes the events pipe, if this run has one, to bus,
// after the header naming the log (nil: the run saves none).
func streamEvents(bus *engine.Bus, logw *runlog.Writer) {
	if runEvents == nil {
		return
	}
	h := mcpserver.Header{Events: 1}
	if logw != nil {
		h.LogPath = logw.Path()
	}
	b, _ := json.Marshal(h)
	if _, err := runEvents.Write(append(b, '\n')); err != nil {
		return // the server is gone; the run goes on, its log is the record
	}
	bus.Subscribe(plain.NewJSON(runEvents))
}

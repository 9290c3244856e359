package main

import (
	"encoding/json"
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
// The variable is taken out of the environment at once, and the
// descriptor closed on exec, so neither reaches the agents.
var runEvents = eventsFromEnv()

func eventsFromEnv() *os.File {
	v, ok := os.LookupEnv(mcpserver.EnvEventsFD)
	if !ok {
		return nil
	}
	os.Unsetenv(mcpserver.EnvEventsFD)
	fd, err := strconv.Atoi(v)
	if err != nil || fd < 3 {
		return nil
	}
	unix.CloseOnExec(fd)
	return os.NewFile(uintptr(fd), "arena-events")
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

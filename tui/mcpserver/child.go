package mcpserver

import (
	"encoding/json"
	"io"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// Child is a run's side of the server that started it (run.go is the
// server's): the pipe it writes its events on (EnvEventsFD) and its
// lifeline (EnvLifelineFD). A run no server started has a nil *Child,
// whose methods do nothing.
type Child struct {
	events *os.File
	// gone is closed once the server is gone, however it went: the
	// lifeline reads end of file.
	gone chan struct{}
}

// ChildFromEnv is this process's link to the server that started it, or
// nil. It takes both file descriptors out of the environment and closes
// them on exec, so neither reaches the agents: call it once, before any
// process is started.
func ChildFromEnv() *Child {
	events := fileFromEnv(EnvEventsFD, "arena-events")
	lifeline := fileFromEnv(EnvLifelineFD, "arena-lifeline")
	if events == nil && lifeline == nil {
		return nil
	}
	return &Child{events: events, gone: watchLifeline(lifeline)}
}

// fileFromEnv is the file descriptor the variable key names, taken out of
// the environment and closed on exec.
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

func watchLifeline(f *os.File) chan struct{} {
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

// Watch cancels the run once the server that started it is gone, as a
// broken stdout does (challengers.WatchStdout): the agents are stopped,
// the run reaches its interrupted outcome and closes its log, resumable.
// It returns the function that stops watching.
func (c *Child) Watch(cancel func()) func() {
	if c == nil || c.gone == nil {
		return func() {}
	}
	quit := make(chan struct{})
	go func() {
		select {
		case <-c.gone:
			cancel()
		case <-quit:
		}
	}()
	return func() { close(quit) }
}

// Events writes the header naming the run's log ("" when it saves none)
// on the events pipe, and returns the pipe for the run's events as JSON
// Lines, whatever its front end (verdict --json prints only its final
// record). nil: no server started this run, or it is gone already, and
// the run goes on with its log as the record.
func (c *Child) Events(logPath string) io.Writer {
	if c == nil || c.events == nil {
		return nil
	}
	b, _ := json.Marshal(Header{Events: 1, LogPath: logPath})
	if _, err := c.events.Write(append(b, '\n')); err != nil {
		return nil
	}
	return c.events
}

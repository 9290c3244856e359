package mcpserver

import (
	"bufio"
	"encoding/json"
	"os"
	"strconv"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// childPipe is a pipe whose end for the run is a file descriptor of its
// own (as the run's inherited one is), named in the variable key.
func childPipe(t *testing.T, key string, runReads bool) (server *os.File, fd int) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	server, run := w, r
	if !runReads {
		server, run = r, w
	}
	fd, err = unix.Dup(int(run.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	run.Close()
	t.Cleanup(func() { server.Close() })
	t.Setenv(key, strconv.Itoa(fd))
	return server, fd
}

// The pipes leave the environment, and are closed on exec, so that no
// agent the run starts holds them (or the server would never see its run
// end); the events go after a header naming the log.
func TestChildTakesItsPipesAndWritesTheHeaderFirst(t *testing.T) {
	events, fd := childPipe(t, EnvEventsFD, false)
	_, lfd := childPipe(t, EnvLifelineFD, true)
	c := ChildFromEnv()
	for _, key := range []string{EnvEventsFD, EnvLifelineFD} {
		if v, ok := os.LookupEnv(key); ok {
			t.Fatalf("%s=%s is still in the environment", key, v)
		}
	}
	for _, fd := range []int{fd, lfd} {
		if flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err != nil || flags&unix.FD_CLOEXEC == 0 {
			t.Fatalf("fd %d is not closed on exec (flags %d, %v)", fd, flags, err)
		}
	}
	w := c.Events("debate-logs/run.jsonl")
	if w == nil {
		t.Fatal("no events writer")
	}
	if _, err := w.Write([]byte("{\"seq\":1}\n")); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(events)
	var h Header
	if !sc.Scan() || json.Unmarshal(sc.Bytes(), &h) != nil || h != (Header{Events: 1, LogPath: "debate-logs/run.jsonl"}) {
		t.Fatalf("the first line is %q", sc.Text())
	}
	if !sc.Scan() || sc.Text() != `{"seq":1}` {
		t.Fatalf("the event is %q", sc.Text())
	}
}

// A server gone, however it went (its end of the lifeline closed), stops
// the run as Ctrl+C would.
func TestChildWatchCancelsOnceTheServerIsGone(t *testing.T) {
	lifeline, _ := childPipe(t, EnvLifelineFD, true)
	c := ChildFromEnv()
	if c.Events("x") != nil {
		t.Fatal("an events writer without an events pipe")
	}
	cancelled := make(chan struct{})
	stop := c.Watch(func() { close(cancelled) })
	defer stop()
	lifeline.Close()
	select {
	case <-cancelled:
	case <-time.After(time.Minute):
		t.Fatal("the run was not cancelled once the server was gone")
	}
}

// A run no server started has no link, and its methods do nothing.
func TestNoChildWithoutAServer(t *testing.T) {
	t.Setenv(EnvEventsFD, "")
	os.Unsetenv(EnvEventsFD)
	t.Setenv(EnvLifelineFD, "")
	os.Unsetenv(EnvLifelineFD)
	c := ChildFromEnv()
	if c != nil {
		t.Fatalf("a link without a server: %+v", c)
	}
	if c.Events("x") != nil {
		t.Fatal("an events writer without a server")
	}
	c.Watch(func() { t.Error("cancelled without a server") })()
}

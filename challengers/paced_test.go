//go:build linux

package challengers

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// polledFDs lists the descriptors this process's epoll instances (Go's
// poller among them) watch, from /proc/self/fdinfo.
func polledFDs(t *testing.T) map[string]bool {
	t.Helper()
	links, _ := filepath.Glob("/proc/self/fd/*")
	tfd := regexp.MustCompile(`(?m)^tfd:\s+(\d+)`)
	out := map[string]bool{}
	for _, l := range links {
		if target, _ := os.Readlink(l); target != "anon_inode:[eventpoll]" {
			continue
		}
		info, err := os.ReadFile("/proc/self/fdinfo/" + filepath.Base(l))
		if err != nil {
			continue
		}
		for _, m := range tfd.FindAllStringSubmatch(string(info), -1) {
			out[m[1]] = true
		}
	}
	return out
}

func readAllPaced(t *testing.T, r *pacedReader) string {
	t.Helper()
	var b strings.Builder
	buf := make([]byte, 64)
	for {
		n, err := r.Read(buf)
		b.Write(buf[:n])
		if errors.Is(err, io.EOF) {
			return b.String()
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// The master of an agent's terminal is read outside Go's poller: a
// registered descriptor wakes a thread for every piece the agent writes,
// read or not. A read with nothing written waits, and returns what comes.
func TestPacedPTYMasterIsNotPolled(t *testing.T) {
	master, slave, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer slave.Close()
	rawOutput(slave)
	r, err := pacedPTYMaster(master)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.watch(make(chan struct{}))
	pr, pw, err := os.Pipe() // what the poller does watch, to show the check can see it
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	if !polledFDs(t)[fmt.Sprint(pr.Fd())] {
		t.Skip("cannot see what the poller watches in /proc/self/fdinfo")
	}
	if polledFDs(t)[fmt.Sprint(r.fd)] {
		t.Fatalf("descriptor %d is watched by an epoll instance", r.fd)
	}
	go func() {
		// Pacing, not a wait for anything: the write is meant to come
		// while Read blocks, to show that a descriptor no poller watches
		// still wakes it. Should it come first, Read finds it at once and
		// the test still holds.
		time.Sleep(50 * time.Millisecond)
		_, _ = slave.Write([]byte("hi\n"))
	}()
	buf := make([]byte, 16)
	if n, err := r.Read(buf); err != nil || string(buf[:n]) != "hi\n" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
}

// A pipe's reader says io.EOF once the writer is gone, after all it
// wrote; a flood bigger than one read comes whole.
func TestPacedPipeReadsToTheEnd(t *testing.T) {
	r, w, err := pacedPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.watch(make(chan struct{}))
	want := strings.Repeat("0123456789", 10_000)
	go func() {
		_, _ = io.WriteString(w, want)
		w.Close()
	}()
	if got := readAllPaced(t, r); got != want {
		t.Fatalf("read %d bytes, want %d", len(got), len(want))
	}
}

// Once cut (drain's grace is over while something outside the group
// holds the output open), what is buffered is still read, and then Read
// says io.EOF instead of waiting for more.
func TestPacedReaderAfterTheCut(t *testing.T) {
	r, w, err := pacedPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close() // open all along: the escaped process
	exited := make(chan struct{})
	r.watch(exited)
	close(exited)
	if _, err := io.WriteString(w, "the last event\n"); err != nil {
		t.Fatal(err)
	}
	r.stopWaiting()
	if got := readAllPaced(t, r); got != "the last event\n" {
		t.Fatalf("read %q", got)
	}
	// At most maxAfterGrace after the cut, however much is written.
	r2, w2, err := pacedPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	r2.watch(exited)
	r2.stopWaiting()
	r2.left = 10
	if _, err := io.WriteString(w2, strings.Repeat("x", 100)); err != nil {
		t.Fatal(err)
	}
	w2.Close()
	if got := readAllPaced(t, r2); got != strings.Repeat("x", 10) {
		t.Fatalf("read %q after the cut, want 10 bytes", got)
	}
}

// A read of a descriptor that stays open and quiet (something outside
// the agent's group holds it) ends with io.EOF once cut, whether the cut
// comes while it waits or before it starts: drain's grace bounds it.
// Without the cut it would wait for ever, and the test fail.
func TestPacedReaderWaitingIsCut(t *testing.T) {
	r, w, err := pacedPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	r.watch(make(chan struct{}))
	done := make(chan error, 1)
	go func() {
		_, err := r.Read(make([]byte, 8))
		done <- err
	}()
	r.stopWaiting()
	select {
	case err := <-done:
		if !errors.Is(err, io.EOF) {
			t.Fatalf("Read: %v, want EOF", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Read still waiting 30 s after the cut")
	}
}

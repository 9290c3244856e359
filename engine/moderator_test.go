package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// follow runs FollowNotes on path until the test ends, and returns the
// notes and a channel closed when it returns.
func follow(t *testing.T, ctx context.Context, path string) (<-chan string, <-chan struct{}, *[]string) {
	t.Helper()
	notes := make(chan string)
	done := make(chan struct{})
	var warned []string
	go func() {
		defer close(done)
		FollowNotes(ctx, path, notes, func(f string, args ...any) { warned = append(warned, fmt.Sprintf(f, args...)) })
	}()
	return notes, done, &warned
}

func next(t *testing.T, notes <-chan string) string {
	t.Helper()
	select {
	case n := <-notes:
		return n
	case <-time.After(10 * time.Second):
		t.Fatal("no note came")
		return ""
	}
}

func appendTo(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// A regular file is read to its end, then followed as it grows; a line
// counts once it is whole, and blank ones are no notes.
func TestFollowNotesOfAGrowingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes")
	if err := os.WriteFile(path, []byte("first\n\n  \nsec"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	notes, done, _ := follow(t, ctx, path)
	if n := next(t, notes); n != "first" {
		t.Fatalf("%q", n)
	}
	appendTo(t, path, "ond half \n")
	if n := next(t, notes); n != "second half" {
		t.Fatalf("%q", n)
	}
	cancel()
	<-done
}

// A fifo outlives each writer: notes from one writer, then another, all
// come.
func TestFollowNotesOfAFifo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	notes, done, _ := follow(t, ctx, path)
	for _, note := range []string{"one", "two"} {
		appendTo(t, path, note+"\n") // blocks until FollowNotes has it open
		if n := next(t, notes); n != note {
			t.Fatalf("%q, want %q", n, note)
		}
	}
	cancel() // ends the read waiting on the fifo
	<-done
}

func TestFollowNotesOfNoFile(t *testing.T) {
	_, done, warned := follow(t, context.Background(), filepath.Join(t.TempDir(), "none"))
	<-done
	if len(*warned) != 1 || !strings.HasPrefix((*warned)[0], "--moderate: stat ") || !strings.HasSuffix((*warned)[0], ": no such file or directory") {
		t.Fatalf("warned %q", *warned)
	}
}

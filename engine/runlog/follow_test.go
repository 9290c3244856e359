package runlog

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arenadebate/arena/engine"
)

// seen collects what a follow hands on, and says when a kind has come.
type seen struct {
	mu     sync.Mutex
	events []engine.Event
	got    chan engine.Kind
}

func newSeen() *seen { return &seen{got: make(chan engine.Kind, 64)} }

func (s *seen) Handle(e engine.Event) {
	s.mu.Lock()
	s.events = append(s.events, e)
	s.mu.Unlock()
	s.got <- e.Kind()
}

func (s *seen) waitFor(t *testing.T, k engine.Kind) {
	t.Helper()
	for got := range s.got {
		if got == k {
			return
		}
	}
}

// A follow hands on each event as it is written, a line written in two
// pieces as one event, and ends once the outcome and what follows it are
// in and the writer has let go.
func TestFollowHandsOnEventsAsTheyAreWritten(t *testing.T) {
	t.Parallel()
	events := sampleEvents()
	w, err := Create(filepath.Join(t.TempDir(), "logs"), Name(time.Now(), "follow"))
	if err != nil {
		t.Fatal(err)
	}
	w.Handle(events[0])
	w.Handle(events[1])
	lc, offset, err := ReadSoFar(w.Path())
	if err != nil || len(lc.Events) != 2 {
		t.Fatalf("so far: %d events, %v", len(lc.Events), err)
	}
	s := newSeen()
	type result struct {
		ended bool
		err   error
	}
	done := make(chan result, 1)
	go func() {
		ended, err := Follow(context.Background(), w.Path(), offset, s, func(string) {})
		done <- result{ended, err}
	}()
	w.Handle(events[2])
	s.waitFor(t, engine.KindAgentStarted)
	// Half a line, as a writer caught mid-write leaves it: nothing is
	// handed on until the rest of it comes.
	line, _ := json.Marshal(events[3])
	raw, err := os.OpenFile(w.Path(), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	raw.Write(line[:10])
	raw.Write(append(line[10:], '\n'))
	raw.Close()
	s.waitFor(t, engine.KindChunk)
	for _, e := range events[4:] {
		e.Seq++ // after the raw line's
		w.Handle(e)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if !r.ended || r.err != nil || len(s.events) != len(events)-2 {
		t.Fatalf("ended %v, err %v, %d events handed on, want %d", r.ended, r.err, len(s.events), len(events)-2)
	}
}

// A writer that lets go without an outcome ends the follow, and says the
// run was cut short.
func TestFollowEndsWhenTheWriterIsGone(t *testing.T) {
	t.Parallel()
	events := sampleEvents()
	w, err := Create(filepath.Join(t.TempDir(), "logs"), Name(time.Now(), "cut"))
	if err != nil {
		t.Fatal(err)
	}
	w.Handle(events[0])
	w.Handle(events[1])
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var notes []string
	ended, err := Follow(context.Background(), w.Path(), 0, newSeen(), func(n string) { notes = append(notes, n) })
	if ended || err != nil || len(notes) != 1 {
		t.Fatalf("ended %v, err %v, notes %q", ended, err, notes)
	}
}

// A line that is not an event, written after the follow began, is named
// by where it starts.
func TestFollowNamesALineThatIsNoEvent(t *testing.T) {
	t.Parallel()
	events := sampleEvents()
	path := writeLog(t, events[:2])
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("not an event\n")
	f.Close()
	_, err = Follow(context.Background(), path, st.Size(), newSeen(), func(string) {})
	if want := fmt.Sprintf("the line at byte %d, written after the follow began, is not a valid event", st.Size()); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err %v", err)
	}
}

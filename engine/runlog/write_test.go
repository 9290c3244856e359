package runlog

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arenadebate/arena/engine"
)

// seqs are the sequence numbers of a log's events.
func seqs(t *testing.T, path string) []int64 {
	t.Helper()
	lc, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if lc.Problem != "" {
		t.Errorf("%s: %s", path, lc.Problem)
	}
	var out []int64
	for _, e := range lc.Events {
		out = append(out, e.Seq)
	}
	return out
}

func wantSeqs(t *testing.T, got []int64, n int) {
	t.Helper()
	if len(got) != n {
		t.Fatalf("%d events %v, want %d", len(got), got, n)
	}
	for i, s := range got {
		if s != int64(i+1) {
			t.Fatalf("events %v, want 1..%d", got, n)
		}
	}
}

// TestWriterWritesAVanishedLogAgain (issue 29 item 2): a log unlinked, or
// its directory removed, during the run is written again at its path with
// every event, and the writer says so.
func TestWriterWritesAVanishedLogAgain(t *testing.T) {
	events := sampleEvents()
	for name, vanish := range map[string]func(path string) error{
		"the file unlinked":     os.Remove,
		"its directory removed": func(path string) error { return os.RemoveAll(filepath.Dir(path)) },
		"the file moved away":   func(path string) error { return os.Rename(path, path+".moved") },
	} {
		t.Run(name, func(t *testing.T) {
			w, err := Create(filepath.Join(t.TempDir(), "logs"), Name(time.Now(), "t"))
			if err != nil {
				t.Fatal(err)
			}
			path := w.Path()
			for _, e := range events[:5] {
				w.Handle(e)
			}
			if err := vanish(path); err != nil {
				t.Fatal(err)
			}
			for _, e := range events[5:] {
				w.Handle(e)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if got := w.Rewritten(); len(got) != 1 || got[0] != path {
				t.Errorf("Rewritten() = %q, want [%s]", got, path)
			}
			wantSeqs(t, seqs(t, path), len(events))
		})
	}
}

// TestWriterRescuesAVanishedLogItCannotWriteAgain: the log's directory
// removed and a file put in its place: the log cannot be written again
// there, Close says so, and Rescue saves every event, the ones the
// vanished file holds first.
func TestWriterRescuesAVanishedLogItCannotWriteAgain(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	events := sampleEvents()
	w := strandedLog(t, events)
	err := w.Close()
	if err == nil || !strings.Contains(err.Error(), "was deleted during the run and could not be written again") {
		t.Fatalf("Close: %v", err)
	}
	path, n, err := w.Rescue()
	if err != nil || n != len(events) {
		t.Fatalf("Rescue: %s, %d events, %v", path, n, err)
	}
	wantSeqs(t, seqs(t, path), len(events))
}

// strandedLog is a log of events whose directory was removed, and a file
// put in its place, after the first five: it cannot be written again
// there.
func strandedLog(t *testing.T, events []engine.Event) *Writer {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "logs")
	w, err := Create(dir, Name(time.Now(), "t"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events[:5] {
		w.Handle(e)
	}
	os.RemoveAll(dir)
	os.WriteFile(dir, []byte("not a directory"), 0o600)
	for _, e := range events[5:] {
		w.Handle(e)
	}
	return w
}

// smallDisk mounts a tmpfs of size on a new directory for the test, or
// skips it when this process may not mount.
func smallDisk(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("a full disk needs a small tmpfs, which needs root (or CAP_SYS_ADMIN) to mount: %v %s", err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
	return dir
}

// fill writes a file on the disk holding dir until the disk is full.
func fill(t *testing.T, dir string) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	page := make([]byte, 4096)
	for {
		if _, err := f.Write(page); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return
		}
	}
}

// TestAFailedAppendLeavesTheLogAsItWas (issue 29 item 3): on a full disk
// an append that does not fit (a label with its note, as one Write, or
// one event through Handle) leaves the log byte for byte as it was, not
// half a line; the error says the disk is full, and the events are kept.
func TestAFailedAppendLeavesTheLogAsItWas(t *testing.T) {
	disk := smallDisk(t, "64k")
	path := writeLogIn(t, filepath.Join(disk, "logs"), sampleEvents())
	before, _ := os.ReadFile(path)
	fill(t, disk)
	long := engine.Note{Level: engine.NoteInfo, Message: strings.Repeat("a note longer than what is left of the last page ", 300)}
	for name, write := range map[string]func(w *Writer, seq int64) error{
		"Write": func(w *Writer, seq int64) error {
			return w.Write(engine.Event{Seq: seq, Payload: engine.Label{Verdict: "accept", By: "person"}}, engine.Event{Seq: seq + 1, Payload: long})
		},
		"Handle": func(w *Writer, seq int64) error {
			w.Handle(engine.Event{Seq: seq, Payload: long})
			return w.Err()
		},
	} {
		t.Run(name, func(t *testing.T) {
			w, lc, err := Reopen(path)
			if err != nil {
				t.Fatal(err)
			}
			err = write(w, lc.LastSeq+1)
			err = errors.Join(err, w.Close())
			if !errors.Is(err, syscall.ENOSPC) || !strings.HasPrefix(Trouble(err).Error(), "the disk is full (") {
				t.Errorf("the error: %v", err)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
				t.Errorf("the log went from %d to %d bytes; it ends %q", len(before), len(after), after[max(0, len(after)-40):])
			}
			if len(w.Kept()) == 0 {
				t.Error("the events that did not fit were not kept")
			}
		})
	}
}

// writeLogIn is writeLog in a directory of the test's choosing.
func writeLogIn(t *testing.T, dir string, events []engine.Event) string {
	t.Helper()
	w, err := Create(dir, Name(time.Now(), "t"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		w.Handle(e)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w.Path()
}

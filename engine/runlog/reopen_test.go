package runlog

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Reopen refuses what is not a log to add to, each in its own way: a
// FIFO before anything opens it to write, a log another writer holds, a
// file without an event.
func TestReopenRefusals(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	var oe *OpenError
	if _, _, err := Reopen(fifo); !errors.As(err, &oe) || err.Error() != fifo+": is a FIFO (named pipe), not a regular file" {
		t.Fatalf("a FIFO: %v", err)
	}
	if _, _, err := Reopen(filepath.Join(dir, "none.jsonl")); !errors.As(err, &oe) || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("no file: %v", err)
	}
	empty := filepath.Join(dir, "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Reopen(empty); !errors.Is(err, ErrNotALog) || errors.As(err, &oe) {
		t.Fatalf("an empty file: %v", err)
	}
	path := writeLog(t, sampleEvents())
	w, lc, err := Reopen(path)
	if err != nil || len(lc.Events) != len(sampleEvents()) {
		t.Fatalf("a log: %d events, %v", len(lc.Events), err)
	}
	defer w.Close()
	if _, _, err := Reopen(path); !errors.Is(err, ErrLocked) {
		t.Fatalf("a log being written: %v", err)
	}
}

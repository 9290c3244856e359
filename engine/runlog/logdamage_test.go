package runlog

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/arenadebate/arena/engine"
)

// manyEvents is a finished log of n events: a start, chunks, an outcome.
func manyEvents(n int) []engine.Event {
	base := sampleEvents()
	out := []engine.Event{base[0]}
	for len(out) < n-1 {
		out = append(out, engine.Event{Payload: engine.Chunk{Seat: "claude", Text: "word "}})
	}
	out = append(out, engine.Event{Payload: engine.Outcome{Result: "consensus", Rounds: 1, Markdown: "# doc"}})
	for i := range out {
		out[i].Seq = int64(i + 1)
		out[i].Time = base[0].Time.Add(time.Duration(i) * time.Second)
	}
	return out
}

// A NUL byte on line 8 of a finished 35-line log costs line 8 only: the
// 27 events after it, the outcome included, are read, and the damage is
// named.
func TestReadLogReadsPastDamageInTheMiddle(t *testing.T) {
	data := logBytes(t, manyEvents(35))
	lines := bytes.SplitAfter(data, []byte("\n"))
	lines[7] = bytes.Replace(lines[7], []byte("word"), []byte("wo\x00d"), 1)
	lc, err := Read(bytes.NewReader(bytes.Join(lines, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if len(lc.Events) != 34 || !lc.Complete || len(lc.Damage) != 1 || lc.Damage[0].Line != 8 {
		t.Fatalf("%d events, complete %v, damage %v", len(lc.Events), lc.Complete, lc.Damage)
	}
	if !strings.HasPrefix(lc.Problem, "line 8 is not a valid event") {
		t.Fatalf("problem %q", lc.Problem)
	}
	if len(lc.Sequence) != 1 || lc.Sequence[0] != "event 8 is missing between lines 7 and 9" {
		t.Fatalf("sequence %q", lc.Sequence)
	}
}

// A line over MaxLine in the middle is skipped without being kept; the
// lines after it are read.
func TestReadLogSkipsAHugeLineInTheMiddle(t *testing.T) {
	events := manyEvents(10)
	var b bytes.Buffer
	b.Write(logBytes(t, events[:4]))
	b.WriteString(`{"seq":5,"t":"2026-11-21T15:30:00Z","type":"chunk","data":{"seat":"claude","text":"`)
	b.Write(bytes.Repeat([]byte("x"), MaxLine+100))
	b.WriteString("\"}}\n")
	b.Write(logBytes(t, events[5:]))
	lc, err := Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	if len(lc.Events) != 9 || !lc.Complete || len(lc.Damage) != 1 || lc.Damage[0].String() != "line 5 is longer than 64 MiB" {
		t.Fatalf("%d events, complete %v, damage %v", len(lc.Events), lc.Complete, lc.Damage)
	}
}

func TestReadLogReportsSequenceGapsAndRepeats(t *testing.T) {
	events := manyEvents(8)
	events[3].Seq = 3 // a repeat of line 3's
	events[6].Seq, events[7].Seq = 9, 10
	lc, err := Read(bytes.NewReader(logBytes(t, events)))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"line 4 repeats event number 3 (of line 3)", "event 4 is missing between lines 4 and 5", "events 7 to 8 are missing between lines 6 and 7"}
	if strings.Join(lc.Sequence, "|") != strings.Join(want, "|") {
		t.Fatalf("sequence %q", lc.Sequence)
	}
	if lc.LastSeq != 10 {
		t.Fatalf("last seq %d", lc.LastSeq)
	}
}

// A log cut short mid-line is appended to on a line of its own: the cut
// line keeps its bytes, and what follows reads.
func TestAppendLogKeepsACutLine(t *testing.T) {
	events := manyEvents(6)
	path := writeLog(t, events[:3])
	cut := `{"seq":4,"t":"2026-11-21T15:30:00Z","type":"chunk","da`
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(cut)
	f.Close()
	before, _ := os.ReadFile(path)
	w, err := Append(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events[4:] {
		w.Handle(e)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(path)
	if !bytes.HasPrefix(after, append(before, '\n')) {
		t.Fatalf("the log's bytes were not kept:\n%q", after)
	}
	lc, err := ReadFile(path)
	if err != nil || len(lc.Events) != 5 || !lc.Complete || len(lc.Damage) != 1 || lc.Damage[0].Line != 4 {
		t.Fatalf("%d events, damage %v, err %v", len(lc.Events), lc.Damage, err)
	}
}

// One writer per log: while a writer holds a log, a second one is refused
// naming the process, and readers see it being written; once it closes,
// the log can be appended to again.
func TestOneWriterPerLog(t *testing.T) {
	path := writeLog(t, sampleEvents()[:2])
	w, err := Append(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Append(path)
	var le *LockedError
	if !errors.As(err, &le) || !errors.Is(err, ErrLocked) {
		t.Fatalf("second writer: %v", err)
	}
	named := runtime.GOOS == "linux" // flock elsewhere does not say who holds it
	if named && (le.PID != os.Getpid() || !strings.Contains(err.Error(), fmt.Sprintf("process %d", os.Getpid()))) {
		t.Fatalf("the refusal does not name this process: %v", err)
	}
	// Another open and close of the file in this process keeps the lock.
	if f, err := os.Open(path); err == nil {
		f.Close()
	}
	lc, err := ReadFile(path)
	if err != nil || !lc.Writing || named && lc.WriterPID != os.Getpid() {
		t.Fatalf("reader: writing %v pid %d err %v", lc.Writing, lc.WriterPID, err)
	}
	if _, err := Append(path); !errors.Is(err, ErrLocked) {
		t.Fatalf("after another close: %v", err)
	}
	w.Close()
	if lc, _ := ReadFile(path); lc.Writing {
		t.Fatal("a closed log still reads as being written")
	}
	w2, err := Append(path)
	if err != nil {
		t.Fatal(err)
	}
	w2.Close()
}

// A new log is locked from the start, and opened to append.
func TestCreateLogLocksAndAppends(t *testing.T) {
	w, err := Create(t.TempDir(), "x.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := Append(w.Path()); !errors.Is(err, ErrLocked) {
		t.Fatalf("a live log was opened by a second writer: %v", err)
	}
	fl, err := unix.FcntlInt(w.f.Fd(), unix.F_GETFL, 0)
	if err != nil || fl&syscall.O_APPEND == 0 {
		t.Fatalf("the log is not opened to append: %x %v", fl, err)
	}
}

func TestReadFileRefusesAFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.jsonl")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() { _, err := ReadFile(path); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "FIFO") {
			t.Fatalf("err %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("reading a FIFO as a log hangs")
	}
	if s := Summarize(path); !strings.Contains(s.Problem, "FIFO") {
		t.Fatalf("summary problem %q", s.Problem)
	}
}

package runlog

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arenadebate/arena/challengers/trust"

	"github.com/arenadebate/arena/engine"
)

func sampleEvents() []engine.Event {
	t0 := time.Date(2026, 11, 21, 15, 30, 0, 0, time.UTC)
	call := engine.CallInfo{Seat: "claude", Agent: "claude", Role: "defender", Phase: "opening", Round: 1, Task: "opening", Attempt: 1}
	ps := []engine.Payload{
		engine.DebateStarted{Version: engine.LogVersion, Protocol: "adversarial", Title: "Adversarial debate", Topic: "t",
			Seats:     []engine.Seat{{Name: "claude", Agent: "claude", Role: "defender"}, {Name: "gemini", Agent: "gemini", Role: "challenger"}},
			MaxRounds: 5, Timeout: engine.Duration(2 * time.Minute), Phases: []engine.PhaseInfo{{Phase: "opening", Title: "Opening position"}, {Phase: engine.PhaseOutcome, Title: "Outcome"}}},
		engine.PhaseStarted{Phase: "opening", Round: 1, Title: "Opening position"},
		engine.AgentStarted{CallInfo: call, Shape: "opening", Timeout: engine.Duration(time.Minute)},
		engine.Chunk{Seat: "claude", Text: "{\"position\":"},
		engine.AgentFinished{CallInfo: call, Reply: []byte(`{"position":"p"}`), Display: "**Position:** p", Duration: engine.Duration(1500 * time.Millisecond)},
		engine.AgentFailed{CallInfo: engine.CallInfo{Seat: "gemini", Agent: "gemini"}, Reason: "timeout", Message: "timed out after 2m0s"},
		engine.Table{Round: 1, Title: "Verdicts", Columns: []string{"challenger", "verdict"}, Rows: []engine.Row{{Cells: []string{"gemini", "disagree"}, Stance: engine.StanceDisagree}}, Decision: "confront"},
		engine.PositionUpdated{Seat: "claude", Version: 2, Position: "p2", Changed: true},
		engine.Note{Level: "warn", Message: "n"},
		engine.Outcome{Result: "tradeoff", Stance: engine.StancePartial, Rounds: 5, Markdown: "# doc"},
		engine.Saved{What: engine.WhatOutcomeDocument, Path: "/tmp/x.md"},
	}
	out := make([]engine.Event, len(ps))
	for i, p := range ps {
		out[i] = engine.Event{Seq: int64(i + 1), Time: t0.Add(time.Duration(i) * time.Second), Payload: p}
	}
	return out
}

func writeLog(t *testing.T, events []engine.Event) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "logs")
	w, err := Create(dir, Name(time.Now(), "Should we?"))
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

func TestLogRoundTripAndPermissions(t *testing.T) {
	events := sampleEvents()
	path := writeLog(t, events)
	st, _ := os.Stat(path)
	dst, _ := os.Stat(filepath.Dir(path))
	if st.Mode().Perm() != 0o600 || dst.Mode().Perm() != 0o700 {
		t.Fatalf("log %v, dir %v: want 0600 and 0700", st.Mode().Perm(), dst.Mode().Perm())
	}
	f, _ := os.Open(path)
	defer f.Close()
	lc, err := Read(f)
	if err != nil || lc.Problem != "" || !lc.Complete || len(lc.Events) != len(events) {
		t.Fatalf("read back %d events, complete=%v, problem=%q, err=%v", len(lc.Events), lc.Complete, lc.Problem, err)
	}
	for i := range events {
		a, _ := events[i].MarshalJSON()
		b, _ := lc.Events[i].MarshalJSON()
		if !bytes.Equal(a, b) {
			t.Errorf("event %d differs:\n%s\n%s", i, a, b)
		}
	}
	if fin := lc.Events[4].Payload.(engine.AgentFinished); fin.Duration.D() != 1500*time.Millisecond {
		t.Errorf("duration %v", fin.Duration.D())
	}
}

func logBytes(t *testing.T, events []engine.Event) []byte {
	var b bytes.Buffer
	for _, e := range events {
		line, err := e.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func TestLogCutAnywhereReplaysItsCompleteLines(t *testing.T) {
	full := logBytes(t, sampleEvents())
	firstLine := bytes.IndexByte(full, '\n') + 1
	outcomeEnd := bytes.Index(full, []byte(`"type":"outcome"`))
	outcomeEnd += bytes.IndexByte(full[outcomeEnd:], '\n')
	for cut := firstLine; cut < len(full); cut += 7 {
		lc, err := Read(bytes.NewReader(full[:cut]))
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		complete := bytes.Count(full[:cut], []byte("\n"))
		if full[cut] == '\n' {
			complete++ // a whole event that only lacks its newline still counts
		}
		if len(lc.Events) != complete {
			t.Fatalf("cut at %d: %d events, want %d", cut, len(lc.Events), complete)
		}
		if full[cut-1] != '\n' && full[cut] != '\n' && !strings.Contains(lc.Problem, "is cut short") {
			t.Fatalf("cut at %d: problem %q", cut, lc.Problem)
		}
		if lc.Complete != (cut >= outcomeEnd) {
			t.Fatalf("cut at %d: complete = %v, the outcome ends at %d", cut, lc.Complete, outcomeEnd)
		}
	}
}

func TestReadLogRefusesNewerAndForeignFiles(t *testing.T) {
	ev := sampleEvents()
	ds := ev[0].Payload.(engine.DebateStarted)
	ds.Version = engine.LogVersion + 1
	ev[0].Payload = ds
	_, err := Read(bytes.NewReader(logBytes(t, ev[:2])))
	if !errors.Is(err, ErrNewerLog) || !strings.Contains(err.Error(), "upgrade arena") {
		t.Fatalf("newer log: %v", err)
	}
	for name, in := range map[string]string{
		"text":        "hello world\n",
		"other json":  `{"a":1}` + "\n",
		"wrong first": string(logBytes(t, sampleEvents()[1:3])),
		"empty":       "",
	} {
		if _, err := Read(strings.NewReader(in)); name != "empty" && !errors.Is(err, ErrNotALog) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

func TestReadLogSkipsUnknownAndReadsPastDamage(t *testing.T) {
	good := logBytes(t, sampleEvents()[:3])
	in := string(good) + `{"seq":9,"t":"2026-11-21T15:30:00Z","type":"from_the_future","data":{"x":1}}` + "\n" +
		`{"seq":10,"t":"2026-11-21T15:30:00Z","type":"chunk","data":{"seat":5,"text":"x"}}` + "\n" +
		string(logBytes(t, sampleEvents()[3:4]))
	lc, err := Read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if lc.Skipped != 1 || len(lc.Events) != 4 || !strings.Contains(lc.Problem, "line 5 is not a valid event: chunk event") {
		t.Fatalf("skipped %d, events %d, problem %q", lc.Skipped, len(lc.Events), lc.Problem)
	}
}

func TestReadLogHugeLine(t *testing.T) {
	good := logBytes(t, sampleEvents()[:2])
	huge := bytes.Repeat([]byte("x"), MaxLine+10)
	lc, err := Read(bytes.NewReader(append(append(good, huge...), '\n')))
	if err != nil || len(lc.Events) != 2 || !strings.Contains(lc.Problem, "longer than") {
		t.Fatalf("events %d problem %q err %v", len(lc.Events), lc.Problem, err)
	}
}

func TestLogWriterKeepsEventsAfterAWriteFailure(t *testing.T) {
	f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full here")
	}
	w := &Writer{f: f, w: newTestBufWriter(f), path: "/dev/full", lastFlush: time.Now()}
	for _, e := range sampleEvents() {
		w.Handle(e)
	}
	if w.Err() == nil || len(w.Kept()) == 0 {
		t.Fatalf("err %v, kept %d", w.Err(), len(w.Kept()))
	}
	if last := w.Kept()[len(w.Kept())-1]; last.Kind() != engine.KindSaved {
		t.Fatalf("last kept event is %s", last.Kind())
	}
	_ = w.Close()
}

func TestLogName(t *testing.T) {
	at := time.Date(2026, 11, 21, 15, 30, 0, 42_900_000, time.UTC)
	if got := Name(at, "Should we move sessions from Redis to Postgres? $(rm -rf ~)"); got != "20261121-153000.042-should-we-move-sessions-from-redis-to-po.jsonl" {
		t.Fatalf("got %q", got)
	}
	// Names sort as their times do, the millisecond included.
	var names []string
	for _, d := range []time.Duration{0, time.Millisecond, 957 * time.Millisecond, time.Second, 10 * time.Second} {
		names = append(names, Name(at.Add(d), "t"))
	}
	if !slices.IsSorted(names) {
		t.Fatalf("names out of time order: %q", names)
	}
	if got := engine.Slug("¿¿??", 40); got != "debate" {
		t.Fatalf("got %q", got)
	}
}

func FuzzReadLog(f *testing.F) {
	var b bytes.Buffer
	for _, e := range sampleEvents() {
		line, _ := e.MarshalJSON()
		b.Write(line)
		b.WriteByte('\n')
	}
	f.Add(b.Bytes())
	f.Add([]byte(`{"seq":1,"type":"debate_started","data":{"version":1}}` + "\n" + `{"type":"chunk","data":null}`))
	f.Add([]byte("\n\n{\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lc, err := Read(bytes.NewReader(data))
		if err == nil && len(lc.Events) > 0 {
			if _, ok := lc.Events[0].Payload.(engine.DebateStarted); !ok {
				t.Fatal("a log was accepted that does not start with debate_started")
			}
		}
		for _, e := range lc.Events {
			if e.Payload == nil {
				t.Fatal("event without payload")
			}
		}
	})
}

func newTestBufWriter(f *os.File) *bufio.Writer { return bufio.NewWriterSize(f, 16) }

// TestCreateLogNeverOverwrites: a taken name is never opened again; the
// next free name-N is used instead, and the first file keeps its bytes.
func TestCreateLogNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	first, err := Create(dir, "20261121-153000.042-t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	first.Handle(sampleEvents()[0])
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(first.Path())
	var got []string
	for range 3 {
		w, err := Create(dir, "20261121-153000.042-t.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, filepath.Base(w.Path()))
		w.Close()
	}
	if !slices.Equal(got, []string{"20261121-153000.042-t-2.jsonl", "20261121-153000.042-t-3.jsonl", "20261121-153000.042-t-4.jsonl"}) {
		t.Fatalf("names %q", got)
	}
	if b, _ := os.ReadFile(first.Path()); !bytes.Equal(b, want) || len(b) == 0 {
		t.Fatalf("the first log was changed: %q", b)
	}
}

// TestCreateLogConcurrently: writers racing for one name each get a file
// of their own.
func TestCreateLogConcurrently(t *testing.T) {
	dir := t.TempDir()
	const n = 16
	paths := make(chan string, n)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			w, err := Create(dir, "same.jsonl")
			if err != nil {
				t.Error(err)
				return
			}
			paths <- w.Path()
			w.Close()
		})
	}
	wg.Wait()
	close(paths)
	seen := map[string]bool{}
	for p := range paths {
		seen[p] = true
	}
	if len(seen) != n {
		t.Fatalf("%d writers got %d distinct files", n, len(seen))
	}
}

// TestCreateLogGivesUp: when every name it may try is taken, Create
// says so rather than looping or reusing one.
func TestCreateLogGivesUp(t *testing.T) {
	dir := t.TempDir()
	for i := 1; i <= trust.MaxNameTries; i++ {
		name := "x.jsonl"
		if i > 1 {
			name = fmt.Sprintf("x-%d.jsonl", i)
		}
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if w, err := Create(dir, "x.jsonl"); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("got %v, %v; want an error saying the file exists", w, err)
	}
}

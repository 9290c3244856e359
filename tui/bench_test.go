//go:build unix

package tui

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/layout"
	"github.com/arenadebate/arena/tui/tuitest"
)

// benchChunk is what one agent streams per frame in the benchmark: far
// more than a model types in a frame, so the screen is the bottleneck.
const benchChunk = 256

// BenchmarkStreaming streams four agents into the model, one batch per
// frame as the live sink delivers them, and calls Update and View per
// frame as the program does. It reports:
//
//	fps            View calls per wall-second, fed as fast as possible
//	cpu-ms/MiB     CPU time per MiB of streamed text
//	peak-heap-MiB  the largest HeapInuse seen
//	cpu-x-append   cpu-ms/MiB over that of appending the same bytes to a
//	               strings.Builder, measured in the same run
//	heap-x-append  peak heap over that of the same strings.Builder
//
// go test ./tui/ -run '^$' -bench Streaming -benchtime 3000x
func BenchmarkStreaming(b *testing.B) {
	text := benchText()
	frames := benchFrames(text)

	m := NewModel(Options{Output: io.Discard}, benchStart())
	m.setRenderer(testRenderer(termenv.TrueColor))
	m.now = func() time.Time { return tuitest.Start.Add(time.Minute) }
	m.after = func(time.Duration, tea.Msg) tea.Cmd { return nil }
	drive(m, resize(120, 40))

	runtime.GC()
	b.ResetTimer()
	cpu0, wall0 := cpuTime(), time.Now()
	peak := heapInUse()
	for i := range b.N {
		drive(m, frames[i%len(frames)])
		if i%128 == 0 {
			peak = max(peak, heapInUse())
		}
	}
	wall, cpu := time.Since(wall0), cpuTime()-cpu0
	b.StopTimer()
	peak = max(peak, heapInUse())

	mib := float64(b.N*len(agents)*benchChunk) / (1 << 20)
	baseCPU, basePeak := appendBaseline(text, b.N*len(agents))
	cpuPerMiB := float64(cpu.Milliseconds()) / mib
	b.ReportMetric(float64(b.N)/wall.Seconds(), "fps")
	b.ReportMetric(cpuPerMiB, "cpu-ms/MiB")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(cpuPerMiB/max(float64(baseCPU.Microseconds())/1000/mib, 1e-3), "cpu-x-append")
	b.ReportMetric(float64(peak)/float64(max(basePeak, 1)), "heap-x-append")
}

// appendBaseline appends n chunks of text to a strings.Builder, the least
// any screen could do with the bytes, and returns its CPU time and peak
// heap, sampled as the benchmark samples.
func appendBaseline(text string, n int) (time.Duration, uint64) {
	runtime.GC()
	var sb strings.Builder
	cpu0 := cpuTime()
	peak := heapInUse()
	for i := range n {
		off := (i * benchChunk) % (len(text) - benchChunk)
		sb.WriteString(text[off : off+benchChunk])
		if i%(128*len(agents)) == 0 {
			peak = max(peak, heapInUse())
		}
	}
	cpu := cpuTime() - cpu0
	peak = max(peak, heapInUse())
	runtime.KeepAlive(sb.Len())
	return cpu, peak
}

func benchSeats() []engine.Seat {
	var out []engine.Seat
	for _, a := range agents {
		out = append(out, engine.Seat{Name: a, Agent: a})
	}
	return out
}

// benchStart is a debate with four agents all working.
func benchStart() []engine.Event {
	ev := []engine.Event{{Seq: 1, Time: tuitest.Start, Payload: engine.DebateStarted{
		Topic: "Should we move user sessions from Redis to Postgres?", Seats: benchSeats(), MaxRounds: 3,
		Phases: []engine.PhaseInfo{{Phase: "opening", Title: "Opening"}, {Phase: "challenge", Title: "Challenge"}, {Phase: engine.PhaseOutcome, Title: "Outcome"}},
	}}, {Seq: 2, Time: tuitest.Start, Payload: engine.PhaseStarted{Phase: "challenge", Round: 1}}}
	for _, a := range agents {
		ev = append(ev, engine.Event{Time: tuitest.Start, Payload: engine.AgentStarted{
			CallInfo: engine.CallInfo{Seat: a, Agent: a, Phase: "challenge", Round: 1, Attempt: 1}, Timeout: engine.Duration(2 * time.Minute)}})
	}
	return ev
}

// benchText is JSON as a model streams it, long enough to cut frames
// from.
func benchText() string {
	var b strings.Builder
	b.WriteString("{\n  \"objections\": [\n")
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "    {\"title\": \"Point %d\", \"detail\": \"The outbox relay must be exactly-once into Kafka or consumers see duplicates; partition %d lags.\"},\n", i, i%7)
	}
	return b.String()
}

// benchFrames are precomputed batches: building them is not the screen's
// cost.
func benchFrames(text string) []eventsMsg {
	frames := make([]eventsMsg, 512)
	for i := range frames {
		ev := make([]engine.Event, len(agents))
		for j, a := range agents {
			off := ((i*len(agents) + j) * benchChunk) % (len(text) - benchChunk)
			ev[j] = engine.Event{Payload: engine.Chunk{Seat: a, Text: text[off : off+benchChunk]}}
		}
		frames[i] = eventsMsg{events: ev}
	}
	return frames
}

// drive delivers msg as the program does: Update, then View, then the
// commands Update returned, run at once (the renders the panes ask for:
// a benchmark's m.after schedules no timer), their messages delivered in
// turn.
func drive(m *Model, msg tea.Msg) {
	_, cmd := m.Update(msg)
	_ = m.View()
	runCmds(m, cmd)
}

func runCmds(m *Model, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			runCmds(m, c)
		}
	default:
		drive(m, msg)
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func heapInUse() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// benchLayout reads benchReply's objections as a bulleted list, each
// objection's title on its bullet's line and its detail nested under it.
var benchLayout = layout.Layout{Fields: []layout.Field{{Key: "objections", Style: layout.Bullets,
	Item: &layout.Layout{Fields: []layout.Field{{Key: "title"}, {Key: "detail"}}}}}}

// benchReply is one reply of about n bytes in benchLayout's shape, as a
// model streams it.
func benchReply(n int) string {
	var b strings.Builder
	b.WriteString("{\n  \"objections\": [\n")
	for i := 0; b.Len() < n; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "    {\"title\": \"Point %d\", \"detail\": \"The outbox relay must be exactly-once into Kafka or consumers see duplicates; partition %d lags behind the others by minutes.\"}", i, i%7)
	}
	b.WriteString("\n  ]\n}\n")
	return b.String()
}

// BenchmarkStreamingRendered is BenchmarkStreaming with replies the panes
// render as they stream: four agents each stream a 4 KiB reply whose
// shape has a layout, 256 bytes a frame, then finish it (the reply drawn
// whole) and start the next. It reports the CPU time per frame (Update
// and View of the four panes) and per finished reply.
//
// go test ./tui/ -run '^$' -bench StreamingRendered -benchtime 2000x
func BenchmarkStreamingRendered(b *testing.B) {
	reply := benchReply(4 << 10)
	display := layout.Render(reply, benchLayout)
	start := benchStart()
	ds := start[0].Payload.(engine.DebateStarted)
	ds.Layouts = map[string]layout.Layout{"objections": benchLayout}
	start[0].Payload = ds
	for i := 2; i < len(start); i++ {
		as := start[i].Payload.(engine.AgentStarted)
		as.Shape = "objections"
		start[i].Payload = as
	}
	perReply := (len(reply) + benchChunk - 1) / benchChunk
	frames := make([]eventsMsg, perReply)
	for k := range frames {
		var ev []engine.Event
		end := min((k+1)*benchChunk, len(reply))
		for _, a := range agents {
			ev = append(ev, engine.Event{Payload: engine.Chunk{Seat: a, Text: reply[k*benchChunk : end]}})
		}
		if k == perReply-1 {
			for _, e := range start[2:] {
				as := e.Payload.(engine.AgentStarted)
				ev = append(ev, engine.Event{Payload: engine.AgentFinished{CallInfo: as.CallInfo, Text: reply, Display: display}}, e)
			}
		}
		frames[k] = eventsMsg{events: ev}
	}

	m := NewModel(Options{Output: io.Discard}, start)
	m.setRenderer(testRenderer(termenv.TrueColor))
	m.now = func() time.Time { return tuitest.Start.Add(time.Minute) }
	m.after = func(time.Duration, tea.Msg) tea.Cmd { return nil }
	drive(m, resize(120, 40))
	runtime.GC()
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := range b.N {
		drive(m, frames[i%len(frames)])
	}
	cpu := cpuTime() - cpu0
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/frame")
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N/perReply*len(agents)+1), "cpu-ms/reply")
}

// BenchmarkPaceFrame is one frame of the live screen while four agents
// stream Markdown at a model's pace: 100 tokens (400 bytes) a second
// each, split into the screen's frames (frameInterval: 15 a second, 26
// bytes each a frame), on a 120×40 true-colour screen. Each op is a
// frame's Update and View; the screen's processor time per second of
// streaming is ns/op × 15.
//
// go test ./tui/ -run '^$' -bench PaceFrame -benchmem
func BenchmarkPaceFrame(b *testing.B) {
	perFrame := int(400 * frameInterval / time.Second)
	text := tuitest.Prose(64 << 10)
	start := benchStart()
	ds := start[0].Payload.(engine.DebateStarted)
	ds.Layouts = map[string]layout.Layout{"objections": benchLayout} // replies drawn as they stream
	start[0].Payload = ds
	for i := 2; i < len(start); i++ {
		as := start[i].Payload.(engine.AgentStarted)
		as.Shape = "objections"
		start[i].Payload = as
	}
	m := NewModel(Options{Output: io.Discard}, start)
	m.setRenderer(testRenderer(termenv.TrueColor))
	m.now = func() time.Time { return tuitest.Start.Add(time.Minute) }
	m.after = func(time.Duration, tea.Msg) tea.Cmd { return nil }
	drive(m, resize(120, 40))
	off := 0
	for b.Loop() {
		if off+perFrame > len(text) {
			off = 0
			b.StopTimer()
			for _, e := range start[2:] { // each agent starts a new reply
				drive(m, eventsMsg{events: []engine.Event{e}})
			}
			b.StartTimer()
		}
		ev := make([]engine.Event, len(agents))
		for j, a := range agents {
			ev[j] = engine.Event{Payload: engine.Chunk{Seat: a, Text: text[off : off+perFrame]}}
		}
		off += perFrame
		drive(m, eventsMsg{events: ev})
	}
}

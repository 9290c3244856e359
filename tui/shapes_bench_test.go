//go:build unix

package tui

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/judge"
	"github.com/arenadebate/arena/tui/tuitest"
)

// The windows BenchmarkShapes (and cmd/arena's BenchmarkFeel) measure
// over, in seconds of streaming: early, when each reply is a few hundred
// bytes to a few kilobytes, and late, when it is ten times that.
const (
	shapesEarlyFrom, shapesEarlyTo = 4, 14
	shapesLateFrom, shapesLateTo   = 50, 60
)

// BenchmarkShapes is the live screen's own cost while four panes stream a
// reply in each of the five shapes (tuitest.Shapes) at 100 and 1,000
// tokens a second (a token is 4 bytes), frame by frame as the sink
// delivers them (15 a second), on a 160×48 true-colour screen, in
// process: each frame's Update and View, and the renders they start.
// The replies' shape is the judge's analysis, as BenchmarkFeel streams;
// one processor, as arena has.
// It reports, medians over the iterations:
//
//	early-pct     the processor time of the frames of seconds 4 to 14 of
//	              the stream, as a share of those 10 seconds (% of a core)
//	late-pct      the same for seconds 50 to 60
//	late-x-early  late-pct / early-pct: 1 when a frame costs what it did
//	              when the reply was short
//
// go test ./tui/ -run '^$' -bench Shapes -benchtime 3x
func BenchmarkShapes(b *testing.B) {
	for _, shape := range tuitest.Shapes {
		for _, rate := range []int{100, 1000} {
			b.Run(fmt.Sprintf("%s/%d", shape, rate), func(b *testing.B) {
				text := tuitest.Shape(shape, rate*4*(shapesLateTo+1))
				var early, late, ratio []float64
				for b.Loop() {
					e, l := shapesRun(text, rate)
					early, late, ratio = append(early, e), append(late, l), append(ratio, l/max(e, 1e-3))
				}
				b.ReportMetric(0, "ns/op")
				b.ReportMetric(median(early), "early-pct")
				b.ReportMetric(median(late), "late-pct")
				b.ReportMetric(median(ratio), "late-x-early")
			})
		}
	}
}

// shapesRun streams text into four panes at rate tokens a second for
// shapesLateTo seconds and returns the processor time of the two
// windows, as a percentage of a core.
func shapesRun(text string, rate int) (early, late float64) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1)) // as arena runs (cmd/arena/main.go)
	start := benchStart()
	ds := start[0].Payload.(engine.DebateStarted)
	ds.Layouts = judge.Layouts
	start[0].Payload = ds
	for i := 2; i < len(start); i++ {
		as := start[i].Payload.(engine.AgentStarted)
		as.Shape = judge.ShapeAnalysis
		start[i].Payload = as
	}
	m := NewModel(Options{Output: io.Discard}, start)
	m.setRenderer(testRenderer(termenv.TrueColor))
	m.now = func() time.Time { return tuitest.Start.Add(time.Minute) }
	m.after = func(time.Duration, tea.Msg) tea.Cmd { return nil }
	drive(m, resize(160, 48))
	fps := int(time.Second / frameInterval)
	bytesPerFrame := float64(rate*4) / float64(fps)
	var cpuAt [shapesLateTo + 1]time.Duration
	off := 0
	for f := 0; f <= shapesLateTo*fps; f++ {
		if f%fps == 0 {
			cpuAt[f/fps] = cpuTime()
		}
		end := min(int(float64(f+1)*bytesPerFrame), len(text))
		ev := make([]engine.Event, len(agents))
		for j, a := range agents {
			ev[j] = engine.Event{Payload: engine.Chunk{Seat: a, Text: text[off:end]}}
		}
		off = end
		drive(m, eventsMsg{events: ev})
	}
	pct := func(from, to int) float64 {
		return 100 * float64(cpuAt[to]-cpuAt[from]) / float64(time.Duration(to-from)*time.Second)
	}
	return pct(shapesEarlyFrom, shapesEarlyTo), pct(shapesLateFrom, shapesLateTo)
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

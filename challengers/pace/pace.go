// Package pace is the wall clock arena keeps while agents stream: the
// runner reads every agent's output on its ticks (challengers), and the
// live screen draws a frame just after each (tui). Counted on the wall
// clock from the Unix epoch, the ticks fall on the same instants in every
// goroutine, so one wake-up of the process reads what every agent wrote
// and the next draws it, where clocks of their own would wake it for each.
package pace

import "time"

// Tick is the clock's period. 15 a second: text waits at most a tick to
// be read and is on screen a few milliseconds after it. BenchmarkFeel
// (bench/README.md): 95th percentile 61–81 ms from the agent to the screen; 20 a
// second drew it 10–20 ms sooner for a quarter more of the processor.
const Tick = time.Second / 15

// UntilTick is how long from now until the next instant that lies offset
// past a multiple of every on the wall clock (counted from the Unix
// epoch, so clocks in every goroutine agree). every is Tick or a multiple
// of it; the result is in (0, every].
func UntilTick(now time.Time, every, offset time.Duration) time.Duration {
	d := every - time.Duration(now.UnixNano()-int64(offset))%every
	if d > every { // before the epoch: % kept the sign
		d -= every
	}
	return d
}

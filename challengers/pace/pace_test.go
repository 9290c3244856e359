package pace

import (
	"testing"
	"time"
)

// UntilTick counts on the wall clock from the Unix epoch, so every
// goroutine that asks lands on the same instants, offset past each tick.
func TestUntilTickLandsOnTheSharedClock(t *testing.T) {
	base := time.Unix(0, 0).Add(27_000_000_000 * Tick) // 2027: on a tick of every period below
	for _, c := range []struct {
		at, every, offset, want time.Duration
	}{
		{0, Tick, 0, Tick}, // on a tick: the next one
		{time.Millisecond, Tick, 0, Tick - time.Millisecond},
		{Tick - 1, Tick, 0, 1},
		{0, Tick, 2 * time.Millisecond, 2 * time.Millisecond},
		{3 * time.Millisecond, Tick, 2 * time.Millisecond, Tick - time.Millisecond},
		{Tick + 7*time.Millisecond, 2 * Tick, 10 * time.Millisecond, 2*Tick - Tick - 7*time.Millisecond + 10*time.Millisecond},
		{Tick - 5*time.Millisecond, Tick, -10 * time.Millisecond, 5*time.Millisecond - 10*time.Millisecond + Tick},
	} {
		got := UntilTick(base.Add(c.at), c.every, c.offset)
		if got != c.want {
			t.Errorf("UntilTick(+%v, %v, %v) = %v, want %v", c.at, c.every, c.offset, got, c.want)
		}
		if at := base.Add(c.at + got).Sub(base); (at-c.offset)%c.every != 0 {
			t.Errorf("UntilTick(+%v, %v, %v) lands at +%v, off the clock", c.at, c.every, c.offset, at)
		}
	}
	if d := UntilTick(time.Unix(-1, 0), Tick, 0); d <= 0 || d > Tick {
		t.Errorf("before the epoch: %v, want within (0, %v]", d, Tick)
	}
}

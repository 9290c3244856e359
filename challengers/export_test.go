package challengers

import (
	"sort"
	"sync"
	"testing"
	"time"
)

// FakeClock is a clock for the runner that only moves when a test moves
// it, for the tests whose point is a duration: a timeout, the grace
// before SIGKILL. Their verdict then depends on what the runner does at
// each instant, not on how fast a loaded machine gets there.
type FakeClock struct {
	t      testing.TB
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	at    time.Time
	f     func()
	sleep bool // a Sleep: the runner is waiting on the clock
	done  bool
}

// UseFakeClock makes the runner use a FakeClock until the test ends.
// Tests that use it must not run in parallel with other runner tests.
func UseFakeClock(t testing.TB) *FakeClock {
	c := &FakeClock{t: t, now: time.Unix(1_000_000, 0)}
	old := clk
	clk = c
	t.Cleanup(func() { clk = old })
	return c
}

func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *FakeClock) add(d time.Duration, f func(), sleep bool) *fakeTimer {
	c.mu.Lock()
	defer c.mu.Unlock()
	tm := &fakeTimer{at: c.now.Add(d), f: f, sleep: sleep}
	c.timers = append(c.timers, tm)
	return tm
}

func (c *FakeClock) AfterFunc(d time.Duration, f func()) func() bool {
	tm := c.add(d, f, false)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		if tm.done {
			return false
		}
		tm.done = true
		return true
	}
}

func (c *FakeClock) Sleep(d time.Duration) {
	woken := make(chan struct{})
	c.add(d, func() { close(woken) }, true)
	<-woken
}

// Advance moves the clock on by d and fires, in order, what falls due.
func (c *FakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []*fakeTimer
	for _, tm := range c.timers {
		if !tm.done && !tm.at.After(c.now) {
			tm.done = true
			due = append(due, tm)
		}
	}
	sort.SliceStable(due, func(i, j int) bool { return due[i].at.Before(due[j].at) })
	c.mu.Unlock()
	for _, tm := range due {
		if tm.sleep {
			tm.f()
		} else {
			go tm.f()
		}
	}
}

// Sleeping reports whether the runner is waiting in a Sleep.
func (c *FakeClock) Sleeping() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, tm := range c.timers {
		if tm.sleep && !tm.done {
			return true
		}
	}
	return false
}

// WaitSleeping waits, in real time, until the runner is waiting in a
// Sleep or cond holds, whichever comes first, and reports whether it is
// sleeping. The real-time bound only catches a test that hangs.
func (c *FakeClock) WaitSleeping(cond func() bool) bool {
	c.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if c.Sleeping() {
			return true
		}
		if cond() {
			return false
		}
		time.Sleep(time.Millisecond)
	}
	c.t.Fatal("the runner neither slept nor got where the test waits for, in 30 s")
	return false
}

// GroupPoll is how often the runner checks whether a group it kills is
// gone.
const GroupPoll = groupPoll

// WithoutReaper runs f as if no reaper watched over this process.
func WithoutReaper[T any](rp *Reaper, f func() T) T {
	activeReaper.Store(nil)
	defer activeReaper.Store(rp)
	return f()
}

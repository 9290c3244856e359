package challengers

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/arenadebate/arena/challengers/pace"
)

// pacedReader reads an agent's stdout (a pseudo-terminal's master or a
// pipe's read end) on the ticks of a wall clock shared by every agent,
// outside Go's poller.
//
// A model streams a piece every few milliseconds. Waited on by the poller,
// every piece woke arena: the descriptor is registered edge-triggered, so
// each write of the agent's woke a thread out of epoll_wait even while no
// read was waiting, and four agents streaming 100 pieces a second cost
// 400 wake-ups a second, each a switch of threads on the 2-core VM that
// cost more than what was read (strace: epoll_pwait returning the four
// masters, over and over; perf: finish_task_switch). Read in blocking
// mode instead, each read held an OS thread, and every piece cost a
// hand-off between threads (the runtime's monitor taking the processor
// back). Here the descriptor is non-blocking and known to nobody but this
// reader: a read that finds nothing, or finds a trickle, waits for the
// next tick of arena's clock (challengers/pace), when every agent's reader
// wakes at once (and the screen draws just after). What was written
// meanwhile comes in one read; a flood fills the buffer and is read on
// without waiting. A quiet agent (a model thinking) costs one read a
// tick.
//
// Once the agent's leader has exited, nothing waits for a tick while
// there is output to read: the end of a call is not put off. After cut
// (drain's grace is over: something that escaped the group holds the
// descriptor open), what is already buffered is read, at most
// maxAfterGrace, and then Read says io.EOF.
type pacedReader struct {
	fd     int
	exited <-chan struct{} // closed when the leader has exited; nil once seen

	cut     chan struct{}
	cutOnce sync.Once
	left    int // what may still be read after the cut

	short bool // the last read was a trickle
	timer *time.Timer

	closeOnce sync.Once
}

// trickleBytes: a read of less is an agent streaming at a model's pace,
// and the next read waits for the tick.
const trickleBytes = 1 << 10

// newPacedReader takes over fd, which must be known to no *os.File (a
// file registered with the poller would still be woken by every write).
func newPacedReader(fd int) (*pacedReader, error) {
	unix.CloseOnExec(fd)
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return nil, err
	}
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &pacedReader{fd: fd, cut: make(chan struct{}), left: maxAfterGrace, timer: t}, nil
}

// pacedPTYMaster turns creack/pty's master into a paced reader: a
// duplicate of its descriptor is taken and the file is closed, which
// takes it out of the poller.
func pacedPTYMaster(f *os.File) (*pacedReader, error) {
	fd, err := unix.Dup(int(f.Fd()))
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("pseudo-terminal: %w", err)
	}
	return newPacedReader(fd)
}

// pacedPipe returns a pipe whose read end is a paced reader and whose
// write end, blocking, is for the child.
func pacedPipe() (*pacedReader, *os.File, error) {
	var fds [2]int
	if err := unix.Pipe2(fds[:], unix.O_CLOEXEC); err != nil {
		return nil, nil, fmt.Errorf("pipe: %w", err)
	}
	r, err := newPacedReader(fds[0])
	if err != nil {
		unix.Close(fds[1])
		return nil, nil, fmt.Errorf("pipe: %w", err)
	}
	return r, os.NewFile(uintptr(fds[1]), "|1"), nil
}

// watch sets the channel that is closed when the agent's leader exits.
func (r *pacedReader) watch(exited <-chan struct{}) { r.exited = exited }

// Read returns what the agent wrote, waiting for the next tick while
// there is nothing (io.EOF at the end of its output, or once cut and
// drained).
func (r *pacedReader) Read(b []byte) (int, error) {
	if r.short && r.exited != nil {
		r.wait()
	}
	for {
		if r.isCut() {
			if r.left <= 0 {
				return 0, io.EOF
			}
			b = b[:min(len(b), r.left)]
		}
		n, err := unix.Read(r.fd, b)
		switch {
		case n > 0:
			r.short = n < trickleBytes && n < len(b)
			if r.isCut() {
				r.left -= n
			}
			return n, nil
		case err == nil, errors.Is(err, unix.EIO): // a pipe's end; a terminal whose other side is closed
			return 0, io.EOF
		case errors.Is(err, unix.EINTR):
			continue
		case !errors.Is(err, unix.EAGAIN):
			return 0, &os.PathError{Op: "read", Path: "agent output", Err: err}
		}
		if r.isCut() {
			return 0, io.EOF
		}
		r.wait()
	}
}

// wait waits for the next tick, or for the leader's exit (once) or the
// cut, whichever is first.
func (r *pacedReader) wait() {
	r.timer.Reset(pace.UntilTick(time.Now(), pace.Tick, 0))
	select {
	case <-r.timer.C:
		return
	case <-r.exited:
		r.exited = nil // seen: later waits are for ticks (something may still hold the output open)
	case <-r.cut:
	}
	r.timer.Stop()
}

// stopWaiting is drain's cut: from now on Read takes only what is
// buffered. Safe from any goroutine.
func (r *pacedReader) stopWaiting() { r.cutOnce.Do(func() { close(r.cut) }) }

func (r *pacedReader) isCut() bool {
	select {
	case <-r.cut:
		return true
	default:
		return false
	}
}

// Close closes the descriptor; call it once no Read is running.
func (r *pacedReader) Close() error {
	err := error(nil)
	r.closeOnce.Do(func() { err = unix.Close(r.fd) })
	return err
}

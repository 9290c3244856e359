package challengers

import (
	"io"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// WatchStdout calls cancel when whoever reads arena's
// output goes away (arena --no-tui topic | head -1): by default Go would
// die of SIGPIPE on the next write, leaving the log cut short and no
// outcome document. With SIGPIPE caught, writes fail with EPIPE instead;
// the signal also comes for an agent that closed its stdin early, so it
// only counts when stdout itself is broken. It returns the function that
// stops watching.
func WatchStdout(stdout io.Writer, cancel func()) func() {
	out, ok := stdout.(*os.File)
	if !ok {
		return func() {}
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGPIPE)
	quit := make(chan struct{})
	go func() {
		for {
			select {
			case <-sigs:
				if writeEndBroken(out) {
					cancel()
				}
			case <-quit:
				return
			}
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(quit)
	}
}

// writeEndBroken reports whether f is a pipe whose reader has gone.
func writeEndBroken(f *os.File) bool {
	fds := []unix.PollFd{{Fd: int32(f.Fd()), Events: unix.POLLOUT}}
	n, err := unix.Poll(fds, 0)
	return err == nil && n > 0 && fds[0].Revents&(unix.POLLERR|unix.POLLHUP) != 0
}

package challengers

import (
	"os"
	"syscall"
	"testing"
)

// A pipe whose reader has gone is broken; one still read is not. A
// SIGPIPE then cancels the run only in the first case.
func TestWatchStdoutCancelsWhenTheReaderIsGone(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if writeEndBroken(w) {
		t.Fatal("a pipe still read is taken for broken")
	}
	r.Close()
	if !writeEndBroken(w) {
		t.Fatal("a pipe whose reader has gone is not taken for broken")
	}
	cancelled := make(chan struct{})
	stop := WatchStdout(w, func() { close(cancelled) })
	defer stop()
	if err := syscall.Kill(os.Getpid(), syscall.SIGPIPE); err != nil {
		t.Fatal(err)
	}
	<-cancelled
}

package main

import (
	"bytes"
	"os"
	"time"
)

func stdinIsTTY() bool  { return isTerminal(os.Stdin.Fd()) }
func stdoutIsTTY() bool { return isTerminal(os.Stdout.Fd()) }

// How long the node CLIs wait for the first byte of piped input before
// going on without it; once a byte has arrived they read to EOF. codex
// reads to EOF unconditionally.
const (
	claudeStdinWait = 3 * time.Second
	nodeStdinWait   = 500 * time.Millisecond // gemini and qwen
)

// readStdin reads standard input to EOF. With wait > 0 it gives up, and
// reports timedOut, when nothing at all (not even EOF) arrives in time;
// the reading goroutine is then left blocked, which is harmless in a
// process that is about to answer and exit.
func readStdin(wait time.Duration) (data string, timedOut bool) {
	first := make(chan struct{})
	done := make(chan string, 1)
	go func() {
		var buf bytes.Buffer
		p := make([]byte, 64<<10)
		for started := false; ; {
			n, err := os.Stdin.Read(p)
			buf.Write(p[:n])
			if !started && (n > 0 || err != nil) {
				started = true
				close(first)
			}
			if err != nil {
				done <- buf.String()
				return
			}
		}
	}()
	if wait > 0 {
		select {
		case <-first:
		case <-time.After(wait):
			return "", true
		}
	}
	return <-done, false
}

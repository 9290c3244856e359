package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/arenadebate/arena/challengers/fakecli/fakeapi"
)

// grandchildArg, as the only argument, makes the binary the process that
// mode grandchild leaves behind, whatever name it was started under.
const grandchildArg = "--fakecli-grandchild"

// foreverCap bounds "forever": long past any test's timeout, but a fake
// leaked by a killed test run still goes away on its own eventually.
const foreverCap = time.Hour

// sleepForever never returns. (A bare select{} would be reported by the Go
// runtime as a deadlock.) It says so first, in the state directory, for
// the tests that check a hang (fakeapi.HangingFile).
func sleepForever() {
	if dir := stateDir(); dir != "" {
		_ = os.WriteFile(filepath.Join(dir, fakeapi.HangingFile(os.Getpid())), nil, 0o644)
	}
	time.Sleep(foreverCap)
	os.Exit(124)
}

// ignoreTermination makes SIGTERM, SIGHUP and SIGINT do nothing, leaving
// SIGKILL as the only way to stop the process.
func ignoreTermination() {
	signal.Ignore(syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
}

// grandchildMain is the left-behind process: it ignores termination and
// holds the stdout and stderr it inherited until it is killed. Closing fd 3
// tells the parent that the signals are ignored, so a SIGTERM sent right
// after the parent exits cannot slip in before.
func grandchildMain() {
	ignoreTermination()
	os.NewFile(3, "ready").Close()
	sleepForever()
}

// spawnGrandchild starts the left-behind process, sharing our stdout and
// stderr (and our process group, as a real tool's helper would), and
// records its pid so a test can check that it was killed.
func spawnGrandchild(agent string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	ready, readyW, err := os.Pipe()
	if err != nil {
		return err
	}
	defer ready.Close()
	cmd := exec.Command(exe, grandchildArg)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.ExtraFiles = []*os.File{readyW}
	err = cmd.Start()
	readyW.Close()
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, ready) // returns once the child closed fd 3
	dir := stateDir()
	if dir == "" {
		dir = os.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	pid := strconv.Itoa(cmd.Process.Pid)
	path := filepath.Join(dir, fakeapi.GrandchildPIDFile(agent))
	if err := os.WriteFile(path, []byte(pid+"\n"), 0o644); err != nil {
		return fmt.Errorf("writing grandchild pid: %w", err)
	}
	return nil
}

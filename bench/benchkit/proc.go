package benchkit

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// Proc is how one process run went.
type Proc struct {
	Wall time.Duration // from just before start to the end of Wait
	Code int           // exit status; -1 when killed by a signal
	// MaxRSSKiB is ru_maxrss from wait4. On Linux this is the larger of
	// the process's own peak and that of the largest child it reaped (the
	// kernel reports RUSAGE_BOTH to the parent), so for arena it includes
	// the fake CLIs it ran.
	MaxRSSKiB int64
	// HWMKiB is VmHWM from /proc/PID/status, the process's own peak
	// resident set, last read just before it exited (only when watched).
	HWMKiB int64
}

// Run starts cmd, waits for it and reports its wall time and exit status.
// With watchRSS it also polls the process's own peak RSS (VmHWM) every
// millisecond or so until it exits. VmHWM only grows, so the last reading
// is the peak unless the process grew in its last poll interval.
func Run(cmd *exec.Cmd, watchRSS bool) (Proc, error) {
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return Proc{}, err
	}
	var hwm int64
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	if watchRSS {
		status := "/proc/" + strconv.Itoa(cmd.Process.Pid) + "/status"
		tick := time.NewTicker(time.Millisecond)
	poll:
		for {
			if v := vmHWM(status); v > hwm {
				hwm = v
			}
			select {
			case err = <-done:
				break poll
			case <-tick.C:
			}
		}
		tick.Stop()
	} else {
		err = <-done
	}
	p := Proc{Wall: time.Since(start), HWMKiB: hwm, Code: -1}
	if cmd.ProcessState != nil {
		p.Code = cmd.ProcessState.ExitCode()
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			p.MaxRSSKiB = int64(ru.Maxrss)
		}
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return p, err
	}
	return p, nil
}

// RunFirstLine starts cmd, whose Stdout must be unset, and returns how
// long its first line of output took to arrive, from just before the
// start; it then reads the rest and waits for the exit, so the process
// runs to its end as it would for any reader.
func RunFirstLine(cmd *exec.Cmd) (time.Duration, Proc, error) {
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, Proc{}, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, Proc{}, err
	}
	br := bufio.NewReader(out)
	_, lerr := br.ReadString('\n')
	first := time.Since(start)
	_, _ = io.Copy(io.Discard, br)
	err = cmd.Wait()
	p := Proc{Wall: time.Since(start), Code: -1}
	if cmd.ProcessState != nil {
		p.Code = cmd.ProcessState.ExitCode()
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return first, p, err
	}
	if lerr != nil {
		return first, p, fmt.Errorf("no first line: %w", lerr)
	}
	return first, p, nil
}

// vmHWM reads "VmHWM:   1234 kB" from a status file (0 if gone).
func vmHWM(path string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	_, rest, ok := bytes.Cut(b, []byte("VmHWM:"))
	if !ok {
		return 0
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	f := bytes.Fields(line)
	if len(f) == 0 {
		return 0
	}
	n, _ := strconv.ParseInt(string(f[0]), 10, 64)
	return n
}

// CPU is the processor time this process and its reaped children have
// used so far (user and system). A difference of two readings is what a
// stretch of work cost, whatever else the machine was doing meanwhile.
func CPU() time.Duration {
	var self, children syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children)
	return time.Duration(self.Utime.Nano() + self.Stime.Nano() + children.Utime.Nano() + children.Stime.Nano())
}

package challengers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// child is a process the runner or RunGroup started: under the run's
// supervisor when one watches over arena and the system has one that
// starts calls (supervisor_linux.go), else by arena itself.
type child struct {
	pid int
	cmd *exec.Cmd   // started by arena
	sup *supervised // started by the supervisor
}

// startChild starts cmd, whose stdin, stdout and stderr are files (or
// nil) and which has no extra files.
func startChild(cmd *exec.Cmd) (*child, error) {
	if rp := activeReaper.Load(); rp != nil && supervises {
		c, err := rp.spawn(cmd, KillGrace)
		if err != nil {
			return nil, err
		}
		return &child{pid: c.pid, sup: c}, nil
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &child{pid: cmd.Process.Pid, cmd: cmd}, nil
}

// wait waits for the child to exit and returns its wait status, or an
// error when there is none to tell.
func (c *child) wait() (syscall.WaitStatus, error) {
	if c.sup != nil {
		return c.sup.wait()
	}
	err := c.cmd.Wait()
	if c.cmd.ProcessState == nil {
		return 0, err
	}
	ws, _ := c.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ee := (*exec.ExitError)(nil); err != nil && !errors.As(err, &ee) {
		return ws, err
	}
	return ws, nil
}

// exitCode is the exit status, or -1 when the child was killed by a
// signal or its status is unknown.
func exitCode(ws syscall.WaitStatus, err error) int {
	if err != nil || ws.Signaled() {
		return -1
	}
	return ws.ExitStatus()
}

// kill ends the child's process group, pgid, as a timeout does: SIGTERM,
// grace, SIGKILL. Under the supervisor, which ends the child's whole tree
// (whatever its session or group) on the same terms, the group is given
// callReaperSlack more before arena sends SIGKILL itself.
func (c *child) kill(pgid int, grace time.Duration) {
	if c.sup == nil {
		killGroupAfter(pgid, grace)
		return
	}
	c.sup.stop()
	if !waitGroupGone(pgid, grace+callReaperSlack) {
		_ = signalGroup(pgid, syscall.SIGKILL)
		waitGroupGone(pgid, time.Second)
	}
	// A supervisor that does not say the call has ended (hung, or
	// stopped again and again) is killed: what it watched is then arena's
	// to end (Reaper.gone), and the call's end is known.
	select {
	case <-c.sup.done:
	case <-time.After(grace + callReaperSlack):
		_ = c.sup.sup.cmd.Process.Kill()
	}
}

// callReaperSlack is how much longer than its grace the supervisor gets
// to end a call's tree before arena kills the call's group itself.
const callReaperSlack = 2 * time.Second

// GroupRun is how a command RunGroup ran ended.
type GroupRun struct {
	Started  bool // false: it could not be started, and Err says why
	ExitCode int  // -1 when it was killed by a signal
	// Err says why it could not start, or was killed (the context's
	// error when the context ended first).
	Err error
}

// outputDelay bounds how long RunGroup waits for a command's output once
// it has exited: a process it left holding the pipe does not hold it up.
const outputDelay = 5 * time.Second

// RunGroup runs argv (looked up in arena's PATH) in dir with env, its
// stdout and stderr both copied to out, until it exits or ctx ends (then
// it is stopped as a call at its timeout). It runs as the leader of a
// process group of its own, under the run's supervisor when one watches
// over arena: what it leaves running is ended when it exits, in its group
// or (under a supervisor) wherever it went, and a SIGKILL of arena ends
// it too. Without a supervisor it dies with arena's thread (Pdeathsig,
// where the system has it).
func RunGroup(ctx context.Context, argv []string, dir string, env []string, out io.Writer) GroupRun {
	cmd := exec.Command(argv[0], argv[1:]...)
	if cmd.Err != nil {
		return GroupRun{ExitCode: -1, Err: cmd.Err}
	}
	cmd.Dir, cmd.Env = dir, env
	cmd.SysProcAttr = groupAttr()
	r, w, err := os.Pipe()
	if err != nil {
		return GroupRun{ExitCode: -1, Err: err}
	}
	cmd.Stdout, cmd.Stderr = w, w
	ch, err := startChild(cmd)
	w.Close()
	if err != nil {
		r.Close()
		return GroupRun{ExitCode: -1, Err: err}
	}
	copied := make(chan struct{})
	go func() {
		_, _ = io.Copy(out, r)
		close(copied)
	}()
	pgid := ch.pid
	defer track(pgid)()
	type waited struct {
		ws  syscall.WaitStatus
		err error
	}
	done := make(chan waited, 1)
	go func() {
		ws, err := ch.wait()
		done <- waited{ws, err}
	}()
	var res waited
	select {
	case res = <-done:
	case <-ctx.Done():
		ch.kill(pgid, KillGrace)
		res = <-done
	}
	if groupAlive(pgid) {
		// What it left in its group (a sleeper it forked).
		_ = signalGroup(pgid, syscall.SIGKILL)
		waitGroupGone(pgid, 2*time.Second)
	}
	select {
	case <-copied:
		r.Close()
	case <-time.After(outputDelay):
		r.Close() // the copy ends with an error
		<-copied
	}
	run := GroupRun{Started: true, ExitCode: exitCode(res.ws, res.err), Err: res.err}
	switch {
	case ctx.Err() != nil && run.ExitCode != 0:
		run.Err = ctx.Err()
	case run.Err == nil && res.ws.Signaled():
		run.Err = fmt.Errorf("signal: %v", res.ws.Signal())
	}
	return run
}

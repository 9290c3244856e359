package challengers

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// A call's reaper stands between arena and one agent (or one test
// command): `arena __reaper call GRACE OUTFD PATH ARGV...`, where OUTFD is
// the fd holding the agent's stdout (1, or 4: underCallReaper). It makes itself the
// child subreaper of what it starts (PR_SET_CHILD_SUBREAPER), so a helper
// the agent leaves behind — in a session of its own (setsid), a double
// fork's orphan, a process group of its own — is re-parented to it rather
// than to init, and nothing the agent started can leave its tree. When
// the agent exits, or the call's reaper is asked to stop (SIGTERM from a
// timeout, SIGHUP from a closed terminal, SIGTERM from the parent-death
// signal when arena dies), it ends every process of that tree, whatever
// its session or group: SIGTERM, GRACE, then SIGKILL until none is left.
// Then it exits as the agent did.
//
// A process group cannot do this: in issue 29 a helper that called setsid
// before the agent exited was alive, re-parented to init, after every one
// of three runs. A subreaper has to be an ancestor of what it catches, so
// it is a process of each call rather than the run's reaper, which arena
// starts beside the agents (the run's reaper still watches over the
// call's process group, should arena be killed).
//
// It is arena's own binary, so it takes no arena code path but this file:
// it holds the call's terminal only through the agent, having given its
// own copies of stdin, stdout and stderr up once the agent started.

// CallReaperArg follows the reaper command in a call reaper's argv.
const CallReaperArg = "call"

// ServeCall is a call's reaper, given the arguments after "call". It
// reports on fd 3 why the agent could not be started (closing it empty
// when it was), and returns the status to exit with when the agent exited;
// when a signal killed the agent, it kills itself with SIGKILL instead,
// so arena sees a call killed by a signal.
func ServeCall(args []string) int {
	// fds 3 and 4 came without close-on-exec: the agent and all it starts
	// would hold the report's pipe open, and arena would wait for its end
	// until they are all gone.
	syscall.CloseOnExec(3)
	status := os.NewFile(3, "status")
	if len(args) < 4 {
		fmt.Fprint(status, "usage: call GRACE OUTFD PATH ARGV...")
		return 2
	}
	grace, err := time.ParseDuration(args[0])
	outFD, ferr := strconv.Atoi(args[1])
	if err = errors.Join(err, ferr); err != nil {
		fmt.Fprint(status, err)
		return 2
	}
	if outFD > 2 {
		syscall.CloseOnExec(outFD)
	}
	stdout := os.NewFile(uintptr(outFD), "stdout")
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		fmt.Fprintf(status, "become a subreaper: %v", err)
		return 127
	}
	c := &callReaper{grace: grace, sigs: make(chan os.Signal, 16)}
	signal.Notify(c.sigs, syscall.SIGCHLD, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	proc, err := os.StartProcess(args[2], args[3:], &os.ProcAttr{
		Files: []*os.File{os.Stdin, stdout, os.Stderr},
		// The agent dies with its call's reaper, as it died with arena.
		Sys: &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL},
	})
	if err != nil {
		fmt.Fprint(status, err)
		return 127
	}
	status.Close()
	c.agent = proc.Pid
	giveUpStdio(stdout)
	ws := c.wait()
	c.endAll()
	if ws.Signaled() {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	}
	return ws.ExitStatus()
}

// giveUpStdio points fds 0-2 at /dev/null and closes the agent's stdout:
// the agent's output ends (EOF on arena's side) when the agent's tree is
// gone, not when its reaper is.
func giveUpStdio(stdout *os.File) {
	if stdout.Fd() > 2 {
		stdout.Close()
	}
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return
	}
	defer null.Close()
	for fd := range 3 {
		_ = unix.Dup2(int(null.Fd()), fd)
	}
}

type callReaper struct {
	agent int
	grace time.Duration
	sigs  chan os.Signal
	// stopBy is when the tree gets SIGKILL, once it was sent SIGTERM
	// (zero until then).
	stopBy time.Time
}

// wait returns the agent's wait status once it has exited, stopping the
// tree when asked to meanwhile. Other children (helpers re-parented here)
// are reaped as they die.
func (c *callReaper) wait() syscall.WaitStatus {
	for {
		if ws, done := c.reap(c.agent); done {
			return ws
		}
		select {
		case s := <-c.sigs:
			if s != syscall.SIGCHLD && c.stopBy.IsZero() {
				c.stop()
			}
		case <-c.killTimer():
			c.signalTree(syscall.SIGKILL)
		}
	}
}

// stop sends SIGTERM to the whole tree and sets the time for SIGKILL.
func (c *callReaper) stop() {
	c.signalTree(syscall.SIGTERM)
	c.stopBy = time.Now().Add(c.grace)
}

// killTimer fires when the grace after SIGTERM is over (never before one
// was sent).
func (c *callReaper) killTimer() <-chan time.Time {
	if c.stopBy.IsZero() {
		return nil
	}
	return time.After(time.Until(c.stopBy))
}

// endAll ends every process left in the tree once the agent has exited:
// SIGTERM, the grace (what is left of it, when a stop began it already),
// then SIGKILL, over and over, until no child is left to wait for.
func (c *callReaper) endAll() {
	if c.noChildren() {
		return // the usual case: nothing was left behind, nothing to look for
	}
	if c.stopBy.IsZero() {
		c.stop()
	}
	for !c.noChildren() && time.Now().Before(c.stopBy) {
		select {
		case <-c.sigs:
		case <-time.After(time.Until(c.stopBy)):
		}
	}
	for {
		c.signalTree(syscall.SIGKILL)
		var ws syscall.WaitStatus
		if _, err := syscall.Wait4(-1, &ws, 0, nil); errors.Is(err, syscall.ECHILD) {
			return
		}
	}
}

// noChildren reaps what has died and says whether no child is left.
func (c *callReaper) noChildren() bool {
	_, _ = c.reap(0)
	var ws syscall.WaitStatus
	_, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
	return errors.Is(err, syscall.ECHILD)
}

// reap waits for every child that has exited, without blocking, and
// returns pid's status if pid was one of them.
func (c *callReaper) reap(pid int) (syscall.WaitStatus, bool) {
	var found syscall.WaitStatus
	done := false
	for {
		var ws syscall.WaitStatus
		got, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		if err != nil || got <= 0 {
			return found, done
		}
		if got == pid {
			found, done = ws, true
		}
	}
}

// signalTree sends sig to every descendant of this process, found by
// their parents in /proc. What forks meanwhile is found the next time:
// SIGKILL is sent again after every death until no child is left.
func (c *callReaper) signalTree(sig syscall.Signal) {
	for _, pid := range descendants(os.Getpid()) {
		_ = syscall.Kill(pid, sig)
	}
}

// descendants lists the processes below root, parents before children.
func descendants(root int) []int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	children := map[int][]int{}
	for _, path := range stats {
		pid, ppid, ok := parentOf(path)
		if ok {
			children[ppid] = append(children[ppid], pid)
		}
	}
	var out []int
	queue := children[root]
	for len(queue) > 0 {
		pid := queue[0]
		queue = append(queue[1:], children[pid]...)
		out = append(out, pid)
	}
	return out
}

// parentOf reads "pid (comm) state ppid ..." from /proc/PID/stat; comm may
// hold spaces and parentheses, so the fields are counted from the last ')'.
func parentOf(statPath string) (pid, ppid int, ok bool) {
	b, err := os.ReadFile(statPath)
	if err != nil {
		return 0, 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	j := bytes.IndexByte(b, ' ')
	if i < 0 || j < 0 || j > i {
		return 0, 0, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 2 {
		return 0, 0, false
	}
	pid, err1 := strconv.Atoi(string(b[:j]))
	ppid, err2 := strconv.Atoi(string(f[1]))
	return pid, ppid, err1 == nil && err2 == nil
}

// callReapers says whether this system has call reapers.
const callReapers = true

// dieBySIGTERM makes the parent-death signal of a call's reaper SIGTERM,
// on which it ends its tree, where the agent's was SIGKILL.
func dieBySIGTERM(attr *syscall.SysProcAttr) {
	if attr != nil {
		attr.Pdeathsig = syscall.SIGTERM
	}
}

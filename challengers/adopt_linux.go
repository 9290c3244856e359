package challengers

import (
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// arena's side of a supervisor that is killed or stopped (see Reaper).

// becomeSubreaper makes arena the child subreaper of what is below it,
// should its supervisor die; it reports whether it did.
func becomeSubreaper() bool {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == nil
}

func (rp *Reaper) stopBeingSubreaper() {
	if rp.subreaper {
		_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
		rp.subreaper = false
	}
}

// supervisorDeathSignal makes the supervisor's parent-death signal
// SIGCONT: a supervisor a call stopped wakes up when arena dies, and ends
// everything below it (it ends everything once arena's end of the socket
// closes).
func supervisorDeathSignal(attr *syscall.SysProcAttr) {
	attr.Pdeathsig = syscall.SIGCONT
}

// watchStopped sends SIGCONT to the supervisor whenever it is stopped
// (arena, its parent, hears of it by SIGCHLD), until it has exited.
func watchStopped(pid int, exited <-chan struct{}) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGCHLD)
	defer signal.Stop(ch)
	for {
		if stopped(pid) {
			_ = syscall.Kill(pid, syscall.SIGCONT)
		}
		select {
		case <-ch:
		case <-exited:
			return
		}
	}
}

// endAdopted ends what a supervisor that died left below arena (orphans
// come to arena, a subreaper): every process below arena in another
// session than arena's (every call is the leader of a session, or below
// the supervisor's own), carrying the run's ARENA_CALL, or one of pids
// (the calls that were running), and everything below those. SIGTERM,
// KillGrace, then SIGKILL until none is left; then arena reaps those that
// are its children.
func endAdopted(token string, pids []int) {
	self := os.Getpid()
	sid, err := unix.Getsid(0)
	if err != nil {
		return
	}
	t := newProcTable(self)
	seen := map[int]bool{}
	targets := func() []int {
		below, children := t.tree()
		var out []int
		for pid, p := range below {
			if p.sid == sid && !slices.Contains(pids, pid) && !strings.HasPrefix(callTag(pid), token+".") {
				continue
			}
			for _, q := range subtree(pid, children) {
				if below[q].living() && !seen[q] {
					seen[q] = true
					out = append(out, q)
				}
			}
		}
		clear(seen)
		return out
	}
	var ended []int
	if left := targets(); len(left) > 0 {
		ended = append(ended, left...)
		signalAll(left, syscall.SIGTERM)
		for end := time.Now().Add(KillGrace); time.Now().Before(end) && len(targets()) > 0; {
			time.Sleep(groupPoll)
		}
		for left := targets(); len(left) > 0; left = targets() {
			ended = append(ended, left...)
			signalAll(left, syscall.SIGKILL)
			time.Sleep(groupPoll)
		}
	}
	for _, pid := range ended {
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
	}
}

// reapAdopted returns the wait status of a call's first process that its
// supervisor did not live to reap, now arena's child (a zombie, once
// endAdopted is done); a process arena cannot reap is reported killed.
func reapAdopted(pid int) syscall.WaitStatus {
	killed := syscall.WaitStatus(syscall.SIGKILL)
	p, ok := readProcInfo(pid)
	if pid <= 0 || !ok || p.ppid != os.Getpid() || (p.sid != pid && p.pgid != pid) {
		return killed // reaped already, or not the call's any more
	}
	var ws syscall.WaitStatus
	if got, err := syscall.Wait4(pid, &ws, 0, nil); err != nil || got != pid {
		return killed
	}
	return ws
}

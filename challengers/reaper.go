package challengers

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

// A Reaper is a small watchdog process that outlives arena. arena tells it
// the process group of every agent it starts; if arena dies without the
// chance to clean up (SIGKILL, an OOM kill), the pipe between them closes
// and the reaper kills every group still registered.
//
// The parent-death signal (Pdeathsig) already stops each agent's first
// process when arena dies, but not what that process started: a CLI's
// helper or a shell it spawned would be left running, reparented to init.
type Reaper struct {
	mu  sync.Mutex
	w   *os.File
	cmd *exec.Cmd
}

var activeReaper atomic.Pointer[Reaper]

// StartReaper starts argv (arena's own binary with its hidden reaper
// command) in a session of its own, so that the terminal's SIGINT and
// SIGHUP, meant for arena, do not reach it; from then on every agent the
// runner starts is registered with it.
func StartReaper(argv []string) (*Reaper, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		w.Close()
		return nil, fmt.Errorf("start reaper: %w", err)
	}
	rp := &Reaper{w: w, cmd: cmd}
	activeReaper.Store(rp)
	return rp, nil
}

// Close tells the reaper arena is done (after the agents are gone, so it
// kills nothing) and waits for it.
func (rp *Reaper) Close() error {
	activeReaper.CompareAndSwap(rp, nil)
	rp.mu.Lock()
	err := rp.w.Close()
	rp.mu.Unlock()
	if werr := rp.cmd.Wait(); err == nil {
		err = werr
	}
	return err
}

func (rp *Reaper) send(op byte, pgid int) {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	// A failed write means the reaper is gone; the agents still have
	// their parent-death signal.
	_, _ = fmt.Fprintf(rp.w, "%c%d\n", op, pgid)
}

// track registers a process group with the active reaper, if any, and
// returns the function that unregisters it.
func track(pgid int) func() {
	rp := activeReaper.Load()
	if rp == nil {
		return func() {}
	}
	rp.send('+', pgid)
	return func() { rp.send('-', pgid) }
}

// ServeReaper is the reaper process: it reads "+PGID" and "-PGID" lines
// until its input closes, then kills every group still registered.
func ServeReaper(in io.Reader) {
	groups := map[int]bool{}
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if len(line) < 2 {
			continue
		}
		pgid, err := strconv.Atoi(line[1:])
		if err != nil || pgid <= 1 {
			continue
		}
		switch line[0] {
		case '+':
			groups[pgid] = true
		case '-':
			delete(groups, pgid)
		}
	}
	for pgid := range groups {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
}

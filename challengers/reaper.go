package challengers

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// A Reaper is arena's side of its run's supervisor: arena's own binary,
// started once a run (`arena __reaper`) in a session of its own, which
// outlives arena. It is the only process arena adds to a run.
//
// Where the system has child subreapers (Linux), the supervisor starts
// every call — an agent, a repository's test command — on arena's
// request, with the terminal and pipes arena made for it
// (supervisor_linux.go), and is their subreaper: whatever a call leaves
// behind, in any session or group, double-forked or not, stays below it
// and is ended when the call ends (or is stopped), or when the run ends.
// If arena dies without the chance to clean up (SIGKILL, an OOM kill),
// the socket between them closes and the supervisor ends everything below
// it. arena is a subreaper too: if a call kills the supervisor (it is the
// call's parent), what was below it comes to arena, which ends it and
// starts a supervisor again for the next call; a call that stops the
// supervisor (SIGSTOP) is undone at once, arena sending SIGCONT, and the
// supervisor's parent-death signal is SIGCONT, so a supervisor stopped
// when arena is killed wakes up to clean up.
//
// Elsewhere the supervisor only watches the process groups arena
// registers ("group"), which it kills if arena dies; arena starts the
// calls itself, in groups of their own, as before.
//
// Everywhere it removes the directories arena registers ("dir") if arena
// dies: every TempDir is made inside the run's own directory.
type Reaper struct {
	argv   []string // the supervisor's command
	token  string   // what its calls' ARENA_CALL starts with
	runDir string   // every TempDir is made in here
	// subreaper: this process made itself a child subreaper, and
	// stops being one on Close.
	subreaper bool

	// restart is held while a supervisor is started or while what a
	// dead one left is ended: no call starts meanwhile.
	restart sync.Mutex

	mu      sync.Mutex
	sup     *supervisorProc // the supervisor running now, or nil
	closing bool
	// What is registered, sent again to a supervisor started again.
	groups map[int]bool
	dirs   map[string]bool
	nextID uint64
}

// supervisorProc is one supervisor process and the calls it started.
type supervisorProc struct {
	cmd   *exec.Cmd
	w     *wire
	calls map[string]*supervised // under Reaper.mu
	// exited is closed when cmd.Wait has returned.
	exited chan struct{}
}

// supervised is a call the supervisor started.
type supervised struct {
	id  string
	sup *supervisorProc
	pid int
	// started is closed once pid or startErr is known; done once
	// status or err is.
	started  chan struct{}
	startErr error
	done     chan struct{}
	status   syscall.WaitStatus
	err      error
	once     sync.Once
	doneOnce sync.Once
}

// callTagVar is the variable that marks a call's processes (see
// supervisor_linux.go); supervisorVar marks the supervisor's own
// environment.
const (
	callTagVar    = "ARENA_CALL"
	supervisorVar = "ARENA_RUN_SUPERVISOR"
)

var activeReaper atomic.Pointer[Reaper]

// StartReaper starts argv (arena's own binary with its hidden reaper
// command) as the run's supervisor; from then on every call runs under it
// where the system has subreapers (else every process group the runner
// and RunGroup start is registered with it), and every TempDir is made
// inside a directory of this run that it removes.
func StartReaper(argv []string) (*Reaper, error) {
	if os.Getenv(supervisorVar) != "" {
		// A binary started as the supervisor that does not serve as one
		// (a test binary without a TestMain that calls ServeReaper) and
		// runs arena's code instead would start supervisors without end.
		return nil, fmt.Errorf("start reaper: %s was started as arena's supervisor and does not serve as one", argv[0])
	}
	var tok [8]byte
	_, _ = rand.Read(tok[:])
	rp := &Reaper{argv: slices.Clone(argv), token: hex.EncodeToString(tok[:]), groups: map[int]bool{}, dirs: map[string]bool{}}
	// The run's directory is registered before the supervisor starts
	// (the socket holds the message until it reads it): there is no
	// moment at which it exists and nothing would remove it.
	if dir, err := os.MkdirTemp("", "arena-run-"); err == nil {
		rp.runDir = dir
		rp.dirs[dir] = true
	}
	rp.subreaper = becomeSubreaper()
	rp.mu.Lock()
	err := rp.startLocked()
	rp.mu.Unlock()
	if err != nil {
		if rp.runDir != "" {
			os.RemoveAll(rp.runDir)
		}
		rp.stopBeingSubreaper()
		return nil, err
	}
	activeReaper.Store(rp)
	return rp, nil
}

// startLocked starts a supervisor and tells it what is registered.
func (rp *Reaper) startLocked() error {
	mine, theirs, err := socketPair()
	if err != nil {
		return fmt.Errorf("start reaper: %w", err)
	}
	defer theirs.Close()
	w, err := newWire(mine)
	if err != nil {
		return fmt.Errorf("start reaper: %w", err)
	}
	_ = w.send(nil, "token", rp.token)
	for dir := range rp.dirs {
		_ = w.send(nil, "dir", dir)
	}
	for pgid := range rp.groups {
		_ = w.send(nil, "group", strconv.Itoa(pgid))
	}
	cmd := exec.Command(rp.argv[0], rp.argv[1:]...)
	cmd.Stdin = theirs
	cmd.Env = append(os.Environ(), supervisorVar+"=1") // its calls get arena's environment, not its own
	// A session of its own: the terminal's SIGINT and SIGHUP, meant for
	// arena, do not reach it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	supervisorDeathSignal(cmd.SysProcAttr)
	if err := cmd.Start(); err != nil {
		w.close()
		return fmt.Errorf("start reaper: %w", err)
	}
	sp := &supervisorProc{cmd: cmd, w: w, calls: map[string]*supervised{}, exited: make(chan struct{})}
	rp.sup = sp
	go func() { _ = cmd.Wait(); close(sp.exited) }()
	go rp.read(sp)
	go watchStopped(cmd.Process.Pid, sp.exited)
	return nil
}

// read takes the supervisor's messages until its end closes.
func (rp *Reaper) read(sp *supervisorProc) {
	for {
		msg, err := sp.w.recv()
		if err != nil {
			break
		}
		if len(msg) < 3 {
			continue
		}
		rp.mu.Lock()
		c := sp.calls[msg[1]]
		if msg[0] != "started" {
			delete(sp.calls, msg[1])
		}
		rp.mu.Unlock()
		if c != nil {
			c.take(msg[0], msg[2])
		}
	}
	rp.gone(sp)
}

// take records a supervisor's message about the call.
func (c *supervised) take(op, arg string) {
	switch op {
	case "started":
		c.pid, _ = strconv.Atoi(arg)
		c.once.Do(func() { close(c.started) })
	case "failed":
		c.once.Do(func() {
			c.startErr = errors.New(arg)
			close(c.started)
		})
		c.finish(0, errors.New(arg))
	case "exited":
		n, _ := strconv.ParseUint(arg, 10, 32)
		c.finish(syscall.WaitStatus(n), nil)
	}
}

func (c *supervised) finish(ws syscall.WaitStatus, err error) {
	c.doneOnce.Do(func() {
		c.status, c.err = ws, err
		close(c.done)
	})
}

// errSupervisorGone is a call's end when its supervisor died under it
// (the call died with it, by its parent-death signal).
var errSupervisorGone = errors.New("the run's supervisor was killed, and the call with it")

// gone is the end of a supervisor: on Close, as asked; otherwise killed
// (by a call: it is the calls' parent). Then what it started is arena's,
// a subreaper: arena ends all of it (endAdopted), tells the calls that
// were running how they ended, and the next call starts a supervisor
// again.
func (rp *Reaper) gone(sp *supervisorProc) {
	rp.mu.Lock()
	closing := rp.closing
	if rp.sup == sp {
		rp.sup = nil
	}
	calls := sp.calls
	sp.calls = map[string]*supervised{}
	rp.mu.Unlock()
	if !closing {
		// (On Close, Close ends what is left.)
		rp.restart.Lock()
		defer rp.restart.Unlock()
		_ = sp.cmd.Process.Kill()
		<-sp.exited
		pids := make([]int, 0, len(calls))
		for _, c := range calls {
			if c.pid > 0 {
				pids = append(pids, c.pid)
			}
		}
		endAdopted(rp.token, pids)
	}
	for _, c := range calls {
		c.once.Do(func() {
			c.startErr = errSupervisorGone
			close(c.started)
		})
		c.finish(reapAdopted(c.pid), errSupervisorGone)
	}
}

// Close tells the supervisor arena is done and waits for it: it ends
// what is still below it (nothing, when every caller cleaned up after
// itself) and removes the run's directory. A supervisor that does not
// finish in time (stopped, or killed) is killed, and arena ends what it
// left itself.
func (rp *Reaper) Close() error {
	activeReaper.CompareAndSwap(rp, nil)
	rp.restart.Lock()
	defer rp.restart.Unlock()
	rp.mu.Lock()
	rp.closing = true
	sp := rp.sup
	rp.mu.Unlock()
	defer rp.stopBeingSubreaper()
	if sp == nil {
		// Killed and not started again: its directories are arena's.
		endAdopted(rp.token, nil)
		removeDirs(rp.dirs)
		return nil
	}
	err := sp.w.close()
	select {
	case <-sp.exited:
	case <-time.After(closeWait):
		_ = sp.cmd.Process.Kill()
		<-sp.exited
	}
	if !sp.cmd.ProcessState.Success() {
		endAdopted(rp.token, nil)
		removeDirs(rp.dirs)
	}
	return err
}

// closeWait bounds how long arena waits for its supervisor to end what is
// left and remove the directories.
const closeWait = 10 * time.Second

// spawn starts cmd under the supervisor, which gives what it leaves
// behind grace between SIGTERM and SIGKILL.
func (rp *Reaper) spawn(cmd *exec.Cmd, grace time.Duration) (*supervised, error) {
	files, closeFiles, err := stdioFiles(cmd)
	if err != nil {
		return nil, err
	}
	defer closeFiles()
	rp.restart.Lock()
	rp.mu.Lock()
	if rp.sup == nil && !rp.closing {
		if err := rp.startLocked(); err != nil {
			rp.mu.Unlock()
			rp.restart.Unlock()
			return nil, err
		}
	}
	sp := rp.sup
	if sp == nil {
		rp.mu.Unlock()
		rp.restart.Unlock()
		return nil, errors.New("arena is ending its run")
	}
	rp.nextID++
	c := &supervised{id: strconv.FormatUint(rp.nextID, 10), sup: sp, started: make(chan struct{}), done: make(chan struct{})}
	sp.calls[c.id] = c
	rp.mu.Unlock()
	rp.restart.Unlock()
	if err := sp.w.send(files, spawnMessage(c.id, cmd, grace, len(files))...); err != nil {
		return nil, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	<-c.started
	if c.startErr != nil {
		return nil, c.startErr
	}
	return c, nil
}

// stdioFiles is what cmd gets as fds 0, 1 and 2: each an *os.File, or
// /dev/null when nil (closed by the function returned).
func stdioFiles(cmd *exec.Cmd) (files []*os.File, closeNull func(), err error) {
	if len(cmd.ExtraFiles) > 0 {
		return nil, nil, errors.New("a supervised call takes no extra files")
	}
	var null *os.File
	closeNull = func() {
		if null != nil {
			null.Close()
		}
	}
	for _, s := range []any{cmd.Stdin, cmd.Stdout, cmd.Stderr} {
		switch f := s.(type) {
		case *os.File:
			files = append(files, f)
		case nil:
			if null == nil {
				if null, err = os.OpenFile(os.DevNull, os.O_RDWR, 0); err != nil {
					return nil, nil, err
				}
			}
			files = append(files, null)
		default:
			closeNull()
			return nil, nil, fmt.Errorf("a supervised call's stdio must be files, not %T", s)
		}
	}
	return files, closeNull, nil
}

// spawnMessage is a "spawn" message (supervisor_linux.go's spawnRequest).
func spawnMessage(id string, cmd *exec.Cmd, grace time.Duration, files int) []string {
	var flags strings.Builder
	if a := cmd.SysProcAttr; a != nil {
		if a.Setsid {
			flags.WriteByte('s')
		}
		if a.Setpgid {
			flags.WriteByte('g')
		}
		if a.Setctty {
			flags.WriteByte('c')
		}
	}
	env := cmd.Environ()
	msg := make([]string, 0, 8+len(cmd.Args)+len(env))
	msg = append(msg, "spawn", id, flags.String(), grace.String(), cmd.Path, cmd.Dir, strconv.Itoa(len(cmd.Args)))
	msg = append(msg, cmd.Args...)
	msg = append(msg, strconv.Itoa(len(env)))
	msg = append(msg, env...)
	return append(msg, strconv.Itoa(files))
}

// wait returns the call's wait status once it has exited and what it
// left has been ended.
func (c *supervised) wait() (syscall.WaitStatus, error) {
	<-c.done
	return c.status, c.err
}

// stop asks the supervisor to end the call's whole tree: SIGTERM, then
// SIGKILL after the call's grace.
func (c *supervised) stop() {
	select {
	case <-c.done:
		return
	default:
	}
	_ = c.sup.w.send(nil, "stop", c.id)
}

func (rp *Reaper) register(op string, arg string) {
	rp.mu.Lock()
	registration(op, []string{arg}, rp.groups, rp.dirs)
	sp := rp.sup
	rp.mu.Unlock()
	if sp != nil {
		// A failed write means the supervisor is gone: the next one is
		// told what is registered then.
		_ = sp.w.send(nil, op, arg)
	}
}

// registration applies a "group", "ungroup", "dir" or "undir" message.
func registration(op string, args []string, groups map[int]bool, dirs map[string]bool) {
	if len(args) != 1 {
		return
	}
	switch op {
	case "dir", "undir":
		dir := args[0]
		if !strings.HasPrefix(dir, "/") || len(dir) < 2 {
			return
		}
		if op == "dir" {
			dirs[dir] = true
		} else {
			delete(dirs, dir)
		}
	case "group", "ungroup":
		pgid, err := strconv.Atoi(args[0])
		if err != nil || pgid <= 1 {
			return
		}
		if op == "group" {
			groups[pgid] = true
		} else {
			delete(groups, pgid)
		}
	}
}

// track registers a process group with the active reaper, if any, and
// returns the function that unregisters it.
func track(pgid int) func() {
	rp := activeReaper.Load()
	if rp == nil {
		return func() {}
	}
	rp.register("group", strconv.Itoa(pgid))
	return func() { rp.register("ungroup", strconv.Itoa(pgid)) }
}

// TempDir makes a private directory (0700) for arena's own use, named
// from pattern as os.MkdirTemp names it ("arena-rank-export-" gives
// arena-rank-export-123456), and returns it with the function that removes
// it. While a reaper watches over arena (every protocol's run, doctor
// --probe) the directory is made inside the run's own directory, which
// the reaper removes if arena is killed before remove is called: nothing
// arena made stays in TMPDIR. Without a reaper it is made in TMPDIR.
//
// Every temporary directory arena makes goes through TempDir.
func TempDir(pattern string) (dir string, remove func(), err error) {
	parent := tempParent()
	dir, err = os.MkdirTemp(parent, pattern)
	if err != nil && parent != "" {
		// The run's directory went away (someone cleaned TMPDIR): TMPDIR
		// itself is better than no directory.
		dir, err = os.MkdirTemp("", pattern)
	}
	if err != nil {
		return "", func() {}, err
	}
	return dir, func() { _ = os.RemoveAll(dir) }, nil
}

// tempParent is where arena's temporary files go: the run's directory
// while a reaper watches, else "" (TMPDIR).
func tempParent() string {
	if rp := activeReaper.Load(); rp != nil {
		return rp.runDir
	}
	return ""
}

// reapWait bounds how long the reaper waits for the groups it killed to
// be gone before it removes the directories: a process still dying can
// still write into one.
const reapWait = 3 * time.Second

// endGroups sends sig to every group and waits up to reapWait for them
// to be gone.
func endGroups(groups map[int]bool, sig syscall.Signal) {
	for pgid := range groups {
		_ = syscall.Kill(-pgid, sig)
	}
	deadline := time.Now().Add(reapWait)
	for pgid := range groups {
		for groupAlive(pgid) && time.Now().Before(deadline) {
			time.Sleep(groupPoll)
		}
	}
}

// removeDirs removes every registered directory.
func removeDirs(dirs map[string]bool) {
	for dir := range dirs {
		// A second try for a file a dying process made meanwhile.
		if os.RemoveAll(dir) != nil {
			time.Sleep(100 * time.Millisecond)
			_ = os.RemoveAll(dir)
		}
	}
}

// ServeReaper is the supervisor process, given its end of the socket
// (its stdin); it returns the status to exit with.
func ServeReaper(in *os.File) int {
	// The socket must not reach what the supervisor starts: it would
	// hold it open after the supervisor is gone, and arena would not see
	// its end. It moves to a descriptor closed on exec; fd 0 is /dev/null.
	fd, err := unix.FcntlInt(in.Fd(), unix.F_DUPFD_CLOEXEC, 3)
	if err != nil {
		return 2
	}
	if null, err := os.Open(os.DevNull); err == nil {
		_ = unix.Dup2(int(null.Fd()), int(in.Fd()))
		null.Close()
	}
	w, err := newWire(os.NewFile(uintptr(fd), "supervisor"))
	if err != nil {
		return 2
	}
	return serve(w)
}

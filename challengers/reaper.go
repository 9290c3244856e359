package challengers

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// A Reaper is a small watchdog process that outlives arena. arena tells it
// the process group of everything it starts (the agents, a repository's
// test command) and the directory its temporary files live in; if arena
// dies without the chance to clean up (SIGKILL, an OOM kill), the pipe
// between them closes, and the reaper kills every group still registered,
// then removes every directory still registered.
//
// The parent-death signal (Pdeathsig) already stops each child's first
// process when arena dies, but not what that process started: a CLI's
// helper, a shell it spawned or a test's sleeper would be left running,
// reparented to init. And nothing but the reaper can remove a directory
// after arena is gone.
//
// The lines arena writes to it are "+PGID" and "-PGID" (a process group to
// kill, or no longer), and "D" or "d" followed by a Go-quoted path (a
// directory to remove, or no longer).
type Reaper struct {
	mu     sync.Mutex
	w      *os.File
	cmd    *exec.Cmd
	argv   []string // the reaper's command, which a call's reaper extends
	runDir string   // every TempDir is made in here
}

var activeReaper atomic.Pointer[Reaper]

// StartReaper starts argv (arena's own binary with its hidden reaper
// command) in a session of its own, so that the terminal's SIGINT and
// SIGHUP, meant for arena, do not reach it; from then on every process
// group the runner and StartGroup start is registered with it, and every
// TempDir is made inside a directory of this run that it removes. Where
// the system has them, every agent and test command then runs under a
// call's reaper, argv followed by "call" (callreaper_linux.go), which
// ends whatever they leave behind, in any session or group.
func StartReaper(argv []string) (*Reaper, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	rp := &Reaper{w: w, argv: slices.Clone(argv)}
	// The run's directory is registered before the reaper starts (the
	// pipe holds the line until it reads it): there is no moment at which
	// it exists and the reaper would not remove it.
	if dir, err := os.MkdirTemp("", "arena-run-"); err == nil {
		rp.runDir = dir
		rp.sendDir('D', dir)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		w.Close()
		if rp.runDir != "" {
			os.RemoveAll(rp.runDir)
		}
		return nil, fmt.Errorf("start reaper: %w", err)
	}
	rp.cmd = cmd
	activeReaper.Store(rp)
	return rp, nil
}

// Close tells the reaper arena is done and waits for it: it kills what is
// still registered (nothing, when every caller cleaned up after itself)
// and removes the run's directory.
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
	// A failed write means the reaper is gone; the children still have
	// their parent-death signal.
	_, _ = fmt.Fprintf(rp.w, "%c%d\n", op, pgid)
}

func (rp *Reaper) sendDir(op byte, dir string) {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	_, _ = fmt.Fprintf(rp.w, "%c%s\n", op, strconv.Quote(dir))
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

// StartGroup starts cmd as the leader of a process group of its own that
// the reaper kills if arena dies, and that dies with arena's thread even
// without a reaper (Pdeathsig, where the system has it). Call the returned
// function once cmd has been waited for: it kills whatever the command
// left behind in its group (a sleeper it forked) and unregisters the
// group. cmd.SysProcAttr is replaced.
//
// While a reaper watches over arena, cmd runs under a call's reaper, which
// ends what it leaves behind in other sessions and groups too.
func StartGroup(cmd *exec.Cmd) (finish func(), err error) {
	cmd.SysProcAttr = groupAttr()
	cs, err := underCallReaper(cmd)
	if err != nil {
		return func() {}, err
	}
	err = cmd.Start()
	if cs != nil {
		if err = cs.started(err); err != nil && cmd.Process != nil {
			_ = cmd.Wait()
		}
	}
	if err != nil {
		return func() {}, err
	}
	if cs != nil {
		callReaped.Store(cmd, true)
	}
	pgid := cmd.Process.Pid
	untrack := track(pgid)
	return func() {
		if groupAlive(pgid) {
			_ = signalGroup(pgid, syscall.SIGKILL)
			waitGroupGone(pgid, 2*time.Second)
		}
		callReaped.Delete(cmd)
		untrack()
	}, nil
}

// callReaped holds the commands StartGroup started under a call's reaper.
var callReaped sync.Map // *exec.Cmd → true

// KillGroup stops the process group cmd leads (started by StartGroup):
// the way to stop it at a timeout, for exec.Cmd.Cancel. A group is sent
// SIGKILL; a call's reaper SIGTERM, on which it ends the whole tree
// (SIGTERM, then SIGKILL after KillGrace) and exits: a SIGKILL would leave
// the tree to init.
func KillGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	if _, ok := callReaped.Load(cmd); ok {
		return signalGroup(cmd.Process.Pid, syscall.SIGTERM)
	}
	return signalGroup(cmd.Process.Pid, syscall.SIGKILL)
}

// callStart is the pipe on which a call's reaper says whether it could
// start the command it runs.
type callStart struct{ r, w *os.File }

// underCallReaper rewrites cmd, made by exec.Command, to run under a
// call's reaper, when arena's reaper watches and the system has them, and
// returns the pipe on which the call's reaper reports the start (nil, and
// cmd unchanged, otherwise). The call's reaper dies with arena by SIGTERM,
// not SIGKILL, so that it can end the tree first.
//
// A stdout that is a file (an agent's pseudo-terminal) reaches the call's
// reaper as fd 4, its own stdout being /dev/null: it is arena's binary,
// whose bubbletea asks the terminal on stdout for its background colour
// as the program starts, and waits 5 s for an answer that nothing on an
// agent's terminal gives (seen: every call 5 s late).
func underCallReaper(cmd *exec.Cmd) (*callStart, error) {
	rp := activeReaper.Load()
	if rp == nil || !callReapers || len(rp.argv) == 0 || len(cmd.ExtraFiles) > 0 {
		return nil, nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.ExtraFiles = []*os.File{w} // fd 3
	outFD := "1"
	if out, ok := cmd.Stdout.(*os.File); ok {
		cmd.ExtraFiles, cmd.Stdout, outFD = append(cmd.ExtraFiles, out), nil, "4"
		if a := cmd.SysProcAttr; a != nil && a.Setctty {
			a.Ctty = 4
		}
	}
	args := append(slices.Clone(rp.argv), CallReaperArg, KillGrace.String(), outFD, cmd.Path)
	cmd.Path, cmd.Args = rp.argv[0], append(args, cmd.Args...)
	dieBySIGTERM(cmd.SysProcAttr)
	return &callStart{r: r, w: w}, nil
}

// started takes cmd.Start's error and returns the error of the command's
// own start: the call's reaper's report, read to its end, which comes
// once the command is running (or could not be started).
func (cs *callStart) started(startErr error) error {
	cs.w.Close()
	defer cs.r.Close()
	if startErr != nil {
		return startErr
	}
	b, _ := io.ReadAll(io.LimitReader(cs.r, 4096))
	if len(b) > 0 {
		return errors.New(string(b))
	}
	return nil
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

// ServeReaper is the reaper process: it reads its lines until its input
// closes, then kills every group still registered and removes every
// directory still registered.
func ServeReaper(in io.Reader) {
	groups := map[int]bool{}
	dirs := map[string]bool{}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 4096), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if len(line) < 2 {
			continue
		}
		switch line[0] {
		case 'D', 'd':
			dir, err := strconv.Unquote(line[1:])
			if err != nil || !strings.HasPrefix(dir, "/") || len(dir) < 2 {
				continue
			}
			if line[0] == 'D' {
				dirs[dir] = true
			} else {
				delete(dirs, dir)
			}
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
	// SIGTERM first: a call's reaper in the group ends its whole tree
	// on it (within KillGrace), which a SIGKILL would leave to init.
	endGroups(groups, syscall.SIGTERM)
	endGroups(groups, syscall.SIGKILL)
	for dir := range dirs {
		// A second try for a file a dying process made meanwhile.
		if os.RemoveAll(dir) != nil {
			time.Sleep(100 * time.Millisecond)
			_ = os.RemoveAll(dir)
		}
	}
}

package challengers

import (
	"errors"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// supervises says whether this system has a run's supervisor that starts
// every call (PR_SET_CHILD_SUBREAPER).
const supervises = true

// The supervisor's side (ServeReaper): it is the child subreaper of
// every process it starts, so that what a call leaves behind — in a
// session of its own (setsid), a double fork's orphan, a process group of
// its own — comes back to it rather than to init, and nothing a call
// started can leave its tree while it runs.
//
// Every call is started with ARENA_CALL=TOKEN.ID in its environment, and
// as the leader of a session (an agent) or a process group (a test
// command) of its own. What is left in the tree once a call's first
// process has exited is the call's if it is in the call's session or
// carries its ARENA_CALL (children inherit both; a daemon that makes a
// session of its own keeps the second): that is ended then, as a call's
// reaper ended its tree. What belongs to a call still running is left
// alone. What belongs to no call it knows (a daemon that made a session
// of its own and emptied its environment) is ended once no call runs,
// and at the latest when the run ends.
type supervisor struct {
	w     *wire
	self  int
	table *procTable
	token string
	grace time.Duration // the last call's, for the end of the run

	mu    sync.Mutex
	calls map[int]*supCall // by pid, until its exit is reported
	ended map[string]bool  // the tags of calls that have ended
	// live counts the calls whose first process has not exited.
	live int

	groups map[int]bool
	dirs   map[string]bool
}

// supCall is one call the supervisor started.
type supCall struct {
	id, tag string
	pid     int
	session bool // the leader of a session of its own
	grace   time.Duration

	// Under supervisor.mu:
	exited bool
	status syscall.WaitStatus
	stopBy time.Time // when its tree gets SIGKILL, once a stop began
}

// serve is the supervisor: it reads arena's messages until arena closes
// its end (or dies), then ends everything still below it, whatever its
// session or group, and removes every directory still registered.
func serve(w *wire) int {
	s := &supervisor{
		w: w, self: os.Getpid(), grace: KillGrace,
		calls: map[int]*supCall{}, ended: map[string]bool{}, groups: map[int]bool{}, dirs: map[string]bool{},
	}
	s.table = newProcTable(s.self)
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return 127
	}
	// Only arena ends the supervisor, by closing its end. A call that
	// signals it (it is the call's parent) is not heard; SIGKILL cannot
	// be caught, and then arena, a subreaper too, takes over
	// (Reaper.gone). Caught, not ignored: an ignored signal would stay
	// ignored in every call it starts.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT,
		syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGALRM, syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGTTOU)
	sigchld := make(chan os.Signal, 1)
	signal.Notify(sigchld, syscall.SIGCHLD)
	go s.reapLoop(sigchld)
	s.table.tree() // the first look reads every process; later ones, what changed
	for {
		msg, err := w.recv()
		if err != nil {
			break
		}
		s.handle(msg)
	}
	s.endAll()
	endGroups(s.groups, syscall.SIGTERM)
	endGroups(s.groups, syscall.SIGKILL)
	removeDirs(s.dirs)
	return 0
}

func (s *supervisor) handle(msg []string) {
	if len(msg) == 0 {
		return
	}
	switch op, args := msg[0], msg[1:]; op {
	case "token":
		if len(args) == 1 {
			s.token = args[0]
		}
	case "spawn":
		s.spawn(args)
	case "stop":
		if len(args) == 1 {
			s.stop(args[0])
		}
	default:
		registration(op, args, s.groups, s.dirs)
	}
}

// spawnRequest is a "spawn" message's fields: ID FLAGS GRACE PATH DIR
// NARGV ARGV... NENV ENV... NFILES. FLAGS holds s (setsid), g (setpgid),
// c (the controlling terminal is fd 1).
type spawnRequest struct {
	id, flags, path, dir string
	grace                time.Duration
	argv, env            []string
	files                []*os.File
}

func (s *supervisor) parseSpawn(args []string) (spawnRequest, error) {
	var r spawnRequest
	if len(args) < 6 {
		return r, errors.New("a short spawn message")
	}
	r.id, r.flags, r.path, r.dir = args[0], args[1], args[3], args[4]
	grace, err := time.ParseDuration(args[2])
	if err != nil {
		return r, err
	}
	r.grace = grace
	rest := args[5:]
	var ok bool
	if r.argv, rest, ok = takeList(rest); !ok {
		return r, errors.New("a broken argv")
	}
	if r.env, rest, ok = takeList(rest); !ok || len(rest) != 1 {
		return r, errors.New("a broken environment")
	}
	n, err := strconv.Atoi(rest[0])
	if err != nil {
		return r, err
	}
	r.files, err = s.w.files(n)
	return r, err
}

// takeList takes a count and that many fields.
func takeList(fields []string) (list, rest []string, ok bool) {
	if len(fields) == 0 {
		return nil, nil, false
	}
	n, err := strconv.Atoi(fields[0])
	if err != nil || n < 0 || n > len(fields)-1 {
		return nil, nil, false
	}
	return fields[1 : 1+n], fields[1+n:], true
}

// spawn starts a call's first process and says so: "started ID PID", or
// "failed ID WHY" as os.StartProcess words it.
func (s *supervisor) spawn(args []string) {
	r, err := s.parseSpawn(args)
	defer func() {
		for _, f := range r.files {
			f.Close() // the child has its own copies: the pty or pipe ends when it is done
		}
	}()
	if err != nil {
		if len(args) > 0 {
			_ = s.w.send(nil, "failed", args[0], "supervisor: "+err.Error())
		}
		return
	}
	tag := s.token + "." + r.id
	env := append(withoutVar(r.env, callTagVar), callTagVar+"="+tag)
	fds := make([]uintptr, len(r.files))
	for i, f := range r.files {
		fds[i] = f.Fd()
	}
	sys := &syscall.SysProcAttr{
		Setsid:  strings.Contains(r.flags, "s"),
		Setpgid: strings.Contains(r.flags, "g"),
		Setctty: strings.Contains(r.flags, "c"),
		Ctty:    1,
		// The call dies with the supervisor, as it died with arena.
		Pdeathsig: syscall.SIGKILL,
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	pid, err := syscall.ForkExec(r.path, r.argv, &syscall.ProcAttr{Dir: r.dir, Env: env, Files: fds, Sys: sys})
	if err != nil {
		_ = s.w.send(nil, "failed", r.id, (&os.PathError{Op: "fork/exec", Path: r.path, Err: err}).Error())
		return
	}
	// Registered, and "started" sent, before the reaping loop can see
	// its exit (it takes mu): "exited" always comes after "started".
	s.calls[pid] = &supCall{id: r.id, tag: tag, pid: pid, session: sys.Setsid, grace: r.grace}
	s.live++
	s.grace = r.grace
	_ = s.w.send(nil, "started", r.id, strconv.Itoa(pid))
}

func withoutVar(env []string, name string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}

// reapLoop reaps every child that exits: a call's first process, whose
// call is then finished, or something a call left behind.
func (s *supervisor) reapLoop(sigchld <-chan os.Signal) {
	for range sigchld {
		for {
			var ws syscall.WaitStatus
			pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
			if err != nil || pid <= 0 {
				break
			}
			s.mu.Lock()
			if c := s.calls[pid]; c != nil && !c.exited {
				c.exited, c.status = true, ws
				s.live--
				go s.finish(c)
			}
			s.mu.Unlock()
		}
	}
}

// finish ends what the call left behind — SIGTERM, the grace (what is
// left of it, when a stop began it already), then SIGKILL until none is
// left — and then reports the call's exit.
func (s *supervisor) finish(c *supCall) {
	if len(s.leftovers(c, true)) > 0 {
		s.mu.Lock()
		if c.stopBy.IsZero() {
			c.stopBy = time.Now().Add(c.grace)
		}
		stopBy := c.stopBy
		s.mu.Unlock()
		signalAll(s.leftovers(c, true), syscall.SIGTERM)
		for time.Now().Before(stopBy) && len(s.leftovers(c, true)) > 0 {
			time.Sleep(groupPoll)
		}
		for left := s.leftovers(c, true); len(left) > 0; left = s.leftovers(c, true) {
			signalAll(left, syscall.SIGKILL)
			time.Sleep(groupPoll) // the dead are reaped by reapLoop meanwhile
		}
	}
	s.mu.Lock()
	delete(s.calls, c.pid)
	s.ended[c.tag] = true
	s.mu.Unlock()
	_ = s.w.send(nil, "exited", c.id, strconv.FormatUint(uint64(c.status), 10))
}

// stop ends a call's whole tree, as a timeout does: SIGTERM now, SIGKILL
// after its grace (what dies meanwhile is finished as usual).
func (s *supervisor) stop(id string) {
	s.mu.Lock()
	var c *supCall
	for _, x := range s.calls {
		if x.id == id {
			c = x
		}
	}
	if c == nil || !c.stopBy.IsZero() {
		s.mu.Unlock()
		return
	}
	c.stopBy = time.Now().Add(c.grace)
	s.mu.Unlock()
	signalAll(s.leftovers(c, false), syscall.SIGTERM)
	time.AfterFunc(c.grace, func() {
		s.mu.Lock()
		done := s.calls[c.pid] != c
		s.mu.Unlock()
		if !done {
			signalAll(s.leftovers(c, false), syscall.SIGKILL)
		}
	})
}

// leftovers lists the living processes of call c: its first process and
// everything below it, every process left in the tree that is c's (in
// its session or process group, or carrying its ARENA_CALL), and
// everything below those. With ended, the leftovers of calls that have
// ended, and those of no call known when no call runs, go with them.
func (s *supervisor) leftovers(c *supCall, ended bool) []int {
	below, children := s.table.tree()
	tags := map[int]string{}
	for _, pid := range children[s.self] {
		tags[pid] = callTag(pid)
	}
	s.mu.Lock()
	var roots []int
	for _, pid := range children[s.self] {
		if x := s.calls[pid]; x != nil && !x.exited {
			if x == c {
				roots = append(roots, pid) // a stop: the call's own tree
			}
			continue // a call's first process: its tree is its call's
		}
		if s.owner(below[pid], tags[pid], c, ended) {
			roots = append(roots, pid)
		}
	}
	s.mu.Unlock()
	var out []int
	for _, r := range roots {
		for _, pid := range subtree(r, children) {
			if p, ok := below[pid]; ok && p.living() {
				out = append(out, pid)
			}
		}
	}
	return out
}

// owner says whether a process left in the tree, p with ARENA_CALL tag,
// goes with call c (see leftovers). Called with mu held.
func (s *supervisor) owner(p procInfo, tag string, c *supCall, ended bool) bool {
	var owner *supCall
	for _, x := range s.calls {
		if x.session && p.sid == x.pid || p.pgid == x.pid || tag == x.tag {
			owner = x
			break
		}
	}
	switch {
	case owner == c:
		return true
	case !ended:
		return false
	case owner != nil:
		return owner.exited
	}
	return s.ended[tag] || s.live == 0
}

func signalAll(pids []int, sig syscall.Signal) {
	for _, pid := range pids {
		_ = syscall.Kill(pid, sig)
	}
}

// endAll ends everything below the supervisor, at the end of the run:
// SIGTERM, the grace, then SIGKILL until no child is left.
func (s *supervisor) endAll() {
	living := func() []int {
		below, _ := s.table.tree()
		var out []int
		for pid, p := range below {
			if p.living() {
				out = append(out, pid)
			}
		}
		return out
	}
	left := living()
	if len(left) == 0 {
		return
	}
	signalAll(left, syscall.SIGTERM)
	for end := time.Now().Add(s.grace); time.Now().Before(end) && len(living()) > 0; {
		time.Sleep(groupPoll)
	}
	for left := living(); len(left) > 0; left = living() {
		signalAll(left, syscall.SIGKILL)
		time.Sleep(groupPoll)
	}
}

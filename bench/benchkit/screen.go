package benchkit

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"
)

// Screen runs a program on a pseudo-terminal of its own, as a person's
// terminal would: it reads everything the program draws, answers the
// questions a terminal is asked (the background colour, the cursor
// position: a terminal that never answers costs the program a timeout),
// and notes when each stamp the fake CLIs write («UNIX-NANOSECONDS», see
// fakeapi.AgentScript.Stamp) first reaches it.
type Screen struct {
	master *os.File
	cmd    *exec.Cmd
	done   chan struct{}

	mu    sync.Mutex
	seen  map[int64]time.Time // stamp → when it was first read
	bytes int64
}

// StartScreen starts cmd on a cols×rows terminal: its stdin, stdout and
// stderr, in a session of its own with the terminal as its controlling
// tty.
func StartScreen(cmd *exec.Cmd, cols, rows int) (*Screen, error) {
	master, slave, err := pty.Open()
	if err != nil {
		return nil, err
	}
	if err := pty.Setsize(master, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
		master.Close()
		slave.Close()
		return nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	err = cmd.Start()
	slave.Close()
	if err != nil {
		master.Close()
		return nil, err
	}
	s := &Screen{master: master, cmd: cmd, done: make(chan struct{}), seen: map[int64]time.Time{}}
	go s.read()
	return s, nil
}

var (
	stampRE = regexp.MustCompile(`«(\d{19})»`)
	// What a terminal is asked: its background colour (OSC 11) and the
	// cursor's position (DSR 6, which termenv sends after OSC 11 to
	// notice a terminal that ignores it).
	askBackground = []byte("\x1b]11;?")
	askCursor     = []byte("\x1b[6n")
)

// carry is how much of a read is kept for the next, so a stamp or a
// question cut by the end of a read is still found.
const carry = 64

func (s *Screen) read() {
	defer close(s.done)
	buf := make([]byte, 64<<10)
	var tail []byte
	for {
		n, err := s.master.Read(buf)
		now := time.Now()
		if n > 0 {
			data := append(tail, buf[:n]...)
			s.answer(data, len(tail))
			s.mu.Lock()
			s.bytes += int64(n)
			for _, m := range stampRE.FindAllSubmatch(data, -1) {
				ns, _ := strconv.ParseInt(string(m[1]), 10, 64)
				if _, ok := s.seen[ns]; !ok {
					s.seen[ns] = now
				}
			}
			s.mu.Unlock()
			tail = append(tail[:0], data[max(len(data)-carry, 0):]...)
		}
		if err != nil {
			return // EIO once the program and its children closed the terminal
		}
	}
}

// answer replies to the questions in data that start at or after from
// (those before were answered with the previous read).
func (s *Screen) answer(data []byte, from int) {
	for _, q := range []struct {
		ask, reply []byte
	}{
		{askBackground, []byte("\x1b]11;rgb:1c1c/1c1c/1c1c\x1b\\")},
		{askCursor, []byte("\x1b[1;1R")},
	} {
		for i := 0; ; {
			j := bytes.Index(data[i:], q.ask)
			if j < 0 {
				break
			}
			if i+j+len(q.ask) > from {
				_, _ = s.master.Write(q.reply)
			}
			i += j + len(q.ask)
		}
	}
}

// Type sends keys as if typed.
func (s *Screen) Type(keys string) error {
	_, err := s.master.Write([]byte(keys))
	return err
}

// FirstStamp waits up to d for a stamp to reach the screen and returns
// when the first one did.
func (s *Screen) FirstStamp(d time.Duration) (time.Time, bool) {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		var first time.Time
		for _, at := range s.seen {
			if first.IsZero() || at.Before(first) {
				first = at
			}
		}
		s.mu.Unlock()
		if !first.IsZero() {
			return first, true
		}
		time.Sleep(5 * time.Millisecond)
	}
	return time.Time{}, false
}

// Latencies are, for each stamp written in [from, to) that reached the
// screen, how long it took, in order.
func (s *Screen) Latencies(from, to time.Time) []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []time.Duration
	for ns, at := range s.seen {
		if sent := time.Unix(0, ns); !sent.Before(from) && sent.Before(to) {
			out = append(out, at.Sub(sent))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Bytes is how much the program has drawn so far.
func (s *Screen) Bytes() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bytes
}

// Stop ends the program: SIGINT (the way a person at a terminal stops a
// run), then, if it has not exited within grace, SIGKILL to its whole
// session. It waits for the program and for the terminal to drain.
func (s *Screen) Stop(grace time.Duration) {
	stop(s.cmd, grace)
	select {
	case <-s.done:
	case <-time.After(grace):
	}
	s.master.Close()
}

// stop interrupts cmd and waits for it, killing its session after grace.
func stop(cmd *exec.Cmd, grace time.Duration) {
	_ = cmd.Process.Signal(syscall.SIGINT)
	waited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-time.After(grace):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Process.Kill()
		<-waited
	}
}

// Stop interrupts a program started without a Screen and waits for it,
// killing it after grace.
func Stop(cmd *exec.Cmd, grace time.Duration) { stop(cmd, grace) }

// clockTick is the unit of /proc/PID/stat's times: USER_HZ, 100 on Linux.
const clockTick = 10 * time.Millisecond

// ProcCPU is the processor time all threads of process pid have used so
// far; 0 once it is gone. It is read from the scheduler's own count
// (/proc/PID/task/*/schedstat, nanoseconds): /proc/PID/stat's user and
// system times come in 10 ms ticks and are sampled at the tick, so a
// process that wakes for a few hundred microseconds on a clock of its own
// is counted by when it wakes, not by what it runs. Where schedstat is
// missing, stat's figure is used.
func ProcCPU(pid int) time.Duration {
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/schedstat")
	var sum time.Duration
	n := 0
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
			if ns, err := strconv.ParseInt(f[0], 10, 64); err == nil {
				sum += time.Duration(ns)
				n++
			}
		}
	}
	if n > 0 {
		return sum
	}
	f, err := statFields(pid)
	if err != nil || len(f) < 15 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[13], 10, 64)
	st, _ := strconv.ParseInt(f[14], 10, 64)
	return time.Duration(ut+st) * clockTick
}

// statFields are the fields of /proc/PID/stat, the command name (which
// may hold spaces) as one.
func statFields(pid int) ([]string, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil, err
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil, errors.New("malformed stat")
	}
	head := strings.SplitN(s[:i], " (", 2)
	return append(append([]string{head[0]}, "("+head[len(head)-1]+")"), strings.Fields(s[i+1:])...), nil
}

// Children are the processes whose parent is pid.
func Children(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if f, err := statFields(child); err == nil && len(f) > 3 && f[3] == strconv.Itoa(pid) {
			out = append(out, child)
		}
	}
	return out
}

// Exe is the executable process pid runs ("" if gone).
func Exe(pid int) string {
	p, _ := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
	return filepath.Clean(p)
}

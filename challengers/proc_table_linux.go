package challengers

import (
	"bytes"
	"os"
	"strconv"
	"sync"
)

// procInfo is what /proc/PID/stat says of a process that the supervisor
// needs: "pid (comm) state ppid pgrp session ...".
type procInfo struct {
	ppid, pgid, sid int
	state           byte
}

// living says the process has not yet exited (a zombie has).
func (p procInfo) living() bool { return p.state != 'Z' && p.state != 'X' }

// A procTable knows the processes below one root (the supervisor, or
// arena), found by their parents in /proc, and reads no more of /proc
// than it must to keep up. Between two looks a process outside the tree
// cannot come into it (a fork's child is where its parent is, and an
// orphan goes up, to a subreaper above it or to init), so only new
// processes and those in the tree are read again: listing /proc and a few
// reads instead of reading every process's stat (3 ms for 90 processes on
// the 2-core machine, a cost at the end of every call).
type procTable struct {
	mu     sync.Mutex
	root   int
	info   map[int]procInfo
	inTree map[int]bool
}

func newProcTable(root int) *procTable {
	return &procTable{root: root, info: map[int]procInfo{}, inTree: map[int]bool{}}
}

// tree looks again and returns every process below the root, with what
// it knows of each, and the children of each process below the root
// (and of the root itself).
func (t *procTable) tree() (below map[int]procInfo, children map[int][]int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	d, err := os.Open("/proc")
	if err != nil {
		return nil, nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	seen := make(map[int]bool, len(names))
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		seen[pid] = true
		if _, known := t.info[pid]; known && !t.inTree[pid] {
			continue
		}
		if p, ok := readProcInfo(pid); ok {
			t.info[pid] = p
		} else {
			delete(t.info, pid)
		}
	}
	children = map[int][]int{}
	for pid, p := range t.info {
		if !seen[pid] {
			delete(t.info, pid)
			continue
		}
		children[p.ppid] = append(children[p.ppid], pid)
	}
	below = map[int]procInfo{}
	clear(t.inTree)
	queue := children[t.root]
	for len(queue) > 0 {
		pid := queue[0]
		queue = append(queue[1:], children[pid]...)
		below[pid] = t.info[pid]
		t.inTree[pid] = true
	}
	return below, children
}

// readProcInfo reads /proc/PID/stat; comm may hold spaces and
// parentheses, so the fields are counted from the last ')'.
func readProcInfo(pid int) (procInfo, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procInfo{}, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procInfo{}, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 4 || len(f[0]) != 1 {
		return procInfo{}, false
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	pgid, err2 := strconv.Atoi(string(f[2]))
	sid, err3 := strconv.Atoi(string(f[3]))
	if err1 != nil || err2 != nil || err3 != nil {
		return procInfo{}, false
	}
	return procInfo{ppid: ppid, pgid: pgid, sid: sid, state: f[0][0]}, true
}

// subtree lists pid and every process below it.
func subtree(pid int, children map[int][]int) []int {
	out := []int{pid}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i]]...)
	}
	return out
}

// callTag reads the value of ARENA_CALL in a process's environment as it
// was started ("" when it has none, or it cannot be read).
func callTag(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return ""
	}
	for kv := range bytes.SplitSeq(b, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, []byte(callTagVar+"=")); ok {
			return string(v)
		}
	}
	return ""
}

// stopped says the process is stopped by a signal (SIGSTOP, SIGTSTP).
func stopped(pid int) bool {
	p, ok := readProcInfo(pid)
	return ok && p.state == 'T'
}

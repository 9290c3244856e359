package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/arenadebate/arena/challengers/fakecli/fakeapi"
)

// daemonArg, followed by a role and the agent's name, makes the binary one
// of the processes of AgentScript.Leave: "helper" (the one left behind),
// or "middle" (a double fork's first child, which starts the helper in a
// session of its own and exits).
const daemonArg = "--fakecli-daemon"

// leaveDaemon starts the helper as how says (fakeapi.Leave*) and returns
// once the helper has written its pid file: it is running, and deaf to
// SIGTERM, SIGHUP and SIGINT. The helper (and a double fork's middle
// process) hold fd 3, the write end of a pipe, and close it when done:
// the read end sees its end then.
func leaveDaemon(how, agent string) error {
	if stateDir() == "" {
		return errors.New("no state directory for the pid file")
	}
	role, attr := "helper", &syscall.SysProcAttr{Setsid: true}
	switch how {
	case fakeapi.LeaveDoubleFork:
		role = "middle"
	case fakeapi.LeaveNewGroup:
		attr = &syscall.SysProcAttr{Setpgid: true}
	}
	ready, readyW, err := os.Pipe()
	if err != nil {
		return err
	}
	defer ready.Close()
	err = startDetached(role, agent, attr, readyW)
	readyW.Close()
	if err != nil {
		return err
	}
	var b [64]byte
	n, _ := io.ReadFull(ready, b[:])
	if n > 0 {
		return fmt.Errorf("the helper failed: %s", b[:n])
	}
	return nil
}

// startDetached starts this binary in role, its stdio /dev/null and ready
// its fd 3, and does not wait for it.
func startDetached(role, agent string, attr *syscall.SysProcAttr, ready *os.File) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(exe, daemonArg, role, agent)
	cmd.SysProcAttr = attr
	cmd.ExtraFiles = []*os.File{ready}
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}

// daemonMain is a process of AgentScript.Leave.
func daemonMain(role, agent string) int {
	ready := os.NewFile(3, "ready")
	if role == "middle" {
		// The helper gets a session of its own from this process's
		// setsid; exiting at once re-parents it.
		if err := startDetached("helper", agent, nil, ready); err != nil {
			fmt.Fprint(ready, err)
			return 1
		}
		return 0
	}
	ignoreTermination()
	if err := writePID(agent); err != nil {
		fmt.Fprint(ready, err)
		return 1
	}
	ready.Close()
	sleepForever()
	return 0
}

// writePID writes the helper's pid file, renamed into place so that it is
// never seen half written.
func writePID(agent string) error {
	dir := stateDir()
	tmp := filepath.Join(dir, ".daemon-"+strconv.Itoa(os.Getpid()))
	if err := os.WriteFile(tmp, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, fakeapi.DaemonPIDFile(agent, os.Getpid())))
}

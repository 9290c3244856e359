//go:build unix && !linux

package challengers

import "syscall"

// Without PR_SET_CHILD_SUBREAPER there is no supervisor starting the
// calls: arena starts them, each in a process group of its own that the
// supervisor kills if arena dies, as before.
const supervises = false

// serve is the supervisor where it only watches over process groups and
// directories: when arena's end closes it kills every group and removes
// every directory still registered.
func serve(w *wire) int {
	groups, dirs := map[int]bool{}, map[string]bool{}
	for {
		msg, err := w.recv()
		if err != nil {
			break
		}
		if len(msg) > 0 {
			registration(msg[0], msg[1:], groups, dirs)
		}
	}
	endGroups(groups, syscall.SIGTERM)
	endGroups(groups, syscall.SIGKILL)
	removeDirs(dirs)
	return 0
}

func becomeSubreaper() bool { return false }

func (rp *Reaper) stopBeingSubreaper() {}

func supervisorDeathSignal(*syscall.SysProcAttr) {}

func watchStopped(int, <-chan struct{}) {}

func endAdopted(string, []int) {}

func reapAdopted(int) syscall.WaitStatus { return syscall.WaitStatus(syscall.SIGKILL) }

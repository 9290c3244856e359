//go:build !linux

package challengers

import (
	"fmt"
	"os"
	"syscall"
)

// CallReaperArg: see callreaper_linux.go. Without PR_SET_CHILD_SUBREAPER
// there are no call reapers: agents are started directly, in a process
// group of their own, as before.
const CallReaperArg = "call"

const callReapers = false

// ServeCall is never started where there are no call reapers.
func ServeCall([]string) int {
	fmt.Fprintln(os.Stderr, "arena: call reapers need Linux")
	return 2
}

func dieBySIGTERM(*syscall.SysProcAttr) {}

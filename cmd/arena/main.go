// Command arena is a terminal debate arena for AI models: a defender model
// takes a position, challenger models attack it in parallel, and a protocol
// drives them to a consensus or a documented tradeoff.
package main

import (
	"os"
	"runtime"
	"runtime/debug"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/trust"
)

// memoryLimit is arena's soft memory limit (GOMEMLIMIT overrides it).
const memoryLimit = 64 << 20

// reaperCommand is the hidden command arena re-executes itself with, once
// a run, as the run's supervisor: it starts every agent and test command,
// is their subreaper, and ends whatever they leave behind when their call
// ends, or when arena does, however it ends (see challengers.Reaper).
const reaperCommand = "__reaper"

func main() {
	if os.Getenv("GOMAXPROCS") == "" {
		// arena waits on its agents and draws what they write: one
		// processor is plenty, and with two every wake-up (a read tick,
		// a frame) readied goroutines on the other and woke a second
		// thread to run them, a switch of threads that costs more than
		// the work on a small VM. About 15% of arena's processor time
		// while four seats stream (BenchmarkFeel, README).
		runtime.GOMAXPROCS(1)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		// The collector lets the heap grow to twice what is live before it
		// runs. What passes through arena (a long log's lines, replies
		// parsed, prompts built) is mostly garbage, and that doubling was
		// most of the peak: 204 MB resuming a 150 MB log, 94 MB with this
		// limit, in the same time. Past it the collector runs sooner, and
		// never takes more than half the processor; below it nothing
		// changes.
		debug.SetMemoryLimit(memoryLimit)
	}
	if len(os.Args) == 2 && os.Args[1] == reaperCommand {
		os.Exit(challengers.ServeReaper(os.Stdin))
	}
	trust.TempDir = challengers.TempDir // the reaper removes them if arena is killed
	os.Exit(newApp(os.Stdin, os.Stdout, os.Stderr).execute(os.Args[1:]))
}

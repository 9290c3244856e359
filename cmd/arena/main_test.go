package main

import (
	"os"
	"testing"

	"github.com/arenadebate/arena/challengers"
)

// TestMain serves the run's supervisor when this test binary is started
// as one: a test that runs a protocol in process starts os.Executable()
// (this binary) with reaperCommand, as arena starts itself. Without this
// it would run every test again, and start supervisors of its own.
func TestMain(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == reaperCommand {
		os.Exit(challengers.ServeReaper(os.Stdin))
	}
	os.Exit(m.Run())
}

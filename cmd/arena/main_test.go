package main

import (
	"os"
	"testing"
)

// TestMain lets this test binary stand in for arena where a run the tests
// run in this process starts arena again (os.Executable) as its reaper:
// main's own dispatch, rather than the tests a second time.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == reaperCommand {
		main()
		return
	}
	os.Exit(m.Run())
}

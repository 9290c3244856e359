//go:build arenapanic

package main

import (
	"os"

	"github.com/arenadebate/arena/engine/rank"
)

// In a test build (testpanic.go), ARENA_TEST_PANIC=tests panics in a
// ranked repository's tests' goroutine.
func init() {
	if os.Getenv("ARENA_TEST_PANIC") == "tests" {
		rank.BeforeTests = outOfRange
	}
}

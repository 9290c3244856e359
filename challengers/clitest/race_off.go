//go:build !race

package clitest

// Race is whether this test binary has the race detector (go test -race).
const Race = false

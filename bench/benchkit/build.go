package benchkit

import (
	"os"
	"testing"

	"github.com/arenadebate/arena/challengers/clitest"
)

// EnvBinary names an arena binary to benchmark instead of building one
// (bench/run builds it once for every package).
const EnvBinary = "ARENA_BENCH_BINARY"

// Arena returns the path of an arena binary built from this checkout
// without the race detector, even under go test -race (where the
// end-to-end tests build theirs with it, clitest.WithRace): it would make
// every figure here meaningless.
func Arena(tb testing.TB) string {
	tb.Helper()
	if p := os.Getenv(EnvBinary); p != "" {
		return p
	}
	return clitest.Build(tb, "./cmd/arena")
}

// Root is the directory of the module's go.mod.
func Root() (string, error) { return clitest.ModuleRoot() }

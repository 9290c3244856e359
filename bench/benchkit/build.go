package benchkit

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// EnvBinary names an arena binary to benchmark instead of building one
// (bench/run builds it once for every package).
const EnvBinary = "ARENA_BENCH_BINARY"

var arenaBuild struct {
	once sync.Once
	path string
	err  error
}

// Arena returns the path of an arena binary built from this checkout
// without the race detector (the end-to-end tests build theirs with it,
// which would make every figure here meaningless). It is built once per
// test process, into a directory shared by the checkout's processes, and
// renamed into place so no process ever runs a half-written file.
func Arena(tb testing.TB) string {
	tb.Helper()
	if p := os.Getenv(EnvBinary); p != "" {
		return p
	}
	arenaBuild.once.Do(func() { arenaBuild.path, arenaBuild.err = buildArena() })
	if arenaBuild.err != nil {
		tb.Fatalf("benchkit: building arena: %v", arenaBuild.err)
	}
	return arenaBuild.path
}

func buildArena() (string, error) {
	root, err := Root()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(root))
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("arena-bench-%d", os.Getuid()), hex.EncodeToString(sum[:6]))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp := filepath.Join(dir, fmt.Sprintf("arena.%d.tmp", os.Getpid()))
	cmd := exec.Command("go", "build", "-o", tmp, "./cmd/arena")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/arena: %v\n%s", err, out)
	}
	path := filepath.Join(dir, "arena")
	return path, os.Rename(tmp, path)
}

// Root is the directory of the module's go.mod.
func Root() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("not inside a Go module")
	}
	return filepath.Dir(gomod), nil
}

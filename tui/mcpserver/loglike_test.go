package mcpserver

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenadebate/arena/engine/runlog"
)

// A log path an MCP client gives comes back in the refusal cleaned (no
// escape reaches the host's model or screen), and the refusal names no
// single tool: read_outcome and resume_run share it.
func TestLogLikeRefusalIsCleanText(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	notLog := filepath.Join(dir, "notes\x1b[31m.txt")
	if err := os.WriteFile(notLog, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{notLog, filepath.Join(dir, "gone\x1b]8;;x\x07.jsonl")} {
		err := logLike(path)
		if err == nil || strings.ContainsAny(err.Error(), "\x1b\x07") || strings.Contains(err.Error(), "read_outcome") {
			t.Fatalf("%q: %v", path, err)
		}
	}
	if err := logLike(notLog); !errors.Is(err, runlog.ErrNotALog) {
		t.Fatalf("not a log: %v", err)
	}
}

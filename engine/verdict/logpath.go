package verdict

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine/runlog"
)

// LogPath is where verdicts are appended ("" for nowhere): path when
// given, else verdicts/verdicts.jsonl in the debate log directory logDir
// unless logs are off (save false). It is opened now, so that a log that
// cannot be written is an error before any model is asked.
func LogPath(path, logDir string, save bool) (string, error) {
	if path == "" {
		if !save {
			return "", nil
		}
		// A directory of its own: the debate log directory holds only
		// debate logs, which arena logs and replay list.
		path = filepath.Join(logDir, "verdicts", "verdicts.jsonl")
	}
	fh, err := trust.OpenAppend(path, true)
	if err != nil {
		return "", err
	}
	if err := fh.Close(); err != nil {
		return "", err
	}
	return path, nil
}

// RunID is the id the verdict log records a run under: its debate log's
// name (logPath), or, when no debate log is written, the name one would
// have with this process's id, so that two runs started in the same
// second still differ.
func RunID(logPath, taskID string) string {
	if logPath != "" {
		return strings.TrimSuffix(filepath.Base(logPath), ".jsonl")
	}
	return fmt.Sprintf("%s-%d", strings.TrimSuffix(runlog.Name(time.Now(), "verdict "+taskID), ".jsonl"), os.Getpid())
}

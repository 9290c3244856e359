package verdict

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine/runlog"
)

// LogPath is where verdicts are appended ("" for nowhere): path when
// given, else verdicts/verdicts.jsonl in the debate log directory logDir
// unless logs are off (save false). It is checked now, so that a log
// that cannot be written is an error before any model is asked; one that
// is not there yet is made by the first record, so a run that asks no
// judge leaves nothing behind.
func LogPath(path, logDir string, save bool) (string, error) {
	if path == "" {
		if !save {
			return "", nil
		}
		// A directory of its own: the debate log directory holds only
		// debate logs, which arena logs and replay list.
		path = filepath.Join(logDir, "verdicts", "verdicts.jsonl")
	}
	fh, err := trust.OpenAppend(path, false)
	if err == nil {
		return path, fh.Close()
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	return path, writableAncestor(filepath.Dir(path))
}

// writableAncestor checks that the deepest existing directory of dir is a
// directory this user may write in: where the missing rest will be made.
func writableAncestor(dir string) error {
	for {
		st, err := os.Stat(dir)
		switch {
		case err == nil && !st.IsDir():
			return fmt.Errorf("%s: not a directory", dir)
		case err == nil:
			if err := unix.Access(dir, unix.W_OK); err != nil {
				return &fs.PathError{Op: "write in", Path: dir, Err: err}
			}
			return nil
		case !errors.Is(err, fs.ErrNotExist) || dir == filepath.Dir(dir):
			return err
		}
		dir = filepath.Dir(dir)
	}
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

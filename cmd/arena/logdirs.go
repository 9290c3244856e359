package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/arenadebate/arena/engine/runlog"
	"github.com/arenadebate/arena/settings"
)

// Where logs are: the log directory (./debate-logs, which arena makes
// with a .gitignore), and, unless a directory was chosen, arena verdict's
// out of the work tree in the state directory (issue 32, point 2).

// stateDir is arena's state directory: $XDG_STATE_HOME/arena, or
// ~/.local/state/arena ("" when no home is known).
func (a *app) stateDir() string {
	dir := os.Getenv("XDG_STATE_HOME")
	if !filepath.IsAbs(dir) {
		if a.env.Home == "" {
			return ""
		}
		dir = filepath.Join(a.env.Home, ".local", "state")
	}
	return filepath.Join(dir, "arena")
}

// verdictLogDir is where arena verdict keeps its logs: the log directory
// when the person chose one, else the state directory's verdict-logs. A
// verdict judges a diff, often from a pre-push hook, which must not
// change the work tree it guards.
func (a *app) verdictLogDir(s *settings.Settings) string {
	if s.Source("debate_log_path") != "default" || a.stateDir() == "" {
		return s.DebateLogPath
	}
	return filepath.Join(a.stateDir(), "verdict-logs")
}

// logDirs are the directories the saved runs are in: the log directory,
// and arena verdict's when it is another.
func (a *app) logDirs(s *settings.Settings) []string {
	dirs := []string{s.DebateLogPath}
	if v := a.verdictLogDir(s); v != s.DebateLogPath {
		dirs = append(dirs, v)
	}
	return dirs
}

// savedRuns lists the logs of every log directory, newest first, and
// names the directories for a message ("./debate-logs or ...").
func (a *app) savedRuns(s *settings.Settings) (*runlog.Listing, string, error) {
	dirs := a.logDirs(s)
	logs, err := runlog.ListDirs(dirs...)
	if err != nil {
		return nil, "", usagef("cannot list debate logs: %w", err)
	}
	return logs, strings.Join(dirs, " or "), nil
}

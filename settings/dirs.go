package settings

import (
	"os"
	"path/filepath"
)

// Where logs are: the log directory (./debate-logs, which arena makes
// with a .gitignore), and, unless a directory was chosen, arena verdict's
// out of the work tree in the state directory (issue 32, point 2).

// StateDir is arena's state directory: $XDG_STATE_HOME/arena, or
// ~/.local/state/arena ("" when no home is known).
func StateDir(env Env) string {
	dir := os.Getenv("XDG_STATE_HOME")
	if !filepath.IsAbs(dir) {
		if env.Home == "" {
			return ""
		}
		dir = filepath.Join(env.Home, ".local", "state")
	}
	return filepath.Join(dir, "arena")
}

// VerdictLogDir is where arena verdict keeps its logs: the log directory
// when the person chose one, else the state directory's verdict-logs. A
// verdict judges a diff, often from a pre-push hook, which must not
// change the work tree it guards.
func (s *Settings) VerdictLogDir(env Env) string {
	state := StateDir(env)
	if s.Source("debate_log_path") != "default" || state == "" {
		return s.DebateLogPath
	}
	return filepath.Join(state, "verdict-logs")
}

// LogDirs are the directories the saved runs are in: the log directory,
// and arena verdict's when it is another.
func (s *Settings) LogDirs(env Env) []string {
	dirs := []string{s.DebateLogPath}
	if v := s.VerdictLogDir(env); v != s.DebateLogPath {
		dirs = append(dirs, v)
	}
	return dirs
}

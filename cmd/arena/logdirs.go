package main

import (
	"strings"

	"github.com/arenadebate/arena/engine/runlog"
	"github.com/arenadebate/arena/settings"
)

// savedRuns lists the logs of every log directory (settings.LogDirs),
// newest first, and names the directories for a message ("./debate-logs
// or ...").
func (a *app) savedRuns(s *settings.Settings) (*runlog.Listing, string, error) {
	dirs := s.LogDirs(a.env)
	logs, err := runlog.ListDirs(dirs...)
	if err != nil {
		return nil, "", usagef("cannot list debate logs: %w", err)
	}
	return logs, strings.Join(dirs, " or "), nil
}

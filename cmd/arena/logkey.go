package main

import (
	"errors"
	"path/filepath"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
	"github.com/arenadebate/arena/settings"
)

// The key arena signs the invocations its logs record with (runlog.Key),
// so that arena resume knows a log it wrote here from one handed to it.

// logKeyPath is where the key is kept, in arena's state directory
// ("" when no home is known).
func (a *app) logKeyPath() string {
	if dir := settings.StateDir(a.env); dir != "" {
		return filepath.Join(dir, runlog.KeyName)
	}
	return ""
}

// logKey reads the user's key, creating it when create is set.
func (a *app) logKey(create bool) ([]byte, error) {
	path := a.logKeyPath()
	if path == "" {
		return nil, errors.New("no home directory is known to keep arena's log key in")
	}
	return runlog.Key(path, create)
}

// signedHere says whether the invocation carries this user's signature.
func (a *app) signedHere(protocol string, inv engine.Invocation) bool {
	key, err := a.logKey(false)
	return err == nil && runlog.Signed(key, protocol, inv)
}

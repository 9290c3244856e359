package settings

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/arenadebate/arena/challengers"
)

// ChallengerCachePath is where arena doctor records the challengers it
// found usable, one agent name a line.
func ChallengerCachePath(env Env) (string, error) {
	if env.CacheDir == "" {
		return "", errors.New("no user cache directory is known (set XDG_CACHE_HOME)")
	}
	return filepath.Join(env.CacheDir, "arena", "challengers"), nil
}

// SaveChallengerCache records the usable challengers for later runs. It
// writes a temporary file and renames it, so a concurrent run never reads
// half a list.
func SaveChallengerCache(env Env, names []string) error {
	path, err := ChallengerCachePath(env)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("saving usable challengers: %w", err)
	}
	text := "# Usable challengers found by arena doctor, one a line.\n" + strings.Join(names, "\n") + "\n"
	tmp, err := os.CreateTemp(filepath.Dir(path), ".challengers-*")
	if err != nil {
		return fmt.Errorf("saving usable challengers: %w", err)
	}
	_, werr := tmp.WriteString(text)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("saving usable challengers: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("saving usable challengers: %w", err)
	}
	return nil
}

// discoverChallengers returns doctor's list if there is one, otherwise the
// built-in challengers whose program is on PATH.
func (l *loader) discoverChallengers() ([]string, []origin) {
	if names, srcs, ok := l.cachedChallengers(); ok {
		return names, srcs
	}
	o := origin{label: "found on PATH"}
	l.s.src[keyChallengers] = o
	var names []string
	var srcs []origin
	for _, name := range challengers.DefaultChallengerOrder {
		a, ok := l.s.Agents[name]
		if ok && name != l.s.Defender && l.installed(a) {
			names = append(names, name)
			srcs = append(srcs, o)
		}
	}
	return names, srcs
}

// cachedChallengers reads doctor's cache. An unreadable cache is not fatal:
// PATH is a fine second guess.
func (l *loader) cachedChallengers() ([]string, []origin, bool) {
	path, err := ChallengerCachePath(l.env)
	if err != nil {
		return nil, nil, false
	}
	data, found, err := readFile(path)
	if err != nil {
		l.s.Warnings = append(l.s.Warnings, err.Error()+"; looking on PATH instead")
	}
	if err != nil || !found {
		return nil, nil, false
	}
	l.s.src[keyChallengers] = origin{label: "doctor cache " + path}
	var names []string
	var srcs []origin
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "#") {
			names = append(names, line)
			srcs = append(srcs, origin{file: path, line: i + 1})
		}
	}
	return names, srcs, true
}

// installed reports whether an agent's program, or one of its alternatives
// (agy standing in for gemini), is on PATH.
func (l *loader) installed(a challengers.Agent) bool {
	if l.env.LookPath == nil {
		return false
	}
	if _, err := l.env.LookPath(a.Executable()); err == nil {
		return true
	}
	for _, alt := range a.Alternatives {
		if len(alt.Command) > 0 {
			if _, err := l.env.LookPath(alt.Command[0]); err == nil {
				return true
			}
		}
	}
	return false
}
